#!/bin/sh
# decorum doc: the kernel documentation that governs each kind of case,
# read from the guide our series adds (docs/kernel/0001-*.patch), and the
# check that every link resolves to an anchor in built HTML.
. "$(dirname "$0")/../lib.sh"
t_setup
unset DECORUM_KERNEL_DOC DECORUM_KERNEL_DOC_HTML DECORUM_KERNEL_CACHE

GUIDE=https://docs.kernel.org/process/code-of-conduct-maintainer-guide.html
# A sentence of the escalation section that only our series has.
SENTENCE="or on what must happen first."
check "the sentence is the series' own" grep -qF "+$SENTENCE" \
	"$TOP"/docs/kernel/0001-*.patch

"$DECORUM" doc escalation >"$T/esc.txt" 2>"$T/esc.err"
check_eq "doc escalation exits 0" 0 $?
check_eq "... starts with the section's title" \
	"Reporting to the Code of Conduct Committee" "$(sed -n 1p "$T/esc.txt")"
check "... prints the series' text" grep -qF "$SENTENCE" "$T/esc.txt"
check "... and the docs.kernel.org address" \
	grep -qx "Online: $GUIDE#coc-maintainer-escalation" "$T/esc.txt"
check "... with the RST markup gone" sh -c '! grep -q "\`\`\|:ref:\|^\.\. " "$1"' _ "$T/esc.txt"
check "... with its subsection" grep -q "What happens after a report" "$T/esc.txt"
check "... and not the section before" sh -c '! grep -q "Asking for advice" "$1"' _ "$T/esc.txt"
check_eq "doc admonition: its title" "Responding yourself" \
	"$("$DECORUM" doc admonition | sed -n 1p)"
check "doc tab: :ref: becomes the target's title" sh -c \
	'"$1" doc tab | tr "\n" " " | grep -q "Reporting to the Code of Conduct Committee says where reports go"' _ "$DECORUM"

"$DECORUM" doc escalation --json >"$T/esc.json"
check_eq "doc --json: the url" "$GUIDE#coc-maintainer-escalation" "$(jq -r .url "$T/esc.json")"
check "doc --json: the text" sh -c 'jq -r .text "$1" | grep -qF "$2"' _ "$T/esc.json" "$SENTENCE"
check_eq "doc --json: no local HTML here" null "$(jq .html "$T/esc.json")"

"$DECORUM" doc frobnicate >"$T/bad.out" 2>&1
check_eq "an unknown kind exits 2" 2 $?
check "... naming the kinds" grep -q "admonition escalation tab" "$T/bad.out"
"$DECORUM" doc >/dev/null 2>&1
check_eq "no kind exits 2" 2 $?

check_eq "doc --list --json: every link" \
	"admonition escalation tab guide interpretation" \
	"$("$DECORUM" doc --list --json | jq -r '.[].name' | tr '\n' ' ' | sed 's/ $//')"

# Built HTML: one section per anchor, as Sphinx writes it.
mkhtml() {
	# $1: directory, $2: an anchor to leave out
	"$DECORUM" doc --list --json | jq -r '.[] | "\(.page) \(.anchor)"' |
		while read -r page anchor; do
			mkdir -p "$1/$(dirname "$page")"
			[ "$anchor" = "${2:-}" ] && anchor=elsewhere
			echo "<section id=\"$anchor\"></section>" >>"$1/$page.html"
		done
}
mkhtml "$T/html"
check "doc --check passes when every anchor exists" "$DECORUM" doc --check "$T/html"
"$DECORUM" doc escalation --html "$T/html" >"$T/local.txt"
check "doc --html DIR: the local page" grep -qx \
	"Local:  $T/html/process/code-of-conduct-maintainer-guide.html#coc-maintainer-escalation" "$T/local.txt"
DECORUM_KERNEL_DOC_HTML="$T/html" "$DECORUM" doc tab --json >"$T/local.json"
check_eq "\$DECORUM_KERNEL_DOC_HTML: the local page" \
	"$T/html/process/code-of-conduct-maintainer-guide.html" "$(jq -r .html "$T/local.json")"
mkdir -p "$XDG_CACHE_HOME/decorum/kernel/6.1.99/docs/Documentation"
cp -r "$T/html" "$XDG_CACHE_HOME/decorum/kernel/6.1.99/docs/Documentation/output"
check_eq "the kernel check's cache: the local page" \
	"$XDG_CACHE_HOME/decorum/kernel/6.1.99/docs/Documentation/output/process/code-of-conduct-maintainer-guide.html" \
	"$("$DECORUM" doc tab --json | jq -r .html)"

mkhtml "$T/html2" coc-maintainer-escalation
"$DECORUM" doc --check "$T/html2" >"$T/check.txt" 2>&1
check_eq "doc --check exits 1 when an anchor is missing" 1 $?
check "... naming the link" grep -q "#coc-maintainer-escalation" "$T/check.txt"
"$DECORUM" doc --check "$T/nowhere" >/dev/null 2>&1
check_eq "doc --check exits 1 without HTML" 1 $?

# Installed: the guide's source goes with the binary.
make -s -C "$TOP" install DESTDIR="$T/dest" >"$T/install.out" 2>&1
check "make install installs the guide's source" test -f \
	"$T/dest/usr/local/share/decorum/kernel-doc/process/code-of-conduct-maintainer-guide.rst"
DECORUM_KERNEL_DOC="$T/dest/usr/local/share/decorum/kernel-doc" "$DECORUM" doc escalation >"$T/inst.txt"
check "... and decorum reads it there" grep -qF "$SENTENCE" "$T/inst.txt"
DECORUM_KERNEL_DOC="$T/nowhere" "$DECORUM" doc escalation >/dev/null 2>"$T/none.err"
check_eq "no installed source exits 1" 1 $?
check "... saying where it looked" grep -q "$T/nowhere" "$T/none.err"
exit 0
