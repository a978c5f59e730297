#!/bin/sh
# Several threads per case: attach a thread or one message to a case and
# detach it again, each an event anchored by Message-ID; the report stays;
# undo reverses the mail too; the TAB packet's thread.mbox holds every
# attached message once, oldest first.
. "$(dirname "$0")/../lib.sh"
t_setup

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
D="$DECORUM"
export DECORUM_AS=test@example.org
bare() { sed 's/^thread://'; }
report=$(notmuch search --output=threads 'to:conduct@kernel.org' | bare | sed -n 1p)
# Two list threads the report might be about: one of several messages,
# and another whose first message is attached alone.
big=$(for t in $(notmuch search --output=threads 'not to:conduct@kernel.org' | bare); do
	[ "$(notmuch count "thread:$t")" -ge 2 ] && { echo "$t"; break; }
done)
small=$(notmuch search --output=threads "not to:conduct@kernel.org and not thread:$big" | bare | sed -n 1p)
check "a report thread and two list threads" test -n "$report" -a -n "$big" -a -n "$small"
single=$(notmuch search --output=messages "thread:$small" | tail -n 1 | sed 's/^id://')
first_big=$(notmuch search --sort=oldest-first --output=messages "thread:$big" | head -n 1 | sed 's/^id://')

$D tag "$report" escalation --note "about the list threads" >/dev/null 2>&1
check "attach a thread" $D case attach 1 "$big"
check_eq "... the thread is the case's" 2 "$($D case show 1 --json | jq '[.threads[]] | length')"
check_eq "... every message of it by Message-ID" \
	"$(notmuch search --output=messages "thread:$big" | sed 's/^id://' | sort)" \
	"$($D case show 1 --json | jq -r '.messages[] | select(.role != "report") | .message_id' | sort)"
check_eq "... recorded as an attach event anchored at its first message" \
	"attach $first_big" \
	"$($D case show 1 --json | jq -r '.history[-1] | "\(.type) \(.summary)"' | sed 's/^\(attach\) attached the thread of <\([^>]*\)>.*/\1 \2/')"
$D case attach 1 "$big" >/dev/null 2>"$T/err"
check_eq "attaching it twice is refused (exit 3)" 3 $?
check "... saying the case covers it" grep -q "already covers" "$T/err"
check_eq "its messages carry the case's tag" "$(notmuch count "thread:$big")" "$(notmuch count "thread:$big and tag:coc/case-1")"
$D case show 1 >"$T/show.txt"
check "case show lists the attached thread" grep -q "^thread:   $big" "$T/show.txt"

check "attach one message alone" $D case attach 1 "id:$single" --message
check_eq "... with scope message" message \
	"$($D case show 1 --json | jq -r --arg m "$single" '.messages[] | select(.message_id == $m) | .scope')"
check "... shown as that message only" sh -c "$D case show 1 | grep -q '<$single> (this message only)'"
check_eq "... and only it is tagged in its thread" 1 "$(notmuch count "thread:$small and tag:coc/case-1")"
check "fsck finds the tags of attached mail in step" $D fsck
$D case attach 1 "id:no-such-message@example.org" >/dev/null 2>&1
check_eq "a message not in the index is not found (exit 1)" 1 $?
$D case attach 9 "$big" >/dev/null 2>&1
check_eq "attaching to a missing case is not found (exit 1)" 1 $?

