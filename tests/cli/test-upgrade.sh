#!/bin/sh
# A store written by an older decorum (schema 3: cases named notmuch
# thread ids) is brought up to date with every case on its own report.
# Commands that only read refuse it and leave it as it is; decorum
# upgrade, and any command that records, migrate it, keep a copy of the
# file as it was, and name each old case's mail by Message-ID once,
# recorded as an event.  A thread number that another rebuild gave to
# someone else's thread is never taken.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM --as maint@example.org"
export DECORUM_NOW=2026-12-01
S="$DECORUM_STORE"

t_index "$TOP/tests/corpus/demo"

# The store as the old decorum left it: WAL, 0600 in a 0700 directory.
load_v3() {
	rm -rf "$(dirname "$S")"
	mkdir -p "$(dirname "$S")" && chmod 700 "$(dirname "$S")"
	(umask 077 && { echo 'PRAGMA journal_mode = WAL;'
	  cat "$TOP/tests/corpus/store-v3.sql"; } | sqlite3 "$S" >/dev/null)
}
msgs_of_subject() {
	notmuch search --output=messages --exclude=false "subject:\"$1\"" |
		sed 's/^id://' | sort
}
case_msgs() { $D case show "$1" --json | jq -r '.messages[].message_id' | sort; }
tagged() { notmuch search --output=messages --exclude=false "tag:coc/case-$1" | sed 's/^id://' | sort; }
# The same mail indexed again, in two folders in reverse order: notmuch
# hands out the thread numbers in another order.
rebuild() {
	mv "$T/mail" "$T/old"
	mkdir -p "$T/mail/aaa/cur" "$T/mail/zzz/cur"
	k=0
	for f in $(find "$T/old" -type f \( -path '*/cur/*' -o -path '*/new/*' \) | sort -r); do
		k=$((k + 1))
		d=aaa
		[ $((k % 2)) -eq 0 ] && d=zzz
		mv "$f" "$T/mail/$d/cur/"
	done
	rm -rf "$T/old"
	notmuch new --quiet >/dev/null 2>&1
}
thread_of() { notmuch search --output=threads --exclude=false "id:$1" | sed 's/^thread://'; }

# Which report each old case was opened on (the fixture's own words).
msgs_of_subject "hostile replies on linux-mm" >"$T/want-1"
msgs_of_subject "personal remarks in" >"$T/want-2"
msgs_of_subject "Advice on a heated mm review" >"$T/want-3"
r2=$(head -1 "$T/want-2")

if [ "$(thread_of 20261009081500.24793-1-zoe.hartmann@example.com)" != \
	0000000000000007 ]; then
	# The fixture names threads as this corpus was numbered then.
	skip "upgrade: this notmuch numbers the demo's threads otherwise"
	exit 0
fi

# ---- commands that only read ------------------------------------------
load_v3
sum0=$(cksum <"$S")
for cmd in "cases" "case show 1" "case late 1" "case tally 1" \
	"case expiring" "verify" "fsck" "member list"; do
	$D $cmd >"$T/out" 2>"$T/err"
	check_eq "$cmd on an older store: refused (status 3)" 3 $?
	check "$cmd: the message names decorum upgrade" \
		grep -q 'older decorum (schema version 3.*decorum upgrade' "$T/err"
done
$D list >"$T/out" 2>"$T/err"
check_eq "list on an older store still lists (no badges)" 0 $?
check "list warns that the store needs an upgrade" grep -q 'warning:.*decorum upgrade' "$T/err"
$D show 0000000000000008 >/dev/null 2>&1
check_eq "no read command wrote the store" "$sum0" "$(cksum <"$S")"
check "no read command left a copy" test ! -e "$S.schema3"

# ---- decorum upgrade --------------------------------------------------
$D upgrade >"$T/up" 2>&1
check_eq "decorum upgrade succeeds" 0 $?
check "it says schema 3 became 5 and where the copy is" \
	grep -q "schema 3 upgraded to 5; the file as it was is $S.schema3" "$T/up"
check "it says three old threads are named by Message-ID now" \
	grep -q '^3 threads of older cases now named by Message-ID' "$T/up"
