#!/bin/sh
# "decorum list" rows against "notmuch search": the same threads in the
# same order, with the same dates, subjects and counts, newest and oldest
# first, with search.exclude_tags set.  A large thread's row is built from
# counts and its oldest few matches (core/mail/mail.c): its authors must be a
# prefix of notmuch's and its tags a part of them.  Newest first, the
# list walks windows of time back from now (core/mail/mail.c): the rows
# are compared again with "now" (DECORUM_NOW) inside the archive, before
# it and a day after its newest message, so that window edges cut
# through threads and days.  Runs on the demo
# corpus, on archives from tests/bench/genmail (threads of 1,000
# messages), and on ../shared's corpora and genmaildir when present.
. "$(dirname "$0")/../lib.sh"
t_setup

# rows FILE SORT: the exact fields of a list, one JSON line a thread.
nm_rows() {
	notmuch search --format=json --sort="$2" "$1" | jq -c '.[] |
		[.thread, .timestamp, .matched, .total,
		 (.subject | gsub("[\u0000-\u001f\u007f]"; " "))]'
}

dc_rows() {
	if [ "$2" = oldest-first ]; then
		"$DECORUM" list --json --oldest-first "$1" |
			jq -c '.[] | [.thread, .oldest, .matched, .total, .subject]'
	else
		"$DECORUM" list --json "$1" |
			jq -c '.[] | [.thread, .timestamp, .matched, .total, .subject]'
	fi
}

# (decorum shows control characters as spaces: core/base/sanitize.c)
# Authors a prefix, tags a subset; exact where the row is not partial.
parts_bad() {
	flag=
	[ "$2" = oldest-first ] && flag=--oldest-first
	notmuch search --format=json --sort="$2" "$1" >"$T/nm.json"
	"$DECORUM" list --json $flag "$1" >"$T/dc.json"
	jq -n --slurpfile n "$T/nm.json" --slurpfile d "$T/dc.json" '
		def clean: gsub("[\u0000-\u001f\u007f]"; " ");
		[range($n[0] | length) as $i | $n[0][$i] as $a | $d[0][$i] as $b |
		 select($b == null or
			(if $b.partial then
			   ($a.authors | clean | startswith($b.authors) | not) or
			   (($b.tags - $a.tags) | length > 0)
			 else ($a.authors | clean) != $b.authors or $a.tags != $b.tags
			 end)) | $a.thread] | length'
}

compare() {
	name=$1
	partial=0
	for q in '*' 'tag:inbox' 'date:2000..2030 and not tag:nonesuch'; do
		for sort in newest-first oldest-first; do
			nm_rows "$q" $sort >"$T/nm"
			dc_rows "$q" $sort >"$T/dc"
			if [ -s "$T/nm" ] && cmp -s "$T/nm" "$T/dc"; then
				ok "$name: '$q' $sort: notmuch's rows ($(wc -l <"$T/nm"))"
			else
				fail "$name: '$q' $sort differs from notmuch search"
				diff "$T/nm" "$T/dc" | head -6 | sed 's/^/#   /'
			fi
			check_eq "$name: '$q' $sort: authors and tags agree" 0 \
				"$(parts_bad "$q" $sort)"
			p=$(jq '[.[] | select(.partial)] | length' "$T/dc.json")
			partial=$((partial + p))
		done
	done
	echo "# $name: $partial partial rows"
	windows "$name"
	# Excluded tags: a tagged message leaves the counts and the order.
	notmuch config set search.exclude_tags spam
	notmuch tag +spam -- "$(notmuch search --output=messages --limit=3 '*' |
		tr '\n' ' ' | sed 's/ $//; s/ / or /g')"
	nm_rows '*' newest-first >"$T/nm"
	dc_rows '*' newest-first >"$T/dc"
	if cmp -s "$T/nm" "$T/dc"; then
		ok "$name: search.exclude_tags as notmuch search honours it"
	else
		fail "$name: search.exclude_tags differs from notmuch search"
		diff "$T/nm" "$T/dc" | head -6 | sed 's/^/#   /'
	fi
	notmuch config set search.exclude_tags
	echo "$partial"
}

# The list's windows of time start at DECORUM_NOW: the rows stay
# notmuch's wherever they fall.
windows() {
	nm_rows '*' newest-first >"$T/nm"
	newest=$(notmuch search --format=json --limit=1 '*' |
		jq '.[0].timestamp')
	oldest=$(notmuch search --format=json --sort=oldest-first \
		--limit=1 '*' | jq '.[0].timestamp')
	for now in $(((oldest + newest) / 2)) $((newest - 3 * 86400)) \
		$((newest + 86400)) $((oldest - 86400)) $((newest + 400 * 86400)); do
		for q in '*' 'tag:inbox'; do
			nm_rows "$q" newest-first >"$T/nm"
			DECORUM_NOW=$now dc_rows "$q" newest-first >"$T/dc"
			if [ -s "$T/nm" ] && cmp -s "$T/nm" "$T/dc"; then
				ok "$1: '$q' with now at @$now: notmuch's rows"
			else
				fail "$1: '$q' with now at @$now differs from notmuch search"
				diff "$T/nm" "$T/dc" | head -6 | sed 's/^/#   /'
			fi
		done
	done
}

gen() {
	rm -rf "$T/gen"
	"$@" --out "$T/gen" >/dev/null 2>&1 && t_index "$T/gen"
}

t_index "$TOP/tests/corpus/demo" && compare demo >"$T/out"
cat "$T/out" | sed '$d'
for seed in 1 2; do
	if gen python3 "$TOP/tests/bench/genmail" --messages 2500 --seed $seed; then
		compare "genmail seed $seed" >"$T/out"
		sed '$d' "$T/out"
		check "genmail seed $seed: large threads have partial rows" \
			test "$(tail -n 1 "$T/out")" -gt 0
	else
		fail "genmail seed $seed: generating and indexing"
	fi
done
if t_have_shared; then
	for c in lkml default threading; do
		t_index "$SHARED/corpora/$c" && compare "$c" >"$T/out"
		sed '$d' "$T/out"
	done
	if gen python3 "$SHARED/tools/genmaildir" --messages 3000 --seed 1; then
		compare "genmaildir 3000" >"$T/out"
		sed '$d' "$T/out"
	else
		fail "genmaildir: generating and indexing"
	fi
else
	skip "shared corpora and genmaildir: ../shared not present"
fi
exit 0
