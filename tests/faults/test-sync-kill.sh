#!/bin/sh
# kill -9 during "decorum sync", then a rerun: nothing lost, nothing
# applied twice.  Two fictional members share a case through a bare git
# repository; bob's sync kills itself (SIGKILL, DECORUM_TEST_CRASH, see
# core/base/testhook.h) after the fetch, between two imported envelopes,
# after his envelopes became git commits but before the store committed,
# after the store committed, after his ref moved but before the push, and
# after the push.  After each kill bob syncs again, then alice: both hold
# every note exactly once and the same merged history, both verify, and
# the remote ref of bob only ever moves forward.  Then the same after
# kills at random moments of a sync.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
for p in git age ssh-keygen sqlite3 setsid; do
	command -v $p >/dev/null 2>&1 || { skip "sync needs $p"; exit 0; }
done
t_index "$TOP/tests/corpus/demo"
export DECORUM_NOW=2026-12-03
unset DECORUM_AS DECORUM_CONFIG DECORUM_TEST_CRASH
t_sync_members alice bob
as() {
	m=$1
	shift
	HOME="$T/$m" DECORUM_STORE="$T/$m/decorum.db" \
		DECORUM_AS=$m@example.org "$D" "$@"
}
db() { sqlite3 "$T/$1/decorum.db" "$2"; }
# How many events of MEMBER's store carry note TEXT.
copies() { db "$1" "SELECT count(*) FROM events WHERE type = 'note' AND instr(data, '''$2''') > 0"; }
merged() {
	db "$1" "SELECT e.actor, e.type, e.data FROM events e
		JOIN sync_envelopes y ON y.event_id = e.id
		WHERE e.case_id = 1 ORDER BY y.lamport, y.hash"
}
bobref() {
	git --git-dir="$R" rev-parse -q --verify \
		"refs/decorum/events/$(db bob "SELECT author FROM sync_envelopes WHERE origin = 'local' LIMIT 1")" 2>/dev/null
}

as alice member add alice@example.org --role committee --joined 2020-01-01 \
	--key "$(pub alice)" >/dev/null &&
as alice member add bob@example.org --role committee --joined 2020-01-01 \
	--key "$(pub bob)" >/dev/null || { fail "members"; exit 1; }
mid=20260915014500.13872-1-rachel.abernathy@example.net
th=$(notmuch search --output=threads "id:$mid" | sed 's/^thread://')
check "alice opens a case" as alice tag "$th" escalation --note "first look"
check "alice adds the remote" as alice remote add origin "$R"
check "alice syncs" as alice sync
check "bob adds the remote" as bob remote add origin "$R" --trust "$(pub alice)"
check "bob syncs" as bob sync
check "bob notes" as bob case note 1 "bob-0"
check "bob syncs" as bob sync
check "alice syncs" as alice sync

notes=""
for point in sync-after-fetch sync-mid-import sync-before-commit \
	sync-after-commit sync-before-push sync-after-push; do
	a1="alice-$point-1" a2="alice-$point-2" b1="bob-$point-1" b2="bob-$point-2"
	notes="$notes $a1 $a2 $b1 $b2"
	as alice case note 1 "$a1" >/dev/null && as alice case note 1 "$a2" >/dev/null &&
		as alice sync >/dev/null 2>&1 || fail "$point: alice's notes"
	as bob case note 1 "$b1" >/dev/null && as bob case note 1 "$b2" >/dev/null ||
		fail "$point: bob's notes"
	before=$(bobref)
	DECORUM_TEST_CRASH=$point as bob sync >"$T/out" 2>&1
	check_eq "$point: bob's sync is killed there" 137 $?
	check "$point: bob's store is sound" test \
		"$(db bob 'PRAGMA integrity_check')" = ok
	as bob sync >"$T/out" 2>&1
	check_eq "$point: bob's rerun succeeds" 0 $?
	sed 's/^/#   /' "$T/out"
	after=$(bobref)
	check "$point: bob's ref on the remote is a fast-forward" \
		git --git-dir="$R" merge-base --is-ancestor "$before" "$after"
	check "$point: alice syncs" as alice sync
	check "$point: bob syncs again" as bob sync
	bad=""
	for n in bob-0 $notes; do
		for m in alice bob; do
			c=$(copies $m "$n")
			[ "$c" = 1 ] || bad="$bad $m:$n=$c"
		done
	done
	check_eq "$point: both members hold every note exactly once" "" "$bad"
	check_eq "$point: ... in one merged history" "$(merged alice)" "$(merged bob)"
	check_eq "$point: ... every event of bob's store shared once" "0" \
		"$(db bob "SELECT count(*) FROM events e WHERE e.case_id IS NOT NULL
			AND (SELECT count(*) FROM sync_envelopes y WHERE y.event_id = e.id) <> 1")"
	check "$point: bob's history verifies" as bob verify
	check "$point: alice's history verifies" as alice verify
