#!/bin/sh
# Kill -9 decorum at random points of a scripted triage run (tagging
# threads, adding notes), $FAULT_KILLS times (default 20; "make faults"
# does 200).  After every kill: SQLite's integrity check is ok, "decorum
# verify" passes, every note whose command reported success is in the
# log, and "decorum fsck --repair" brings the notmuch tags back in line
# with the store ("decorum fsck": 0 differences).  The kill points come
# from a seeded generator ($FAULT_SEED, default 1): delays spread over
# the time one command takes, so kills land before, inside and after the
# store transaction and the notmuch tag write.
. "$(dirname "$0")/../lib.sh"
t_setup
kills=${FAULT_KILLS:-20}
seed=${FAULT_SEED:-1}

# A private copy: a rebuild of ./decorum during a long run must not
# count as a fault.
cp "$DECORUM" "$T/decorum"
DECORUM=$T/decorum

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
notmuch search --output=threads --limit=8 '*' | sed 's/thread://' >"$T/threads"
nthreads=$(wc -l <"$T/threads")
db=$DECORUM_STORE

# op N: the Nth command of the triage script, on stdout as arguments.
op() {
	t=$(sed -n "$(($1 % nthreads + 1))p" "$T/threads")
	case $(($1 % 3)) in
	0) kind=escalation ;;
	1) kind=admonition ;;
	2) kind=tab ;;
	esac
	echo "$t $kind"
}

# Time a few commands to know where a kill can land (milliseconds).
start=$(date +%s%N)
for i in 1 2 3; do
	set -- $(op $i)
	"$DECORUM" tag "$1" "$2" --note "warmup-$i" >/dev/null 2>&1
done
span=$((($(date +%s%N) - start) / 3000000))
[ "$span" -lt 5 ] && span=5
echo "# one tag command takes about ${span} ms; kills land in 0..$((span * 12 / 10)) ms"
printf 'warmup-1\nwarmup-2\nwarmup-3\n' >"$T/confirmed"

# Seeded delays, one per attempt.
awk -v seed="$seed" -v n=$((kills * 4)) -v span="$span" 'BEGIN {
	srand(seed)
	for (i = 0; i < n; i++) printf "%.3f\n", rand() * span * 1.2 / 1000
}' >"$T/delays"

killed=0
finished=0
attempt=0
broken=0
while [ "$killed" -lt "$kills" ]; do
	attempt=$((attempt + 1))
	delay=$(sed -n "${attempt}p" "$T/delays")
	if [ -z "$delay" ]; then
		fail "only $killed kills landed in $((attempt - 1)) attempts"
		break
	fi
	set -- $(op $((attempt + 3)))
	note="op-$attempt"
	# A kill can land before the shell has opened the output file:
	# the last command's confirmation must not be read as this one's.
	rm -f "$T/op.out"
	# Every fourth command adds a note to case 1 instead of tagging.
	if [ $((attempt % 4)) -eq 0 ]; then
		"$DECORUM" case note 1 "$note" >"$T/op.out" 2>&1 &
	else
		"$DECORUM" tag "$1" "$2" --note "$note" >"$T/op.out" 2>&1 &
	fi
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=$?
	# Once the user saw it confirmed, killed or not, it is never lost.
	if grep -qs '^case [0-9]*: ' "$T/op.out"; then
		echo "$note" >>"$T/confirmed"
		cp "$T/op.out" "$T/$note.out"
		echo "rc $rc after ${delay}s" >>"$T/$note.out"
	fi
	if [ "$rc" -eq 137 ]; then
		killed=$((killed + 1))
	elif [ "$rc" -eq 0 ]; then
		finished=$((finished + 1))
		continue
	else
		fail "attempt $attempt: tag exited $rc"
		sed 's/^/#   /' "$T/op.out" 2>/dev/null
		broken=$((broken + 1))
	fi

	r=$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)
	[ "$r" = ok ] || { fail "kill $killed: integrity_check: $r"; broken=$((broken + 1)); }
	if ! "$DECORUM" verify >"$T/verify.out" 2>&1; then
		fail "kill $killed (after ${delay}s): verify"
		sed 's/^/#   /' "$T/verify.out"
		broken=$((broken + 1))
	fi
	sqlite3 "$db" 'SELECT data FROM events' >"$T/events" 2>&1
	while read -r c; do
		grep -qF "<'$c'>" "$T/events" || {
			fail "kill $killed: confirmed note $c is missing"
			sed 's/^/#   /' "$T/$c.out" 2>/dev/null
			broken=$((broken + 1))
		}
	done <"$T/confirmed"
	if ! "$DECORUM" fsck --repair --force >"$T/fsck.out" 2>&1; then
		fail "kill $killed: fsck --repair"
		sed 's/^/#   /' "$T/fsck.out"
		broken=$((broken + 1))
	fi
	"$DECORUM" fsck >"$T/fsck2.out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q '^0 differences' "$T/fsck2.out"; then
		fail "kill $killed: tags still differ after fsck --repair"
		sed 's/^/#   /' "$T/fsck2.out"
		broken=$((broken + 1))
	fi
	[ "$broken" -gt 10 ] && break
done
echo "# $killed kills in $attempt attempts ($finished commands finished first); $(wc -l <"$T/confirmed") confirmed notes"
check_eq "kill -9 at $kills random points: nothing broken, nothing confirmed lost" 0 "$broken"
check_eq "every kill was survived" "$kills" "$killed"
