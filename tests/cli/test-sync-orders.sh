#!/bin/sh
# Three fictional members, each with their own HOME, ssh key, notmuch
# database and store, and one bare repository as the remote.  In four
# rounds each works without syncing on one shared case and on a case of
# their own (notes, state changes, categories, participants, attaching
# and detaching mail, undo, outcomes, votes), then all sync in an order
# of their own (A B C A B C, C A B C A B, B C A B C A, B A C B A C).
# After every round the three end with the same envelopes in the same
# merged order and the same state of every case, mail included, and
# every history verifies.
# Attach and detach reach the others: the mail a case covers follows the
# merged order on every machine, whatever order they arrive in, and so
# do the notmuch tags.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
for p in git age ssh-keygen sqlite3 jq; do
	command -v $p >/dev/null 2>&1 || { skip "sync needs $p"; exit 0; }
done
export DECORUM_NOW=2026-12-03
unset DECORUM_AS DECORUM_CONFIG
t_sync_members alice bob carol
for m in alice bob carol; do
	t_sync_mail "$m"
	NOTMUCH_CONFIG="$T/$m/notmuch-config" notmuch new --quiet >/dev/null 2>&1
done
as() {
	m=$1
	shift
	HOME="$T/$m" NOTMUCH_CONFIG="$T/$m/notmuch-config" \
		DECORUM_STORE="$T/$m/decorum.db" DECORUM_AS=$m@example.org \
		"$D" "$@"
}
nm() {
	m=$1
	shift
	NOTMUCH_CONFIG="$T/$m/notmuch-config" notmuch "$@"
}
db() { sqlite3 "$T/$1/decorum.db" "$2"; }
# run "what" MEMBER ARGS...: a decorum command that must succeed.
run() {
	what=$1
	shift
	as "$@" >"$T/run.out" 2>&1 || {
		fail "$what"
		sed 's/^/#   /' "$T/run.out"
	}
}
thread_of() { nm "$1" search --output=threads "id:$2" | sed 's/^thread://'; }
# The local number of the case whose opening envelope is GID.
num() { db "$1" "SELECT case_id FROM sync_cases WHERE gid = '$2'"; }
newest() { db "$1" "SELECT max(id) FROM cases"; }
gid() { db "$1" "SELECT gid FROM sync_cases WHERE case_id = $2"; }
# A member's view of the committee's log, with nothing local in it: the
# envelopes in the merged order, and each case (by its global id) as
# case show --json replays it, without the local case and event numbers
# and notmuch's thread ids.
view() {
	db "$1" "SELECT hash FROM sync_envelopes ORDER BY lamport, hash"
	for g in $(db "$1" "SELECT gid FROM sync_cases ORDER BY gid"); do
		echo "case $g"
		as "$1" case show "$(num "$1" "$g")" --json | jq -S '
			del(.id, .threads)
			| .messages |= (map(del(.thread)) | sort_by(.message_id))
			| walk(if type == "object" then del(.event) else . end)
			| .history |= map(.
				| .undone_by |= (. != null)
				| .summary |= gsub("event [0-9]+"; "event"))'
	done
}
# The Message-IDs case N covers on MEMBER's store.
covers() { as "$1" case show "$2" --json | jq -r '.messages[].message_id' | sort; }
# every_sync ORDER...: each member named syncs, in turn.
every_sync() {
	for m in "$@"; do
		as "$m" sync >"$T/sync.out" 2>&1 || {
			fail "$m syncs (in the order $*)"
			sed 's/^/#   /' "$T/sync.out"
		}
	done
}
same() {
	round=$1
	view alice >"$T/view-alice"
	view bob >"$T/view-bob"
	view carol >"$T/view-carol"
	check "$round: the views are not empty" grep -q '"state"' "$T/view-alice"
	for m in bob carol; do
		if cmp -s "$T/view-alice" "$T/view-$m"; then
			ok "$round: $m replays what alice replays"
		else
			fail "$round: $m replays what alice replays"
			diff "$T/view-alice" "$T/view-$m" | head -30 | sed 's/^/#   /'
		fi
	done
	check_eq "$round: one merged log, one hash" \
		"$(db alice "SELECT hash FROM sync_envelopes ORDER BY lamport, hash" | sha256sum)" \
		"$(db carol "SELECT hash FROM sync_envelopes ORDER BY lamport, hash" | sha256sum)"
	for m in alice bob carol; do
		check "$round: $m's history verifies" as $m verify
	done
}