done

# Then kill -9 at random moments of bob's sync, $FAULT_KILLS times
# (default 8), from a seeded generator ($FAULT_SEED, default 1) over the
# time one sync takes.  Only decorum is killed: the git it started runs
# to its end, as it would after a real kill, and the rerun waits for it.
kills=${FAULT_KILLS:-8}
seed=${FAULT_SEED:-1}
# One sync with something to take and something to push, timed.
as alice case note 1 "alice-timing" >/dev/null && as alice sync >/dev/null 2>&1
as bob case note 1 "bob-timing" >/dev/null
notes="$notes alice-timing bob-timing"
start=$(date +%s%N)
as bob sync >/dev/null 2>&1
span=$((($(date +%s%N) - start) * 12 / 10000000))
[ "$span" -lt 20 ] && span=20
echo "# one sync takes about $((span * 10 / 12)) ms; kills land in 0..${span} ms"
awk -v seed="$seed" -v n="$kills" -v span="$span" 'BEGIN {
	srand(seed)
	for (i = 0; i < n; i++) printf "%.3f\n", rand() * span / 1000
}' >"$T/delays"
killed=0
i=0
broken=0
rfail() {
	fail "$@"
	broken=$((broken + 1))
}
for delay in $(cat "$T/delays"); do
	i=$((i + 1))
	a1="alice-random-$i" b1="bob-random-$i"
	notes="$notes $a1 $b1"
	as alice case note 1 "$a1" >/dev/null && as alice sync >/dev/null 2>&1 ||
		rfail "random $i: alice's note"
	as bob case note 1 "$b1" >/dev/null || rfail "random $i: bob's note"
	before=$(bobref)
	HOME="$T/bob" DECORUM_STORE="$T/bob/decorum.db" \
		DECORUM_AS=bob@example.org setsid "$D" sync >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[ $? -eq 137 ] && killed=$((killed + 1))
	# What it started may still run: wait for the whole group.
	while kill -0 "-$pid" 2>/dev/null; do sleep 0.05; done
	as bob sync >"$T/out" 2>&1 || {
		rfail "random $i (after ${delay}s): bob's rerun"
		sed 's/^/#   /' "$T/out"
	}
	as alice sync >/dev/null 2>&1 || rfail "random $i: alice syncs"
	as bob sync >/dev/null 2>&1 || rfail "random $i: bob syncs again"
	after=$(bobref)
	git --git-dir="$R" merge-base --is-ancestor "$before" "$after" ||
		rfail "random $i: bob's remote ref moved back"
	for m in alice bob; do
		for n in bob-0 $notes; do
			c=$(copies $m "$n")
			[ "$c" = 1 ] || rfail "random $i (after ${delay}s): $m holds $n $c times"
		done
		as $m verify >/dev/null 2>&1 || rfail "random $i: $m's history verifies"
	done
	merged alice >"$T/merged-alice"
	merged bob >"$T/merged-bob"
	cmp -s "$T/merged-alice" "$T/merged-bob" || {
		rfail "random $i (after ${delay}s): one merged history"
		diff "$T/merged-alice" "$T/merged-bob" | sed 's/^/#   /'
	}
done
echo "# $killed of $i syncs killed before they ended"
check_eq "$i random kills: nothing lost, nothing twice, one history" 0 "$broken"
check_eq "the remote holds bob's ref" 1 \
	"$(git --git-dir="$R" for-each-ref refs/decorum/events/ | grep -c "$(db bob "SELECT author FROM sync_envelopes WHERE origin = 'local' LIMIT 1")")"
exit $T_FAILED
