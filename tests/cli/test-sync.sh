#!/bin/sh
# A committee shares one case history through a bare git repository:
# three fictional members, each with their own HOME, store and ssh key.
# Round trip, concurrent changes merged alike on both sides, a conflict
# and its resolution, a late joiner who cannot read an earlier case, and
# envelopes that are forged, unsigned or a non-member's, refused whole.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
for p in git age ssh-keygen; do
	command -v $p >/dev/null 2>&1 || { skip "sync needs $p"; exit 0; }
done
t_index "$TOP/tests/corpus/demo"
export DECORUM_NOW=2026-12-03
unset DECORUM_AS DECORUM_CONFIG
t_sync_members alice bob carol mallory
as() {
	m=$1
	shift
	HOME="$T/$m" DECORUM_STORE="$T/$m/decorum.db" \
		DECORUM_AS=$m@example.org "$D" "$@"
}
# The shared events of case 1 in the merged order, as each store holds them.
merged() {
	sqlite3 "$T/$1/decorum.db" "SELECT e.actor, e.type, e.data FROM events e
		JOIN sync_envelopes y ON y.event_id = e.id
		WHERE e.case_id = 1 ORDER BY y.lamport, y.hash"
}
state() { sqlite3 "$T/$1/decorum.db" "SELECT state FROM cases WHERE id = 1"; }
nevents() { sqlite3 "$T/$1/decorum.db" "SELECT count(*) FROM events"; }

check "alice registers herself with her key" \
	as alice member add alice@example.org --role committee \
	--joined 2020-01-01 --key "$(pub alice)"
check "and bob" as alice member add bob@example.org --role committee \
	--joined 2020-01-01 --key "$(pub bob)"
as alice member add eve@example.org --key 'ssh-rsa AAAAB3NzaC1yc2E' \
	>/dev/null 2>"$T/err"
check_eq "a key that is not ssh-ed25519 is refused (exit 2)" 2 $?
mid=20260915014500.13872-1-rachel.abernathy@example.net
th=$(notmuch search --output=threads "id:$mid" | sed 's/^thread://')
check "alice opens a case" as alice tag "$th" escalation --note "first look"

# ---- remotes ----
check "remote add" as alice remote add origin "$R"
check_eq "remote list" "origin	$R" "$(as alice remote list)"
as alice remote add 'bad name' "$R" >/dev/null 2>&1
check_eq "a bad remote name is a usage error" 2 $?
as alice sync >"$T/out" 2>&1
check_eq "alice syncs" 0 $?
check "... pushing her three events" grep -q "3 pushed" "$T/out"
check_eq "the remote has one ref, hers" 1 \
	"$(git --git-dir="$R" for-each-ref refs/decorum/events/ | wc -l)"
check "remote list --json shows the last sync" sh -c \
	"HOME='$T/alice' DECORUM_STORE='$T/alice/decorum.db' '$D' remote list --json | jq -e '.[0].last_sync != null'"

# ---- round trip ----
check "bob trusts alice's key for the remote" \
	as bob remote add origin "$R" --trust "$(pub alice)"
# git and ssh-keygen through wrappers that note each call: reading a
# ref's new commits is one git call for their envelopes and one for the
# commits, however many there are, and each signature is one ssh-keygen.
mkdir -p "$T/wrap"
for p in git ssh-keygen; do
	printf '#!/bin/sh\nprintf "%%s %%s\\n" %s "$*" >>"%s"\nexec %s "$@"\n' \
		"$p" "$T/calls" "$(command -v $p)" >"$T/wrap/$p"
	chmod +x "$T/wrap/$p"
done
PATH="$T/wrap:$PATH" as bob sync >"$T/out" 2>&1
check_eq "bob syncs" 0 $?
check "... taking three envelopes" grep -q "3 taken" "$T/out"
check_eq "... read through two git cat-file" 2 \
	"$(grep -c '^git .* cat-file --batch$' "$T/calls")"
# Four signatures: the three envelopes' and that of the case's data key
# (refs/decorum/keys/GID).
check_eq "... their signatures checked by four ssh-keygen -Y verify" 4 \
	"$(grep -c '^ssh-keygen -Y verify -n git ' "$T/calls")"
check "bob sees the case" sh -c "HOME='$T/bob' DECORUM_STORE='$T/bob/decorum.db' DECORUM_AS=bob@example.org '$D' case show 1 | grep -q 'tone of a netdev review'"
check "bob knows alice as a member" sh -c "HOME='$T/bob' DECORUM_STORE='$T/bob/decorum.db' '$D' member list | grep -q alice@example.org"
check "bob's history verifies" as bob verify

