#!/bin/sh
# Hostile mail end to end (tests/hostile/): every message of the corpus is
# listed, shown, tagged, reported and packed without a crash, without a
# raw control, bidi or invisible character in anything decorum prints or
# writes for reading, and with a visible mark where something was
# replaced.  Then the full-screen interface walks every thread in tmux and
# the pane, escapes included, must hold nothing but tmux's own colours.
# The corpus holds a 5,000 message thread: indexing takes a minute or two.
# HOSTILE_SMALL=1 cuts the thread to 50 messages for a quick run.
. "$(dirname "$0")/../lib.sh"
t_setup
export LC_ALL=C.UTF-8 TZ=UTC
# A private copy: a rebuild of ./decorum during the run must not count.
cp "$DECORUM" "$T/decorum"
DECORUM=$T/decorum
unset NO_COLOR DECORUM_NOW VISUAL EDITOR TMUX

clean() { perl "$TOP/tests/hostile/clean.pl" "$@"; }

# signal_free WHAT STATUS: a status of 128 or more is a crash.
signal_free() {
	if [ "$2" -ge 128 ]; then
		fail "$1 (killed by signal $(($2 - 128)))"
		return 1
	fi
	return 0
}

small=""
[ -n "${HOSTILE_SMALL:-}" ] && small=--small
sh "$TOP/tests/hostile/make-corpus.sh" "$T/src" $small ||
	{ fail "generate the hostile corpus"; exit 1; }
t_index "$T/src"
check_eq "notmuch indexes the corpus" 0 $?
nmsg=$(notmuch count '*')
nthr=$(notmuch count --output=threads '*')
echo "# $nmsg messages in $nthr threads"

# ---- list ---------------------------------------------------------------
"$DECORUM" list >"$T/list.txt" 2>&1
rc=$?
signal_free "list" $rc && check_eq "list exits 0" 0 $rc
"$DECORUM" list --json >"$T/list.json" 2>"$T/list.err"
check_eq "list --json exits 0" 0 $?
check "list output is clean" clean "$T/list.txt" "$T/list.json" "$T/list.err"
jq -r '.. | strings' "$T/list.json" >"$T/list.strings"
check "list --json strings are clean once decoded" clean "$T/list.strings"
check_eq "list --json has every thread" "$nthr" "$(jq length "$T/list.json")"
for name in csi osc encoded bidi zerowidth badutf8 nul c1 longheader \
	manyparts deepmime noheaders duplicate names thread; do
	check "hostile:$name is listed" grep -q "hostile:$name" "$T/list.txt"
done
check "escapes are shown as ␛" grep -q 'hostile:csi ␛\[2J' "$T/list.txt"
check "bidi overrides are shown as <U+202E>" grep -q 'hostile:bidi <U+202E>gnp' "$T/list.txt"
check "zero-width characters are shown as <U+200B>" grep -q 'a<U+200B>b' "$T/list.txt"
# notmuch's index reads a header that is not UTF-8 as Windows-1252.
check "invalid UTF-8 in the index is shown, C1 marked" grep -q 'hostile:badutf8 .*<U+0080>' "$T/list.txt"

# ---- show, tag: every thread ---------------------------------------------
i=0
for t in $(notmuch search --output=threads '*'); do
	id=${t#thread:}
	i=$((i + 1))
	"$DECORUM" show "$id" >"$T/show-$id.txt" 2>&1
	rc=$?
	signal_free "show $id" $rc && check_eq "show $id exits 0" 0 $rc
	"$DECORUM" show --json "$id" >"$T/show-$id.json" 2>&1
	rc=$?
	signal_free "show --json $id" $rc && check_eq "show --json $id exits 0" 0 $rc
	jq -r '.. | strings' "$T/show-$id.json" >"$T/show-$id.strings"
	check "show $id output is clean" clean "$T/show-$id.txt" \
		"$T/show-$id.json" "$T/show-$id.strings"
	case $((i % 3)) in
	0) kind=admonition ;;
	1) kind=escalation ;;
	2) kind=tab ;;
	esac
	"$DECORUM" tag "$id" $kind --note "$(printf 'pasted \033[2J\342\200\256 note')" \
		>"$T/tag-$id.txt" 2>&1
	rc=$?
	signal_free "tag $id" $rc && check_eq "tag $id $kind exits 0" 0 $rc
	check "tag $id output is clean" clean "$T/tag-$id.txt"
