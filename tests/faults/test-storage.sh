#!/bin/sh
# The store and the exports on a full disk, on a read-only file system,
# under umask 000 and with symlinks planted at their paths.  Each failure
# must say what went wrong, leave no partial file and corrupt nothing.
# Full and read-only file systems are small tmpfs mounts: this part needs
# root (skipped otherwise).
. "$(dirname "$0")/../lib.sh"
t_setup
# A private copy: a rebuild of ./decorum during the run must not count.
cp "$DECORUM" "$T/decorum"
DECORUM=$T/decorum
export LC_ALL=C.UTF-8 TZ=UTC

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
notmuch search --output=threads --limit=3 '*' | sed 's/thread://' >"$T/threads"
t1=$(sed -n 1p "$T/threads")
t2=$(sed -n 2p "$T/threads")
t3=$(sed -n 3p "$T/threads")
db=$DECORUM_STORE

# intact: the store passes SQLite's and decorum's checks.
intact() {
	[ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ] &&
		"$DECORUM" --store "$1" verify >/dev/null
}

# ---- umask 000 ------------------------------------------------------------
(umask 000 && "$DECORUM" tag "$t1" escalation --note "first" >/dev/null)
check_eq "store 0600 under umask 000" 600 "$(stat -c %a "$db")"
check_eq "store directory 0700 under umask 000" 700 "$(stat -c %a "$(dirname "$db")")"
# Keep a connection open so that the WAL and shared-memory files stay.
mkfifo "$T/hold"
sqlite3 "$db" <"$T/hold" >/dev/null 2>&1 &
holdpid=$!
exec 7>"$T/hold"
echo 'SELECT count(*) FROM events;' >&7
(umask 000 && "$DECORUM" tag "$t2" admonition --note "second" >/dev/null)
sleep 0.5
check_eq "WAL file 0600 under umask 000" 600 "$(stat -c %a "$db-wal" 2>&1)"
check_eq "shared-memory file 0600 under umask 000" 600 "$(stat -c %a "$db-shm" 2>&1)"
exec 7>&-
wait "$holdpid"
mkdir "$T/out"
(umask 000 && "$DECORUM" report --period 1970-01-01..2100-01-01 -o "$T/out/report.txt" >/dev/null 2>&1)
check_eq "report 0600 under umask 000" 600 "$(stat -c %a "$T/out/report.txt" 2>&1)"
(umask 000 && "$DECORUM" packet 1 -o "$T/out/packet" >/dev/null 2>&1)
check_eq "packet directory 0700 under umask 000" 700 "$(stat -c %a "$T/out/packet" 2>&1)"
check_eq "packet files 0600 under umask 000" "" \
	"$(find "$T/out/packet" -type f ! -perm 600 2>&1)"

# ---- symlinks planted at the paths ----------------------------------------
ln -s "$T/victim-report" "$T/out/link.txt"
"$DECORUM" report -o "$T/out/link.txt" >/dev/null 2>"$T/err"
rc=$?
check "a symlink at the report path is refused" test $rc -ne 0 -a ! -e "$T/victim-report"
ln -s "$T/victim-dir" "$T/out/linkpk"
mkdir "$T/victim-dir"
"$DECORUM" packet 1 -o "$T/out/linkpk" >/dev/null 2>"$T/err"
rc=$?
check "a symlink at the packet path is refused" test $rc -ne 0 -a -z "$(ls -A "$T/victim-dir")"
ln -s "$T/victim.db" "$T/out/link.db"
"$DECORUM" --store "$T/out/link.db" tag "$t1" tab >/dev/null 2>&1
rc=$?
check "a symlink at the store path is refused" test $rc -ne 0 -a ! -e "$T/victim.db"

if ! mount -t tmpfs -o size=64k tmpfs "$T/out" 2>/dev/null; then
	skip "full and read-only file systems (cannot mount a tmpfs: not root?)"
	exit 0
