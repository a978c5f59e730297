#!/bin/sh
# Registering the first committee member must never hide the cases of
# the maintainer who opened them: the maintainer, identified only by
# notmuch's user.primary_email, opens a case, registers a committee
# member, and still sees the case in list, cases and case show.
. "$(dirname "$0")/../lib.sh"
t_setup
unset DECORUM_AS DECORUM_CONFIG

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
D="$DECORUM"
t1=$(notmuch search --output=threads 'to:conduct@kernel.org' | sed 's/thread://' | sed -n 1p)

check "the maintainer opens a case" $D tag "$t1" escalation --note "seen on the list"
check_eq "... as notmuch's primary_email" test@example.org "$($D case show 1 --json | jq -r .opened_by)"
check "register the first committee member" $D member add chair@example.org --role committee
check_eq "the maintainer is still identified" test@example.org "$($D member whoami --json | jq -r .identity)"
check_eq "cases still lists the maintainer's case" 1 "$($D cases --json | jq length)"
check_eq "list still shows it on its thread" 1 "$($D list "thread:$t1" --json | jq -r '.[0].case.id')"
check "case show still shows it" $D case show 1
check_eq "the committee member, who joined after it, does not see it" 0 \
	"$($D --as chair@example.org cases --json | jq length)"

# ... and in the TUI, whose status bar names who acts.
printf 'resize 130 30\ndump tui-list\n' >"$T/script"
mkdir -p "$T/dumps"
TZ=UTC $D tui --script "$T/script" --dump-dir "$T/dumps" "thread:$t1" >"$T/tui.out" 2>&1
check_eq "the TUI runs" 0 $?
check "the TUI shows the case on its thread" grep -q "ESC new" "$T/dumps/tui-list.txt"
check "... and the panel shows it" grep -q "Case #1 Escalation" "$T/dumps/tui-list.txt"
check "the status bar names the acting identity" grep -q "as test@example.org" "$T/dumps/tui-list.txt"
TZ=UTC $D --as chair@example.org tui --script "$T/script" --dump-dir "$T/dumps" "thread:$t1" >"$T/tui.out" 2>&1
check "... another identity is named when acting as it" grep -q "as chair@example.org" "$T/dumps/tui-list.txt"
check "... and does not see the case" sh -c "! grep -q 'ESC new' '$T/dumps/tui-list.txt'"
exit $T_FAILED