done
cat "$T"/show-*.txt >"$T/shows.txt"
check "OSC 52 clipboard writes are shown" grep -q '␛\]52;c;' "$T/shows.txt"
check "OSC 8 links are shown" grep -q '␛\]8;;https://evil.example/' "$T/shows.txt"
check "escapes decoded from RFC 2047 are shown" grep -q 'hostile:encoded ␛\]52' "$T/shows.txt"
check "escapes decoded from base64 bodies are shown" grep -q 'B64 ␛\[2J' "$T/shows.txt"
check "invalid UTF-8 in a body is shown as U+FFFD" grep -q 'overlong slash ��,' "$T/shows.txt"
check "Latin-1 C1 controls are shown as <U+009B>" grep -q 'Latin-1 C1: <U+009B>2J' "$T/shows.txt"
check "text after a NUL in a body is kept, the NUL marked" grep -q 'body before NUL�after NUL' "$T/shows.txt"
check "text after a NUL in a header is kept" grep -q 'hostile:nul before�after' "$T/shows.txt"
check "MIME nested too deep is said so" grep -q 'MIME nesting deeper than' "$T/shows.txt"
check "all 10,000 parts are read" grep -q 'part 9998 ' "$T/shows.txt"
check "an attachment name with ../ is shown, not used" grep -q '\.\./\.\./\.bashrc' "$T/shows.txt"
n=$(grep -c '^--- message ' "$T/shows.txt")
check_eq "show prints every message" "$nmsg" "$n"

# ---- cases, report, packet, verify, fsck ---------------------------------
"$DECORUM" cases >"$T/cases.txt" 2>&1
check_eq "cases exits 0" 0 $?
"$DECORUM" cases --json >"$T/cases.json" 2>&1
check_eq "a case for every thread" "$nthr" "$(jq length "$T/cases.json")"
jq -r '.. | strings' "$T/cases.json" >"$T/cases.strings"
check "cases output is clean" clean "$T/cases.txt" "$T/cases.json" "$T/cases.strings"

if "$DECORUM" --help | grep -q '^  report'; then
	for f in text md json csv; do
		"$DECORUM" report --period 1970-01-01..2100-01-01 --format $f \
			--include-identities -o "$T/report.$f" >"$T/report-$f.out" 2>&1
		rc=$?
		signal_free "report --format $f" $rc && check_eq "report --format $f exits 0" 0 $rc
	done
	# CSV lines end in CRLF (RFC 4180); nothing else may be a control.
	sed 's/\r$//' "$T/report.csv" >"$T/report.csv.lf"
	jq -r '.. | strings' "$T/report.json" >"$T/report.strings"
	check "reports are clean" clean "$T/report.text" "$T/report.md" \
		"$T/report.json" "$T/report.strings" "$T/report.csv.lf" "$T"/report-*.out
	check_eq "the report counts every case" "$nthr" \
		"$(jq '.cases.cases | length' "$T/report.json" 2>/dev/null)"
else
	skip "report (no report command yet)"
fi