check_eq "the copy is 0600" 600 "$(stat -c %a "$S.schema3")"
check_eq "the store is still 0600" 600 "$(stat -c %a "$S")"
check_eq "the copy is the schema 3 store" 3 "$(sqlite3 "$S.schema3" 'PRAGMA user_version')"
check_eq "the copy holds the 4 events of then" 4 "$(sqlite3 "$S.schema3" 'SELECT count(*) FROM events')"
check_eq "the store is schema 5" 5 "$(sqlite3 "$S" 'PRAGMA user_version')"
for i in 1 2 3; do
	check "case $i covers its own report's mail" cmp "$T/want-$i" \
		"$(case_msgs $i >"$T/got"; echo "$T/got")"
done
check_eq "case 2 (opened by the old TUI) was resolved through notmuch, recorded" \
	"notmuch thread" "$(sqlite3 "$S" "SELECT data FROM events WHERE type = 'anchor' AND case_id = 2" |
		sed -n "s/.*'source': <'\([^']*\)'>.*/\1/p")"
check_eq "cases 1 and 3 from their open events" "open event
open event" "$(sqlite3 "$S" "SELECT data FROM events WHERE type = 'anchor' AND case_id IN (1, 3) ORDER BY case_id" |
		sed -n "s/.*'source': <'\([^']*\)'>.*/\1/p")"
check "the history verifies" $D verify
$D upgrade >"$T/up2" 2>&1
check "a second upgrade: up to date" grep -q 'schema 5, up to date' "$T/up2"
check_eq "... and records nothing" 3 "$(sqlite3 "$S" "SELECT count(*) FROM events WHERE type = 'anchor'")"

# ---- then the index is rebuilt in another order -------------------------
rebuild
check "the rebuild gave Zoë Hartmann's report another thread number" \
	test "$(thread_of "$r2")" != 0000000000000007
for i in 1 2 3; do
	check "after the rebuild, case $i still covers its own report's mail" \
		cmp "$T/want-$i" "$(case_msgs $i >"$T/got"; echo "$T/got")"
done
check_eq "case 2 lists on its report's thread" 2 \
	"$($D list --json "thread:$(thread_of "$r2")" | jq -r '.[0].case.id')"
$D fsck --repair --force >/dev/null 2>&1
for i in 1 2 3; do
	check "after a repair, notmuch tags case $i's mail, no other" cmp "$T/want-$i" \
		"$(tagged $i >"$T/got"; echo "$T/got")"
done

# ---- a command that records upgrades too, with the same copy -------------
t_index "$TOP/tests/corpus/demo"
load_v3
$D case note 3 "still waiting for the TAB" >"$T/out" 2>&1
check_eq "case note on an older store succeeds" 0 $?
check_eq "... and upgraded it" 5 "$(sqlite3 "$S" 'PRAGMA user_version')"
check "... keeping the copy" test -s "$S.schema3"
check "... and case 2 covers its own report's mail" cmp "$T/want-2" \
	"$(case_msgs 2 >"$T/got"; echo "$T/got")"
check_eq "... its anchor events carry the time they were recorded" \
	"$(date -u -d 2026-12-01 +%s)" \
	"$(sqlite3 "$S" "SELECT DISTINCT at FROM events WHERE type = 'anchor'")"

# ---- upgraded only after a rebuild: the old number is not taken ----------
load_v3
rebuild
t7=$(notmuch search --output=messages --exclude=false thread:0000000000000007 | sed 's/^id://' | sort)
check "in this rebuild thread 7 is someone else's" test "$t7" != "$(cat "$T/want-2")"
$D upgrade >"$T/up" 2>&1
check_eq "upgrade after the rebuild succeeds" 0 $?
check "it says one old thread was left as it was" \
	grep -q '^1 thread of older cases left as they were' "$T/up"
for i in 1 3; do
	check "case $i (its Message-IDs were in its open event) is on its own report" \
		cmp "$T/want-$i" "$(case_msgs $i >"$T/got"; echo "$T/got")"
done
check_eq "case 2 took no one else's mail" "" "$(case_msgs 2)"
check_eq "notmuch tags nothing as case 2" "" "$(tagged 2)"
check "the history verifies" $D verify
exit $T_FAILED
