#!/bin/sh
# Hold notmuch's write lock for $LOCK_SECONDS (default 30) while tagging,
# from the command line and from the TUI.  "notmuch tag --batch" keeps the
# database open read-write while it waits for commands on stdin, so a
# sleeping pipe holds the lock.  During the lock: decorum does not wait for
# it, the TUI keeps answering keys and shows the tag changes as pending;
# afterwards they are applied, and nothing is lost.
. "$(dirname "$0")/../lib.sh"
t_setup
# A private copy: a rebuild of ./decorum during the run must not count.
cp "$DECORUM" "$T/decorum"
DECORUM=$T/decorum
secs=${LOCK_SECONDS:-30}
export LC_ALL=C.UTF-8 TZ=UTC
unset NO_COLOR DECORUM_NOW VISUAL EDITOR TMUX

if ! command -v tmux >/dev/null 2>&1; then
	skip "notmuch lock test (tmux is not installed)"
	exit 0
fi
t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
notmuch search --output=threads --limit=2 --sort=newest-first '*' |
	sed 's/thread://' >"$T/threads"
t1=$(sed -n 1p "$T/threads")
t2=$(sed -n 2p "$T/threads")

. "$TOP/tests/e2e/tmux-lib.sh"
t_tmux decorum-lock
trap 'tm kill-server >/dev/null 2>&1; [ -n "${holder:-}" ] && kill "$holder" 2>/dev/null; t_cleanup' EXIT
# Tags wait for a lock held for $secs.
TMUX_POLLS=600
holding() { kill -0 "$holder" 2>/dev/null; }

# The TUI, open before the lock is taken.
tm new-session -d -s dc -x 120 -y 30 \
	"env TERM=screen-256color '$DECORUM' tui '*'; echo decorum-exited-\$?; sleep 600"
wait_for "Threads matching" || fail "the TUI opens"

# Take the lock.
sleep "$secs" | notmuch tag --batch &
holder=$!
sleep 1
timeout 5 notmuch tag +probe -- "thread:$t1" >/dev/null 2>&1
check_eq "the write lock is held (notmuch itself cannot tag)" 124 $?

# The command line: returns at once, the change queued.
"$DECORUM" tag "$t2" escalation --note "during the lock" >"$T/tag.out" 2>"$T/tag.err"
check_eq "decorum tag succeeds under the lock" 0 $?
check "... without waiting for it" holding
check "... and says the tag change is queued" grep -q 'notmuch is locked; [0-9]* tag change' "$T/tag.err"
"$DECORUM" fsck >"$T/fsck.out" 2>&1
check "fsck counts the queued changes" grep -q 'queued for notmuch' "$T/fsck.out"

# The TUI: tag the first thread, then keep using it.
tm send-keys -t dc Enter
wait_for "Message 1/" || fail "a thread opens under the lock"
tm send-keys -t dc e
wait_for "note (Enter" || fail "e asks for a note under the lock"
tm send-keys -t dc -l "tui during the lock"
tm send-keys -t dc Enter
if wait_for "pending"; then ok "the TUI shows the change as pending"; else fail "the TUI shows the change as pending"; fi
check "... while the lock is still held" holding
tm send-keys -t dc '?'
if wait_for "Move down one line" && holding; then
	ok "the TUI answers keys under the lock (help)"
else
	fail "the TUI answers keys under the lock (help)"
fi
tm send-keys -t dc q q j k
if wait_for "Threads matching" && holding; then
	ok "the TUI answers keys under the lock (back to the list)"
else
	fail "the TUI answers keys under the lock (back to the list)"
fi
tm capture-pane -p -t dc >"$T/pane-locked.txt"
check "the list says what is pending" grep -q ' pending ' "$T/pane-locked.txt"

# Release: the TUI retries on its own; the queue drains.
wait "$holder"
holder=""
if wait_gone " pending "; then ok "after the lock the pending changes are applied"; else fail "after the lock the pending changes are applied"; fi
tm send-keys -t dc Q
wait_for "decorum-exited-0" || fail "the TUI quits cleanly"
check_eq "the outbox is empty" 0 "$(sqlite3 "$DECORUM_STORE" 'SELECT count(*) FROM outbox')"
check "notmuch has the TUI's tag" sh -c "notmuch search --output=threads 'tag:coc/escalation' | grep -q '$t1'"
check "notmuch has the command line's tag" sh -c "notmuch search --output=threads 'tag:coc/escalation' | grep -q '$t2'"
"$DECORUM" fsck >"$T/fsck.out" 2>&1
check "fsck: 0 differences" grep -q '^0 differences' "$T/fsck.out"
"$DECORUM" cases --json >"$T/cases.json"
check_eq "both cases are there" 2 "$(jq length "$T/cases.json")"
check "both notes are there" sh -c "jq -r '.[].notes[].text' '$T/cases.json' | sort | tr '\n' '|' | grep -q 'during the lock|tui during the lock|'"
check "verify passes" "$DECORUM" verify
