#!/bin/sh
# Cases stay on their own reports when the notmuch index is rebuilt.
#
# Cases are opened through the command line and the TUI on the demo
# corpus; then the same mail is indexed again in other layouts and orders
# (which hands out thread ids in another order), and once restored from
# "notmuch dump" into a new database.  After each, every case must list,
# show, fsck, repair and pack exactly the Message-IDs it had.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"

t_index "$TOP/tests/corpus/demo"

# Message-IDs of a thread, sorted.
thread_msgs() { notmuch search --output=messages --exclude=false "thread:$1" | sort; }
# The thread holding a Message-ID.
thread_of() { notmuch search --output=threads --exclude=false "id:$1" | sed 's/^thread://'; }
case_msgs() { $D case show "$1" --json | jq -r '.messages[].message_id' | sort; }
tagged() { notmuch search --output=messages --exclude=false "tag:coc/case-$1" | sed 's/^id://' | sort; }

# The reports of Дмитрий Соколов and Zoë Hartmann (whose thread ids a
# rebuild in another order swaps) and two more, each its thread's first.
first_of() {
	notmuch search --output=messages --exclude=false --sort=oldest-first \
		"thread:$1" | sed 's/^id://' | head -1
}
threads=$(notmuch search --output=threads --exclude=false \
	'subject:report' |
	sed 's/^thread://' | head -4)
n=0
for t in $threads; do
	n=$((n + 1))
	r=$(first_of "$t")
	if [ $n -le 2 ]; then
		$D tag "$t" escalation --note "case $n" >/dev/null 2>"$T/err" ||
			cat "$T/err"
	else
		# Through the TUI: search the thread, tag it, quit.
		printf 'key /\ntype thread:%s\nkey Enter\nkey e\ntype case %s\nkey Enter\nkey Q\n' \
			"$t" "$n" >"$T/tag.keys"
		$D tui --script "$T/tag.keys" --dump-dir "$T" >"$T/tui.out" 2>&1 ||
			sed 's/^/#   /' "$T/tui.out"
	fi
	thread_msgs "$t" | sed 's/^id://' >"$T/want-$n"
	echo "$r" >"$T/report-$n"
done
check_eq "four cases were opened" 4 "$($D cases --json | jq length)"
for i in 1 2 3 4; do
	check "case $i covers its thread's Message-IDs" cmp "$T/want-$i" "$(case_msgs $i >"$T/got"; echo "$T/got")"
	check "case $i: notmuch tagged exactly those" cmp "$T/want-$i" "$(tagged $i >"$T/got"; echo "$T/got")"
done

# The same checks after a rebuild.
after_rebuild() {
	how=$1
	for i in 1 2 3 4; do
		case_msgs $i >"$T/got"
		check "$how: case $i has the same Message-IDs" cmp "$T/want-$i" "$T/got"
		r=$(cat "$T/report-$i")
		t=$(thread_of "$r")
		check_eq "$how: case $i shows on its report's thread" "$i" \
			"$($D list --json "thread:$t" | jq -r '.[0].case.id')"
		check_eq "$how: case show names that thread" "$t" \
			"$($D case show $i --json | jq -r '.threads[0]')"
	done
	$D fsck --repair --force >"$T/fsck.out" 2>&1
	check_eq "$how: fsck --repair succeeds" 0 $?
	for i in 1 2 3 4; do
		check "$how: case $i tags exactly its messages" cmp "$T/want-$i" "$(tagged $i >"$T/got"; echo "$T/got")"
	done
	$D fsck >"$T/fsck.out" 2>&1
	check "$how: fsck finds 0 differences" grep -q '^0 differences' "$T/fsck.out"
	rm -rf "$T/pk"
	$D packet 1 -o "$T/pk" >/dev/null 2>"$T/err"
	check_eq "$how: the packet is written" 0 $?
	grep -i '^message-id:' "$T/pk/thread.mbox" 2>/dev/null |
		sed 's/^[^<]*<//; s/>.*//' | sort >"$T/got"
	check "$how: the packet holds case 1's messages, no others" cmp "$T/want-1" "$T/got"
}

# Layout 1: the files split into two folders, in another order.
relayout() {
	# $1: a function that places each file ($2 counter, $3 path)
	mv "$T/mail" "$T/old"
	mkdir -p "$T/mail"
	k=0
	for f in $(find "$T/old" -type f -path '*/cur/*' -o -type f -path '*/new/*' | sort $2); do
		k=$((k + 1))
		$1 "$k" "$f"
	done
	rm -rf "$T/old"
	notmuch new --quiet >/dev/null 2>&1
}
two_dirs() {
	d=aaa
	[ $(($1 % 2)) -eq 0 ] && d=zzz
	mkdir -p "$T/mail/$d/cur"
	mv "$2" "$T/mail/$d/cur/"
}
one_each() {
	mkdir -p "$T/mail/f$1/cur"
	mv "$2" "$T/mail/f$1/cur/"
}
renamed() {
	mkdir -p "$T/mail/cur"
	mv "$2" "$T/mail/cur/$((100000 - $1)).renamed:2,S"
}

relayout two_dirs -r
after_rebuild "two folders, reverse order"
relayout one_each ""
after_rebuild "a folder per message"
relayout renamed -r
after_rebuild "renamed files"

# notmuch dump, then restore into a new database of the same mail.
notmuch dump --output="$T/dump" 2>/dev/null
rm -rf "$T/mail/.notmuch"
relayout two_dirs ""
notmuch restore --input="$T/dump" >/dev/null 2>&1
check "after restore, the tags came back" test -n "$(tagged 1)"
after_rebuild "dump and restore"

# A message gone from the index is shown as missing, never replaced.
r=$(cat "$T/report-1")
f=$(notmuch search --output=files --exclude=false "id:$r" | head -1)
rm -f "$f"
notmuch new --quiet >/dev/null 2>&1
$D fsck >"$T/fsck.out" 2>&1
check "fsck names the missing report of case 1" grep -q "case 1.*not in" "$T/fsck.out"
$D case show 1 >"$T/show.out" 2>&1
check "case show marks it as not in your mail" grep -q "(not in your mail)" "$T/show.out"
$D fsck --repair --force >/dev/null 2>&1
tagged 1 >"$T/got"
check "the repair tags no message outside case 1" sh -c "comm -13 '$T/want-1' '$T/got' | grep -q . && exit 1 || exit 0"
check "verify passes after it all" $D verify
exit $T_FAILED
