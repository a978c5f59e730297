#!/bin/sh
# case participant --remove takes a person off a case as the TUI's Y
# does (one core function): only someone the case has, as an event the
# history shows, and undo puts them back.
. "$(dirname "$0")/../lib.sh"
t_setup

t_case_fixture
people() { $D case show 1 --json | jq -r '[.participants[] | .role + " " + .address] | join(",")'; }
events() { $D case show 1 --json | jq '.history | length'; }

$D case participant 1 witness wes.witness@example.net >/dev/null
$D case participant 1 handler wes.witness@example.net >/dev/null
check_eq "two roles for one person" "witness wes.witness@example.net,handler wes.witness@example.net" "$(people)"
n=$(events)
$D case participant 1 witness nobody@example.org --remove >/dev/null 2>"$T/err"
check_eq "removing someone the case does not have is refused (exit 1)" 1 $?
check "... saying who is not there" grep -q "nobody@example.org is not the witness of case 1" "$T/err"
$D case participant 1 reporter wes.witness@example.net --remove >/dev/null 2>&1
check_eq "... and so is a role they do not hold" 1 $?
check_eq "... and neither records an event" "$n" "$(events)"
check "removing the handler" $D case participant 1 handler wes.witness@example.net --remove
check_eq "... leaves the witness" "witness wes.witness@example.net" "$(people)"
check "... and the history says so" sh -c '$1 case show 1 | grep -q "removed handler wes.witness@example.net"' _ "$D"
check "undo takes the removal back" $D case undo 1
check_eq "... the handler is back" "witness wes.witness@example.net,handler wes.witness@example.net" "$(people)"
exit $T_FAILED
