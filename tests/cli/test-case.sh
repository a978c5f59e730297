#!/bin/sh
# The case workflow end to end: transitions, undo, outcomes, votes, access
# windows, tamper evidence (verify), the notmuch mirror and fsck, and a
# crash between the store commit and the notmuch write.
. "$(dirname "$0")/../lib.sh"
t_setup

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
D="$DECORUM"
# The maintainer: once members are registered, identity decides access.
export DECORUM_AS=test@example.org
threads=$(notmuch search --output=threads 'to:conduct@kernel.org' | sed 's/thread://')
t1=$(echo "$threads" | sed -n 1p)
t2=$(echo "$threads" | sed -n 2p)
t3=$(echo "$threads" | sed -n 3p)
check "three report threads in the demo corpus" test -n "$t3"

# ---- states and transitions ----
$D tag "$t1" escalation --note "personal attack" >/dev/null 2>&1
check_eq "tag mirrors the kind to notmuch" 1 "$(notmuch count "thread:$t1 and tag:coc/escalation and tag:coc/case-1 and tag:coc/state-new" | awk '{print ($1 > 0)}')"
$D case state 1 decided >/dev/null 2>"$T/err"
check_eq "new -> decided is refused (exit 3)" 3 $?
check "... saying what is allowed" grep -q "it can go to acknowledged, investigating, closed" "$T/err"
$D case state 1 frobbed >/dev/null 2>&1
check_eq "an unknown state is a usage error" 2 $?
check "new -> acknowledged" $D case state 1 acknowledged
check "acknowledged -> investigating" $D case state 1 investigating
check_eq "the state is mirrored" 1 "$(notmuch count "thread:$t1 and tag:coc/state-investigating and not tag:coc/state-new" | awk '{print ($1 > 0)}')"
$D case outcome 1 apology --public >/dev/null 2>&1
check_eq "--public only goes with an admonition" 2 $?
$D case outcome 1 measure --what "patches not accepted" --scope "sched" --until 2000-01-01 >/dev/null 2>&1
check_eq "a measure ending in the past is refused" 2 $?
check "record a coaching outcome" $D case outcome 1 coaching
check "record a remedial measure until a release" $D case outcome 1 measure --what "patches not accepted" --scope "sched" --until v7.30
$D case show 1 --json >"$T/c1.json"
check_eq "the top outcome is the measure" measure "$(jq -r .outcome.outcome "$T/c1.json")"
check_eq "... until the release" v7.30 "$(jq -r .outcome.until_release "$T/c1.json")"
check "investigating -> decided" $D case state 1 decided
check "decided -> closed" $D case state 1 closed
$D case state 1 decided >/dev/null 2>&1
check_eq "closed -> decided is refused" 3 $?
check "reopen a closed case" $D case state 1 reopen
check_eq "reopened means investigating" investigating "$($D case show 1 --json | jq -r .state)"
n=$($D case show 1 --json | jq '[.history[] | select(.type == "state")] | length')
check_eq "every state change is in the history" 5 "$n"

# ---- undo ----
check "undo reverses the newest change" $D case undo 1
check_eq "... back to closed" closed "$($D case show 1 --json | jq -r .state)"
check_eq "... and the history keeps both" true "$($D case show 1 --json | jq '[.history[] | select(.type == "undo")] | length == 1')"
$D tag "$t2" escalation --note "second report" >/dev/null 2>&1
check "undoing the open withdraws the case" $D case undo 2
check_eq "a withdrawn case is not listed" 1 "$($D cases --json | jq length)"
check_eq "cases --all lists it" 2 "$($D cases --all --json | jq length)"
check_eq "its notmuch tags are gone" 0 "$(notmuch count "thread:$t2 and tag:coc/case")"
$D tag "$t2" escalation --note "second report" >/dev/null 2>&1
check_eq "tagging again opens one new case" 1 "$($D cases --json | jq '[.[] | select(.notes[0].text == "second report")] | length')"

# ---- TAB consultations ----
$D tag "$t3" tab >/dev/null 2>&1
check_eq "a TAB consultation is not a report" false "$($D case show 4 --json | jq .counts_as_report)"
$D case convert 1 escalation >/dev/null 2>&1
check_eq "only a TAB consultation converts" 3 $?
check "convert the consultation explicitly" $D case convert 4 escalation --note "the maintainer asks for action"
$D case show 4 --json >"$T/c4.json"
check_eq "now it is a report" true "$(jq .counts_as_report "$T/c4.json")"
check_eq "the conversion is its own event" convert "$(jq -r '.history[-1].type' "$T/c4.json")"

