#!/bin/sh
# make install honours PREFIX and DESTDIR; the man page and the bash
# completion know every subcommand the binary knows.
. "$(dirname "$0")/../lib.sh"
t_setup

make -s -C "$TOP" install DESTDIR="$T/dest" PREFIX=/usr >"$T/install.out" 2>&1
check_eq "make install DESTDIR=... PREFIX=/usr succeeds" 0 $?
check "the binary is installed" test -x "$T/dest/usr/bin/decorum"
check "the man page is installed" test -f "$T/dest/usr/share/man/man1/decorum.1"
check "the completion is installed" test -f "$T/dest/usr/share/bash-completion/completions/decorum"
check "the installed binary looks for its data under PREFIX" grep -q /usr/share/decorum "$T/dest/usr/bin/decorum"
# Back to the default prefix for the tests that follow.
make -s -C "$TOP" all >/dev/null 2>&1
check "a plain make rebuilds for the default prefix" sh -c '! grep -q "/usr/share/decorum/kernel-doc" "$1"' _ "$DECORUM"
check "nothing lands outside DESTDIR" sh -c '! test -e /usr/bin/decorum || test /usr/bin/decorum -ot "$1"' _ "$TOP/decorum"

cmds=$("$DECORUM" --help | awk '/^Commands:/ {on = 1; next} /^$/ {on = 0} on {print $1}')
check "--help lists commands" test -n "$cmds"
missing=""
for c in $cmds; do
	grep -q "^\.B $c\b\|^\.B $c \|^\.B $c$" "$TOP/docs/decorum.1" || missing="$missing $c"
done
check_eq "the man page documents every command" "" "$missing"
check "the man page renders without warnings" sh -c 'LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null | (! grep .)' _ "$TOP/docs/decorum.1"

if [ -f /usr/share/bash-completion/bash_completion ]; then
	complete_words() {
		PATH="$TOP:$PATH" bash -c '
			. /usr/share/bash-completion/bash_completion
			. "$1/docs/decorum.bash-completion"
			shift
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			_decorum; echo "${COMPREPLY[*]}"' _ "$TOP" "$@"
	}
	got=$(complete_words decorum "")
	for c in $cmds; do
		case " $got " in *" $c "*) ;; *) missing="$missing $c" ;; esac
	done
	check_eq "completion offers every command" "" "$missing"
	check_eq "completion offers the kinds after a thread id" "admonition escalation tab" "$(complete_words decorum tag 0000000000000001 "")"
	check_eq "completion offers list options" "--limit --oldest-first --json" "$(complete_words decorum list --)"
	check_eq "completion offers cases options" "--all --state --kind --since --json" "$(complete_words decorum cases --)"
	check_eq "completion offers the states of cases --state" "open closed" "$(complete_words decorum cases --state "" | tr ' ' '\n' | grep -E '^(open|closed)$' | tr '\n' ' ' | sed 's/ $//')"
	check_eq "completion offers the kinds of cases --kind" "admonition escalation tab" "$(complete_words decorum cases --kind "")"
else
	skip "bash completion (bash-completion not installed)"
fi
exit 0
