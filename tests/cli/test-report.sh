#!/bin/sh
# decorum report: golden files for every format on a fixture store, the
# period options, the identity refusal and the output file's safety.
# UPDATE=1 sh tests/cli/test-report.sh rewrites the golden files.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixture-cases.sh"
t_setup
fixture_cases || { fail "fixture store"; exit 1; }
G="$TOP/tests/golden"
export DECORUM_NOW=2026-11-21

golden() {
	name=$1
	shift
	"$DECORUM" report "$@" >"$T/$name" 2>"$T/$name.err"
	rc=$?
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$T/$name" "$G/$name"
	fi
	if [ "$rc" -eq 0 ] && cmp -s "$G/$name" "$T/$name"; then
		ok "report $* matches $name"
	else
		fail "report $* matches $name (exit $rc)"
		diff -u "$G/$name" "$T/$name" | head -30 | sed 's/^/#   /'
		sed 's/^/#   /' "$T/$name.err"
	fi
}

for f in text md json csv; do
	ext=$f
	[ "$f" = text ] && ext=txt
	golden "report-quarter.$ext" --period quarter --format "$f"
done
golden report-week.txt
golden report-range.txt --period 2026-10-01..2026-10-31

check "json report is valid JSON" jq -e '.summary' "$T/report-quarter.json"
check_eq "json counts the quarter's reports" 7 "$(jq '.summary.received' "$T/report-quarter.json")"
check_eq "TAB consultations are counted apart" 1 "$(jq '.summary.tab_consultations' "$T/report-quarter.json")"
check_eq "the delta compares with the previous period" "7 (previous period 0, +7)" "$(jq -r '.change.change.received' "$T/report-quarter.json")"
check_eq "the chart has 13 weeks" 13 "$(jq '.trend.weekly | length' "$T/report-quarter.json")"
check "the text form has a sparkline" grep -q '▁' "$T/report-quarter.txt"
check "a public thread's link is withheld when its id names a person" grep -q 'withheld' "$T/report-quarter.txt"

# Anonymised: nobody of the corpus may appear in any format.
for who in rachel abernathy zoe.hartmann dsokolov marcus penhallow eleni yusuf ravi.menon 'Zoë'; do
	if grep -qi -- "$who" "$T"/report-*; then fail "report hides $who"; else ok "report hides $who"; fi
done

"$DECORUM" report --period quarter --include-identities >"$T/ident.txt"
check "--include-identities shows the public thread's lore link" grep -q 'https://lore.kernel.org/r/.*eleni' "$T/ident.txt"

"$DECORUM" report --period yesterday >/dev/null 2>&1
check_eq "a bad period exits 2" 2 $?
"$DECORUM" report --period 2026-11-05..2026-11-01 >/dev/null 2>&1
check_eq "a period that ends before it starts exits 2" 2 $?
"$DECORUM" report --format pdf >/dev/null 2>&1
check_eq "an unknown format exits 2" 2 $?

# A reporter whose surname is a word of the report's own text is not
# found in its headings; a measure that names him is refused.
mkdir -p "$T/ref/cur" "$T/ref/new" "$T/ref/tmp"
printf 'From: Sam Escalation <sam.e@example.org>\nTo: conduct@kernel.org\nSubject: report\nDate: Tue, 17 Nov 2026 10:00:00 +0000\nMessage-ID: <ref-1@example.org>\n\nplease look\n' >"$T/ref/cur/1:2,S"
cp -r "$T/ref/cur/1:2,S" "$T/mail/cur/ref-1:2,S"
notmuch new --quiet >/dev/null 2>&1
rcase=$("$DECORUM" tag "$(fixture_thread ref-1@example.org)" escalation | sed -n 's/^case \([0-9]*\):.*/\1/p')
"$DECORUM" report -o "$T/words.txt" >"$T/words.out" 2>&1
check_eq "the report's own words are not the reporter's name" 0 $?
"$DECORUM" case state "$rcase" investigating >/dev/null 2>&1
"$DECORUM" case outcome "$rcase" measure --what "no reviews by Sam Escalation" --until v9.9 >/dev/null 2>&1
"$DECORUM" report -o "$T/refused.txt" >"$T/refused.out" 2>&1
check_eq "a report that shows a participant is refused with exit 4" 4 $?
check "... and nothing is written" test ! -e "$T/refused.txt"
check "... and the message does not name the person" sh -c '! grep -qi "sam" "$1"' _ "$T/refused.out"
check "... it names the case, the line and the person's role" \
	grep -q "case $rcase, report line [0-9]*: a participant's name" "$T/refused.out"
check "... and what to do" grep -q "decorum case alias $rcase" "$T/refused.out"
check "--include-identities writes it" "$DECORUM" report --include-identities -o "$T/incl.txt"
# The measure is in force in every period: take it back.
"$DECORUM" case undo "$rcase" >/dev/null 2>&1

# Without the mail index the people of the cases are unknown: refused,
# and the message says why and what the index said.
NOTMUCH_CONFIG="$T/no-such-config" "$DECORUM" report -o "$T/nomail.txt" >"$T/nomail.out" 2>&1
check_eq "without the mail index a report with cases is refused (4)" 4 $?
check "... and nothing is written" test ! -e "$T/nomail.txt"
check "... and it says the mail index is missing" grep -q 'without the mail index' "$T/nomail.out"
check "... naming what the index said" grep -q "no-such-config: no such notmuch configuration file (named by NOTMUCH_CONFIG)" "$T/nomail.out"

# The output file: 0600 whatever the umask, never over an existing path.
(umask 000 && "$DECORUM" report --period 2026-01-01..2026-01-07 -o "$T/r.txt" 2>/dev/null)
check_eq "report file is 0600 under umask 000" 600 "$(stat -c %a "$T/r.txt")"
"$DECORUM" report --period 2026-01-01..2026-01-07 -o "$T/r.txt" >/dev/null 2>&1
check_eq "an existing output file is refused" 4 $?
ln -s "$T/elsewhere" "$T/link.txt"
"$DECORUM" report --period 2026-01-01..2026-01-07 -o "$T/link.txt" >/dev/null 2>&1
check "a symlink at the output path is refused, not followed" test $? -ne 0 -a ! -e "$T/elsewhere"
exit 0