# ---- votes ----
$D member add tab1@example.org --role tab --joined 2020-01-01 >/dev/null
$D member add tab2@example.org --role tab --joined 2020-01-01 >/dev/null
$D member add tab3@example.org --role tab --joined 2020-01-01 >/dev/null
$D --as tab1@example.org case vote 1 --on overturn --member nobody@example.org for >/dev/null 2>&1
check_eq "a non-member cannot vote" 4 $?
check "vote for" $D case vote 1 --on overturn --member tab1@example.org for
check "vote against" $D case vote 1 --on overturn --member tab2@example.org against
$D case tally 1 --json >"$T/t.json"
check_eq "a tie does not pass" false "$(jq .passed "$T/t.json")"
check_eq "... and says it is a tie" true "$(jq .tie "$T/t.json")"
$D case vote 1 --on overturn --member tab2@example.org for >/dev/null
check_eq "a later vote replaces the earlier" 2 "$($D case tally 1 --json | jq .for)"
check_eq "2 of 2 cast passes" true "$($D case tally 1 --json | jq .passed)"
check_eq "2 of 3 members passes under the members rule" true "$($D case tally 1 --rule members --json | jq .passed)"

# ---- access windows ----
# The first committee member is registered by anyone; then only an
# active committee member changes the membership (tests/cli/test-member.sh).
$D member add early@example.org --role committee --joined 2020-01-01 >/dev/null
$D --as early@example.org member add late@example.org --role committee --joined 2026-11-30 >/dev/null
check_eq "a member who joined after the reports lists none" 0 "$($D --as late@example.org cases --json | jq length)"
$D --as late@example.org case show 1 >/dev/null 2>"$T/err"
check_eq "... and cannot show one (not found)" 1 $?
check "... which leaks nothing" grep -q "no case #1$" "$T/err"
$D --as late@example.org packet 1 -o "$T/late-packet" >/dev/null 2>"$T/err"
check_eq "... nor export it as a packet (not found)" 1 $?
check "... and no packet is written" test ! -e "$T/late-packet"
check_eq "... nor see it in a report" 0 "$($D --as late@example.org report --period 2000-01-01..2099-12-31 --format json | jq '.cases.cases | length')"
check_eq "a member from before sees them in the report" 3 "$($D --as early@example.org report --period 2000-01-01..2099-12-31 --format json | jq '.cases.cases | length')"
check_eq "a member from before sees them" 3 "$($D --as early@example.org cases --json | jq length)"
$D case recuse 1 early@example.org >/dev/null
check_eq "a recused member no longer sees the case" 2 "$($D --as early@example.org cases --json | jq length)"
DECORUM_AS=late@example.org $D list --json "thread:$t1" >"$T/l.json"
check_eq "the thread list carries no hidden case" null "$(jq '.[0].case' "$T/l.json")"
$D --as early@example.org member leave early@example.org --left 2020-06-01 >/dev/null
check_eq "reports after a member left are hidden" 0 "$($D --as early@example.org cases --json | jq length)"
check_eq "without --as, notmuch's user.primary_email is who acts" 3 "$(env -u DECORUM_AS $D cases --json | jq length)"
grep -v '^primary_email=' "$NOTMUCH_CONFIG" >"$T/noid-config"
check_eq "nobody identified sees nothing once members exist" 0 "$(env -u DECORUM_AS NOTMUCH_CONFIG="$T/noid-config" $D cases --json | jq length)"
check "... and whoami says so" sh -c "env -u DECORUM_AS NOTMUCH_CONFIG='$T/noid-config' $D member whoami | grep -q unidentified"

# ---- verify ----
check "verify passes on an intact log" $D verify
cp "$DECORUM_STORE" "$T/good.db"
sqlite3 "$DECORUM_STORE" "DROP TRIGGER events_no_update; UPDATE events SET data = replace(data, 'personal attack', 'nothing') WHERE id = 1;"
$D verify >/dev/null 2>"$T/err"
check_eq "an edited payload fails verify (exit 3)" 3 $?
check "... naming event 1" grep -q "event 1:" "$T/err"
cp "$T/good.db" "$DECORUM_STORE"; rm -f "$DECORUM_STORE-wal" "$DECORUM_STORE-shm"
sqlite3 "$DECORUM_STORE" "DROP TRIGGER events_no_update; UPDATE events SET type = 'note' WHERE id = 3;"
$D verify >/dev/null 2>"$T/err"
check_eq "an edited type fails verify" 3 $?
check "... naming event 3" grep -q "event 3:" "$T/err"
cp "$T/good.db" "$DECORUM_STORE"; rm -f "$DECORUM_STORE-wal" "$DECORUM_STORE-shm"
last=$(sqlite3 "$DECORUM_STORE" "SELECT max(id) FROM events")
sqlite3 "$DECORUM_STORE" "DROP TRIGGER events_no_delete; DELETE FROM events WHERE id >= $((last - 2));"
$D verify >/dev/null 2>"$T/err"
check_eq "removing the newest events fails verify" 3 $?
check "... naming the first removed one" grep -q "event $((last - 2)): missing" "$T/err"
cp "$T/good.db" "$DECORUM_STORE"; rm -f "$DECORUM_STORE-wal" "$DECORUM_STORE-shm"
sqlite3 "$DECORUM_STORE" "UPDATE events SET actor = 'x' WHERE id = 2" 2>/dev/null
check "the database itself refuses to edit an event" test $? -ne 0
sqlite3 "$DECORUM_STORE" "DELETE FROM events WHERE id = 2" 2>/dev/null
check "the database itself refuses to delete an event" test $? -ne 0
check "verify passes again on the good copy" $D verify