# The packet: every message once, oldest first.
$D packet 1 -o "$T/p" >/dev/null 2>&1
check_eq "packet exits 0" 0 $?
want=$( (notmuch search --output=messages "thread:$report"; notmuch search --output=messages "thread:$big"; echo "id:$single") | sed 's/^id://' | sort -u)
got=$(awk '/^From mboxrd@z / { hdr = 1; next } hdr && /^$/ { hdr = 0 }
	hdr && tolower($0) ~ /^message-id:/ { sub(/^[^:]*:[ \t]*</, ""); sub(/>.*$/, ""); print }' "$T/p/thread.mbox")
check_eq "thread.mbox holds the report, the thread and the message" "$want" "$(echo "$got" | sort)"
check_eq "... each once" "$(echo "$got" | wc -l)" "$(echo "$got" | sort -u | wc -l)"
dates=$(for m in $got; do notmuch search --output=files "id:$m" | head -n 1 | xargs -I{} sh -c 'date -d "$(sed -n "s/^Date: //p" "{}" | head -n 1)" +%s'; done)
check_eq "... a date for each" "$(echo "$got" | wc -l)" "$(echo "$dates" | grep -c .)"
check_eq "... oldest first" "$(echo "$dates" | sort -n)" "$dates"

# Detach.
reportid=$($D case show 1 --json | jq -r '.messages[] | select(.role == "report") | .message_id')
$D case detach 1 "id:$reportid" >/dev/null 2>"$T/err"
check_eq "detaching the report is refused (exit 3)" 3 $?
check "... saying it is the report" grep -q "is the report of case 1" "$T/err"
$D case detach 1 "$report" >/dev/null 2>&1
check_eq "... and so is its thread" 3 $?
check "detach the single message" $D case detach 1 "id:$single"
check_eq "... it left the case" 0 "$($D case show 1 --json | jq --arg m "$single" '[.messages[] | select(.message_id == $m)] | length')"
check_eq "... and its tag left it" 0 "$(notmuch count "id:$single and tag:coc/case-1")"
check_eq "... recorded as a detach event" detach "$($D case show 1 --json | jq -r '.history[-1].type')"
$D case detach 1 "id:$single" >/dev/null 2>&1
check_eq "detaching it again is not found (exit 1)" 1 $?
check "undo the detach" $D case undo 1
check_eq "... the message is back" 1 "$($D case show 1 --json | jq --arg m "$single" '[.messages[] | select(.message_id == $m)] | length')"
check_eq "... and tagged again" 1 "$(notmuch count "id:$single and tag:coc/case-1")"
check "detach the thread by a message of it" $D case detach 1 "id:$first_big"
check_eq "... every message of it left" 0 "$(notmuch count "thread:$big and tag:coc/case-1")"
check "undo the detach of the thread" $D case undo 1
check_eq "... all of it is back" "$(notmuch count "thread:$big")" "$(notmuch count "thread:$big and tag:coc/case-1")"
check "undo again: the attach of the single message" $D case undo 1
check_eq "... it is off the case" 0 "$(notmuch count "thread:$small and tag:coc/case-1")"
check "undo again: the attach of the thread" $D case undo 1
check_eq "... it is off the case" 0 "$(notmuch count "thread:$big and tag:coc/case-1")"
check_eq "... and the report is still the case's" 1 "$($D case show 1 --json | jq '[.threads[]] | length')"
# Another report of the same incident: a thread attached --report is one
# more report of the case, and says so in its history.
other=$(notmuch search --output=threads 'to:conduct@kernel.org' | bare | sed -n 2p)
check "attach a second report's thread --report" $D case attach 1 "$other" --report
other_first=$(notmuch search --sort=oldest-first --output=messages "thread:$other" | head -n 1 | sed 's/^id://')
check_eq "... its first message is the case's second report" \
	"$(notmuch search --output=messages "thread:$report" | sed 's/^id://' | head -n 1) $other_first" \
	"$($D case show 1 --json | jq -r '[.messages[] | select(.role == "report") | .message_id] | join(" ")')"
check "... and the history says it came as another report" sh -c \
	"$D case show 1 --json | jq -r '.history[-1].summary' | grep -q 'as another report\$'"
# Its sender is a reporter too: the redacted packet hides both.
second=$(notmuch address --output=address "id:$other_first" | head -n 1)
$D packet 1 --redact -o "$T/p-two" >/dev/null 2>"$T/p-two.err"
check_eq "the packet of a case with two reports is written" 0 $?
check "... and hides the second reporter's address" sh -c '! grep -rqiF "$1" "$2"' _ "${second:-none}" "$T/p-two"
check "... which it holds mail from" test -n "$second"
check "undo it" $D case undo 1
# Access: who may not see the case may not attach to it.
$D member add committee@example.org --role committee --joined 2099-01-01 >/dev/null
$D --as committee@example.org case attach 1 "$big" >/dev/null 2>&1
check_eq "a member who may not see the case cannot attach (exit 1)" 1 $?
check "verify still passes" $D verify
check "fsck finds the notmuch tags in step" $D fsck
exit $T_FAILED
