#!/bin/sh
# A whole triage session in a real terminal: twenty threads tagged in a
# row, some untagged again, with searches, the case panel and the report
# preview in between, while another process runs notmuch new and notmuch
# tag on the same database.  No Xapian error may reach the screen, every
# action must land once, and fsck must find nothing to repair at the end.
. "$(dirname "$0")/../lib.sh"
t_setup

if ! command -v tmux >/dev/null 2>&1; then
	skip "tmux session test (tmux is not installed)"
	exit 0
fi
unset NO_COLOR DECORUM_NOW VISUAL EDITOR TMUX
export LC_ALL=C.UTF-8 TZ=UTC
t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }

# Twenty fictional reports, one thread each, by twenty fictional people
# (a name of their own: a packet redacts it).
i=1
for surname in Abbott Barlow Calder Dunmore Ellery Fenwick Garrow Hollis \
	Ingram Jessop Kendal Lowrie Merritt Norcott Osgood Pryor Quaile \
	Rendell Stanway Thorley; do
	low=$(echo "$surname" | tr A-Z a-z)
	printf 'From: Robin %s <robin.%s@example.net>\nTo: conduct@kernel.org\nSubject: session report %s\nDate: Tue, 01 Dec 2026 %02d:00:00 +0000\nMessage-ID: <session-%s@example.net>\n\nReport number %s.\n' \
		"$surname" "$low" $i $i $i $i >"$T/mail/cur/17961000$i.M$i.sess:2,S"
	i=$((i + 1))
done
notmuch new --quiet >/dev/null 2>&1

. "$TOP/tests/e2e/tmux-lib.sh"
t_tmux decorum-session

# Another process keeps notmuch busy: new mail and tag writes, bounded.
busy() {
	k=1
	while [ $k -le 40 ] && [ ! -e "$T/stop" ]; do
		printf 'From: Lister <lister@example.org>\nTo: linux-kernel@vger.kernel.org\nSubject: unrelated %s\nDate: Wed, 02 Dec 2026 10:00:00 +0000\nMessage-ID: <busy-%s@example.org>\n\nNoise.\n' \
			$k $k >"$T/mail/cur/17962000$k.M$k.busy:2,S"
		notmuch new --quiet >/dev/null 2>&1
		notmuch tag +seen -- "id:busy-$k@example.org" >/dev/null 2>&1
		k=$((k + 1))
	done
}
busy &
busy_pid=$!

tm new-session -d -s dc -x 120 -y 40 \
	"env TERM=screen-256color '$DECORUM' tui; echo decorum-exited-\$?; sleep 60"
step "the TUI opens" "Threads matching"

xapian=0
look() {
	if tm capture-pane -p -t dc | grep -qi 'xapian'; then
		xapian=$((xapian + 1))
		tm capture-pane -p -t dc | sed 's/^/#   | /' | head -5
	fi
}

# (not i: the polling helpers use it)
opened=0
undone=0
packed=0
n=1
while [ $n -le 20 ]; do
	# A TUI that died fails once, with what it said, not twenty times.
	if tm capture-pane -p -t dc 2>/dev/null | grep -q 'decorum-exited-'; then
		fail "the TUI is still running at step $n"
		tm capture-pane -p -t dc | sed 's/^/#   | /' | head -10
		break
	fi
	tm send-keys -t dc / && wait_for "Query:" >/dev/null
	tm send-keys -t dc -l "subject:\"session report $n\"" && tm send-keys -t dc Enter
	wait_for "session report $n" >/dev/null || fail "search $n shows its thread"
	look
	tm send-keys -t dc e && wait_for "note" >/dev/null
	tm send-keys -t dc -l "note $n" && tm send-keys -t dc Enter
	if wait_for "Case #" >"$T/wait.out"; then
		opened=$((opened + 1))
	else
		fail "tag $n is taken"
		head -45 "$T/wait.out"
	fi
	look
	if [ $((n % 4)) -eq 0 ]; then
		tm send-keys -t dc u && wait_for "(y/n)" >/dev/null
		tm send-keys -t dc y
		if wait_for "Undone" >/dev/null; then undone=$((undone + 1)); fi
		look
	fi
	if [ $((n % 5)) -eq 0 ]; then
		tm send-keys -t dc c
		look
		tm send-keys -t dc c
	fi
	if [ $n -eq 10 ]; then
		tm send-keys -t dc R
		wait_for "Reports received" >/dev/null || fail "the report preview opens"
		look
		tm send-keys -t dc q
	fi
	if [ $n -eq 15 ]; then
		# The packet of this case, to the directory offered, redacted.
		tm send-keys -t dc P && wait_for "directory" >/dev/null
		tm send-keys -t dc Enter && wait_for "Redact" >/dev/null
		tm send-keys -t dc y && wait_for "Final packet" >/dev/null
		tm send-keys -t dc y && wait_for "reply by" >/dev/null
		tm send-keys -t dc Enter
		if wait_for "packet written to" >"$T/wait.out"; then
			packed=1
		else
			head -45 "$T/wait.out"
		fi
		look
	fi
	tm send-keys -t dc Enter
	wait_for "session report $n" >/dev/null
	look
	tm send-keys -t dc q
	n=$((n + 1))
done
check_eq "every tag was taken" 20 "$opened"
check_eq "every undo was taken" 5 "$undone"
check_eq "the packet was written in the middle of it all" 1 "$packed"
check "... holding that case's report" grep -q '^Message-I[Dd]: *<session-15@example.net>' \
	"$HOME/decorum-packet-case-15/thread.mbox"
tm send-keys -t dc Q
step "decorum quits cleanly" "decorum-exited-0"
touch "$T/stop"
wait "$busy_pid"
check_eq "no Xapian error reached the screen" 0 "$xapian"

# Once notmuch is free, decorum's next start writes what was queued.
tm kill-session -t dc >/dev/null 2>&1
tm new-session -d -s dc -x 120 -y 40 \
	"env TERM=screen-256color '$DECORUM' tui; echo decorum-exited-\$?; sleep 60"
step "the TUI opens again" "Threads matching"
tm send-keys -t dc Q
step "and quits" "decorum-exited-0"

check_eq "fifteen cases stand, five were withdrawn" 15 \
	"$("$DECORUM" cases --json | jq '[.[] | select(.state != "withdrawn")] | length')"
check_eq "each tag landed once: twenty open events" 20 \
	"$(sqlite3 "$DECORUM_STORE" "SELECT count(*) FROM events WHERE type = 'open'")"
"$DECORUM" fsck >"$T/fsck.out" 2>&1
check "fsck finds 0 differences" grep -q '^0 differences' "$T/fsck.out"
sed 's/^/#   /' "$T/fsck.out" | tail -3
check "verify passes" "$DECORUM" verify
exit $T_FAILED
