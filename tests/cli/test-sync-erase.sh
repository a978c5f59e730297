#!/bin/sh
# Erasure across members: alice erases a shared case, and bob's and
# carol's next sync erase their copies too; the case's data key leaves
# the remote, so what the remote keeps of the case is ciphertext whose
# key is gone.  A non-member's erasure is refused whole, and a member who
# joined later reads neither the case nor what follows its erasure.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
for p in git age age-keygen ssh-keygen; do
	command -v $p >/dev/null 2>&1 || { skip "sync needs $p"; exit 0; }
done
t_index "$TOP/tests/corpus/demo"
export DECORUM_NOW=2026-12-03
unset DECORUM_AS DECORUM_CONFIG
t_sync_members alice bob carol dave mallory
keyid() { awk '{print $2}' "$T/$1/.ssh/id_ed25519.pub" | base64 -d | sha256sum | cut -d' ' -f1; }
as() {
	m=$1
	shift
	HOME="$T/$m" DECORUM_STORE="$T/$m/decorum.db" \
		DECORUM_AS=$m@example.org "$D" "$@"
}
q() { sqlite3 "$T/$1/decorum.db" "$2"; }
nevents() { q "$1" "SELECT count(*) FROM events"; }

for m in alice bob carol; do
	check "alice registers $m" as alice member add $m@example.org \
		--role committee --joined 2020-01-01 --key "$(pub $m)"
done
mid1=20260915014500.13872-1-rachel.abernathy@example.net
mid2=20261105072000.51430-1-eleni.papadopoulou@example.net
th1=$(notmuch search --output=threads "id:$mid1" | sed 's/^thread://')
th2=$(notmuch search --output=threads "id:$mid2" | sed 's/^thread://')
check "alice opens case 1" as alice tag "$th1" escalation --note "first look"
check "and case 2" as alice tag "$th2" escalation --note "another matter"
check "alice notes on case 1" as alice case note 1 "asked the reporter"
check "remote add" as alice remote add origin "$R"
check "alice syncs" as alice sync
for m in bob carol; do
	check "$m trusts alice" as $m remote add origin "$R" --trust "$(pub alice)"
	check "$m syncs" as $m sync
done
check "bob notes on case 1" as bob case note 1 "read the thread"
check "bob syncs" as bob sync
check "alice syncs" as alice sync
check "carol syncs" as carol sync
check "carol reads bob's note" sh -c "sqlite3 '$T/carol/decorum.db' \"SELECT data FROM events WHERE type = 'note'\" | grep -q 'read the thread'"
gid=$(q alice "SELECT gid FROM sync_cases WHERE case_id = 1")
gid2=$(q alice "SELECT gid FROM sync_cases WHERE case_id = 2")
for m in alice bob carol; do
	check_eq "$m holds case 1's data key" 1 \
		"$(q $m "SELECT count(*) FROM sync_keys WHERE case_gid = '$gid'")"
done
check_eq "the remote holds case 1's key ref" 1 \
	"$(git --git-dir="$R" for-each-ref "refs/decorum/keys/$gid" | wc -l)"
keyblob=$(git --git-dir="$R" rev-parse "refs/decorum/keys/$gid:key")
# Someone who copies the remote now keeps the sealed key (the man page
# says so); the checks below are of the remote itself.
git clone -q --mirror "$R" "$T/copy.git"
nenv=$(git --git-dir="$R" rev-list --glob=refs/decorum/events | wc -l)

# ---- refused: a non-member's erasure ----
# Mallory signs an erasure of case 1 with her own key, by hand.
mal=$(keyid mallory)
printf '%s' "{'actor': <'mallory@example.org'>, 'type': <'erasure'>}" |
	age -e -a -r "$(pub bob)" >"$T/mal-payload"
printf 'decorum-envelope 2\nauthor %s\nlamport 999\nat 1796256000\ncase %s\ntype erasure\nto %s\n\n' \
	"$mal" "$gid" "$(keyid bob)" >"$T/mal-env"
cat "$T/mal-payload" >>"$T/mal-env"
blob=$(git --git-dir="$R" hash-object -w "$T/mal-env")
tree=$(printf '100644 blob %s\tenvelope\n' "$blob" | git --git-dir="$R" mktree)
commit=$(echo "decorum erasure" | GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x@invalid \
	GIT_COMMITTER_NAME=x GIT_COMMITTER_EMAIL=x@invalid \
	git --git-dir="$R" -c gpg.format=ssh \
	-c user.signingkey="$T/mallory/.ssh/id_ed25519" commit-tree -S "$tree")
