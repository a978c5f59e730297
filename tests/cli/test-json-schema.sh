#!/bin/sh
# Every JSON output against the man page: the JSON OUTPUT section names
# each object's keys in order, once; each command's output (and the
# packet's JSON files) must have exactly those keys, in that order, for
# every object it holds.  A key added to the code but not to the man page,
# or the other way round, fails here.
. "$(dirname "$0")/../lib.sh"
t_setup

MAN="$TOP/docs/decorum.1"
# name: key key key ..., one line an object, from the Objects subsection.
awk '
	/^\.SS Objects/ { on = 1; next }
	on && /^\.S[HS] / { on = 0 }
	!on { next }
	/^\.TP/ { tp = 1; next }
	tp && /^\.I / { if (name) print name ":" keys; name = $2; keys = ""; tp = 0; next }
	{ tp = 0 }
	/^\.BR? / { keys = keys " " $2 }
	END { if (name) print name ":" keys }
' "$MAN" >"$T/objects"
check "the man page describes the objects" test "$(wc -l <"$T/objects")" -ge 20

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
D="$DECORUM"
export DECORUM_AS=test@example.org
t1=$(notmuch search --output=threads 'to:conduct@kernel.org' | sed -n 1p | sed 's/thread://')

# A case with something in every list.
$D tag "$t1" escalation --note "first note" >"$T/tag.out" 2>&1 || fail "tag"
$D case participant 1 respondent respondent@example.com --name "Res Pondent" >/dev/null
$D case conflict 1 other@example.org --note "works with them" >/dev/null
$D case state 1 investigating >/dev/null
$D case outcome 1 measure --what "patches not accepted" --scope sched --until v7.30 >/dev/null
$D case outcome 1 coaching >/dev/null
$D member add tab1@example.org --role tab --joined 2020-01-01 --json >"$T/member-change.json"
$D case vote 1 --on overturn --member tab1@example.org for >/dev/null
$D case state 1 decided --json >"$T/case-change.json"

$D list --json >"$T/list.json"
$D show "$t1" --json >"$T/show.json"
$D cases --json >"$T/cases.json"
$D case show 1 --json >"$T/case.json"
$D case tally 1 --json >"$T/tally.json"
$D case late 1 --json >"$T/late.json"
$D case expiring --release v7.30 --json >"$T/expiring.json"
$D case people 1 --json >"$T/people.json"
$D member list --json >"$T/members.json"
$D member whoami --json >"$T/whoami.json"
$D verify --json >"$T/verify.json"
$D doc --list --json >"$T/doclist.json"
$D doc escalation --json >"$T/doc.json"
$D packet 1 -o "$T/p" >/dev/null
cp "$T/p/timeline.json" "$T/timeline.json"
cp "$T/p/decisions.json" "$T/decisions.json"
# fsck with a difference (a case tag taken away in notmuch) and a message
# of a case that is gone from the index.
t2=$(notmuch search --output=threads 'to:conduct@kernel.org' | sed -n 2p | sed 's/thread://')
$D tag "$t2" escalation >/dev/null 2>&1
notmuch tag -coc/case-1 -- "thread:$t1"
notmuch search --output=files "thread:$t2" | xargs rm -f
notmuch new --quiet >/dev/null 2>&1
$D fsck --json >"$T/fsck.json"
# A message with an attachment: the demo corpus has one somewhere.
att=$(jq -r '[.[] | .thread] | .[]' "$T/list.json" | while read -r t; do
	if $D show "$t" --json | jq -e '[.messages[].attachments[]] | length > 0' >/dev/null; then
		echo "$t"; break
	fi
done)

