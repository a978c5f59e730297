#!/bin/sh
# Exports from the TUI, on disk: the report preview's w writes the file
# its message names (0600, the same text as decorum report), P writes a
# packet directory (0700, files 0600) whose manifest checks and in which
# the reporter cannot be found; a report that would show a participant
# is refused in the preview, and nothing is written.  The key scripts
# are the screen tests' (tests/screen/report.keys, packet.keys).
. "$(dirname "$0")/../lib.sh"
t_setup

export TZ=UTC LC_ALL=C.UTF-8 DECORUM_NOW=1796284800 # 2026-12-03 00:00
unset NO_COLOR DECORUM_AS VISUAL EDITOR
HERE="$TOP/tests/screen"
t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
mkdir -p "$T/dumps"

run_keys() { # NAME SCRIPT
	DECORUM_STORE="$T/store-$1/decorum.db" \
		"$DECORUM" tui --script "$2" --dump-dir "$T/dumps" \
		>"$T/$1.out" 2>&1
}

# written SCRIPT FILE DUMP MESSAGE ARGS...: w wrote FILE (0600), the
# message in DUMP names it, and it is what decorum report ARGS writes
# from the script's store.
written() {
	w_run=$1 w_file=$2 w_dump=$3 w_msg=$4
	shift 4
	check "w wrote $w_file, which the message names" test -f "$w_file"
	check_eq "... 0600" 600 "$(stat -c %a "$w_file" 2>/dev/null)"
	check "... in the message" grep -qF "$w_msg" "$T/dumps/$w_dump.txt"
	DECORUM_STORE="$T/store-$w_run/decorum.db" \
		"$DECORUM" report "$@" >"$T/cli-$w_run.out" 2>/dev/null
	check "... and it is what decorum report $* writes" \
		cmp "$w_file" "$T/cli-$w_run.out"
}

# ---- the report -------------------------------------------------------
check "the report script runs" run_keys report "$HERE/report.keys"
rep="$HOME/decorum-report-2026-12-03.txt"
written report "$rep" report-written \
	"written to ~/decorum-report-2026-12-03.txt" --period quarter
check "it has the weekly chart" grep -q '▁' "$rep"
check "a second w refuses the existing file" \
	grep -qF "File exists" "$T/dumps/report-exists.txt"

# ---- the published form -----------------------------------------------
# f in the preview shows the form decorum report --publish writes, and w
# writes that, not the statistics.
cat >"$T/published.keys" <<'KEYS'
key e
type personal attack in review
key Enter
key s
type inv
key Enter
key o
type coaching
key Enter
type talked it through
key Enter
key T
type dev
key Enter
key R
key p
key f
dump published-shown
key w
key Enter
dump published-written
KEYS
check "the published-form script runs" run_keys published "$T/published.keys"
pub="$HOME/decorum-published-2026-12-03.eml"
written published "$pub" published-written \
	"Published report (quarter) written to ~/decorum-published-2026-12-03.eml" \
	--publish quarter
check "... a mail for the list, by category" sh -c \
	'grep -q "^Subject: Code of Conduct Committee report, September 4, 2026 through December 3, 2026$" "$1" &&
	grep -q "^Development-process related:$" "$1" &&
	grep -q "^  - One report: education and coaching.$" "$1"' _ "$pub"
check "... without the statistics or a case number" sh -c \
	'! grep -qiE "Appendix|case *#?[0-9]|#[0-9]" "$1"' _ "$pub"

# ---- the packet -------------------------------------------------------
check "the packet script runs" run_keys packet "$HERE/packet.keys"
pk="$HOME/decorum-packet-case-1"
check "P wrote the packet the message names" test -d "$pk"
check "the message names it" \
	grep -qF "packet written to ~/decorum-packet-case-1" \
	"$T/dumps/packet-written.txt"
check_eq "the packet directory is 0700" 700 "$(stat -c %a "$pk" 2>/dev/null)"
check_eq "every file in it is 0600" "" \
	"$(find "$pk" -type f ! -perm 0600 2>/dev/null)"
check "its manifest checks" sh -c 'cd "$1" && sha256sum -c --quiet MANIFEST.sha256' _ "$pk"
check "it holds the thread" test -s "$pk/thread.mbox"
# The reporter of this case (tests/corpus/README.md: R4).
for who in eleni.papadopoulou eleni papadopoulou 'Ελένη' 'Παπαδοπούλου' \
	'=?UTF-8?Q?=CE=95'; do
	if grep -riqF -- "$who" "$pk"; then
		fail "the redacted packet does not show the reporter ($who)"
		grep -riF -- "$who" "$pk" | head -5 | sed 's/^/#   /'
	else
		ok "the redacted packet does not show the reporter ($who)"
	fi
done
check "a second P refuses the existing directory" \
	grep -qF "already exists" "$T/dumps/packet-exists.txt"
check "P on a thread without a case says so" \
	grep -qF "No case for this thread" "$T/dumps/packet-no-case.txt"

