#!/bin/sh
# The command line end to end on a private HOME: index, list, show, tag,
# cases; exit statuses; store permissions; hostile headers made visible.
. "$(dirname "$0")/../lib.sh"
t_setup

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }

check "--version prints the version" sh -c '"$1" --version | grep -q "^decorum [0-9]"' _ "$DECORUM"
check "--help lists every subcommand" sh -c '"$1" --help | grep -q "list" && "$1" --help | grep -q "cases"' _ "$DECORUM"
"$DECORUM" frobnicate >/dev/null 2>&1
check_eq "unknown command exits 2" 2 $?
"$DECORUM" list --limit x >/dev/null 2>&1
check_eq "bad --limit exits 2" 2 $?

n=$("$DECORUM" list --json | jq length)
nm=$(notmuch count --output=threads '*')
check_eq "list --json has every thread" "$nm" "$n"
n=$(env -u NOTMUCH_CONFIG "$DECORUM" --config "$NOTMUCH_CONFIG" list --json | jq length)
check_eq "--config FILE finds the database" "$nm" "$n"
n=$(env -u NOTMUCH_CONFIG "$DECORUM" --db "$T/mail" list --json | jq length)
check_eq "--db PATH opens a bare database" "$nm" "$n"
mkdir -p "$XDG_CONFIG_HOME/notmuch/work"
cp "$NOTMUCH_CONFIG" "$XDG_CONFIG_HOME/notmuch/work/config"
n=$(env -u NOTMUCH_CONFIG NOTMUCH_PROFILE=work "$DECORUM" list --json | jq length)
check_eq "NOTMUCH_PROFILE selects \$XDG_CONFIG_HOME/notmuch/PROFILE/config" "$nm" "$n"
n=$(env -u NOTMUCH_CONFIG "$DECORUM" --profile work list --json | jq length)
check_eq "--profile does the same" "$nm" "$n"
env -u NOTMUCH_CONFIG "$DECORUM" list >"$T/noconf.out" 2>&1
check_eq "no notmuch configuration at all exits 3" 3 $?
check "... with a message naming the way out" grep -q "NOTMUCH_CONFIG" "$T/noconf.out"
n=$("$DECORUM" list --json --limit 3 | jq length)
check_eq "--limit 3 gives 3 threads" 3 "$n"
n=$("$DECORUM" list --limit 2 | wc -l)
check_eq "text list, one line a thread" 2 "$n"

thread=$(notmuch search --output=threads --limit=1 'to:conduct@kernel.org' | sed 's/thread://')
check "a report thread exists in the demo corpus" test -n "$thread"
"$DECORUM" show "$thread" >"$T/show.txt"
check_eq "show exits 0" 0 $?
check "show prints the decoded headers" grep -q '^From: ' "$T/show.txt"
"$DECORUM" show 00000000deadbeef >/dev/null 2>&1
check_eq "show of a missing thread exits 1" 1 $?
"$DECORUM" show 'nonsense;rm' >/dev/null 2>&1
check_eq "show of a malformed thread id exits 2" 2 $?

"$DECORUM" tag "$thread" nonsense >/dev/null 2>&1
check_eq "tag with an unknown kind exits 2" 2 $?
check "cases before any tag creates no store" sh -c '"$1" cases --json | jq -e "length == 0" && test ! -e "$DECORUM_STORE"' _ "$DECORUM"
check "tag opens a case" sh -c '"$1" tag "$2" escalation --note "insult in review" | grep -q "case 1: opened escalation"' _ "$DECORUM" "$thread"
"$DECORUM" cases --json >"$T/cases.json"
check_eq "cases --json has one case" 1 "$(jq length "$T/cases.json")"
check_eq "the case is an escalation" escalation "$(jq -r '.[0].kind' "$T/cases.json")"
check_eq "the case covers the thread" "$thread" "$(jq -r '.[0].threads[0]' "$T/cases.json")"
check_eq "the note is recorded" "insult in review" "$(jq -r '.[0].notes[0].text' "$T/cases.json")"
check_eq "the actor is the notmuch user" test@example.org "$(jq -r '.[0].notes[0].by' "$T/cases.json")"
"$DECORUM" --as member@example.org tag "$thread" tab >/dev/null
check_eq "tagging again updates the open case" 1 "$("$DECORUM" cases --json | jq length)"
check_eq "... and changes its kind" tab "$("$DECORUM" cases --json | jq -r '.[0].kind')"
check "list shows the case badge" sh -c '"$1" list "thread:$2" | grep -q "\[case 1: tab, new\]"' _ "$DECORUM" "$thread"
check_eq "list --json carries the case" 1 "$("$DECORUM" list --json "thread:$thread" | jq '.[0].case.id')"

