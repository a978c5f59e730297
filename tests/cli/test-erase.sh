#!/bin/sh
# decorum erase: a reporter's data, then a whole case's, leave the
# database file, its WAL and its journal; counts, history and verify
# survive.  Also: overridden decisions and measures in the report.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixture-cases.sh"
t_setup
fixture_cases || { fail "fixture store"; exit 1; }
# The case commands record the clock's time: report up to today.
unset DECORUM_NOW
P=2026-09-01..$(date -u +%Y-%m-%d)
UNTIL=$(date -u -d '+20 days' +%Y-%m-%d)
D="$DECORUM"
DB="$DECORUM_STORE"
WHO=zoe.hartmann@example.com

# Case 2 is Zoë's report: record her, a witness, notes, an outcome.
$D case participant 2 reporter "$WHO" --name "Zoe Hartmann" >/dev/null
$D case participant 2 witness w.itness@example.org --name "Walter Itness" >/dev/null
$D case participant 2 handler handler@example.org >/dev/null
$D case note 2 "Called ZOE.HARTMANN@EXAMPLE.COM; Zoe Hartmann confirms" >/dev/null
$D case state 2 investigating --note "asked $WHO for logs" >/dev/null
$D case outcome 2 measure --what "patches not accepted" --scope sched --until "$UNTIL" >/dev/null
$D case state 3 investigating >/dev/null
$D case outcome 3 coaching >/dev/null
# The TAB overturns case 3: identifiable votes, by design.
$D member add chair@example.org --role committee --joined 2020-01-01 >/dev/null
export DECORUM_AS=chair@example.org
for m in tab1 tab2 tab3; do
	$D member add $m@example.org --role tab --joined 2020-01-01 >/dev/null
done
$D case vote 3 --on overturn --member tab1@example.org for >/dev/null
$D case vote 3 --on overturn --member tab2@example.org for >/dev/null
$D case vote 3 --on overturn --member tab3@example.org against >/dev/null

$D report --period "$P" --format json >"$T/before.json" 2>"$T/before.err"
check_eq "report with votes is written (voters are not participants)" 0 $?
sed 's/^/#   /' "$T/before.err"
check_eq "the measure is in force" 1 "$(jq '.measures.measures | length' "$T/before.json")"
check_eq "... and ends within 30 days" yes "$(jq -r '.measures.measures[0].expiring' "$T/before.json")"
check_eq "the overridden decision is listed" 3 "$(jq -r '.overridden.decisions[0].case' "$T/before.json")"
check_eq "... with every vote, identifiable" "tab1@example.org tab2@example.org tab3@example.org" \
	"$(jq -r '[.overridden.votes[].member] | sort | join(" ")' "$T/before.json")"
check_eq "outcomes are counted" 1 "$(jq ".outcomes.by_outcome.coaching" "$T/before.json")"
check "the report hides the reporter" sh -c '! grep -qi "zoe\|hartmann\|walter" "$1"' _ "$T/before.json"

counts() {
	$D report --period "$P" --format json 2>/dev/null |
		jq -c '[.summary, .kinds, .states, .outcomes, .measures.measure_counts]'
}
before=$(counts)

$D erase --reporter tab1@example.org >/dev/null 2>&1
check_eq "a member's address is refused" 3 $?
$D erase --reporter "$WHO" >"$T/erase.out" 2>&1
check_eq "erase --reporter succeeds" 0 $?
sed 's/^/#   /' "$T/erase.out"
check "verify passes after the erasure" $D verify
check_eq "the counts are unchanged" "$before" "$(counts)"
$D case show 2 --json >"$T/c2.json"
check "the history shows the erasure" jq -e '[.history[] | select(.type == "erasure")] | length == 1' "$T/c2.json"
check_eq "the state is unchanged" investigating "$(jq -r .state "$T/c2.json")"
check_eq "the handler stays" handler@example.org "$(jq -r '[.participants[] | select(.role == "handler")][0].address' "$T/c2.json")"

b64() { printf %s "$1" | base64 -w0 | cut -c1-16; }
for f in "$DB" "$DB-wal" "$DB-journal"; do
	[ -e "$f" ] || { ok "$(basename "$f") absent"; continue; }
	for needle in "$WHO" "zoe.hartmann" "Zoe Hartmann" "$(b64 "$WHO")" "$(b64 "Zoe Hartmann")"; do
		if grep -a -i -q -- "$needle" "$f"; then
			fail "$(basename "$f") holds no '$needle'"
		else
			ok "$(basename "$f") holds no '$needle'"
		fi
	done
done

# The whole case: the witness goes too.
$D erase --case 2 >/dev/null
check_eq "erase --case succeeds" 0 $?
check "verify passes after erasing a case" $D verify
check_eq "the counts are still unchanged" "$before" "$(counts)"
check "the witness is gone from the file" sh -c '! grep -a -i -q "walter\|w\.itness" "$1"' _ "$DB"
check_eq "the subject is gone" null "$($D case show 2 --json | jq .subject)"
$D case undo 2 >/dev/null 2>&1
check "an erasure cannot be undone" sh -c '[ "$(jq "[.history[] | select(.type == \"erasure\")] | length" "$1")" -ge 1 ]' _ "$T/c2.json"
$D erase --case 99 >/dev/null 2>&1
check_eq "an unknown case is not found" 1 $?
$D erase >/dev/null 2>&1
check_eq "erase without a target is a usage error" 2 $?
exit 0
