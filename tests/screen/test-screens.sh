#!/bin/sh
# Screen tests without a terminal: each tests/screen/NAME.keys script
# drives "decorum tui --script" on the demo corpus, and every screen it
# dumps is compared with tests/screen/expected/DUMP.txt.
#   UPDATE=1 sh tests/screen/test-screens.sh   rewrites the expectations
# A "# query: Q" line in a script opens the list on Q instead of the
# default query; a "# visual: CMD" line makes CMD the editor ($VISUAL)
# that C-X runs; "# config: LINE" lines are its decorum configuration
# (@HERE@ is this directory); "# before: ARGS" lines run "decorum ARGS"
# on the script's store first (members, say).  Dates print in UTC and
# the clock is fixed.
# The messages in tests/screen/mail/*.eml are indexed with the demo.
. "$(dirname "$0")/../lib.sh"
t_setup

export TZ=UTC LC_ALL=C.UTF-8 DECORUM_NOW=1796284800 # 2026-12-03 00:00
unset NO_COLOR DECORUM_AS VISUAL EDITOR
HERE="$TOP/tests/screen"

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }

# Two extra reports: one with wide, combining and emoji characters, one
# full of escape sequences and bidi controls.
esc=$(printf '\033')
bel=$(printf '\007')
cat >"$T/mail/cur/1796000000.M1P1.screen:2,S" <<MSG
From: =?UTF-8?B?5bGx55SwIOiKseWtkA==?= <hanako.yamada@example.org>
To: someone@example.org
Subject: =?UTF-8?B?d2lkZS10ZXN0IOWgseWRiu+8muODrOODk+ODpeODvOOBp+OBruWAi+S6uuaUu+aSgyDwn5mCIGNhZsOpIGNhZmXMgSDlvLfjgYToqIDokYnjgYzkvZXluqbjgoLnubDjgorov5TjgZXjgozjgb7jgZfjgZ8=?=
Date: Mon, 30 Nov 2026 09:00:00 +0000
Message-ID: <wide-test@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 8bit

山田です。レビューで「こんなパッチは読む価値もない」と書かれました。🙂 これは冗談ではありません。とても長い行を折り返す必要がありますので、この文は画面の幅を超えるように書かれています。
café (precomposed) and cafe\u0301 (combining) should line up.
MSG
# The body line above has a literal \u0301: put a real combining acute.
sed -i 's/cafe\\u0301/cafe\xcc\x81/' "$T/mail/cur/1796000000.M1P1.screen:2,S"
printf 'From: "Mallory %s[31mRED%s[0m" <mallory@example.com>\nTo: someone@example.org\nSubject: hostile-test %s[2J%s]0;pwned%s report \342\200\256gnp.exe\342\200\254 zero\342\200\213width\nDate: Tue, 01 Dec 2026 10:00:00 +0000\nMessage-ID: <hostile-test@example.com>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\nBody with %s[1;31mcolour%s[0m, a title %s]0;owned%s, a bidi \342\200\256override\342\200\254 and a BOM \357\273\277.\n> quoted %s[2J clear\n' \
	"$esc" "$esc" "$esc" "$esc" "$bel" "$esc" "$esc" "$esc" "$bel" "$esc" \
	>"$T/mail/cur/1796100000.M2P2.screen:2,S"
# A thread of 300 messages between two (fictional) developers, for the
# count column.
i=1
while [ $i -le 300 ]; do
	if [ $((i % 2)) -eq 1 ]; then
		from="Ada Quill <ada.quill@example.org>"
	else
		from="Bo Lindgren <bo.lindgren@example.net>"
	fi
	{
		printf 'From: %s\nTo: dev@example.org\n' "$from"
		printf 'Subject: long-thread-test review of v%d\n' "$i"
		printf 'Date: Sun, 01 Nov 2026 10:00:00 +0000\n'
		printf 'Message-ID: <long-thread-%d@example.org>\n' "$i"
		[ $i -gt 1 ] &&
			printf 'In-Reply-To: <long-thread-%d@example.org>\n' $((i - 1))
		printf '\nMessage %d of a long review thread.\n' "$i"
	} >"$T/mail/cur/1796200000.L$i.screen:2,S"
	i=$((i + 1))
done
for f in "$HERE"/mail/*.eml; do
	cp "$f" "$T/mail/cur/$(basename "$f" .eml):2,S"
done
notmuch new --quiet >/dev/null 2>&1 || { fail "index the extra reports"; exit 1; }

mkdir -p "$T/dumps"
for script in "$HERE"/*.keys; do
	name=$(basename "$script" .keys)
	query=$(sed -n 's/^# query: //p' "$script")
	visual=$(sed -n 's/^# visual: //p' "$script")
	export DECORUM_STORE="$T/store-$name/decorum.db"
	export XDG_STATE_HOME="$T/state-$name" # the / history of its own
	sed -n 's/^# config: //p' "$script" | sed "s|@HERE@|$HERE|g" \
		>"$T/config-$name"
	export DECORUM_CONFIG="$T/config-$name"
	sed -n 's/^# before: //p' "$script" >"$T/before-$name"
	while read -r args; do
		eval "\"\$DECORUM\" $args" >>"$T/$name.before" 2>&1 ||
			fail "screen script $name: decorum $args"
	done <"$T/before-$name"
	if ! VISUAL="$visual" "$DECORUM" tui --script "$script" \
		--dump-dir "$T/dumps" ${query:+"$query"} >"$T/$name.out" 2>&1; then
		fail "screen script $name runs"
		sed 's/^/#   /' "$T/$name.out" | head -20
		continue
	fi
	for dump in $(sed -n 's/^dump //p' "$script"); do
		got="$T/dumps/$dump.txt"
		want="$HERE/expected/$dump.txt"
		if [ -n "${UPDATE:-}" ]; then
			cp "$got" "$want"
			ok "screen $name/$dump (updated)"
		elif [ ! -f "$want" ]; then
			fail "screen $name/$dump: no $want (UPDATE=1 creates it)"
		elif diff -u "$want" "$got" >"$T/diff" 2>&1; then
			ok "screen $name/$dump"
		else
			fail "screen $name/$dump differs"
			sed 's/^/#   /' "$T/diff" | head -60
		fi
	done
done

# Nothing from mail reaches the screen raw: no ESC, BEL or bidi control.
if grep -l "$(printf '\033\|\007')" "$T"/dumps/*.txt >/dev/null 2>&1 ||
	grep -l "$(printf '\342\200\256')" "$T"/dumps/*.txt >/dev/null 2>&1; then
	fail "no raw escape or bidi control in any screen"
else
	ok "no raw escape or bidi control in any screen"
fi
check "the hostile subject is shown with its escapes made visible" \
	grep -q '␛\[2J' "$T/dumps/hostile-list.txt"
check "the bidi override is shown as <U+202E>" \
	grep -q '<U+202E>gnp.exe' "$T/dumps/hostile-thread.txt"
# reply.keys sent through its stand-in: the template, and the line
# its editor added each time (e edits again).
check "the reply script's mail has the template and both edits" \
	sh -c 'grep -q "Thank you for your report about reply-test" "$1" &&
		test "$(grep -c "An edited line." "$1")" = 2 &&
		grep -qi "^In-Reply-To: <reply-test-1@example.org>" "$1"' \
	_ "$T/state-reply/sent.eml"
exit 0
