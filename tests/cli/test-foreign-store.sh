#!/bin/sh
# A file that is not a decorum store is refused by every command and left
# byte for byte as it was; read commands never create a store.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
t_index "$TOP/tests/corpus/demo"
thread=$(notmuch search --output=threads '*' | head -1 | sed 's/^thread://')

sqlite3 "$T/foreign.db" "CREATE TABLE photos (name TEXT); INSERT INTO photos VALUES ('holiday');"
: >"$T/empty.db"
printf 'not a database at all\n' >"$T/text.db"
for f in foreign empty text; do
	cp "$T/$f.db" "$T/$f.orig"
	# show reads no store: it only must not touch the file.
	$D --store "$T/$f.db" show "$thread" >/dev/null 2>&1
	check "$f file: 'show' leaves it unchanged" cmp "$T/$f.db" "$T/$f.orig"
	for cmd in "cases" "verify" "list" "case show 1" \
		"tag $thread escalation"; do
		# shellcheck disable=SC2086
		$D --store "$T/$f.db" $cmd >"$T/out" 2>&1
		rc=$?
		check "$f file: '$cmd' refuses it" test $rc -ne 0
		check "$f file: '$cmd' leaves it unchanged" cmp "$T/$f.db" "$T/$f.orig"
	done
	check "$f file: the refusal says why" grep -q "not a decorum store" "$T/out"
	check "$f file: no journal was made beside it" \
		sh -c "! ls '$T/$f.db-'* >/dev/null 2>&1"
done

for cmd in "cases" "verify" "list" "case show 1"; do
	# shellcheck disable=SC2086
	$D --store "$T/none/decorum.db" $cmd >/dev/null 2>&1
	check "'$cmd' creates no store" test ! -e "$T/none/decorum.db"
done
exit $T_FAILED