if "$DECORUM" --help | grep -q '^  packet'; then
	mkdir -p "$T/packets"
	for c in $(jq -r '.[].id' "$T/cases.json"); do
		"$DECORUM" packet "$c" -o "$T/packets/$c" >"$T/packet-$c.out" 2>&1
		rc=$?
		signal_free "packet $c" $rc && check_eq "packet $c exits 0" 0 $rc
		"$DECORUM" packet "$c" -o "$T/packets/$c-redacted" --redact \
			>>"$T/packet-$c.out" 2>&1
		rc=$?
		# A message without a From has no reporter to redact: refused.
		signal_free "packet $c --redact" $rc &&
			check "packet $c --redact packs or refuses" test $rc -eq 0 -o $rc -eq 3
	done
	# thread.mbox is the evidence, byte for byte: not for a terminal.
	find "$T/packets" -type f ! -name thread.mbox >"$T/packet-files"
	# shellcheck disable=SC2046
	check "packet files and messages are clean" clean $(cat "$T/packet-files") "$T"/packet-*.out
	check_eq "packet file names stay plain" "" \
		"$(find "$T/packets" -mindepth 2 -name '*[!A-Za-z0-9._-]*')"
	check_eq "no symlink in a packet" "" "$(find "$T/packets" -type l)"
else
	skip "packet (no packet command yet)"
fi

if "$DECORUM" --help | grep -q '^  verify'; then
	check "verify passes after all that" "$DECORUM" verify
fi
if "$DECORUM" --help | grep -q '^  fsck'; then
	check "fsck finds the tags and the store agree" "$DECORUM" fsck
fi

# ---- the full-screen interface in tmux ------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
	skip "hostile mail in the TUI (tmux is not installed)"
	exit 0
fi
if ! "$DECORUM" --help | grep -q '^  tui'; then
	skip "hostile mail in the TUI (no tui command yet)"
	exit 0
fi
. "$TOP/tests/e2e/tmux-lib.sh"
t_tmux decorum-hostile
# The 5,000 message thread takes a while on a busy machine.
TMUX_POLLS=1200

# pane NAME: keep the pane, escapes included, for the check at the end.
pane() {
	tm capture-pane -p -e -t dc >"$T/pane-$1.txt"
}

tm new-session -d -s dc -x 120 -y 40 \
	"env TERM=screen-256color '$DECORUM' tui; echo decorum-exited-\$?; sleep 600"
# An OSC 52 that got through would land in a tmux paste buffer.
tm set-option -g set-clipboard on
wait_for "Threads matching" || fail "the TUI opens on the hostile corpus"
pane list
k=0
while [ $k -lt "$nthr" ]; do
	tm send-keys -t dc Enter
	if wait_for "Message 1/"; then
		pane "thread-$k-top"
		tm send-keys -t dc PgDn PgDn PgDn
		sleep 0.3
		pane "thread-$k-page"
		tm send-keys -t dc c
		sleep 0.3
		pane "thread-$k-case"
		tm send-keys -t dc c End
		sleep 0.5
		pane "thread-$k-end"
		tm send-keys -t dc q
		wait_for "Threads matching" >/dev/null
	else
		fail "thread $k opens in the TUI"
	fi
	tm send-keys -t dc j
	k=$((k + 1))
done
tm send-keys -t dc '?'
sleep 0.3
pane help
tm send-keys -t dc q q
if wait_for "decorum-exited-0"; then
	ok "the TUI walked every hostile thread and quit cleanly"
else
	fail "the TUI walked every hostile thread and quit cleanly"
fi
n=$(ls "$T"/pane-thread-*-top.txt 2>/dev/null | wc -l)
check_eq "every thread was opened in the TUI" "$nthr" "$n"
check "no escape sequence from mail reached the terminal" clean -sgr "$T"/pane-*.txt
cat "$T"/pane-*.txt | sed 's/\x1b\[[0-9;:]*m//g' >"$T/panes.txt"
check "the TUI shows escapes as ␛" grep -q '␛\[2J' "$T/panes.txt"
check "the TUI shows bidi overrides as <U+202E>" grep -q '<U+202E>' "$T/panes.txt"
check_eq "no OSC 52 reached tmux's clipboard" "" "$(tm list-buffers 2>/dev/null)"
title=$(tm display-message -p -t dc '#{pane_title}')
check "the mail did not set the terminal title" test "$title" != title -a "$title" != t
