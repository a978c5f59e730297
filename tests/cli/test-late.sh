#!/bin/sh
# Replies that join a reported thread after its case was opened: "case
# late N" names exactly them, and the TUI's case panel shows them beside
# the rest of the case (people, outcome, votes).
. "$(dirname "$0")/../lib.sh"
t_setup
export TZ=UTC LC_ALL=C.UTF-8
export DECORUM_AS=test@example.org
unset DECORUM_NOW DECORUM_CONFIG
D="$DECORUM"

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
t1=$(notmuch search --output=threads 'to:conduct@kernel.org' | sed -n '1s/thread://p')
first=$(notmuch search --output=messages --sort=oldest-first "thread:$t1" | sed -n '1s/^id://p')
check "a reported thread with a message to reply to" test -n "$first"

$D tag "$t1" escalation --note "personal attack" >/dev/null 2>&1
check_eq "no late replies right after opening" "[]" \
	"$($D case late 1 --json | jq -c .)"

# Unrelated mail and tag changes on the thread's own messages are not
# replies: only the message that joined the thread is.
cat >"$T/mail/new/late-unrelated:2," <<MSG
From: Someone Else <else@example.org>
To: list@example.org
Subject: an unrelated thread
Date: $(date -R)
Message-ID: <unrelated-late@example.org>

Not part of the case.
MSG
cat >"$T/mail/new/late-reply:2," <<MSG
From: Late Replier <late.replier@example.org>
To: conduct@kernel.org
Subject: Re: the report
Date: $(date -R)
Message-ID: <late-reply@example.org>
In-Reply-To: <$first>
References: <$first>

One more thing happened after the report.
MSG
notmuch new --quiet >/dev/null 2>&1
notmuch tag +seen-by-maintainer -- "thread:$t1" >/dev/null 2>&1
check_eq "the reply joined the reported thread" 1 \
	"$(notmuch count "thread:$t1 and id:late-reply@example.org")"
$D case late 1 --json >"$T/late.json"
check_eq "case late names exactly the new reply" '["late-reply@example.org"]' \
	"$(jq -c . "$T/late.json")"
check_eq "case show lists it too" '["late-reply@example.org"]' \
	"$($D case show 1 --json | jq -c .late_replies)"

# The TUI's case panel, with people, an outcome and a vote recorded.
$D case participant 1 respondent resp@example.org --name "Rex Pondent" >/dev/null
$D case state 1 acknowledged >/dev/null
$D case state 1 investigating >/dev/null
$D case outcome 1 coaching --note "a talk about review tone" >/dev/null
$D case vote 1 --on overturn --member tab1@example.org for >/dev/null
cat >"$T/script" <<'SCRIPT'
resize 130 40
dump late-panel
SCRIPT
"$D" tui --script "$T/script" --dump-dir "$T" "thread:$t1" >"$T/tui.out" 2>&1
check_eq "the TUI runs" 0 $?
p="$T/late-panel.txt"
check "the panel counts the late reply" grep -q "New replies since opened: 1" "$p"
check "... and who sent it" grep -q "+ .*Late Replier" "$p"
check "... and its message id" grep -q "<late-reply@example.org>" "$p"
check "... but not the unrelated mail" sh -c '! grep -q unrelated-late "$1"' _ "$p"
check "the panel shows the state and where it may go" grep -q "state: investigating" "$p"
check "... the allowed next states" grep -q "Next: decided, closed" "$p"
check "the panel shows people by role" grep -q "People: respondent Rex Pondent" "$p"
check "the panel shows the outcome" grep -q "Outcome: Education and coaching\|Outcome: .*[Cc]oaching" "$p"
check "the panel shows the votes and the tally" grep -q "Votes: tab1@example.org for" "$p"
check "... with the tally" grep -q "Tally: 1 for, 0 against" "$p"
if [ -n "${VERBOSE:-}" ]; then cat "$p"; fi
exit 0
