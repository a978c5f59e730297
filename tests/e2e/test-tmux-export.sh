#!/bin/sh
# End to end in a real terminal (tmux): the week's report and a redacted
# TAB packet in a few keystrokes.  R previews the report, w writes it
# where the prompt suggests, f shows the published form and w writes that
# as a mail; a report is escalated with a note, P writes
# its packet with the defaults (redacted).  On disk: the files the
# messages name, 0600 files in a 0700 directory, a manifest that checks
# and no trace of the reporter.
. "$(dirname "$0")/../lib.sh"
t_setup

if ! command -v tmux >/dev/null 2>&1; then
	skip "tmux export test (tmux is not installed)"
	exit 0
fi
unset NO_COLOR VISUAL EDITOR TMUX
export LC_ALL=C.UTF-8 TZ=UTC DECORUM_NOW=1796284800 # 2026-12-03
t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }

. "$TOP/tests/e2e/tmux-lib.sh"
t_tmux decorum-export

tm new-session -d -s dc -x 100 -y 30 \
	"env TERM=screen-256color HOME='$HOME' '$DECORUM' tui; echo decorum-exited-\$?; sleep 30"
step "the TUI opens on the thread list" "Threads matching"

tm send-keys -t dc R
step "R previews the week's report" "Code of Conduct report, 2026-11-27"
tm send-keys -t dc G
step "... with the chart of reports per week" "Reports per week"
tm send-keys -t dc w
step "w asks where, suggesting a file" "~/decorum-report-2026-12-03.txt"
tm send-keys -t dc Enter
step "the message names the file" "written to ~/decorum-report-2026-12-03.txt"
tm send-keys -t dc f
step "f shows the published form" "Reports received: 0"
tm send-keys -t dc w
step "w asks where, suggesting a mail" "~/decorum-published-2026-12-03.eml"
tm send-keys -t dc Enter
step "the message names it" "written to ~/decorum-published-2026-12-03.eml"
tm send-keys -t dc q
step "q goes back to the list" "Threads matching"

# The newest report: Eleni Papadopoulou's (tests/corpus/README.md, R4).
tm send-keys -t dc Enter
step "Enter opens the report" "Report: personal attacks in sched/fair"
tm send-keys -t dc e
step "e asks for a note" "note (Enter"
tm send-keys -t dc -l "personal attack in review"
tm send-keys -t dc Enter
step "the case is opened" "opened as Escalation"
tm send-keys -t dc P
step "P asks for the directory" "~/decorum-packet-case-1"
tm send-keys -t dc Enter
step "P asks whether to redact" "Redact the reporter? [Y/n]"
tm send-keys -t dc Enter
step "P asks whether the packet is final" "leave undone events out? [y/N]"
tm send-keys -t dc Enter
step "P offers a reply-by day" "Ask the TAB to reply by: 2026-12-17"
tm send-keys -t dc Enter
step "the message names the packet" "packet written to ~/decorum-packet-case-1"
step "... and the reply-by day" "reply by 2026-12-17"
tm send-keys -t dc Q
step "Q quits" "decorum-exited-0"
tm kill-server >/dev/null 2>&1

rep="$HOME/decorum-report-2026-12-03.txt"
pk="$HOME/decorum-packet-case-1"
pub="$HOME/decorum-published-2026-12-03.eml"
check "the published form is written" grep -q '^Subject: Code of Conduct Committee report' "$pub"
check_eq "... 0600" 600 "$(stat -c %a "$pub" 2>/dev/null)"
check "the report file exists" test -s "$rep"
check_eq "... 0600" 600 "$(stat -c %a "$rep" 2>/dev/null)"
check "... with its chart" grep -q '▁' "$rep"
check "the packet directory exists" test -d "$pk"
check_eq "... 0700" 700 "$(stat -c %a "$pk" 2>/dev/null)"
check_eq "... its files 0600" "" "$(find "$pk" -type f ! -perm 0600 2>/dev/null)"
check "... its manifest checks" sh -c 'cd "$1" && sha256sum -c --quiet MANIFEST.sha256' _ "$pk"
check "... it holds the thread" grep -q '^Subject: Report: personal attacks' "$pk/thread.mbox"
for who in eleni papadopoulou 'Ελένη' 'Παπαδοπούλου'; do
	if grep -riqF -- "$who" "$pk" "$rep"; then
		fail "the reporter ($who) is in neither export"
		grep -riF -- "$who" "$pk" "$rep" | head -5 | sed 's/^/#   /'
	else
		ok "the reporter ($who) is in neither export"
	fi
done
exit 0
