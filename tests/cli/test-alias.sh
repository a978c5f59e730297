#!/bin/sh
# Forms of a person's name added by hand (case alias) and the list of
# what redaction looks for (case people): the forms reach the scan and
# the redaction of every export, and never the history.
. "$(dirname "$0")/../lib.sh"
t_setup

t_case_fixture
rep=$(notmuch show --format=json "thread:$t1" | jq -r '.. | objects | select(has("headers")) | .headers.From' | sed -n 1p | sed 's/.*<//; s/>.*//')
check "a report thread and its sender" test -n "$rep"

# ---- people before anything is recorded ----
$D case people 1 >"$T/p0" 2>&1
check "case people lists the guessed reporter" grep -q "^Reporter A  <$rep>" "$T/p0"
check "... and says it is a guess" grep -q "no reporter recorded" "$T/p0"
$D case alias 1 reporter "Lenio" >/dev/null 2>"$T/err"
check_eq "a role with nobody in it is refused (exit 2)" 2 $?
check "... saying what to do" grep -q "add one first (case participant)" "$T/err"

# ---- aliases ----
$D case participant 1 reporter "$rep" >/dev/null
check "alias by role" $D case alias 1 reporter "Lenio"
check "alias by address" $D case alias 1 witness@example.com "Sammy"
$D case alias 1 reporter "$(printf 'two\nlines')" >/dev/null 2>&1
check_eq "a form with a newline is refused" 2 $?
$D case alias 1 reporter "   " >/dev/null 2>&1
check_eq "a blank form is refused" 2 $?
$D case alias 1 nobody "X" >/dev/null 2>&1
check_eq "a person who is neither address nor role is refused" 2 $?
$D case people 1 >"$T/p1"
check "the reporter's form is listed under Reporter A" sh -c "sed -n '/^Reporter A/,/^[^ ]/p' '$T/p1' | grep -qx '    Lenio'"
check "the other person's form under their own address" sh -c "grep -A1 '<witness@example.com>' '$T/p1' | grep -qx '    Sammy'"
$D case people 1 --json >"$T/p1.json"
check "case people --json: the reporter with the form" jq -e --arg a "$rep" '.[0].label == "Reporter A" and .[0].address == $a and (.[0].names | index("Lenio"))' "$T/p1.json"

# ---- the history says whose form, never the form ----
$D case show 1 >"$T/show"
$D case show 1 --json >"$T/show.json"
check "the history says a form was added" grep -q "added a form of the name of $rep" "$T/show"
check "case show never shows the form" sh -c "! grep -qi 'lenio\|sammy' '$T/show' '$T/show.json'"

# ---- the form reaches the redaction ----
$D case note 1 "Lenio wrote again; Sammy saw it" >/dev/null
# A redacted timeline shows notes only as added; an outcome's note is in
# decisions.txt, through the redaction.
$D case state 1 investigating >/dev/null
$D case outcome 1 coaching --note "Lenio wrote again; Sammy saw it" >/dev/null
$D packet 1 --redact -o "$T/pk" >/dev/null 2>"$T/err"
check "the redacted packet is written" test -f "$T/pk/timeline.txt"
check "no file of the redacted packet has the reporter's form" sh -c "! grep -rqi lenio '$T/pk'"
check "... it stands as Reporter A" grep -q "Reporter A wrote again" "$T/pk/decisions.txt"
$D packet 1 -o "$T/pk-full" >/dev/null 2>&1
check "the form is in the packet without redaction (the check can fail)" grep -rqi lenio "$T/pk-full"

# ---- remove and undo ----
check "remove a form" $D case alias 1 reporter "Lenio" --remove
$D case people 1 >"$T/p2"
check "... it is gone from case people" sh -c "! grep -q Lenio '$T/p2'"
check "undo the removal" $D case undo 1
$D case people 1 >"$T/p3"
check "... and it is back" grep -qx "    Lenio" "$T/p3"

exit 0