# ---- the committee and its shared case ----
for m in alice bob carol; do
	run "alice registers $m" alice member add $m@example.org \
		--role committee --joined 2020-01-01 --key "$(pub $m)"
done
report=20260915014500.13872-1-rachel.abernathy@example.net
ext4=20260915010500.45236-1-hanako.yamada@example.org
run "alice opens the shared case" alice tag "$(thread_of alice $report)" \
	escalation --note "first look"
run "alice adds the remote" alice remote add origin "$R"
run "bob adds the remote" bob remote add origin "$R" --trust "$(pub alice)"
run "carol adds the remote" carol remote add origin "$R" --trust "$(pub alice)"
every_sync alice bob carol
S=$(gid alice 1)
check_eq "bob and carol have the shared case" "1 1" "$(num bob "$S") $(num carol "$S")"

# ---- round 1: A B C A B C ----
run "alice notes" alice case note 1 "alice 1"
run "alice acknowledges" alice case state 1 acknowledged
run "alice sets a category" alice case category 1 "development"
run "alice adds the reporter" alice case participant 1 reporter \
	rachel.abernathy@example.net --name "Rachel Abernathy"
run "alice attaches the ext4 thread" alice case attach 1 "$(thread_of alice $ext4)"
run "alice opens a case of her own" alice tag \
	"$(thread_of alice 20261008083000.2549-1-marcus.penhallow@example.org)" \
	tab --note "alice's own"
A=$(newest alice)
run "bob notes" bob case note 1 "bob 1"
run "bob investigates at the same time" bob case state 1 investigating
run "bob adds the respondent" bob case participant 1 respondent \
	noa.cohen@example.net --name "Noa Cohen"
run "bob opens a case of his own" bob tag \
	"$(thread_of bob 20261009211200.50259-1-dsokolov@example.net)" \
	admonition --note "bob's own"
B=$(newest bob)
run "bob acknowledges his" bob case state "$B" acknowledged
run "carol notes" carol case note 1 "carol 1"
run "carol sets another category" carol case category 1 "scope"
run "carol opens a case of her own" carol tag \
	"$(thread_of carol 20261022060000.15813-1-yusuf.haddad@example.com)" \
	escalation --note "carol's own"
C=$(newest carol)
run "carol attaches one message to hers" carol case attach "$C" \
	id:20261020154000.4397-1-yusuf.haddad@example.com --message
every_sync alice bob carol alice bob carol
same "round 1"
SA=$(gid alice "$A") SB=$(gid bob "$B") SC=$(gid carol "$C")
covers alice 1 >"$T/covers-alice"
check "alice's case covers the ext4 thread" grep -qx "$ext4" "$T/covers-alice"
for m in bob carol; do
	check_eq "round 1: alice's attach reaches $m" "$(cat "$T/covers-alice")" \
		"$(covers $m "$(num $m "$S")")"
	check "round 1: $m's notmuch tags the attached thread" sh -c \
		"NOTMUCH_CONFIG='$T/$m/notmuch-config' notmuch search id:$ext4 and tag:coc/case | grep -q ."
done
check "round 1: bob's notmuch tags alice's own case" sh -c \
	"NOTMUCH_CONFIG='$T/bob/notmuch-config' notmuch search id:20261008083000.2549-1-marcus.penhallow@example.org and tag:coc/case-$(num bob "$SA") | grep -q ."
check_eq "round 1: carol's one message reaches alice" \
	"$(covers carol "$C")" "$(covers alice "$(num alice "$SC")")"

