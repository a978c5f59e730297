#!/bin/sh
# End to end in a real terminal (tmux): open a thread, escalate it with a
# note, undo, escalate again, quit; then "decorum cases --json" shows
# exactly one escalation with the note.  A report full of escape
# sequences is opened on the way: none may reach the terminal.
. "$(dirname "$0")/../lib.sh"
t_setup

if ! command -v tmux >/dev/null 2>&1; then
	skip "tmux end-to-end test (tmux is not installed)"
	exit 0
fi
unset NO_COLOR DECORUM_NOW VISUAL EDITOR TMUX
export LC_ALL=C.UTF-8 TZ=UTC
t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
esc=$(printf '\033')
bel=$(printf '\007')
printf 'From: Mallory <mallory@example.com>\nTo: conduct@kernel.org\nSubject: hostile %s]0;pwned%s %s[2J report\nDate: Tue, 01 Dec 2026 10:00:00 +0000\nMessage-ID: <tmux-hostile@example.com>\n\nA body %s[5;31mblinking%s[0m and %s]52;c;aGVsbG8=%s clipboard.\n' \
	"$esc" "$bel" "$esc" "$esc" "$esc" "$esc" "$bel" \
	>"$T/mail/cur/1796100000.M9P9.tmux:2,S"
notmuch new --quiet >/dev/null 2>&1

. "$TOP/tests/e2e/tmux-lib.sh"
t_tmux decorum-test

tm new-session -d -s dc -x 100 -y 30 \
	"env TERM=screen-256color '$DECORUM' tui; echo decorum-exited-\$?; sleep 30"
step "the TUI opens on the thread list" "Threads matching"
tm send-keys -t dc Enter
step "Enter opens the newest report, a private one with no lore link" "(private mail, not on lore)"

# Only colour (SGR) sequences, tmux's own, may be in the pane.
tm capture-pane -p -e -t dc >"$T/pane.txt"
if sed 's/\x1b\[[0-9;:]*m//g' "$T/pane.txt" | grep -q "$esc"; then
	fail "no escape sequence from mail reaches the terminal"
	sed -n l "$T/pane.txt" | head -20 | sed 's/^/#   /'
else
	ok "no escape sequence from mail reaches the terminal"
fi
sed 's/\x1b\[[0-9;:]*m//g' "$T/pane.txt" >"$T/plain.txt"
check "the escapes are shown as ␛" grep -q '␛\]0;pwned␇' "$T/plain.txt"
title=$(tm display-message -p -t dc '#{pane_title}')
check "the mail did not set the terminal title" test "$title" != pwned

tm send-keys -t dc e
step "e asks for a note" "note (Enter"
tm send-keys -t dc -l "personal attack in review"
tm send-keys -t dc Enter
step "the case is opened" "opened as Escalation"
step "the case panel shows it" "Case #1 Escalation"
tm send-keys -t dc u
step "u asks before undoing" "Undo your last change"
tm send-keys -t dc y
step "the change is undone" "Undone"
tm send-keys -t dc e
step "e asks for a note again" "note (Enter"
tm send-keys -t dc -l "personal attack, second look"
tm send-keys -t dc Enter
step "the case is opened again" "Escalation, with a note"
tm send-keys -t dc q
step "q goes back to the list" "Threads matching"
tm send-keys -t dc q
step "q quits" "decorum-exited-0"
tm kill-server >/dev/null 2>&1

"$DECORUM" cases --json >"$T/cases.json" 2>"$T/cases.err"
check_eq "exactly one case" 1 "$(jq length "$T/cases.json")"
check_eq "it is an escalation" escalation "$(jq -r '.[0].kind' "$T/cases.json")"
check_eq "with the note" "personal attack, second look" \
	"$(jq -r '[.[0].notes[].text] | last' "$T/cases.json")"
exit 0