git --git-dir="$R" update-ref "refs/decorum/events/$mal" "$commit"
before=$(nevents bob)
as bob sync >"$T/out" 2>&1
check_eq "bob refuses mallory's erasure (exit 4)" 4 $?
check "... naming it" grep -q "envelope [0-9a-f]\{12\}.* is not signed by a member's key" "$T/out"
check_eq "... and applies nothing" "$before" "$(nevents bob)"
check "... bob keeps the case's notes" sh -c "sqlite3 '$T/bob/decorum.db' \"SELECT data FROM events WHERE type = 'note'\" | grep -q 'asked the reporter'"
check_eq "... and its key" 1 \
	"$(q bob "SELECT count(*) FROM sync_keys WHERE case_gid = '$gid'")"
check_eq "... and the remote its key ref" 1 \
	"$(git --git-dir="$R" for-each-ref "refs/decorum/keys/$gid" | wc -l)"
git --git-dir="$R" update-ref -d "refs/decorum/events/$mal"
check "without mallory's ref bob syncs again" as bob sync

# ---- alice erases case 1 ----
check "alice erases case 1" as alice erase --case 1
check_eq "... and forgets its key at once" 0 \
	"$(q alice "SELECT count(*) FROM sync_keys WHERE case_gid = '$gid'")"
check "alice syncs" as alice sync
check_eq "the remote's key ref for case 1 is gone" 0 \
	"$(git --git-dir="$R" for-each-ref "refs/decorum/keys/$gid" | wc -l)"
check_eq "... case 2's stays" 1 \
	"$(git --git-dir="$R" for-each-ref "refs/decorum/keys/$gid2" | wc -l)"
check_eq "the envelopes stay, one more: the erasure" "$((nenv + 1))" \
	"$(git --git-dir="$R" rev-list --glob=refs/decorum/events | wc -l)"
check "the erasure envelope names the case and no one" sh -c "git --git-dir='$R' log -1 --format=%H --glob=refs/decorum/events --grep='^decorum erasure' | xargs -I@ git --git-dir='$R' cat-file blob @:envelope | grep -q '^case $gid\$'"
for m in bob carol; do
	as $m sync >"$T/out" 2>&1
	check_eq "$m syncs" 0 $?
done
for m in alice bob carol; do
	check_eq "$m: no payload of case 1 is left but the erasures'" 0 \
		"$(q $m "SELECT count(*) FROM events WHERE case_id = 1 AND data IS NOT NULL AND type != 'erasure'")"
	check_eq "$m: case 1 has no subject" "" \
		"$(q $m "SELECT coalesce(subject, '') FROM cases WHERE id = 1")"
	check_eq "$m: case 1's data key is gone" 0 \
		"$(q $m "SELECT count(*) FROM sync_keys WHERE case_gid = '$gid'")"
	check_eq "$m: case 2's is kept" 1 \
		"$(q $m "SELECT count(*) FROM sync_keys WHERE case_gid = '$gid2'")"
	sqlite3 "$T/$m/decorum.db" .dump >"$T/dump"
	for word in "first look" "asked the reporter" "read the thread" \
		"netdev review" "$mid1"; do
		if grep -qF "$word" "$T/dump"; then
			fail "$m's store still has '$word'"
		else
			ok "$m's store has no '$word'"
		fi
	done
	check "$m's store keeps case 2" grep -qF "another matter" "$T/dump"
	check "$m's history verifies" as $m verify
done
check "alice's case 1 keeps stand-ins for its Message-IDs" sh -c "sqlite3 '$T/alice/decorum.db' \"SELECT message_id FROM case_mail WHERE case_id = 1\" | grep -q '^erased\.'"
check_eq "bob's Message-IDs of case 1 are alice's" \
	"$(q alice "SELECT message_id FROM case_mail WHERE case_id = 1 ORDER BY 1")" \
	"$(q bob "SELECT message_id FROM case_mail WHERE case_id = 1 ORDER BY 1")"