# ---- crash between the store commit and the notmuch write ----
t4=$(echo "$threads" | sed -n 4p)
DECORUM_TEST_CRASH=after-commit $D tag "$t4" admonition >/dev/null 2>&1
check_eq "the process died after the commit" 137 $?
check_eq "the case was saved" admonition "$($D cases --all --json | jq -r --arg t "$t4" '.[] | select(.threads[0] == $t) | .kind')"
check_eq "but notmuch has no tag yet" 0 "$(notmuch count "thread:$t4 and tag:coc/admonition")"
$D fsck >"$T/fsck.txt" 2>&1
check_eq "fsck finds the difference (exit 3)" 3 $?
check "... naming the missing tag" grep -q "+coc/admonition: missing in notmuch" "$T/fsck.txt"
check "fsck --repair fixes it" $D fsck --repair
check "the tag is in notmuch now" test "$(notmuch count "thread:$t4 and tag:coc/admonition")" -gt 0
check "fsck is clean afterwards" $D fsck

# A change left queued is applied by the next command that opens notmuch,
# before it reads: show and list, not only tag and fsck --repair.
for cmd in show list; do
	t5=$(echo "$threads" | sed -n 5p)
	[ "$cmd" = list ] &&
		t5=$(notmuch search --output=threads 'not to:conduct@kernel.org' | sed -n '1s/thread://p')
	DECORUM_TEST_CRASH=after-commit $D tag "$t5" admonition >/dev/null 2>&1
	check_eq "$cmd: a change is left queued" 1 "$(sqlite3 "$DECORUM_STORE" 'SELECT count(*) FROM outbox')"
	if [ "$cmd" = show ]; then
		$D show "$t5" --json >"$T/queued.json"
		check "show reads the thread with the queued tag applied" jq -e '[.messages[].tags[] | select(. == "coc/admonition")] | length > 0' "$T/queued.json"
	else
		$D list --json "thread:$t5" >"$T/queued.json"
		check "list reads the thread with the queued tag applied" jq -e '.[0].tags | index("coc/admonition")' "$T/queued.json"
	fi
	check_eq "$cmd: the outbox is empty" 0 "$(sqlite3 "$DECORUM_STORE" 'SELECT count(*) FROM outbox')"
done
# case late asks notmuch too: it applies the queue first.
t6=$(notmuch search --output=threads 'not to:conduct@kernel.org' | sed -n '2s/thread://p')
DECORUM_TEST_CRASH=after-commit $D tag "$t6" admonition >/dev/null 2>&1
check_eq "case late: a change is left queued" 1 "$(sqlite3 "$DECORUM_STORE" 'SELECT count(*) FROM outbox')"
c6=$($D cases --json | jq -r --arg t "$t6" '.[] | select(.threads[0] == $t) | .id')
check "case late on that case succeeds" $D case late "$c6"
check_eq "case late: the outbox is empty" 0 "$(sqlite3 "$DECORUM_STORE" 'SELECT count(*) FROM outbox')"
check "case late: notmuch has the tag" test "$(notmuch count "thread:$t6 and tag:coc/admonition")" -gt 0
check "fsck is clean after show, list and case late applied the queue" $D fsck

# ---- fsck both ways, and its limit ----
notmuch tag +coc/escalation -- "thread:$t4"
notmuch tag +coc/bogus -- 'not tag:coc/case' 
$D fsck --json >"$T/f.json"
check "a tag the store does not want is reported" jq -e '[.differences[] | select(.tag == "coc/escalation" and .problem == "not in the store")] | length > 0' "$T/f.json"
check "a coc/ tag on an untracked thread is reported" jq -e '[.differences[] | select(.tag == "coc/bogus")] | length > 0' "$T/f.json"
$D fsck --repair --max-changes 2 >/dev/null 2>&1
check_eq "too many changes are refused without --force (exit 4)" 4 $?
check "--force repairs them" $D fsck --repair --max-changes 2 --force
check_eq "the untracked tags are gone" 0 "$(notmuch count tag:coc/bogus)"
check "fsck is clean" $D fsck

# ---- JSON everywhere ----
for c in "case show 1" "case tally 1" "case expiring --within 100000" "member list" "member whoami" "verify" "fsck"; do
	check "$c --json is valid JSON" sh -c "$D $c --json | jq -e . >/dev/null"
done
exit 0
