#!/bin/sh
# The shared history in the TUI (and what the CLI shows of it): two
# fictional members, each with their own HOME, ssh key, notmuch index and
# store, and a bare repository as the remote.  Alice has mail bob never
# received.  Bob's screens (tests/screen/sync/*.keys) are compared with
# tests/screen/expected/sync-*.txt; UPDATE=1 rewrites them.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
for p in git age ssh-keygen; do
	command -v $p >/dev/null 2>&1 || { skip "sync needs $p"; exit 0; }
done
export TZ=UTC LC_ALL=C.UTF-8 DECORUM_NOW=1796284800
unset DECORUM_AS DECORUM_CONFIG VISUAL EDITOR NO_COLOR
HERE="$TOP/tests/screen"
t_sync_members alice bob
for m in alice bob; do
	t_sync_mail "$m"
done
# Two reports that reached alice alone.
for n in 1 2; do
	cat >"$T/alice/mail/cur/179620000$n.only.alice:2,S" <<MSG
From: Quentin Marsh <quentin.marsh@example.net>
To: conduct@kernel.org
Subject: only-alice-test report $n that reached alice alone
Date: Tue, 01 Dec 2026 0$n:00:00 +0000
Message-ID: <only-alice-$n@example.net>

This report reached one member of the committee only.
MSG
done
for m in alice bob; do
	NOTMUCH_CONFIG="$T/$m/notmuch-config" notmuch new --quiet ||
		fail "index $m's mail"
done
as() {
	m=$1
	shift
	HOME="$T/$m" NOTMUCH_CONFIG="$T/$m/notmuch-config" \
		DECORUM_STORE="$T/$m/decorum.db" XDG_STATE_HOME="$T/$m/state" \
		DECORUM_AS=$m@example.org "$D" "$@"
}
thread() {
	NOTMUCH_CONFIG="$T/alice/notmuch-config" notmuch search \
		--output=threads "id:$1" | sed 's/^thread://'
}
# MEMBER's TUI on script NAME: its dumps compared, its trace in
# $T/NAME.err.
screens() {
	who=$1
	shift
	mkdir -p "$T/dumps"
	if ! DECORUM_TRACE=1 as $who tui --script "$HERE/sync/$1.keys" \
		--dump-dir "$T/dumps" >"$T/$1.out" 2>"$T/$1.err"; then
		fail "screen script $1 runs"
		sed 's/^/#   /' "$T/$1.out" "$T/$1.err" | head -20
		return
	fi
	for dump in $(sed -n 's/^dump //p' "$HERE/sync/$1.keys"); do
		# Where the test runs is no part of the screen.
		sed -i "s|$T|@T@|g" "$T/dumps/$dump.txt"
		want="$HERE/expected/$dump.txt"
		if [ -n "${UPDATE:-}" ]; then
			cp "$T/dumps/$dump.txt" "$want"
			ok "screen $1/$dump (updated)"
		elif diff -u "$want" "$T/dumps/$dump.txt" >"$T/diff" 2>&1; then
			ok "screen $1/$dump"
		else
			fail "screen $1/$dump differs"
			sed 's/^/#   /' "$T/diff" | head -60
		fi
	done
}

check "alice registers herself" as alice member add alice@example.org \
	--role committee --joined 2020-01-01 --key "$(pub alice)"
check "and bob" as alice member add bob@example.org --role committee \
	--joined 2020-01-01 --key "$(pub bob)"
check "alice opens case 1 on a report both have" as alice tag \
	"$(thread 20260915014500.13872-1-rachel.abernathy@example.net)" \
	escalation --note "first look"
check "... with a message only she has" as alice case attach 1 \
	id:only-alice-2@example.net --message
check "alice opens case 2 on the report only she has" as alice tag \
	"$(thread only-alice-1@example.net)" escalation --note "alice alone"
