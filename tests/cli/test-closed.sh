#!/bin/sh
# Closed cases never vanish: the list and the case list keep showing
# them, and tagging their thread again asks to reopen or to open anew.
. "$(dirname "$0")/../lib.sh"
t_setup

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
D="$DECORUM"
export DECORUM_AS=test@example.org
t1=$(notmuch search --output=threads 'to:conduct@kernel.org' | sed 's/thread://' | sed -n 1p)

$D tag "$t1" escalation --note "first" >/dev/null 2>&1
$D case state 1 closed >/dev/null
check "decorum list shows the closed case on its thread" sh -c "$D list 'thread:$t1' | grep -q '\[case 1: escalation, closed\]'"
check_eq "... and in --json" closed "$($D list "thread:$t1" --json | jq -r '.[0].case.state')"
check_eq "decorum cases lists the closed case" closed "$($D cases --json | jq -r '.[0].state')"
check "... and in text" sh -c "$D cases | grep -q '^#1 .* closed '"
$D tag "$t1" escalation >/dev/null 2>"$T/err"
check_eq "tagging a thread of a closed case is refused (exit 3)" 3 $?
check "... naming --reopen" grep -q -- "--reopen" "$T/err"
check "... and --new" grep -q -- "--new" "$T/err"
check_eq "... and nothing was opened" 1 "$($D cases --all --json | jq length)"
$D tag "$t1" escalation --reopen --new >/dev/null 2>&1
check_eq "--reopen and --new together are a usage error" 2 $?
check "--reopen reopens the case and tags it" $D tag "$t1" admonition --reopen --note "again"
check_eq "... it is investigating" investigating "$($D case show 1 --json | jq -r .state)"
check_eq "... and an admonition now" admonition "$($D case show 1 --json | jq -r .kind)"
check_eq "... the reopening is a state event" "closed investigating" \
	"$($D case show 1 --json | jq -r '[.history[] | select(.type == "state")][-1].summary' | sed 's/ -> / /')"
check_eq "... no new case" 1 "$($D cases --json | jq length)"
$D case state 1 closed >/dev/null
check "--new opens a new case beside it" $D tag "$t1" escalation --new
check_eq "... two cases now" 2 "$($D cases --json | jq length)"
check_eq "... the first still closed" closed "$($D case show 1 --json | jq -r .state)"
check_eq "the list shows the open one" 2 "$($D list "thread:$t1" --json | jq -r '.[0].case.id')"
exit $T_FAILED
