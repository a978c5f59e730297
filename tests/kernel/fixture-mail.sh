#!/bin/sh
# tests/kernel/fixture-mail.sh DIR: write a tiny fictional maildir for the
# QEMU guest when tests/corpus/demo does not exist: a patch thread on a
# list in which one reply turns personal, the maintainer's admonition, and
# a report to the conduct address that cites the reply by its lore link.
# Every name and address is made up (example.org).
set -eu
[ $# -eq 1 ] || { echo "usage: fixture-mail.sh DIR" >&2; exit 2; }
D=$1
mkdir -p "$D/cur" "$D/new" "$D/tmp"

n=0
msg() {
	# $1: date, $2: from, $3: to, $4: subject, $5: message-id,
	# $6: in-reply-to ("" for none); body on stdin
	n=$((n + 1))
	f="$D/cur/170000000$n.M${n}P1.fixture:2,S"
	{
		printf 'Date: %s\nFrom: %s\nTo: %s\nSubject: %s\nMessage-ID: <%s>\n' \
			"$1" "$2" "$3" "$4" "$5"
		[ -n "$6" ] && printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$6" "$6"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
		cat
	} >"$f"
}

msg "Mon, 06 Jan 2025 10:00:00 +0000" "Alex Patchwright <alex@example.org>" \
	"widget-devel@lists.example.org" "[PATCH] widget: fix the frobnicator timeout" \
	"20250106100000.1-alex@example.org" "" <<'EOF'
The frobnicator waits forever when the device is unplugged.  Time out
after a second instead.

Signed-off-by: Alex Patchwright <alex@example.org>
EOF

msg "Mon, 06 Jan 2025 12:30:00 +0000" "Robin Reviewer <robin@example.org>" \
	"widget-devel@lists.example.org" "Re: [PATCH] widget: fix the frobnicator timeout" \
	"20250106123000.2-robin@example.org" "20250106100000.1-alex@example.org" <<'EOF'
> Time out after a second instead.

Only someone who has never read a datasheet would pick a second.  Stop
wasting everybody's time with your patches.
EOF

msg "Mon, 06 Jan 2025 15:00:00 +0000" "Maya Maintainer <maya@example.org>" \
	"widget-devel@lists.example.org" "Re: [PATCH] widget: fix the frobnicator timeout" \
	"20250106150000.3-maya@example.org" "20250106123000.2-robin@example.org" <<'EOF'
Robin, the point about the timeout is fair; the second paragraph is not.
Let's keep this about the code, please.

Alex, the datasheet gives 250 ms; could you send a v2 with that?
EOF

msg "Tue, 07 Jan 2025 09:00:00 +0000" "Casey Contributor <casey@example.org>" \
	"conduct@kernel.org" "Report: remarks on widget-devel" \
	"20250107090000.4-casey@example.org" "" <<'EOF'
I would like to report this message, which is not the first of its kind
from the same person:

  https://lore.kernel.org/r/20250106123000.2-robin@example.org

Please do not share my name with the person concerned.
EOF