fi
umount "$T/out"

# ---- a full disk ------------------------------------------------------------
mkdir -p "$T/full"
mount -t tmpfs -o size=512k tmpfs "$T/full"
trap 'umount "$T/full" 2>/dev/null; umount "$T/ro" 2>/dev/null; t_cleanup' EXIT
fill() { dd if=/dev/zero of="$T/full/fill" bs=1k 2>/dev/null; sync; }

fill
"$DECORUM" --store "$T/full/new.db" tag "$t1" tab >/dev/null 2>"$T/err"
check_eq "a new store on a full disk fails with status 3" 3 $?
check "... saying the disk is full" grep -qi 'full\|space' "$T/err"
check_eq "... and leaves no file" "fill" "$(ls "$T/full")"
rm -f "$T/full/fill"

"$DECORUM" --store "$T/full/s.db" tag "$t1" tab --note "before full" >/dev/null
cp "$T/full/s.db" "$T/before.db"
fill
"$DECORUM" --store "$T/full/s.db" tag "$t2" tab --note "when full" >/dev/null 2>"$T/err"
rc=$?
check "tagging on a full disk fails (status 3 or 5)" test $rc -eq 3 -o $rc -eq 5
check "... saying the disk is full" grep -qi 'full\|space' "$T/err"
sed 's/^/#   /' "$T/err"

"$DECORUM" report -o "$T/full/report.txt" >/dev/null 2>"$T/err"
check_eq "a report on a full disk fails with status 3" 3 $?
check "... saying so" grep -qi 'space' "$T/err"
"$DECORUM" packet 1 -o "$T/full/packet" >/dev/null 2>"$T/err"
check_eq "a packet on a full disk fails with status 3" 3 $?
check "... saying so" grep -qi 'space' "$T/err"
check_eq "... and no partial export is left" "fill s.db" "$(ls "$T/full" | grep -v '^s\.db-' | tr '\n' ' ' | sed 's/ $//')"
rm -f "$T/full/fill"
check "after the disk was full the store is intact" intact "$T/full/s.db"
check "... the earlier note is there" sh -c "sqlite3 '$T/full/s.db' 'SELECT data FROM events' | grep -q 'before full'"
n=$(sqlite3 "$T/full/s.db" "SELECT count(*) FROM events WHERE data LIKE '%when full%'")
check_eq "... the failed note is not half there" 0 "$n"
"$DECORUM" --store "$T/full/s.db" tag "$t2" tab --note "space again" >/dev/null
check_eq "with space again, tagging works" 0 $?
check "... and the store is intact" intact "$T/full/s.db"

# ---- a read-only file system -----------------------------------------------
mkdir -p "$T/ro"
mount -t tmpfs -o size=1m tmpfs "$T/ro"
"$DECORUM" --store "$T/ro/s.db" tag "$t1" tab --note "before ro" >/dev/null
mkdir "$T/ro/exports"
mount -o remount,ro "$T/ro"
"$DECORUM" --store "$T/ro/s.db" tag "$t3" escalation --note "on ro" >/dev/null 2>"$T/err"
rc=$?
check "tagging in a read-only store fails (status 3)" test $rc -eq 3
check "... saying it is read-only" grep -qi 'read-only\|readonly' "$T/err"
sed 's/^/#   /' "$T/err"
"$DECORUM" report -o "$T/ro/exports/r.txt" >/dev/null 2>"$T/err"
check_eq "a report into a read-only directory fails with status 3" 3 $?
check "... saying it is read-only" grep -qi 'read-only' "$T/err"
"$DECORUM" packet 1 -o "$T/ro/exports/pk" >/dev/null 2>"$T/err"
check_eq "a packet into a read-only directory fails with status 3" 3 $?
check_eq "... nothing written" "" "$(ls -A "$T/ro/exports")"
mount -o remount,rw "$T/ro"
check "the read-only store is intact" intact "$T/ro/s.db"
