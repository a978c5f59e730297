#!/bin/sh
# Votes on a stated question: --on overturn (6.1) or approve (later
# releases), each with its own tally and result, shown with the
# question and the rule.
. "$(dirname "$0")/../lib.sh"
t_setup

t_case_fixture
for m in tab1 tab2 tab3; do
	$D member add $m@example.org --role tab --joined 2020-01-01 >/dev/null
done
$D case vote 1 --member tab1@example.org for >/dev/null 2>"$T/err"
check_eq "a vote without --on is a usage error" 2 $?
check "... naming both questions" sh -c 'grep -q "overturn" "$1" && grep -q "approve" "$1"' _ "$T/err"
$D case vote 1 --on reverse --member tab1@example.org for >/dev/null 2>&1
check_eq "an unknown question is a usage error" 2 $?
$D case vote 1 --on overturn --member tab1@example.org for >/dev/null 2>"$T/err"
check_eq "overturn needs a committee decision" 3 $?
check "... saying so" grep -q "no committee decision" "$T/err"
$D case state 1 investigating >/dev/null
$D case outcome 1 coaching >/dev/null
$D case vote 1 --on approve --member tab1@example.org for >/dev/null 2>"$T/err"
check_eq "approve needs a remedial measure" 3 $?
check "... saying so" grep -q "no remedial measure" "$T/err"
$D case outcome 1 measure --what "patches not accepted" --scope sched --cycles 2 >/dev/null
check "tab1 approves" $D case vote 1 --on approve --member tab1@example.org for
check "tab2 approves" $D case vote 1 --on approve --member tab2@example.org for
check "tab3 votes against overturning" $D case vote 1 --on overturn --member tab3@example.org against

$D case show 1 --json >"$T/c.json"
check_eq "votes say their question" "approve approve overturn" \
	"$(jq -r '[.votes[].question] | join(" ")' "$T/c.json")"
check_eq "two of three approve: approved" approved \
	"$(jq -r '.questions[] | select(.question == "approve") | .decision' "$T/c.json")"
check_eq "one against and two to come: overturn pending" pending \
	"$(jq -r '.questions[] | select(.question == "overturn") | .decision' "$T/c.json")"
check_eq "... with two members yet to vote" 2 \
	"$(jq -r '.questions[] | select(.question == "overturn") | .outstanding' "$T/c.json")"
$D case show 1 >"$T/c.txt"
check "case show states the approve question" grep -q "^question: approve Does the TAB approve the remedial measures" "$T/c.txt"
check "... and the overturn question with its 6.1 source" \
	grep -q 'Linux 6.1, Documentation/process/code-of-conduct-interpretation.rst, "Enforcement"' "$T/c.txt"
check "... and the rule" grep -q "rule:   two thirds of the members voting" "$T/c.txt"
check "... and the result" grep -q "result: approved" "$T/c.txt"
check_eq "tally --on approve" approved "$($D case tally 1 --on approve --json | jq -r .decision)"
check "tab1 against overturning" $D case vote 1 --on overturn --member tab1@example.org against
check_eq "two of three against: the decision is upheld" upheld \
	"$($D case tally 1 --on overturn --json | jq -r .decision)"
check_eq "the approval stands beside it" approved \
	"$($D case tally 1 --on approve --json | jq -r .decision)"
check "the history names the question" sh -c "$D case show 1 | grep -q 'tab1@example.org voted against on overturn'"

t_cleanup