check "alice adds the remote" as alice remote add origin "$R"
as alice sync >"$T/out" 2>"$T/err"
check_eq "alice syncs" 0 $?
check_eq "... and, stderr not a terminal, prints no progress" "" "$(cat "$T/err")"
check "bob adds the remote, trusting alice" \
	as bob remote add origin "$R" --trust "$(pub alice)"

screens bob bob-first
check "the TUI's sync reports its phases as it goes" \
	grep -q '^decorum-trace sync fetching' "$T/bob-first.err"
check "... counting the envelopes it checks" \
	grep -Eq '^decorum-trace sync checking ([0-9]+)/\1 ' "$T/bob-first.err"
check "... and applies" \
	grep -Eq '^decorum-trace sync applying ([0-9]+)/\1 ' "$T/bob-first.err"
check "... then seals bob's note and pushes it" sh -c \
	"grep -q '^decorum-trace sync sealing 1/1 ' '$T/bob-first.err' &&
	 grep -q '^decorum-trace sync pushing' '$T/bob-first.err'"
check_eq "bob's note reached the remote: alice takes it" "1" \
	"$(as alice sync | sed -n 's/^synced: \([0-9]*\) taken.*/\1/p')"

as bob case show 2 >"$T/show2"
check "case show says the report of case 2 is not in bob's mail" \
	grep -q "^          (not in your mail)" "$T/show2"
as bob case show 1 >"$T/show1"
check_eq "... and of case 1 only the message alice alone has" \
	"<only-alice-2@example.net>" \
	"$(grep -B1 '^          (not in your mail)' "$T/show1" | sed -n 's/^message:  \(<[^>]*>\).*/\1/p')"
as alice case show 1 >"$T/show1a"
check_eq "alice has all of her mail" "" \
	"$(grep 'not in your mail' "$T/show1a")"

# Progress on a terminal only: script(1) gives the sync one.
if command -v script >/dev/null 2>&1; then
	check "alice notes again" as alice case note 1 "a word more"
	HOME="$T/alice" NOTMUCH_CONFIG="$T/alice/notmuch-config" \
		DECORUM_STORE="$T/alice/decorum.db" DECORUM_AS=alice@example.org \
		script -qec "'$D' sync" /dev/null >"$T/tty.out" 2>&1
	check "on a terminal decorum sync shows its phases on stderr" \
		grep -q "decorum sync: sealing 1/1" "$T/tty.out"
else
	skip "decorum sync on a terminal (no script(1))"
fi

mv "$R" "$R.gone"
screens bob bob-gone
check "the failed sync left the store as it was" as bob verify
mv "$R.gone" "$R"
check "with the remote back, bob syncs his waiting note" sh -c \
	"HOME='$T/bob' NOTMUCH_CONFIG='$T/bob/notmuch-config' DECORUM_STORE='$T/bob/decorum.db' '$D' sync | grep -q '1 pushed'"
# A push the remote refuses: the note was sealed and committed in bob's
# store, but it waits until a push takes it.
as alice sync >/dev/null
printf '#!/bin/sh\necho "refused by the test" >&2\nexit 1\n' >"$R/hooks/pre-receive"
chmod +x "$R/hooks/pre-receive"
screens bob bob-refused
check_eq "the refused push kept bob's note off the remote" "0" \
	"$(as alice sync | sed -n 's/^synced: \([0-9]*\) taken.*/\1/p')"
rm "$R/hooks/pre-receive"
check "with the hook gone, bob's sync pushes the waiting note" as bob sync
check_eq "... and alice takes it" "1" \
	"$(as alice sync | sed -n 's/^synced: \([0-9]*\) taken.*/\1/p')"
screens bob bob-unrefused
# Carol has a store and the remote but no ssh key (and bob's index).
mkdir -p "$T/carol"
cp "$T/bob/notmuch-config" "$T/carol/notmuch-config"
check "carol adds the remote" as carol remote add origin "$R" \
	--trust "$(pub alice)"
screens carol nokey
exit $T_FAILED
