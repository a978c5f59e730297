#!/bin/sh
# Editing an outcome is an event with the old and the new values: the
# case shows the new one, the history both, and undo restores the old.
. "$(dirname "$0")/../lib.sh"
t_setup

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
D="$DECORUM"
export DECORUM_AS=test@example.org
t1=$(notmuch search --output=threads 'to:conduct@kernel.org' | sed 's/thread://' | sed -n 1p)
$D tag "$t1" escalation >/dev/null 2>&1
$D case state 1 investigating >/dev/null
$D case outcome 1 --edit --what x >/dev/null 2>"$T/err"
check_eq "nothing to edit before an outcome (exit 3)" 3 $?
check "record a measure" $D case outcome 1 measure --what "patches not accepted" --scope sched --until v7.30
check "edit its scope" $D case outcome 1 --edit --scope mm --note "the list was wrong"
$D case show 1 --json >"$T/c.json"
check_eq "the case shows the new scope" mm "$(jq -r .outcome.scope "$T/c.json")"
check_eq "... keeps what was not given" "patches not accepted v7.30" "$(jq -r '"\(.outcome.what) \(.outcome.until_release)"' "$T/c.json")"
check_eq "... and says it was edited" true "$(jq '.outcome.edited != null' "$T/c.json")"
check_eq "the edit is an outcome-edit event" outcome-edit "$(jq -r '.history[-1].type' "$T/c.json")"
check "... naming what changed" sh -c "jq -r '.history[-1].summary' '$T/c.json' | grep -q 'scope'"
check "case outcome-edit changes the rung" $D case outcome-edit 1 coaching
check_eq "... now coaching" coaching "$($D case show 1 --json | jq -r .outcome.outcome)"
check_eq "... without a measure's fields" null "$($D case show 1 --json | jq -r .outcome.what)"
check "case show says edited" sh -c "$D case show 1 | grep -q 'Education and coaching (edited'"
$D case outcome 1 --edit measure >/dev/null 2>&1
check_eq "a measure without --what is refused (exit 2)" 2 $?
check "undo the rung's edit" $D case undo 1
check_eq "... the measure is back" "measure mm" "$($D case show 1 --json | jq -r '"\(.outcome.outcome) \(.outcome.scope)"')"
check "verify passes" $D verify
# An erasure keeps what the replay needs of the edit, not its note.
$D case outcome 1 --edit coaching --note "told the reporter" >/dev/null
check "erase the case's personal data" $D erase --case 1
check_eq "the edited outcome survives the erasure" coaching "$($D case show 1 --json | jq -r .outcome.outcome)"
check_eq "... without its note" null "$($D case show 1 --json | jq -r .outcome.note)"
check "verify passes after the erasure" $D verify
exit $T_FAILED
