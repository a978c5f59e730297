#!/bin/sh
# A committee's session in a real terminal, in the TUI alone: two
# reports of one incident become one case, the public thread they are
# about is attached, the committee decides, the TAB votes on overturning
# it, and the first reporter gets an acknowledgement.  Then the store,
# the notmuch tags, the sent mail and the packet say the same.
. "$(dirname "$0")/../lib.sh"
t_setup

if ! command -v tmux >/dev/null 2>&1; then
	skip "tmux committee test (tmux is not installed)"
	exit 0
fi
unset NO_COLOR VISUAL EDITOR TMUX
export LC_ALL=C.UTF-8 TZ=UTC DECORUM_NOW=1796284800 # 2026-12-03
t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }

# The incident: a public thread, and two fictional people reporting it.
cat >"$T/mail/cur/1796100000.M1.committee:2,S" <<'EOF'
From: Lister Brusque <brusque@example.org>
To: linux-kernel@vger.kernel.org
Subject: [PATCH] mm: the offending thread
Date: Mon, 30 Nov 2026 09:00:00 +0000
Message-ID: <offending-1@example.org>

This patch is garbage and so are you.
EOF
cat >"$T/mail/cur/1796100001.M2.committee:2,S" <<'EOF'
From: Wren Abernathy <wren.abernathy@example.net>
To: conduct@kernel.org
Subject: incident report one
Date: Mon, 30 Nov 2026 10:00:00 +0000
Message-ID: <incident-one@example.net>

A personal attack in the thread <offending-1@example.org>.
EOF
cat >"$T/mail/cur/1796100002.M3.committee:2,S" <<'EOF'
From: Tamsin Okafor <tamsin.okafor@example.com>
To: conduct@kernel.org
Subject: incident report two
Date: Mon, 30 Nov 2026 11:00:00 +0000
Message-ID: <incident-two@example.com>

I saw the same insult in the mm thread this morning.
EOF
notmuch new --quiet >/dev/null 2>&1

# Replies go through a stand-in for sendmail; the editor adds a line.
cat >"$T/sendmail" <<EOF
#!/bin/sh
cat >"$T/sent.eml"
EOF
cat >"$T/editor" <<'EOF'
#!/bin/sh
echo "We will be in touch within a week." >>"$1"
EOF
chmod +x "$T/sendmail" "$T/editor"
printf '[mail]\nsendmail = %s\n[templates]\nack = Thank you for your report about {subject} (case {case}).\n' \
	"$T/sendmail" >"$T/decorum.conf"
export DECORUM_CONFIG="$T/decorum.conf"

. "$TOP/tests/e2e/tmux-lib.sh"
t_tmux decorum-committee

tm new-session -d -s dc -x 160 -y 45 \
	"env TERM=screen-256color VISUAL='$T/editor' '$DECORUM' tui; echo decorum-exited-\$?; sleep 60"
step "the TUI opens" "Threads matching"

search() {
	tm send-keys -t dc / && wait_for "Query:" >/dev/null
	tm send-keys -t dc C-U
	tm send-keys -t dc -l "$1" && tm send-keys -t dc Enter
}

# 1. The first report becomes a case.
search 'subject:"incident report one"'
step "the first report is found" "incident report one"
tm send-keys -t dc e && wait_for "note" >/dev/null
tm send-keys -t dc -l "two reports of one insult in mm" && tm send-keys -t dc Enter
step "it is escalated as case 1" "Case #1"

# 2. The second report joins that case as another report.
search 'subject:"incident report two"'
step "the second report is found" "incident report two"
tm send-keys -t dc A
step "A offers the open cases" "Attach to which case? 1 #1"
tm send-keys -t dc -l 1 && tm send-keys -t dc Enter
step "A asks what to attach" "the thread as another report"
tm send-keys -t dc r
step "the second report is the case's" "attached as another report"

# 3. The thread the reports are about.
search 'subject:"the offending thread"'
step "the offending thread is found" "the offending thread"
tm send-keys -t dc A && wait_for "Attach to which case?" >/dev/null
tm send-keys -t dc -l 1 && tm send-keys -t dc Enter
wait_for "[T/m/r]" >/dev/null
tm send-keys -t dc Enter
step "the offending thread is attached" "this thread is attached"