# ---- round 2: C A B C A B ----
run "alice detaches the ext4 thread" alice case detach 1 "id:$ext4"
run "alice notes on bob's case" alice case note "$(num alice "$SB")" "alice on bob's"
run "bob closes the shared case" bob case state 1 closed --note "done"
run "bob investigates his" bob case state "$B" investigating
run "bob decides his" bob case state "$B" decided
run "bob records an outcome" bob case outcome "$B" apology
run "carol takes her attach back" carol case undo "$C"
run "carol notes on alice's case" carol case note "$(num carol "$SA")" "carol on alice's"
run "carol adds a witness" carol case participant 1 witness \
	tobias.lindqvist@example.com --name "Tobias Lindqvist"
every_sync carol alice bob carol alice bob
same "round 2"
for m in alice bob carol; do
	covers $m "$(num $m "$S")" >"$T/covers"
	if grep -qx "$ext4" "$T/covers"; then
		fail "round 2: alice's detach reaches $m"
	else
		ok "round 2: alice's detach reaches $m"
	fi
	check "round 2: ... and the report stays" grep -qx "$report" "$T/covers"
	check_eq "round 2: carol's undone attach is undone on $m" 0 \
		"$(covers $m "$(num $m "$SC")" | grep -c 20261020154000.4397-1-yusuf.haddad@example.com)"
done
check_eq "round 2: ... the one message gone, the opening's kept" \
	"$(covers carol "$C")" "$(covers bob "$(num bob "$SC")")"
check "round 2: bob's notmuch no longer tags the detached thread" sh -c \
	"! NOTMUCH_CONFIG='$T/bob/notmuch-config' notmuch search id:$ext4 and tag:coc/case | grep -q ."

# ---- round 3: B C A B C A ----
run "alice votes for tab1 on bob's case" alice case vote "$(num alice "$SB")" \
	--on overturn --member tab1@example.org for
run "alice attaches one ext4 message again" alice case attach 1 "id:$ext4" --message
run "carol votes for tab2 on bob's case" carol case vote "$(num carol "$SB")" \
	--on overturn --member tab2@example.org against
run "carol undoes her witness" carol case undo 1
run "bob notes" bob case note 1 "bob 3"
run "bob reopens the shared case" bob case state 1 investigating
every_sync bob carol alice bob carol alice
same "round 3"
for m in bob carol; do
	check "round 3: the attach again reaches $m" sh -c \
		"HOME='$T/$m' NOTMUCH_CONFIG='$T/$m/notmuch-config' DECORUM_STORE='$T/$m/decorum.db' DECORUM_AS=$m@example.org '$D' case show $(num $m "$S") --json |
		jq -e '.messages[] | select(.message_id == \"$ext4\" and .scope == \"message\")'"
done
check_eq "round 3: both votes count on every member" "1 1" \
	"$(as carol case show "$(num carol "$SB")" --json | jq -r '"\(.tally.for) \(.tally.against)"')"

# ---- round 4: B A C B A C; the merged order, not the order of arrival ----
# Alice takes the ext4 message off and puts it back; bob takes it off at
# the same time.  The merged order has both detaches before alice's new
# attach, so the case covers it everywhere, though alice receives bob's
# detach after her attach.
run "alice detaches the ext4 message" alice case detach 1 "id:$ext4"
run "... and attaches it again" alice case attach 1 "id:$ext4" --message
run "bob detaches it at the same time" bob case detach 1 "id:$ext4"
every_sync bob alice carol bob alice carol
same "round 4"
for m in alice bob carol; do
	check "round 4: the case covers the ext4 message on $m" sh -c \
		"HOME='$T/$m' NOTMUCH_CONFIG='$T/$m/notmuch-config' DECORUM_STORE='$T/$m/decorum.db' DECORUM_AS=$m@example.org '$D' case show $(num $m "$S") --json |
		jq -e '.messages[] | select(.message_id == \"$ext4\")'"
done
exit $T_FAILED
