#!/bin/sh
# A reporter glued into Message-IDs, References and lore links: a
# redacted packet rewrites each such id the same way in every message (so
# threading holds), drops its lore link, and keeps other ids as they are.
. "$(dirname "$0")/../lib.sh"
t_setup

mkdir -p "$T/src/cur" "$T/src/new" "$T/src/tmp"
cat >"$T/src/cur/1:2," <<'EOM'
From: Quentin Reporterson <quentin@quentin-reporterson.net>
To: conduct@kernel.org
Subject: Report about a review
Message-ID: <msg.qreporterson@example.net>
Date: Mon, 02 Nov 2026 10:00:00 +0000

Hello, see https://lore.kernel.org/all/CAQreporterson+abc@mail.gmail.com/ and
<quentinreporterson.1234@example.com> for context.
EOM
cat >"$T/src/cur/2:2," <<'EOM'
From: Carol Committee <carol@example.org>
To: Quentin Reporterson <quentin@quentin-reporterson.net>, conduct@kernel.org
Subject: Re: Report about a review
Message-ID: <reply1@example.org>
In-Reply-To: <msg.qreporterson@example.net>
References: <msg.qreporterson@example.net>
Date: Mon, 02 Nov 2026 11:00:00 +0000

Hi Quentin, thanks.
EOM
t_index "$T/src" || { fail "index"; exit 1; }
th=$(notmuch search --output=threads '*' | sed 's/thread://')
"$DECORUM" tag "$th" escalation >/dev/null 2>&1
check "a redacted packet is written" "$DECORUM" packet 1 -o "$T/p" --redact
check "no form of the reporter is left in any file" sh -c '! grep -ri "quentin\|reporterson" "$1"' _ "$T/p"
id=$(sed -n 's/^Message-ID: <\(redacted\.[0-9a-f]*@redacted\.invalid\)>$/\1/p' "$T/p/thread.mbox" | head -n 1)
check "the report's Message-ID has a stand-in" test -n "$id"
check_eq "the reply's In-Reply-To and References point at the same stand-in" 2 \
	"$(grep -c "^\(In-Reply-To\|References\): <$id>" "$T/p/thread.mbox")"
check "another Message-ID stays" grep -q '^Message-ID: <reply1@example.org>' "$T/p/thread.mbox"
check "the lore link in the body is rewritten too" grep -q 'lore.kernel.org/all/redacted\.' "$T/p/thread.mbox"
check "the MANIFEST still checks" sh -c 'cd "$1" && sha256sum -c MANIFEST.sha256 >/dev/null' _ "$T/p"
check "without --redact the ids are the mail's" sh -c '"$1" packet 1 -o "$2" >/dev/null && grep -q "msg.qreporterson@example.net" "$2/thread.mbox"' _ "$DECORUM" "$T/p-plain"
exit 0
