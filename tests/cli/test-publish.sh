#!/bin/sh
# decorum report --publish: the published form, compared with golden
# mails written by hand from the structure of the committee's published
# reports (tests/golden/publish-*.eml), on a period with two reports of
# one incident, a withdrawn case, a TAB consultation, admonitions, an
# approved measure and an overturned decision (fixture-publish.sh).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixture-cases.sh"
. "$(dirname "$0")/fixture-publish.sh"
t_setup
command -v sqlite3 >/dev/null || { echo "skip - sqlite3 is not installed"; exit 0; }
export DECORUM_AS=test@example.org DECORUM_NOW=2026-11-20
fixture_publish || { fail "fixture period"; exit 1; }
export DECORUM_NOW=2026-11-21
G="$TOP/tests/golden"

golden() {
	name=$1
	shift
	"$DECORUM" report "$@" >"$T/$name" 2>"$T/$name.err"
	rc=$?
	if [ "$rc" -eq 0 ] && cmp -s "$G/$name" "$T/$name"; then
		ok "report $* matches $name"
	else
		fail "report $* matches $name (exit $rc)"
		diff -u "$G/$name" "$T/$name" | head -40 | sed 's/^/#   /'
		sed 's/^/#   /' "$T/$name.err"
	fi
}

golden publish-quarter.eml --publish quarter
P="$T/publish-quarter.eml"
check_eq "--committee-only is the default" "" \
	"$("$DECORUM" report --publish quarter --committee-only | cmp - "$P")"
check_eq "reports are counted by incident: 2+3 once, 3 withdrawn, 4 no report, 7 and 8 admonitions" \
	"Reports received: 4" "$(grep '^Reports received' "$P")"
check "two reports of one incident are one bullet" grep -q "Two reports of one incident" "$P"
check_eq "one bullet per incident" 4 "$(grep -c '^  - One report\|^  - Two reports' "$P")"
check "the categories head their groups in the configured order" sh -c \
	"grep -E '^[A-Z][a-zA-Z -]+:\$' '$P' | grep -v 'received the following reports:\$' | tr '\n' '|' | grep -qx 'Development-process related:|Scope and enforcement related:|Unacceptable behaviour or comments:|Decisions of the TAB:|'"
check "no case number" sh -c "! grep -qiE 'case *#? *[0-9]|#[0-9]' '$P'"
check "no lore link or Message-ID" sh -c "! grep -qE 'lore\\.kernel\\.org|@example\\.(com|net)|<20' '$P'"
for who in rachel abernathy zoe hartmann dsokolov sokolov marcus penhallow eleni papadopoulou yusuf haddad ravi menon helen marsh osterberg 'Zoë' test@example.org; do
	if grep -qi -- "$who" "$P"; then fail "the published form hides $who"; else ok "the published form hides $who"; fi
done
check "the overturned decision names every TAB member who voted" sh -c \
	"grep -q 'Aino Virtanen <tab1@example.org>: for' '$P' && grep -q 'Bram de Vries <tab2@example.org>: for' '$P' && grep -q 'Chidi Okafor <tab3@example.org>: against' '$P'"
check_eq "an approval is published without names" 1 "$(grep -c 'tab1@example.org' "$P")"

"$DECORUM" report --publish quarter --with-admonitions >"$T/adm.eml"
check "--with-admonitions counts them apart" grep -q "^Admonitions handled by maintainers (not reports to the committee): 2$" "$T/adm.eml"
check_eq "... and not as reports" "Reports received: 4" "$(grep '^Reports received' "$T/adm.eml")"

# The list, the contact and the categories come from the configuration.
mkdir -p "$XDG_CONFIG_HOME/decorum"
cat >"$XDG_CONFIG_HOME/decorum/config" <<'CFG'
[report]
list = conduct-reports@example.org
contact = committee@example.org
CFG
golden publish-october.eml --publish 2026-10-01..2026-10-31 --with-admonitions

"$DECORUM" report --publish quarter --format json >/dev/null 2>&1
check_eq "--publish with --format is a usage error" 2 $?
"$DECORUM" report --with-admonitions >/dev/null 2>&1
check_eq "--with-admonitions without --publish is a usage error" 2 $?
"$DECORUM" report --publish quarter -o "$T/out.eml" 2>/dev/null
"$DECORUM" report --publish quarter >"$T/stdout.eml"
check "-o writes the mail" cmp -s "$T/out.eml" "$T/stdout.eml"
check "... to the configured list" grep -q "^To: conduct-reports@example.org$" "$T/out.eml"
check_eq "... mode 0600" 600 "$(stat -c %a "$T/out.eml")"

# A report with no category is not published under a heading that says
# nothing: refused before anything is written, the case named on stderr
# for the committee member with the command that sets one.
export DECORUM_NOW=2026-11-20
N=$("$DECORUM" tag "$(fixture_thread 20260915010500.45236-1-hanako.yamada@example.org)" \
	escalation | sed -n 's/^case \([0-9]*\):.*/\1/p')
check "a ninth case is opened in the quarter" test "$N" = 9
export DECORUM_NOW=2026-11-21
"$DECORUM" report --publish quarter -o "$T/nocat.eml" >"$T/nocat.out" 2>"$T/nocat.err"
check_eq "a report with no category is refused (4)" 4 $?
check "... and nothing is written" test ! -e "$T/nocat.eml"
check_eq "... nothing on stdout" "" "$(cat "$T/nocat.out")"
check "... stderr names the case and the way out" \
	grep -q "case $N has no category of behaviour.*decorum case category $N TEXT" "$T/nocat.err"
"$DECORUM" case category "$N" dev >/dev/null
"$DECORUM" report --publish quarter >"$T/cat.eml" 2>"$T/cat.err"
check_eq "once it has one, the form is written (0)" 0 $?
check_eq "... and counts it" "Reports received: 5" "$(grep '^Reports received' "$T/cat.eml")"
check "... with no heading for reports without a category" \
	sh -c '! grep -qi "categoris\|other reports" "$1"' _ "$T/cat.eml"
check "... and no case number" sh -c '! grep -q "case $2\b" "$1"' _ "$T/cat.eml" "$N"

# The identity scan runs before anything is written, and fails closed:
# a measure whose words name a participant is refused.
unset DECORUM_NOW
export DECORUM_NOW=2026-11-20
"$DECORUM" case state 5 investigating >/dev/null 2>&1
"$DECORUM" case participant 5 respondent kosterberg@example.net --name "Kevin Osterberg" >/dev/null
"$DECORUM" case outcome 5 measure --what "Kevin Osterberg's patches not accepted" --cycles 1 >/dev/null
export DECORUM_NOW=2026-11-21
"$DECORUM" report --publish quarter -o "$T/refused.eml" >"$T/refused.out" 2>&1
check_eq "a published form that names a participant is refused (4)" 4 $?
check "... and nothing is written" test ! -e "$T/refused.eml"
check "... and the message does not name the person" sh -c '! grep -qi "osterberg" "$1"' _ "$T/refused.out"
check "... but names the case, the line and whose name it is" \
	grep -q "case 5, published report line [0-9]*: the respondent's name" "$T/refused.out"
NOTMUCH_CONFIG="$T/no-such-config" "$DECORUM" report --publish quarter >/dev/null 2>&1
check_eq "without the mail index it is refused (4)" 4 $?

t_cleanup