# Permissions: the store is private whatever the umask.
(umask 000 && "$DECORUM" --store "$T/open/sub/s.db" tag "$thread" admonition >/dev/null)
check_eq "store file is 0600 under umask 000" 600 "$(stat -c %a "$T/open/sub/s.db")"
check_eq "store directory is 0700 under umask 000" 700 "$(stat -c %a "$T/open/sub")"
ln -s "$T/elsewhere.db" "$T/link.db"
"$DECORUM" --store "$T/link.db" tag "$thread" admonition >/dev/null 2>&1
rc=$?
check "a symlink at the store path is refused" test "$rc" -ne 0 -a ! -e "$T/elsewhere.db"

# Hostile headers: escape sequences, bidi overrides, raw 8-bit bytes.
mkdir -p "$T/hostile/cur" "$T/hostile/new" "$T/hostile/tmp"
printf 'From: Mallory \033]52;c;ZWNobyBoaQ==\007 <mallory@example.org>\nTo: conduct@kernel.org\nSubject: [PATCH] evil \033[2J\033[31mred\342\200\256txet\nDate: Tue, 3 Nov 2026 10:00:00 +0000\nMessage-ID: <hostile-1@example.org>\n\nbody with \033[5mblink\033[0m and \302\233 C1 and \377\376 bytes\n' >"$T/hostile/cur/1:2,S"
printf 'From: \377\376Broken <broken@example.org>\nSubject: raw \351t\351 latin1\nDate: Tue, 3 Nov 2026 11:00:00 +0000\nMessage-ID: <hostile-2@example.org>\n\nx\n' >"$T/hostile/cur/2:2,S"
printf 'From: Utf <utf@example.org>\nSubject: bad utf8 body\nDate: Tue, 3 Nov 2026 12:00:00 +0000\nMessage-ID: <hostile-3@example.org>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\noverlong \300\257 and stray \200 bytes\n' >"$T/hostile/cur/3:2,S"
t_index "$T/hostile"
"$DECORUM" list >"$T/hl.txt" 2>&1
"$DECORUM" list --json >"$T/hl.json" 2>&1
for t in $(notmuch search --output=threads '*'); do "$DECORUM" show "$t"; done >"$T/hs.txt" 2>&1
check "no ESC, BEL or C1 byte reaches the output" sh -c '! LC_ALL=C grep -q "$(printf "[\033\007]")" "$1" "$2" "$3" && ! grep -qP "\x{9b}" "$1" "$3"' _ "$T/hl.txt" "$T/hl.json" "$T/hs.txt"
check "list output is valid UTF-8" iconv -f UTF-8 -t UTF-8 -o /dev/null "$T/hl.txt"
check "escape characters are marked visibly" grep -q '␛\[2J' "$T/hl.txt"
check "bidi override is marked visibly" grep -q '<U+202E>' "$T/hl.txt"
check "raw 8-bit header bytes are decoded, not passed through" grep -q 'raw été latin1' "$T/hl.txt"
check "invalid UTF-8 in a body is marked visibly" grep -q 'overlong �� and stray � bytes' "$T/hs.txt"
check "show output is valid UTF-8" iconv -f UTF-8 -t UTF-8 -o /dev/null "$T/hs.txt"
check "the body's escapes are marked too" grep -q '␛\[5mblink' "$T/hs.txt"
check "JSON output is valid JSON" jq -e 'length == 3' "$T/hl.json"
exit 0
