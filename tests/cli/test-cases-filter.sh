#!/bin/sh
# decorum cases --state, --kind and --since: the filters of the cases
# view (the desk), over cases opened on different days and in different
# states; access still decides what is listed at all.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixture-cases.sh"
t_setup
export TZ=UTC

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
D="$DECORUM"
export DECORUM_AS=test@example.org
day=86400
now=1796284800 # 2026-12-03 00:00
# Case 1 opened 60 days ago (escalation, closed since), case 2 40 days
# ago (TAB), case 3 10 days ago (admonition), case 4 today (escalation,
# investigating).
n=1
for spec in \
	60:escalation:20260915014500.13872-1-rachel.abernathy@example.net \
	40:tab:20261008083000.2549-1-marcus.penhallow@example.org \
	10:admonition:20261102090000.55210-1-eleni.papadopoulou@example.net \
	0:escalation:20261022060000.15813-1-yusuf.haddad@example.com; do
	ago=${spec%%:*}
	rest=${spec#*:}
	DECORUM_NOW=$((now - ago * day)) $D tag "$(fixture_thread "${rest#*:}")" \
		"${rest%%:*}" >/dev/null 2>&1 || fail "tag case $n"
	n=$((n + 1))
done
DECORUM_NOW=$((now - 50 * day)) $D case state 1 closed >/dev/null || fail "close case 1"
DECORUM_NOW=$now $D case state 4 investigating >/dev/null || fail "case 4 investigating"
export DECORUM_NOW=$now

ids() { $D cases "$@" --json | jq -r '[.[].id] | join(" ")'; }

check_eq "no filter: every case, by number" "1 2 3 4" "$(ids)"
check_eq "--state open leaves the closed case out" "2 3 4" "$(ids --state open)"
check_eq "--state closed lists only it" "1" "$(ids --state closed)"
check_eq "--state takes a state" "4" "$(ids --state investigating)"
check_eq "--state takes a unique prefix" "4" "$(ids --state inv)"
check_eq "--state twice: either state" "1 4" "$(ids --state closed --state investigating)"
check_eq "--kind escalation" "1 4" "$(ids --kind escalation)"
check_eq "--kind tab" "2" "$(ids --kind tab)"
check_eq "--since 30: opened within 30 days" "3 4" "$(ids --since 30)"
check_eq "--since 45" "2 3 4" "$(ids --since 45)"
check_eq "filters together" "4" "$(ids --state open --kind escalation --since 30)"
check_eq "a filter nothing passes: an empty list" "0" "$($D cases --kind tab --state closed --json | jq length)"
check "the text output is filtered too" sh -c "$D cases --state closed | grep -q '^#1 '"
check "... and leaves the others out" sh -c "! $D cases --state closed | grep -q '^#2 '"

$D cases --state escalation >/dev/null 2>"$T/err"
check_eq "a kind given as a state is a usage error" 2 $?
check "... saying what a state is" grep -q "is not a state" "$T/err"
$D cases --kind bogus >/dev/null 2>"$T/err"
check_eq "an unknown kind is a usage error" 2 $?
check "... naming the words" grep -q "unknown filter 'bogus'" "$T/err"
$D cases --state a >/dev/null 2>"$T/err"
check_eq "an ambiguous prefix is a usage error" 2 $?
check "... naming what it could be" grep -q "could be" "$T/err"
$D cases --since 0 >/dev/null 2>&1
check_eq "--since 0 is a usage error" 2 $?
$D cases --since ten >/dev/null 2>&1
check_eq "--since ten is a usage error" 2 $?

# A withdrawn case is left out unless --all, and --all is filtered too.
$D case undo 3 >/dev/null || fail "undo case 3"
check_eq "the withdrawn case is gone" "4" "$(ids --since 30)"
check_eq "--all brings it back within the filter" "3 4" "$(ids --all --since 30)"
check_eq "... and an open filter leaves it out" "2 4" "$(ids --all --state open)"

# decorum tui --cases opens on the desk, the last active case first
# (case 4, moved on today), and q goes back to the list.
printf 'dump desk\nkey q\ndump list\n' >"$T/desk.keys"
$D tui --cases --script "$T/desk.keys" --dump-dir "$T" >"$T/tui.out" 2>&1
check_eq "decorum tui --cases runs" 0 $?
check "... on the cases view" grep -q "Cases you may see (no filter)" "$T/desk.txt"
check "... the last active case first" sh -c "sed -n 3p '$T/desk.txt' | grep -q '^> #4 '"
check "... the closed case listed" grep -q "#1 .* closed " "$T/desk.txt"
check "... the withdrawn one not" sh -c "! grep -q '#3 ' '$T/desk.txt'"
check "q goes back to the list" grep -q "Threads matching" "$T/list.txt"

# Enter on the closed case 1, whose thread has a new open case: the
# thread opens, and a message says the panel shows the other case.
$D tag "$(fixture_thread 20260915014500.13872-1-rachel.abernathy@example.net)" \
	escalation --new >/dev/null 2>&1 || fail "open case 5 beside case 1"
printf 'key d\nkey C-U\ntype closed\nkey Enter\nkey Enter\ndump desk-open\n' \
	>"$T/open.keys"
$D tui --cases --script "$T/open.keys" --dump-dir "$T" >"$T/tui.out" 2>&1
check_eq "Enter on a case runs" 0 $?
check "... opens its report" grep -q "rachel.abernathy@example.net" "$T/desk-open.txt"
check "... the panel on the thread's open case, and says so" \
	grep -q "The panel shows case #5, this thread's new case; case #1 is closed" "$T/desk-open.txt"

# Access still comes first: a committee member who joined after the
# first report (2026-09-15) does not see its case, whatever the filter.
$D member add committee@example.org --role committee --joined 2026-10-01 >/dev/null ||
	fail "member add"
as_member() { DECORUM_AS=committee@example.org $D cases "$@" --json | jq -r '[.[].id] | join(" ")'; }
check_eq "a committee member sees only what access allows" "2 4" "$(as_member)"
check_eq "... and a filter narrows that" "4" "$(as_member --kind escalation)"
check_eq "... never widens it" "" "$(as_member --state closed)"
exit $T_FAILED