# ---- concurrent changes ----
check "alice notes" as alice case note 1 "asked the reporter"
check "alice closes the case" as alice case state 1 closed
check "bob notes at the same time" as bob case note 1 "read the thread"
check "bob acknowledges it at the same time" as bob case state 1 acknowledged
check "alice syncs" as alice sync
: >"$T/calls"
PATH="$T/wrap:$PATH" as bob sync >"$T/out" 2>&1
check_eq "bob syncs" 0 $?
check "... taking alice's two new envelopes" grep -q "^synced: 2 taken" "$T/out"
last=$(sqlite3 "$T/bob/decorum.db" "SELECT commit_id FROM sync_envelopes WHERE origin = 'remote' ORDER BY rowid LIMIT 1 OFFSET 2")
check "... reading only the commits after those he has" \
	grep -q "rev-list --reverse [0-9a-f]* \\^$last" "$T/calls"
check_eq "... and checking only those" 2 \
	"$(grep -c '^ssh-keygen -Y verify -n git ' "$T/calls")"
check "alice syncs again" as alice sync
check_eq "both keep all five events of the case, in one order" \
	"$(merged alice)" "$(merged bob)"
check_eq "... five of them" 5 "$(merged alice | wc -l)"
check "both notes are kept" sh -c "sqlite3 '$T/bob/decorum.db' \"SELECT data FROM events WHERE type='note'\" | grep -q 'asked the reporter'"
check_eq "both replay the same state" "$(state alice)" "$(state bob)"
as alice case show 1 >"$T/show-a"
as bob case show 1 >"$T/show-b"
check "the second move is a conflict on the case" grep -q "^sync .*but the merged history has it" "$T/show-a"
check_eq "... on both sides" "$(grep '^sync' "$T/show-a")" "$(grep '^sync' "$T/show-b")"
check "alice's history verifies" as alice verify
check "bob's too" as bob verify
check "bob resolves it" as bob case resolve 1 --note "closing after all"
check "... and moves the case on" as bob case state 1 investigating
check "bob syncs" as bob sync
check "alice syncs" as alice sync
check_eq "the resolution reaches alice" "" \
	"$(as alice case show 1 | grep '^sync')"
check_eq "... with the same state" "$(state bob)" "$(state alice)"
check_eq "... and the same history" "$(merged bob)" "$(merged alice)"
as alice case resolve 1 >/dev/null 2>&1
check_eq "nothing left to resolve (exit 3)" 3 $?

# ---- a late joiner ----
check "alice adds carol, who joins after the report" \
	as alice member add carol@example.org --role committee \
	--joined 2026-12-01 --key "$(pub carol)"
check "alice syncs" as alice sync
check "carol trusts alice" as carol remote add origin "$R" --trust "$(pub alice)"
as carol sync >"$T/out" 2>&1
check_eq "carol syncs" 0 $?
check "... with envelopes she has no key to" grep -Eq "[1-9][0-9]* sealed" "$T/out"
check_eq "carol sees no case" "" "$(as carol cases --all)"
check "carol knows the members from her own admission" sh -c "HOME='$T/carol' DECORUM_STORE='$T/carol/decorum.db' '$D' member list | grep -q bob@example.org"
gid=$(sqlite3 "$T/alice/decorum.db" "SELECT gid FROM sync_cases WHERE case_id = 1")
# The case's data key, on its own ref, sealed to bob's ssh key, not carol's.
git --git-dir="$R" cat-file blob "refs/decorum/keys/$gid:key" >"$T/sealed-key"
check "carol's key does not open the case's data key" \
	sh -c "! age -d -i '$T/carol/.ssh/id_ed25519' <'$T/sealed-key' >/dev/null 2>&1"
age -d -i "$T/bob/.ssh/id_ed25519" <"$T/sealed-key" | grep '^AGE-SECRET-KEY-' >"$T/case-key"
check "bob's key opens it" test -s "$T/case-key"
n=0; bad=0
for c in $(git --git-dir="$R" rev-list --glob=refs/decorum/events); do
	git --git-dir="$R" cat-file blob "$c:envelope" >"$T/env"
	grep -q "^case $gid\$" "$T/env" || grep -q "^type open" "$T/env" || continue
	n=$((n + 1))
	sed '1,/^$/d' "$T/env" >"$T/ct"
	for k in carol bob; do
		if age -d -i "$T/$k/.ssh/id_ed25519" <"$T/ct" >/dev/null 2>&1; then
			bad=$((bad + 1))
		fi
	done
	age -d -i "$T/case-key" <"$T/ct" >/dev/null 2>&1 || bad=$((bad + 1))