# file, jq path to objects (a stream), object name
cat >"$T/map" <<EOM
list.json	.[]	thread-row
list.json	.[] | .case | select(. != null)	case-badge
show.json	.	thread
show.json	.messages[]	message
cases.json	.[]	case-row
cases.json	.[].notes[]	note
case.json	.	case
case.json	.messages[]	case-mail
case.json	.participants[]	participant
case.json	.conflicts[]	conflict
case.json	.outcome	outcome
case.json	.outcomes[]	outcome
case.json	.votes[]	vote
case.json	.tally	tally
case.json	.notes[]	note
case.json	.history[]	event
tally.json	.	tally
case-change.json	.	case-change
expiring.json	.[]	expiry
expiring.json	.[].measure	outcome
people.json	.[]	person
people.json	.[].forms[]	form
members.json	.[]	member
whoami.json	.	identity
member-change.json	.	member-change
verify.json	.	verify
fsck.json	.	fsck
fsck.json	.differences[]	fsck-difference
fsck.json	.missing[]	fsck-missing
doclist.json	.[]	doclink
doc.json	.	doc-section
timeline.json	.[]	event
decisions.json	.	decisions
decisions.json	.outcomes[]	outcome
decisions.json	.votes[]	vote
decisions.json	.tally	tally
EOM
if [ -n "$att" ]; then
	$D show "$att" --json >"$T/att.json"
	printf 'att.json\t.messages[].attachments[]\tattachment\n' >>"$T/map"
else
	skip "no message with an attachment in the demo corpus"
fi

check "case late --json is an array of strings" jq -e 'type == "array" and all(.[]; type == "string")' "$T/late.json"

tab=$(printf '\t')
# schema FILE PATH NAME OBJECTS: the keys of every NAME object at PATH in
# FILE are the man page's, in order (0), or they are not (1).
schema() {
	want=$(sed -n "s/^$3: //p" "$4")
	[ -n "$want" ] || { echo "the man page does not describe $3"; return 1; }
	n=$(jq "[$2] | length" "$T/$1")
	[ "${n:-0}" -gt 0 ] || { echo "no $3 object in $1 at $2"; return 1; }
	bad=$(jq -r "[$2] | map(keys_unsorted | join(\" \")) | unique | .[]" "$T/$1" | grep -vx "$want")
	[ -z "$bad" ] || { printf 'man:  %s\njson: %s\n' "$want" "$bad"; return 1; }
	echo "$n"
}
while IFS="$tab" read -r file path name; do
	check "$file $path: each $name has the man page's keys in order" \
		schema "$file" "$path" "$name" "$T/objects"
done <"$T/map"
# The check itself fails on a key too many, one missing, or the order.
sed 's/^tally: rule for/tally: for rule/' "$T/objects" >"$T/objects.order"
sed 's/^verify: ok /verify: ok extra /' "$T/objects" >"$T/objects.extra"
sed 's/^member: address name/member: address/' "$T/objects" >"$T/objects.fewer"
# differs FILE PATH NAME OBJECTS: schema fails, for the keys.
differs() {
	! schema "$@" >"$T/differs.out" && grep -q '^json: ' "$T/differs.out"
}
check "the check itself passes on the man page's keys" schema tally.json . tally "$T/objects"
check "a key order the man page does not give fails" differs tally.json . tally "$T/objects.order"
check "a key the output lacks fails" differs verify.json . verify "$T/objects.extra"
check "a key the man page lacks fails" differs members.json ".[]" member "$T/objects.fewer"

# Each object the man page describes is checked above.
while IFS=: read -r name keys; do
	check "$name is checked against some output" grep -q "$tab$name\$" "$T/map"
done <"$T/objects"

# One rule for times: ISO 8601 UTC or null, in every output.
check "every time is ISO 8601 UTC or null" jq -e -s '
	[.. | objects | to_entries[] |
	 select(.key | IN("at","created","updated","reported","joined","left","from","until")) |
	 .value | select(. != null and (type != "string" or (test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$") | not)))] | length == 0' \
	"$T/cases.json" "$T/case.json" "$T/members.json" "$T/timeline.json" "$T/decisions.json" "$T/expiring.json"
check "a member who has not left has left: null" jq -e '.[0].left == null' "$T/members.json"
check "a measure's from is null when it was not given" jq -e '.outcome.from == null or (.outcome.from | type == "string")' "$T/case.json"

exit 0
