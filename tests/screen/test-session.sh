#!/bin/sh
# A session that lasts: the TUI's read handle stays usable after the tag
# mirror has written to notmuch more than once (Xapian keeps only one
# older revision readable; a stale handle must be reopened, not shown as
# "A Xapian exception occurred").  Two escalations in a row, each
# followed by opening the next thread, then a search and the list.
. "$(dirname "$0")/../lib.sh"
t_setup
export TZ=UTC LC_ALL=C.UTF-8 DECORUM_NOW=1796284800
unset NO_COLOR DECORUM_AS VISUAL EDITOR

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
cat >"$T/script" <<'SCRIPT'
key Enter
key e
key Enter
key q
key j
key Enter
dump s1
key e
key Enter
key q
key j
key Enter
dump s2
key e
key Enter
key q
key /
type tag:coc/escalation
key Enter
dump s3
SCRIPT
"$DECORUM" tui --script "$T/script" --dump-dir "$T" >"$T/out" 2>&1
check_eq "the session runs" 0 $?
for d in s1 s2 s3; do
	if grep -q "Xapian" "$T/$d.txt"; then
		fail "no Xapian error on screen ($d)"
		sed 's/^/#   /' "$T/$d.txt" | head -5
	else
		ok "no Xapian error on screen ($d)"
	fi
done
check "the third thread opens after two tags" grep -q "^> From:" "$T/s2.txt"
check_eq "three escalations reached notmuch" 3 \
	"$(notmuch search --output=tags tag:coc/case | grep -c '^coc/case-[0-9]')"
check "the search after the tags lists them" grep -q "ESC" "$T/s3.txt"

# Tagging never blocks the screen: after the Enter that records the case,
# the screen is drawn (the case shown, the change pending) before the
# notmuch write, which follows it.  The thread is escalated already:
# y answers the question whether its case becomes a TAB consultation.
printf 'key j\nkey t\nkey y\nkey Enter\ndump t1\n' >"$T/script2"
DECORUM_TRACE=1 "$DECORUM" tui --script "$T/script2" --dump-dir "$T" \
	>"$T/out2" 2>"$T/trace"
check_eq "the tagging session runs" 0 $?
# Between the Enter and the end of the script (the last "key", EOF):
# drawn, written, drawn (what the dump saw).
key_at=$(grep -c '^decorum-trace key' "$T/trace")
tail_ev=$(awk '$1 == "decorum-trace" { print $2 }' "$T/trace" |
	awk -v k="$key_at" '$0 == "key" { n++; next } n == k - 1 { printf "%s ", $0 }')
check_eq "the case is drawn before the notmuch write, then again" \
	"drawn written drawn " "$tail_ev"
check_eq "the TAB consultation reached notmuch" 1 \
	"$(notmuch search --output=tags tag:coc/tab | grep -c '^coc/tab$')"
check "the dump after the write shows no pending change" \
	sh -c "! grep -q ' pending ' '$T/t1.txt'"
exit 0