done
check_eq "no ssh key opens the case's envelopes, the case's data key opens all" "0" "$bad"
check "... and there are some" test "$n" -ge 7
git --git-dir="$R" cat-file --batch-all-objects --batch >"$T/all-objects"
check "the remote holds something" test -s "$T/all-objects"
for word in alice@example.org bob@example.org carol@example.org Rachel \
	Abernathy rachel.abernathy "$mid" "netdev review" "first look" \
	"asked the reporter"; do
	if grep -qiF "$word" "$T/all-objects"; then
		fail "the remote has '$word' in clear"
	else
		ok "the remote has no '$word' in clear"
	fi
done

# ---- refused: a non-member, unsigned, edited ----
before=$(nevents alice)
check "mallory registers herself" as mallory member add mallory@example.org \
	--role committee --joined 2020-01-01 --key "$(pub mallory)"
check "mallory reads the remote trusting alice" \
	as mallory remote add origin "$R" --trust "$(pub alice)"
check "mallory pushes her own signed membership" as mallory sync
as alice sync >"$T/out" 2>&1
check_eq "alice refuses a non-member's envelope (exit 4)" 4 $?
check "... naming it" grep -q "envelope [0-9a-f]\{12\} (member): its signer [0-9a-f]\{12\} is not a member" "$T/out"
check_eq "... and applies nothing" "$before" "$(nevents alice)"
mref=$(git --git-dir="$R" for-each-ref --format='%(refname)' refs/decorum/events/ |
	while read -r r; do
		case "$r" in */$(sqlite3 "$T/mallory/decorum.db" "SELECT author FROM sync_envelopes WHERE origin='local' LIMIT 1")) echo "$r" ;; esac
	done)
git --git-dir="$R" update-ref -d "$mref"
check "without mallory's ref alice syncs again" as alice sync

# Bob's newest commit, edited and committed again without a signature.
bref=$(git --git-dir="$R" for-each-ref --format='%(refname)' refs/decorum/events/ |
	grep "$(sqlite3 "$T/bob/decorum.db" "SELECT author FROM sync_envelopes WHERE origin='local' LIMIT 1")")
tip=$(git --git-dir="$R" rev-parse "$bref")
check "bob notes once more" as bob case note 1 "a last word"
check "bob syncs" as bob sync
new=$(git --git-dir="$R" rev-parse "$bref")
git --git-dir="$R" cat-file blob "$new:envelope" | sed 's/^at \(.*\)/at 1/' >"$T/forged"
blob=$(git --git-dir="$R" hash-object -w "$T/forged")
tree=$(printf '100644 blob %s\tenvelope\n' "$blob" | git --git-dir="$R" mktree)
forged=$(echo forged | GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x@invalid GIT_COMMITTER_NAME=x GIT_COMMITTER_EMAIL=x@invalid git --git-dir="$R" commit-tree "$tree" -p "$tip")
git --git-dir="$R" update-ref "$bref" "$forged"
before=$(nevents alice)
as alice sync >"$T/out" 2>&1
check_eq "alice refuses an unsigned envelope (exit 4)" 4 $?
check "... naming it" grep -q "envelope [0-9a-f]\{12\} (commit [0-9a-f]\{12\} on refs/decorum/events/[0-9a-f]*) is not signed" "$T/out"
check_eq "... and applies nothing" "$before" "$(nevents alice)"
# The signed commit again, its envelope edited: the signature no longer fits.
git --git-dir="$R" cat-file commit "$new" | sed "s/^tree .*/tree $tree/" >"$T/commit"
edited=$(git --git-dir="$R" hash-object -t commit -w "$T/commit")
git --git-dir="$R" update-ref "$bref" "$edited"
as alice sync >"$T/out" 2>&1
check_eq "alice refuses an edited envelope (exit 4)" 4 $?
check "... naming it" grep -q "is not signed by a member's key" "$T/out"
check_eq "... and applies nothing" "$before" "$(nevents alice)"
# Bob's envelope in a commit that alice, a member too, signed.
byalice=$(echo "decorum note" | GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x@invalid \
	GIT_COMMITTER_NAME=x GIT_COMMITTER_EMAIL=x@invalid \
	git --git-dir="$R" -c gpg.format=ssh \
	-c user.signingkey="$T/alice/.ssh/id_ed25519" commit-tree -S \
	"$(git --git-dir="$R" rev-parse "$new^{tree}")" -p "$tip")
git --git-dir="$R" update-ref "$bref" "$byalice"
as alice sync >"$T/out" 2>&1
check_eq "alice refuses bob's envelope signed by another member (exit 4)" 4 $?
check "... naming it" grep -q "(commit ${byalice%"${byalice#????????????}"} on .*) is not signed by a member's key" "$T/out"
check_eq "... and applies nothing" "$before" "$(nevents alice)"
git --git-dir="$R" update-ref "$bref" "$new"
check "with bob's own commit back, alice syncs" as alice sync
check_eq "... and takes his note" "$((before + 1))" "$(nevents alice)"
check "alice's history verifies" as alice verify
exit $T_FAILED