# 4. The committee decides; the TAB votes on overturning it.
search 'subject:"incident report one"'
wait_for "incident report one" >/dev/null
tm send-keys -t dc s && wait_for "state" >/dev/null
tm send-keys -t dc -l inv && tm send-keys -t dc Enter
step "the case is investigated" "investigating"
tm send-keys -t dc o && wait_for "outcome" >/dev/null
tm send-keys -t dc -l coaching && tm send-keys -t dc Enter
wait_for "Note" >/dev/null
tm send-keys -t dc -l "education and coaching for the sender" && tm send-keys -t dc Enter
step "the decision is recorded" "Education and coaching"
tm send-keys -t dc v
step "v asks which question" "vote on which question"
tm send-keys -t dc -l over && tm send-keys -t dc Enter
step "... then the vote" "Does the TAB overturn the committee's decision?"
tm send-keys -t dc -l against && tm send-keys -t dc Enter
step "... then whose" "Whose vote"
tm send-keys -t dc Enter
step "the vote is recorded" "votes against on overturn"

# 5. An acknowledgement to the first reporter.
tm send-keys -t dc r
step "r asks for a template" "Template (Tab completes"
tm send-keys -t dc -l ack && tm send-keys -t dc Enter
step "after the editor, r asks to send" "Send? [y/N/e(dit again)]"
tm send-keys -t dc y
step "the reply is sent and recorded" "Replied to <incident-one@example.net>"
tm send-keys -t dc Q
step "decorum quits cleanly" "decorum-exited-0"

# What the session left behind.
"$DECORUM" case show 1 --json >"$T/show.json"
check_eq "one case for the incident" 1 "$("$DECORUM" cases --json | jq 'length')"
check_eq "... with both reports" \
	"incident-one@example.net incident-two@example.com" \
	"$(jq -r '[.messages[] | select(.role == "report") | .message_id] | sort | join(" ")' "$T/show.json")"
check "... and the offending thread" jq -e \
	'[.messages[] | select(.message_id == "offending-1@example.org")] | length == 1' "$T/show.json"
# The three mails and the reply, which joined the first report's thread.
check_eq "its messages carry the case's tag, the reply's too" 4 "$(notmuch count tag:coc/case-1)"
check_eq "the history holds each step, in order" \
	"open attach attach state outcome vote reply" \
	"$(jq -r '[.history[] | select(.type != "note") | .type] | join(" ")' "$T/show.json")"
check "the vote is against, on overturn" jq -e \
	'.votes[0].vote == "against" and .votes[0].question == "overturn"' "$T/show.json"
check "the reply went to the first reporter" grep -qi '^To: .*wren.abernathy@example.net' "$T/sent.eml"
check "... in reply to the report" grep -qi '^In-Reply-To: <incident-one@example.net>' "$T/sent.eml"
check "... with the template filled in" grep -q 'Thank you for your report about incident report one (case 1)' "$T/sent.eml"
check "... and the editor's line" grep -q 'We will be in touch within a week' "$T/sent.eml"
check_eq "the sent copy is in notmuch" 1 "$(notmuch count tag:sent)"
"$DECORUM" packet 1 --redact -o "$T/packet" >/dev/null 2>"$T/packet.err"
check_eq "the redacted packet is written" 0 $?
check "... holding the offending thread" grep -q '^Message-I[Dd]: *<offending-1@example.org>' "$T/packet/thread.mbox"
if grep -riq "abernathy\|okafor" "$T/packet"; then
	fail "... and neither reporter"
	grep -ril "abernathy\|okafor" "$T/packet" | sed 's/^/#   /'
	grep -rin "abernathy\|okafor" "$T/packet" | cut -c1-160 | head -8 | sed 's/^/#   /'
else
	ok "... and neither reporter"
fi
check "... and the vote's question on its cover" grep -q '^  On overturn: ' "$T/packet/cover.eml"
"$DECORUM" fsck >"$T/fsck.out" 2>&1
check "fsck finds 0 differences" grep -q '^0 differences' "$T/fsck.out"
check "verify passes" "$DECORUM" verify
exit $T_FAILED