# Redaction refused (n): the packet names the reporter, and says so.
cat >"$T/plain.keys" <<'KEYS'
key e
key Enter
key P
key C-U
type ~/plain-packet
key Enter
key n
key Enter
key Enter
dump plain-packet
KEYS
check "P with n runs" run_keys plain "$T/plain.keys"
check "n writes an unredacted packet" test -d "$HOME/plain-packet"
check "... and the message says it is not redacted" \
	grep -qF "NOT redacted" "$T/dumps/plain-packet.txt"
check "... which names the reporter" \
	grep -rqiF eleni.papadopoulou "$HOME/plain-packet"

# A final packet, with a reply-by day of its own: a day that is no date
# keeps the prompt open and says why.
cat >"$T/final.keys" <<'KEYS'
key e
key Enter
key P
key C-U
type ~/final-packet
key Enter
key Enter
key y
key C-U
type soon
key Enter
dump final-bad-day
key C-U
type 2027-01-15
key Enter
dump final-packet
KEYS
check "P with a final packet runs" run_keys final "$T/final.keys"
check "a day that is no date keeps the prompt, with the reason" sh -c \
	'grep -qF "YYYY-MM-DD" "$1" && grep -qF "reply by: soon" "$1"' _ "$T/dumps/final-bad-day.txt"
check "the final packet is written" test -d "$HOME/final-packet"
check "... final" grep -q 'final: undone events' "$HOME/final-packet/timeline.txt"
check "... asking for a reply by the day typed" \
	grep -q '^Reply-By: .* 15 Jan 2027 ' "$HOME/final-packet/cover.eml"
check "... and the message says both" sh -c \
	'grep -qF "final" "$1" && grep -qF "packet written to ~/final-packet" "$1"' _ "$T/dumps/final-packet.txt"

# Esc at the question writes nothing.
cat >"$T/cancel.keys" <<'KEYS'
key e
key Enter
key P
key C-U
type ~/cancelled-packet
key Enter
key Esc
dump cancel-packet
KEYS
check "P cancelled runs" run_keys cancel "$T/cancel.keys"
check "Esc at the question writes nothing" test ! -e "$HOME/cancelled-packet"
check "... and says so" grep -qF "no packet was written" \
	"$T/dumps/cancel-packet.txt"

# ---- the refusal --------------------------------------------------------
# A reporter whose name is also a word of the report: the preview shows
# nothing of it, w refuses, and the message does not name the person.
printf 'From: Sam Escalation <sam.e@example.org>\nTo: conduct@kernel.org\nSubject: report\nDate: Tue, 01 Dec 2026 10:00:00 +0000\nMessage-ID: <ref-1@example.org>\n\nplease look\n' \
	>"$T/mail/cur/1796100000.M1P1.ref:2,S"
notmuch new --quiet >/dev/null 2>&1
rm -f "$HOME"/decorum-report-* "$HOME"/decorum-published-*
# Sam's surname is a word of the report's own text, which is not his
# name; a measure naming him is.
sam=$(notmuch search --output=threads id:ref-1@example.org | sed 's/^thread://')
export DECORUM_STORE="$T/store-refuse/decorum.db"
"$DECORUM" tag "$sam" escalation >/dev/null 2>&1
"$DECORUM" case state 1 investigating >/dev/null 2>&1
"$DECORUM" case category 1 unacceptable >/dev/null 2>&1
"$DECORUM" case outcome 1 measure --what "no reviews by Sam Escalation" \
	--until v9.9 >/dev/null 2>&1
cat >"$T/refuse.keys" <<'KEYS'
key R
dump refuse-preview
key w
dump refuse-write
key f
dump refuse-publish
key w
dump refuse-publish-write
KEYS
check "the refusal script runs" run_keys refuse "$T/refuse.keys"
check "the preview says it is refused" \
	grep -qF "Refused: case 1, report line" "$T/dumps/refuse-preview.txt"
check "... all of it, wrapped, down to what to do" \
	grep -qF -- "--include-identities" "$T/dumps/refuse-preview.txt"
check "the preview shows nothing of the report" \
	sh -c '! grep -q "Reports received" "$1"' _ "$T/dumps/refuse-preview.txt"
check "w refuses too" grep -qF "Refused:" "$T/dumps/refuse-write.txt"
check "no report file was written" \
	sh -c '! ls "$1"/decorum-report-* 2>/dev/null | grep -q .' _ "$HOME"
check "the message does not name the person" \
	sh -c '! grep -qi "sam" "$1"' _ "$T/dumps/refuse-write.txt"
check "the published form is refused too, naming case, line and whose name" \
	grep -qF "Refused: case 1, published report line 14: a participant's name" \
	"$T/dumps/refuse-publish.txt"
check "... and shows nothing of it" \
	sh -c '! grep -q "Reports received" "$1"' _ "$T/dumps/refuse-publish.txt"
check "... w refuses it" grep -qF "Refused:" "$T/dumps/refuse-publish-write.txt"
check "... and writes nothing" \
	sh -c '! ls "$1"/decorum-published-* 2>/dev/null | grep -q .' _ "$HOME"
check "... and the message does not name the person" \
	sh -c '! grep -qi "sam\|escalation@" "$1" "$2"' _ \
	"$T/dumps/refuse-publish.txt" "$T/dumps/refuse-publish-write.txt"
exit 0
