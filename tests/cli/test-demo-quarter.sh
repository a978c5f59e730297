#!/bin/sh
# make demo-quarter (tests/demo.sh --quarter): the worked quarter on the
# demo corpus is recorded through the command line and its published
# report counts by incident (two reports of one incident once, the
# withdrawn case, the TAB consultation and the admonitions not at all),
# shows the overturned decision with its votes, and names no case and no
# one of the corpus.
. "$(dirname "$0")/../lib.sh"
t_setup
command -v notmuch >/dev/null || { echo "skip - notmuch is not installed"; exit 0; }

DECORUM_BIN="$DECORUM" sh "$TOP/tests/demo.sh" --quarter >"$T/out" 2>"$T/err"
check_eq "make demo-quarter runs (0)" 0 $?
sed 's/^/#   /' "$T/err" | head -20
P="$T/published.eml"
sed '/^decorum demo:/,$d' "$T/out" >"$P"
store="$XDG_CACHE_HOME/decorum/demo/quarter.db"
check "its cases are in a store of its own" test -s "$store"
check "... not in the demo's" test ! -e "$XDG_CACHE_HOME/decorum/demo/decorum.db"
check "it prints the published form" \
	grep -q '^Subject: Code of Conduct Committee report, September 1, 2026 through November 30, 2026$' "$P"
check_eq "reports are counted by incident" "Reports received: 4" \
	"$(grep '^Reports received' "$P")"
check_eq "one bullet per incident, the duplicate once" \
	"One|One|Two|One|" \
	"$(sed -n 's/^  - \(One\|Two\) report.*/\1/p' "$P" | tr '\n' '|')"
check "the TAB approved one measure" grep -q "^  - The TAB approved the remedial measure" "$P"
check "and overturned another, with the complete votes" sh -c \
	'grep -q "^  - The TAB overturned the committee" "$1" &&
	grep -q "^      Ilse Brandt <tab.brandt@example.org>: for (November 19, 2026)\$" "$1" &&
	grep -q "^      Ada Okonkwo <tab.okonkwo@example.org>: against" "$1"' _ "$P"
check "no case number" sh -c "! grep -qiE 'case *#? *[0-9]|#[0-9]' '$P'"
check "no heading for reports without a category" sh -c "! grep -qi 'categoris\\|other reports' '$P'"
check "no admonition, consultation or withdrawal is told" \
	sh -c "! grep -qiE 'admonition|consultation|withdrawn' '$P'"
check "no subject, lore link or Message-ID of the corpus" \
	sh -c "! grep -qE 'lore\\.kernel\\.org|<20|PATCH|folio|sched' '$P'"
# Everyone who wrote in the corpus, by address and by every word of the
# name: none is in the published form.
leaks=0 looked=0
for who in $(grep -rhi '^From:' "$TOP/tests/corpus/demo" |
	sed 's/^From: *//; s/[<>"]/ /g' | tr ' ' '\n' | grep -E '.{3}' |
	grep -vi '^=?utf' | sort -u); do
	looked=$((looked + 1))
	if grep -qiwF -- "$who" "$P"; then
		echo "#   the published form names $who"
		leaks=$((leaks + 1))
	fi
done
check "the corpus has its writers to look for" test "$looked" -gt 20
check_eq "no one who wrote in the corpus is named" 0 "$leaks"
check "the demo store verifies" env DECORUM_STORE="$store" \
	NOTMUCH_CONFIG="$XDG_CACHE_HOME/decorum/demo/notmuch-config" \
	"$DECORUM" verify

t_cleanup