check_eq "... and carol's" \
	"$(q alice "SELECT message_id FROM case_mail WHERE case_id = 1 ORDER BY 1")" \
	"$(q carol "SELECT message_id FROM case_mail WHERE case_id = 1 ORDER BY 1")"
check_eq "all three replay case 1 alike" \
	"$(q alice "SELECT kind, state FROM cases WHERE id = 1")" \
	"$(q carol "SELECT kind, state FROM cases WHERE id = 1")"
check "a second sync of bob's changes nothing" as bob sync
check_eq "... and erases nothing again" 1 \
	"$(q bob "SELECT count(*) FROM events WHERE case_id = 1 AND type = 'erasure'")"

# ---- what the remote keeps: ciphertext whose key is gone ----
# Every object's bytes, and the payload of every envelope, opened by hand
# with bob's ssh key; whatever opens is tried as a key on all of them.
tryall() {
	dir=$1
	rm -rf "$T/try"
	mkdir "$T/try"
	git --git-dir="$dir" cat-file --batch-all-objects \
		--batch-check='%(objectname) %(objecttype)' |
		while read -r o ty; do
			[ "$ty" = blob ] || continue
			git --git-dir="$dir" cat-file blob "$o" >"$T/try/$o"
			if head -1 "$T/try/$o" | grep -q '^decorum-envelope'; then
				sed '1,/^$/d' "$T/try/$o" >"$T/try/$o.p"
			fi
		done
	: >"$T/try.keys"
	for f in "$T"/try/*; do
		age -d -i "$T/bob/.ssh/id_ed25519" <"$f" 2>/dev/null |
			grep '^AGE-SECRET-KEY-' >>"$T/try.keys"
	done
	: >"$T/try.plain"
	for f in "$T"/try/*; do
		age -d -i "$T/bob/.ssh/id_ed25519" <"$f" >>"$T/try.plain" 2>/dev/null
		while read -r k; do
			echo "$k" >"$T/try.k"
			age -d -i "$T/try.k" <"$f" >>"$T/try.plain" 2>/dev/null
		done <"$T/try.keys"
	done
}
check "before its own gc, the remote still has the sealed key's blob" \
	git --git-dir="$R" cat-file -e "$keyblob"
git --git-dir="$R" gc -q --prune=now
check_eq "after it, that blob is gone" 1 \
	"$(git --git-dir="$R" cat-file -e "$keyblob" 2>/dev/null; echo $?)"
tryall "$R"
check "bob's key opens something of the remote (case 2, membership)" \
	grep -qF "another matter" "$T/try.plain"
for word in "first look" "asked the reporter" "read the thread" \
	"netdev review" "$mid1" Rachel; do
	if grep -qiF "$word" "$T/try.plain"; then
		fail "with bob's key, the remote still yields '$word'"
	else
		ok "with bob's key, the remote yields no '$word'"
	fi
done
tryall "$T/bob/sync.git"
check_eq "bob's own git copy yields no '$mid1' either" "" \
	"$(grep -F "$mid1" "$T/try.plain")"
tryall "$T/copy.git"
check "a copy taken before the erasure still opens case 1 (as the man page says)" \
	grep -qF "asked the reporter" "$T/try.plain"

# ---- a member who joins later ----
check "alice adds dave, who joins after the reports" \
	as alice member add dave@example.org --role committee \
	--joined 2026-12-01 --key "$(pub dave)"
# Whoever runs the remote puts a key of their own, unsigned, where case
# 1's was: alice must not seal what follows to it.
age-keygen 2>/dev/null >"$T/fake-id"
fake=$(sed -n 's/^# public key: //p' "$T/fake-id")
{ echo "# decorum case key $gid"; echo "# public key: $fake"; grep '^AGE-SECRET' "$T/fake-id"; } |
	age -e -a -r "$(pub alice)" -r "$(pub bob)" >"$T/fake-sealed"
blob=$(git --git-dir="$R" hash-object -w "$T/fake-sealed")
tree=$(printf '100644 blob %s\tkey\n' "$blob" | git --git-dir="$R" mktree)
commit=$(echo "decorum key" | GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x@invalid \
	GIT_COMMITTER_NAME=x GIT_COMMITTER_EMAIL=x@invalid \
	git --git-dir="$R" commit-tree "$tree")
git --git-dir="$R" update-ref "refs/decorum/keys/$gid" "$commit"
check "alice closes case 1 after its erasure" as alice case state 1 closed
check "alice syncs" as alice sync
last=$(git --git-dir="$R" log -1 --format=%H --glob=refs/decorum/events --grep='^decorum state')
check "... sealing it to a data key" sh -c "git --git-dir='$R' cat-file blob $last:envelope | grep -q '^key age1'"
check "... not to the remote's unsigned one" sh -c "! git --git-dir='$R' cat-file blob $last:envelope | grep -qF '$fake'"
check "... and her own signed key ref replaces it" sh -c "git --git-dir='$R' cat-file commit refs/decorum/keys/$gid | grep -q '^gpgsig '"
check_eq "case 1 has a new key ref, for what follows" 1 \
	"$(git --git-dir="$R" for-each-ref "refs/decorum/keys/$gid" | wc -l)"
check "dave trusts alice" as dave remote add origin "$R" --trust "$(pub alice)"
as dave sync >"$T/out" 2>&1
check_eq "dave syncs" 0 $?
check "... with envelopes he has no key to" grep -Eq "[1-9][0-9]* sealed" "$T/out"
check_eq "dave sees no case" "" "$(as dave cases --all)"
check_eq "dave holds no data key" 0 "$(q dave "SELECT count(*) FROM sync_keys")"
git --git-dir="$R" cat-file blob "refs/decorum/keys/$gid:key" >"$T/new-key"
check "dave's key does not open case 1's new key" \
	sh -c "! age -d -i '$T/dave/.ssh/id_ed25519' <'$T/new-key' >/dev/null 2>&1"
check "bob syncs" as bob sync
check_eq "bob takes the new key and the closing" "$(q alice "SELECT state FROM cases WHERE id = 1")" \
	"$(q bob "SELECT state FROM cases WHERE id = 1")"
check "bob's history verifies" as bob verify
check "dave's history verifies" as dave verify

# ---- an erasure by address that touches a shared case ----
check "bob records the reporter of case 2" as bob case participant 2 reporter \
	eleni.papadopoulou@example.net --name "Eleni Papadopoulou"
check "bob syncs" as bob sync
check "alice syncs" as alice sync
as alice erase --reporter eleni.papadopoulou@example.net >"$T/out" 2>&1
check_eq "alice erases the reporter" 0 $?
check "... saying the shared case goes whole, for every member" grep -q "1 shared case erased whole" "$T/out"
check "alice syncs" as alice sync
check_eq "case 2's key ref is gone" 0 \
	"$(git --git-dir="$R" for-each-ref "refs/decorum/keys/$gid2" | wc -l)"
check "carol syncs" as carol sync
for m in alice carol; do
	sqlite3 "$T/$m/decorum.db" .dump >"$T/dump"
	for word in "another matter" "Eleni" "eleni.papadopoulou@example.net"; do
		if grep -qiF "$word" "$T/dump"; then
			fail "$m's store still has '$word'"
		else
			ok "$m's store has no '$word'"
		fi
	done
	check_eq "$m: case 2's data key is gone" 0 \
		"$(q $m "SELECT count(*) FROM sync_keys WHERE case_gid = '$gid2'")"
	check "$m's history verifies" as $m verify
done

# ---- a sync killed before it pruned its git copy prunes the next time ----
check "bob syncs, taking case 2's erasure" as bob sync
check_eq "... and has pruned since" "" \
	"$(q bob "SELECT commit_id FROM sync_refs WHERE ref = 'decorum:prune-keys'")"
# What a kill between the push and the pruning leaves: the mark, and the
# case's key ref with its objects in bob's git copy.
git --git-dir="$T/bob/sync.git" fetch -q "$T/copy.git" \
	"refs/decorum/keys/$gid2:refs/decorum/keys/$gid2"
q bob "UPDATE sync_refs SET commit_id = '1' WHERE ref = 'decorum:prune-keys'"
tryall "$T/bob/sync.git"
check "the planted key opens case 2 in bob's git copy" grep -qF "another matter" "$T/try.plain"
check "bob syncs again" as bob sync
tryall "$T/bob/sync.git"
check_eq "... and his git copy opens nothing of case 2 any more" "" \
	"$(grep -F "another matter" "$T/try.plain")"
exit $T_FAILED
