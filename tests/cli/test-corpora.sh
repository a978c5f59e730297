#!/bin/sh
# decorum against notmuch on real mail: "list --json" names exactly the
# threads "notmuch search --output=threads" names, and "show --json" gives
# the message ids "notmuch show --format=json" gives, in thread order.
# Runs on the shared corpora (skipped without ../shared) and on our own.
. "$(dirname "$0")/../lib.sh"
t_setup

# Message ids of a "notmuch show --format=json" thread, depth first.
nm_ids() {
	notmuch show --format=json --entire-thread=true "thread:$1" |
		jq -r '[.. | objects | select(has("headers") and
			(.id | type) == "string") | .id] | .[]'
}

compare_corpus() {
	name=$1
	dir=$2
	if ! t_index "$dir"; then
		fail "$name: indexing"
		cat "$T/index.out"
		return
	fi
	for q in '*' 'date:2000..2030' 'from:example.org' 'tag:inbox and not tag:nonesuch'; do
		notmuch search --output=threads "$q" | sed 's/^thread://' >"$T/nm"
		"$DECORUM" list --json "$q" | jq -r '.[].thread' >"$T/dc"
		if cmp -s "$T/nm" "$T/dc"; then
			ok "$name: list '$q' names the threads notmuch names ($(wc -l <"$T/nm"))"
		else
			fail "$name: list '$q' differs from notmuch search"
			diff "$T/nm" "$T/dc" | head -10 | sed 's/^/#   /'
		fi
	done
	# Rows field by field: tests/cli/test-list-rows.sh.
	bad=0
	n=0
	for t in $(notmuch search --output=threads '*' | sed 's/^thread://'); do
		nm_ids "$t" >"$T/nm"
		"$DECORUM" show --json "$t" | jq -r '.messages[].id' >"$T/dc"
		n=$((n + 1))
		if [ ! -s "$T/nm" ] || ! cmp -s "$T/nm" "$T/dc"; then
			bad=$((bad + 1))
			echo "#   thread $t differs:"
			diff "$T/nm" "$T/dc" | head -6 | sed 's/^/#   /'
		fi
	done
	check_eq "$name: show gives notmuch's ids in thread order ($n threads)" 0 "$bad"
}

for c in lkml default threading; do
	if t_have_shared; then
		compare_corpus "$c" "$SHARED/corpora/$c"
	else
		skip "$c: ../shared/corpora not present"
	fi
done
compare_corpus demo "$TOP/tests/corpus/demo"
exit 0
