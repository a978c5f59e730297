#!/bin/sh
# Arguments that are not what they should be are usage errors that say
# so, and every command has its own --help.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
t_index "$TOP/tests/corpus/demo"
t=$(notmuch search --output=threads '*' | head -1 | sed 's/^thread://')
$D tag "$t" escalation >/dev/null 2>&1

for n in 99999999999999999999 0 1x "#" ""; do
	$D case show "$n" >"$T/out" 2>&1
	check_eq "case show '$n' is a usage error" 2 $?
	check "... saying it is no case number" grep -q "is not a case number" "$T/out"
done
$D case show -1 >/dev/null 2>&1
check_eq "case show -1 is a usage error" 2 $?
$D case show "#1" >/dev/null 2>&1
check_eq "case show '#1' works" 0 $?
$D packet 99999999999999999999 -o "$T/pk" >/dev/null 2>&1
check_eq "packet with an overflowing number is a usage error" 2 $?
$D erase --case 99999999999999999999 >/dev/null 2>&1
check_eq "erase with an overflowing number is a usage error" 2 $?

$D verify --head zz >"$T/out" 2>&1
check_eq "verify --head zz is a usage error" 2 $?
check "... saying zz is no hash" grep -q "'zz' is not an event hash" "$T/out"
head=$($D verify --json | jq -r .head)
$D verify --head "$head" >/dev/null 2>&1
check_eq "verify --head with the real head passes" 0 $?
$D verify --head "$(printf %064d 0)" >/dev/null 2>&1
check_eq "verify --head with a hash not in the chain is a data error" 3 $?

for cmd in list show tag cases case member verify fsck doc report packet erase; do
	$D "$cmd" --help >"$T/out" 2>&1
	check_eq "decorum $cmd --help succeeds" 0 $?
	check "... and prints its usage" grep -q "^usage: decorum $cmd " "$T/out"
done

# search.exclude_tags: an excluded message is shown, unmatched, as by
# notmuch show.
notmuch config set search.exclude_tags deleted
m=$(notmuch search --output=messages --exclude=false "thread:$t" | tail -1)
notmuch tag +deleted -- "$m"
want=$(notmuch show --format=json "thread:$t" |
	jq -r '[.. | objects | select(has("id")) | select(.match == true) | .id] | sort | join(" ")')
got=$($D show "$t" --json |
	jq -r '[.messages[] | select(.matched == true) | .id] | sort | join(" ")')
check_eq "show --json matches what notmuch show matches" "$want" "$got"
check "... which leaves the excluded message out" sh -c "! echo '$got' | grep -qF '${m#id:}'"
notmuch tag +deleted -- "thread:$t"
n=$(notmuch count --exclude=false "thread:$t")
got=$($D show "$t" --json | jq '.messages | length')
check_eq "a thread whose every message is excluded is still shown" "$n" "$got"
notmuch tag -deleted -- "thread:$t"
notmuch config set search.exclude_tags

# Lore links only for list mail: a private report to conduct@ is on no
# archive, and its link would spell out a Message-ID that may name the
# reporter.
priv=$(notmuch search --output=threads 'to:conduct@kernel.org' | head -1)
pub=$(notmuch search --output=threads 'to:vger.kernel.org AND NOT to:conduct@kernel.org' | head -1)
check "the demo has private and list mail" test -n "$priv" -a -n "$pub"
got=$($D show "${priv#thread:}" --json | jq -r '[.messages[] | select(.lore != null)] | length')
check_eq "show --json: no lore link for private mail" 0 "$got"
got=$($D show "${pub#thread:}" --json | jq -r '[.messages[] | select(.lore != null)] | length')
check "show --json: a lore link for list mail" test "$got" -gt 0

MANWIDTH=200 man -l "$TOP/docs/decorum.1" 2>/dev/null |
	sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' >"$T/syn"
for cmd in report packet erase; do
	check "the man page's SYNOPSIS has $cmd" grep -q "decorum .*$cmd" "$T/syn"
done
MANWIDTH=200 man -l "$TOP/docs/decorum.1" 2>/dev/null |
	sed -n '/^KEYS/,/^JSON OUTPUT/p' >"$T/keys"
check "the KEYS section lists no commands" sh -c "! grep -qE '^ +(report|packet|erase) ' '$T/keys'"
exit $T_FAILED
