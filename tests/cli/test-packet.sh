#!/bin/sh
# decorum packet: the mbox round trip, the manifest, the modes and the
# refusals, and redaction against a reporter hidden in every form.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixture-cases.sh"
t_setup
fixture_cases || { fail "fixture store"; exit 1; }

# Message ids of an mboxrd file, one a line, sorted.
mbox_ids() {
	awk '/^From mboxrd@z / { hdr = 1; next }
	     hdr && /^$/ { hdr = 0 }
	     hdr && tolower($0) ~ /^message-id:/ {
		sub(/^[^:]*:[ \t]*</, ""); sub(/>.*$/, ""); print }' "$1" | sort
}

"$DECORUM" packet 2 -o "$T/p2" >"$T/p2.out"
check_eq "packet exits 0" 0 $?
check "packet names the output" grep -q "$T/p2" "$T/p2.out"
thread=$(fixture_thread 20261009081500.24793-1-zoe.hartmann@example.com)
check_eq "thread.mbox holds every message of the case" \
	"$(notmuch count "thread:$thread")" "$(grep -c '^From mboxrd@z ' "$T/p2/thread.mbox")"
check_eq "... with the case's message ids" \
	"$(notmuch search --output=messages "thread:$thread" | sed 's/^id://' | sort)" "$(mbox_ids "$T/p2/thread.mbox")"
check "sha256sum -c MANIFEST.sha256 passes" sh -c 'cd "$1" && sha256sum -c --quiet MANIFEST.sha256' _ "$T/p2"
check "cover.eml is addressed to the TAB" grep -q '^To: tech-board@lists.linux-foundation.org' "$T/p2/cover.eml"
check "every packet file is there" sh -c 'cd "$1" && ls cover.eml thread.mbox timeline.txt timeline.json decisions.txt decisions.json links.txt conflicts.txt MANIFEST.sha256' _ "$T/p2"

# The mbox is what notmuch insert reads: insert it into a fresh database.
mkdir -p "$T/ins/mail/cur" "$T/ins/mail/new" "$T/ins/mail/tmp"
printf '[database]\npath=%s\n' "$T/ins/mail" >"$T/ins/config"
NOTMUCH_CONFIG="$T/ins/config" notmuch new --quiet >/dev/null 2>&1
awk -v dir="$T/ins/split" 'BEGIN { system("mkdir -p " dir) }
     /^From mboxrd@z / { n++; f = dir "/" n; next }
     { line = $0; if (line ~ /^>+From /) line = substr(line, 2); print line > f }' "$T/p2/thread.mbox"
for f in "$T"/ins/split/*; do
	NOTMUCH_CONFIG="$T/ins/config" notmuch insert <"$f" || break
done
check_eq "notmuch insert takes every message" \
	"$(notmuch count "thread:$thread")" "$(NOTMUCH_CONFIG="$T/ins/config" notmuch count '*')"

# mboxrd quoting: a body line "From x" gains one ">".
# (core/export/packet.c dc_mboxrd_append; checked in the unit tests as well)

# Modes and refusals.
(umask 000 && "$DECORUM" packet 1 -o "$T/p1" >/dev/null)
check_eq "packet directory is 0700 under umask 000" 700 "$(stat -c %a "$T/p1")"
check_eq "packet files are 0600 under umask 000" 600 "$(stat -c %a "$T/p1"/* | sort -u | tr '\n' ' ' | sed 's/ $//')"
"$DECORUM" packet 1 -o "$T/p1" >/dev/null 2>&1
check_eq "an existing target is refused with exit 4" 4 $?
mkdir "$T/victim"
ln -s "$T/victim" "$T/plink"
"$DECORUM" packet 1 -o "$T/plink" >/dev/null 2>&1
check "a symlink at the target is refused, not followed" test $? -ne 0 -a -z "$(ls -A "$T/victim")"
check "no temporary directory is left behind" sh -c '! ls -a "$1" | grep -q "^\.p"' _ "$T"
"$DECORUM" packet 99 -o "$T/p99" >/dev/null 2>&1
check_eq "a missing case exits 1" 1 $?

# Redaction: a reporter hidden in a base64 body, an RFC 2047 From, an
# attribution line, a signature, a Received header, and upper case.
mkdir -p "$T/red"
b64=$(printf 'Hello,\n\nI am writing about a review.\n\nOn Tue, Nov 3, Quentin Vasquez-Marlow wrote:\n> quoted\n\nThanks,\nQuentin\nQUENTIN.VM@EXAMPLE.ORG\n' | base64 -w 60)
cat >"$T/red/1:2,S" <<MAIL
Received: from mail.example.org by mx.example.net for <quentin.vm@example.org>
Authentication-Results: mx.example.net; dkim=pass header.i=@example.org smtp.mailfrom=quentin.vm@example.org
DKIM-Signature: v=1; a=rsa-sha256; d=example.org; s=sel; i=quentin.vm@example.org; b=abc
ARC-Seal: i=1; a=rsa-sha256; d=example.org; s=sel; cv=none; b=xyz
From: =?UTF-8?Q?Quentin_Vasquez=2DMarlow?= <quentin.vm@example.org>
To: conduct@kernel.org
Subject: report from Quentin
Date: Tue, 17 Nov 2026 09:00:00 +0000
Message-ID: <red-1@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: base64

$b64
MAIL
qp=$(printf 'Dear Quentin,\n\nOn 17 Nov, QUENTIN VASQUEZ-MARLOW <quentin.vm@example.org> wrote:\n> I am writing about a review.\n\nWe will look into it. R=C3=A9sum=C3=A9 follows.\n')
cat >"$T/red/2:2,S" <<MAIL
From: Committee Member <member@example.org>
To: =?ISO-8859-1?B?UXVlbnRpbiBWYXNxdWV6LU1hcmxvdw==?= <Quentin.VM@example.org>
Cc: conduct@kernel.org
Subject: Re: report from Quentin
Date: Tue, 17 Nov 2026 12:00:00 +0000
Message-ID: <red-2@example.org>
In-Reply-To: <red-1@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

$qp
MAIL
cp "$T/red/1:2,S" "$T/mail/cur/red-1:2,S"
cp "$T/red/2:2,S" "$T/mail/cur/red-2:2,S"
notmuch new --quiet >/dev/null 2>&1
rthread=$(fixture_thread red-1@example.org)
"$DECORUM" tag "$rthread" escalation >/dev/null
rcase=$("$DECORUM" cases --json | jq ".[] | select(.threads[0] == \"$rthread\") | .id")
"$DECORUM" packet "$rcase" -o "$T/pr" --redact >"$T/pr.out" 2>&1
check_eq "a redacted packet is written" 0 $?
check "the reporter is Reporter A" grep -q '^From: Reporter A <reporter-a@redacted.invalid>' "$T/pr/thread.mbox"
for pat in quentin vasquez marlow 'quentin\.vm' 'UXVlbnRpbi' 'cXVlbnRpbi' 'dWVudGlu' 'VlbnRpbi'; do
	if grep -rqi -- "$pat" "$T/pr"; then fail "redacted packet has no '$pat'"; else ok "redacted packet has no '$pat'"; fi
done
check "trace and authentication headers are dropped" sh -c '! grep -qi "^\(Received\|Authentication-Results\|DKIM-Signature\|ARC-\)" "$1"' _ "$T/pr/thread.mbox"
check "the base64 body stays base64" grep -q '^Content-Transfer-Encoding: base64' "$T/pr/thread.mbox"
check "the redacted manifest checks" sh -c 'cd "$1" && sha256sum -c --quiet MANIFEST.sha256' _ "$T/pr"
check "the redacted mbox keeps every message" test "$(grep -c '^From mboxrd@z ' "$T/pr/thread.mbox")" -eq 2

# What redaction cannot read is not copied: a stub gives its type, size
# and SHA-256 instead.
att=$(printf 'contact: quentin.vm@example.org\n' | base64)
cat >"$T/mail/cur/red-3:2,S" <<MAIL
From: Committee Member <member@example.org>
To: conduct@kernel.org
Subject: Re: report from Quentin
Date: Tue, 17 Nov 2026 13:00:00 +0000
Message-ID: <red-3@example.org>
In-Reply-To: <red-2@example.org>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain

see attachment
--b
Content-Type: application/octet-stream; name=notes.bin
Content-Transfer-Encoding: base64

$att
--b--
MAIL
notmuch new --quiet >/dev/null 2>&1
"$DECORUM" packet "$rcase" -o "$T/pf" --redact >"$T/pf.out" 2>&1
check_eq "a packet with an unreadable attachment is written" 0 $?
check "... without the attachment" sh -c '! grep -rq "quentin\|$1" "$2"' _ "$att" "$T/pf"
sum=$(printf 'contact: quentin.vm@example.org\n' | sha256sum | cut -d' ' -f1)
check "... a stub gives its type, size and SHA-256" sh -c \
	'grep -q "type: application/octet-stream" "$1" && grep -q "size: 32 bytes" "$1" && grep -q "SHA-256: $2" "$1"' \
	_ "$T/pf/thread.mbox" "$sum"

# Decisions, conflicts and the timeline come from the case's events.
"$DECORUM" case participant 5 reporter yusuf.haddad@example.com --name "Yusuf Haddad" >/dev/null
"$DECORUM" case state 5 investigating >/dev/null
"$DECORUM" case outcome 5 measure --what "no reviews" --scope net --until v9.9 >/dev/null
"$DECORUM" case conflict 5 cm@example.org --note "same employer" >/dev/null
"$DECORUM" case recuse 5 cm2@example.org >/dev/null
"$DECORUM" case vote 5 --on overturn --member tab9@example.org against >/dev/null
"$DECORUM" packet 5 --redact -o "$T/p5" >/dev/null 2>"$T/p5.err"
check_eq "packet of a decided case exits 0" 0 $?
check "decisions.txt lists the measure" grep -q 'Remedial measure (measure)' "$T/p5/decisions.txt"
check_eq "decisions.json holds the outcome" measure "$(jq -r '.outcomes[0].outcome' "$T/p5/decisions.json")"
check_eq "... and the vote" against "$(jq -r '.votes[0].vote' "$T/p5/decisions.json")"
check_eq "... and the tally" 1 "$(jq '.tally.against' "$T/p5/decisions.json")"
check "conflicts.txt lists the conflict" grep -q 'cm@example.org  declared a conflict: same employer' "$T/p5/conflicts.txt"
check "conflicts.txt lists the recusal" grep -q 'cm2@example.org  recused' "$T/p5/conflicts.txt"
check "timeline.json has the outcome event" jq -e '[.[] | select(.type == "outcome")] | length == 1' "$T/p5/timeline.json"
check "cover.eml summarises the timeline" grep -q '^  .*  outcome$' "$T/p5/cover.eml"
check "cover.eml names the outcome so far" grep -q '^Outcome so far: Remedial measure' "$T/p5/cover.eml"
check "the recorded reporter is redacted" sh -c '! grep -qi "yusuf\|haddad" "$1"/*' _ "$T/p5"
check "... and not guessed" sh -c '! grep -q "No reporter is recorded" "$1"' _ "$T/p5/cover.eml"
check "cover.eml says which question the vote answered" grep -q '^  On overturn: ' "$T/p5/cover.eml"
check "... with its count and where it stands" grep -q '^    for 0, against 1, abstain 0, recused 0: ' "$T/p5/cover.eml"
check "... and no question nobody voted on" sh -c '! grep -q "^  On approve" "$1"' _ "$T/p5/cover.eml"
# cover.eml: a MIME message with every other file attached, the question,
# the rule, the recommendation and the reply-by date (the parts are read
# back with GMime in tests/unit/test-packet.c).
cv="$T/p5/cover.eml"
check "cover.eml is multipart/mixed" grep -q '^Content-Type: multipart/mixed;' "$cv"
check_eq "cover.eml attaches every file of the manifest but itself" \
	"$(awk '{ print $2 }' "$T/p5/MANIFEST.sha256" | grep -vx cover.eml | sort)" \
	"$(sed -n 's/^Content-Disposition: attachment; filename=//p' "$cv" | sort)"
check "cover.eml puts the question to the TAB" grep -q '^The question put to the TAB$' "$cv"
check "... quotes the rule of the 6.1 interpretation" grep -q '"A decision by the Code of Conduct Committee can be overturned by the$' "$cv"
check "... gives the committee's recommendation" grep -q '^  Remedial measure (measure)$' "$cv"
check "... with its scope" grep -q '^  Scope:    net$' "$cv"
DECORUM_NOW=2099-02-20T23:59:59Z "$DECORUM" packet 5 -o "$T/p5n" >/dev/null 2>&1
check "... and a reply-by date 14 days after the packet's" grep -q '^Please reply by 2099-03-06\.$' "$T/p5n/cover.eml"
"$DECORUM" packet 5 --reply-by 2099-01-15 -o "$T/p5d" >"$T/p5d.out" 2>&1
check_eq "packet --reply-by exits 0" 0 $?
check "... and says the date" grep -q ', reply by 2099-01-15$' "$T/p5d.out"
check "... and the cover gives that date" grep -q '^Please reply by 2099-01-15\.$' "$T/p5d/cover.eml"
check "... in the Reply-By header too" grep -q '^Reply-By: .* 15 Jan 2099 ' "$T/p5d/cover.eml"
"$DECORUM" packet 5 --reply-by tomorrow -o "$T/p5e" >/dev/null 2>&1
check_eq "a --reply-by that is no date exits 2" 2 $?
"$DECORUM" packet 5 --reply-by 2001-01-01 -o "$T/p5e" >/dev/null 2>&1
check_eq "a --reply-by before the packet's date exits 2" 2 $?
check "... and writes nothing" test ! -e "$T/p5e"
# packet --verify: every file against MANIFEST.sha256, and nothing else.
"$DECORUM" packet --verify "$T/p5" >"$T/v.out" 2>&1
check_eq "packet --verify of an intact packet exits 0" 0 $?
check_eq "... and counts the files" "$(($(wc -l <"$T/p5/MANIFEST.sha256"))) files verified" "$(cat "$T/v.out")"
cp -r "$T/p5" "$T/pv"
printf 'x' >>"$T/pv/timeline.txt"
rm "$T/pv/links.txt"
printf 'not part of it\n' >"$T/pv/notes.txt"
"$DECORUM" packet --verify "$T/pv" >"$T/v.out" 2>"$T/v.err"
check_eq "a tampered packet fails --verify with exit 3" 3 $?
check "... naming the changed file" grep -qx 'changed: timeline.txt' "$T/v.out"
check "... the missing file" grep -qx 'missing: links.txt' "$T/v.out"
check "... and the extra file" grep -qx 'extra: notes.txt' "$T/v.out"
check_eq "... and nothing else" 3 "$(wc -l <"$T/v.out")"
check "... and says so" grep -q '1 missing, 1 changed, 1 extra' "$T/v.err"
cp -r "$T/p5" "$T/pv2"
printf 'x' >>"$T/pv2/cover.eml"
"$DECORUM" packet --verify "$T/pv2" >"$T/v.out" 2>/dev/null
check_eq "a changed cover.eml fails --verify" "3 changed: cover.eml" "$? $(grep changed "$T/v.out")"
"$DECORUM" packet --verify "$T/nowhere" >/dev/null 2>&1
check_eq "--verify of a directory without a manifest exits 1" 1 $?
cp -r "$T/p5" "$T/pv3"
printf 'deadbeef  ../etc/passwd\n' >>"$T/pv3/MANIFEST.sha256"
"$DECORUM" packet --verify "$T/pv3" >/dev/null 2>"$T/v.err"
check_eq "a malformed manifest line fails --verify" 3 $?
check "... naming the line" grep -q 'line [0-9]* is not' "$T/v.err"
"$DECORUM" packet 5 --verify "$T/p5" >/dev/null 2>&1
check_eq "--verify with a CASE is a usage error" 2 $?
"$DECORUM" packet 6 --redact -o "$T/p6" >/dev/null 2>&1
check "without a recorded reporter the cover says so" grep -q "No reporter is recorded" "$T/p6/cover.eml"
# The timeline shows each event with its values, and undone events as
# undone; --final leaves them and their undoing out.
"$DECORUM" case state 3 investigating --note "first look at the thread" >/dev/null
"$DECORUM" case state 3 decided >/dev/null
"$DECORUM" case undo 3 >/dev/null
"$DECORUM" case note 3 "Dmitri Sokolov answered the committee" >/dev/null
"$DECORUM" case outcome 3 measure --what "no reviews" --scope net --until v9.9 >/dev/null
"$DECORUM" case category 3 "development-process related" >/dev/null
"$DECORUM" case vote 3 --on overturn --member tab7@example.org for >/dev/null
"$DECORUM" packet 3 -o "$T/p3" >/dev/null 2>&1
check_eq "packet of a case with an undone event exits 0" 0 $?
tl="$T/p3/timeline.txt"
check "the timeline shows the state change with its values" grep -q '  state: new → investigating; note: first look at the thread$' "$tl"
check "... the outcome with its scope and end" grep -q '  outcome: measure (net, from [0-9-]*, until v9.9): no reviews$' "$tl"
check "... the category, said once" grep -q '  category: development-process related$' "$tl"
check "... the vote with its member" grep -q '  vote: tab7@example.org for$' "$tl"
check "decisions.txt gives each vote's question" grep -q 'tab7@example.org  *for  *on overturn$' "$T/p3/decisions.txt"
check "... the question, its rule and its result" sh -c 'grep -q "^Question (overturn): " "$1" && grep -q "^  Rule: .*6\.1" "$1" && grep -q "^  Result: " "$1"' _ "$T/p3/decisions.txt"
check "... and no question nobody voted on" sh -c '! grep -q "^Question (approve)" "$1"' _ "$T/p3/decisions.txt"
check "... a note with its text" grep -q '  note added: Dmitri Sokolov answered the committee$' "$tl"
undone=$(sed -n 's/^#\([0-9]*\) .*  state: investigating → decided  \[UNDONE by #\([0-9]*\)\]$/\1 \2/p' "$tl")
check "the undone state change is marked undone" test -n "$undone"
check "... and the undo says which event it undoes" grep -q "^#${undone#* } .*  undo: undoing #${undone% *} (state)\$" "$tl"
check "the timeline does not mark what stands" sh -c '! grep "investigating;" "$1" | grep -q UNDONE' _ "$tl"
check "timeline.json marks the undone event" jq -e '[.[] | select(.undone_by != null)] | length == 1' "$T/p3/timeline.json"
"$DECORUM" packet 3 --final -o "$T/p3f" >/dev/null 2>&1
check_eq "packet --final exits 0" 0 $?
check "--final leaves the undone event out" sh -c '! grep -q "investigating → decided" "$1"' _ "$T/p3f/timeline.txt"
check "... and its undo" sh -c '! grep -q "undo:" "$1"' _ "$T/p3f/timeline.txt"
check "... and keeps what stands" grep -q '  state: new → investigating' "$T/p3f/timeline.txt"
check "... in timeline.json too" jq -e '[.[] | select(.type == "undo" or .undone_by != null)] | length == 0' "$T/p3f/timeline.json"
check "... and in the cover's summary" sh -c '! grep -q "undo" "$1"' _ "$T/p3f/cover.eml"
check_eq "--final keeps every other event" \
	"$(($(grep -c '^#' "$tl") - 2))" "$(grep -c '^#' "$T/p3f/timeline.txt")"
"$DECORUM" case participant 3 reporter dsokolov@example.net --name "Dmitri Sokolov" >/dev/null
"$DECORUM" packet 3 --redact -o "$T/p3r" >/dev/null 2>&1
check_eq "a redacted packet with notes exits 0" 0 $?
check "a redacted timeline shows that a note was added" grep -q '  note added$' "$T/p3r/timeline.txt"
check "... and that another event had one, not what it said" grep -q 'investigating (with a note, left out' "$T/p3r/timeline.txt"
check "... and none of the notes' words" sh -c '! grep -qi "first look\|answered the committee" "$1"' _ "$T/p3r/timeline.txt"
check "... the reporter as Reporter A" grep -q 'participant: added reporter Reporter A <reporter-a@redacted.invalid>' "$T/p3r/timeline.txt"
check "... and the votes' members" grep -q '  vote: tab7@example.org for$' "$T/p3r/timeline.txt"
# links.txt: the lore links and Message-IDs the mail and notes cite, once
# each, resolved against the index.  The report of case 2 cites two lore
# links; a note cites one of them again (as a bare Message-ID), the report
# itself, a message the index lacks, and a search for the reporter.
"$DECORUM" case note 2 "same as Message-ID: <20261005154402.18765-1-kosterberg@example.net>; see https://lore.kernel.org/all/20261009081500.24793-1-zoe.hartmann@example.com/T/#u, In-Reply-To: <nowhere.1234@example.org> and https://lore.kernel.org/all/?q=Zoe%20Hartmann" >/dev/null
"$DECORUM" packet 2 -o "$T/pl" >/dev/null 2>&1
check_eq "packet with citations exits 0" 0 $?
lk="$T/pl/links.txt"
check "links.txt lists the first lore link the report cites" grep -qx 'https://lore.kernel.org/r/20261005154402.18765-1-kosterberg@example.net' "$lk"
check "... and the second" grep -qx 'https://lore.kernel.org/r/20261006145810.23025-1-kosterberg@example.net' "$lk"
check "... resolved against the index: subject and date" grep -qx '  in index: Re: \[PATCH v2 3/5\] mm: vmscan: reclaim folios in adaptive batches / 2026-10-05' "$lk"
check_eq "a message cited twice is listed once" 1 "$(grep -c '<20261005154402.18765-1-kosterberg@example.net>' "$lk")"
check "... with both places it was cited" grep -q '^  cited in: message <20261009081500.24793-1-zoe.hartmann@example.com>, a note of ' "$lk"
check "a note's lore link is listed with the id in it" grep -A1 -x 'https://lore.kernel.org/all/20261009081500.24793-1-zoe.hartmann@example.com/T/#u' "$lk"
check "... resolved" sh -c 'grep -A2 "^https://lore.kernel.org/all/20261009081500" "$1" | grep -q "in index: Conduct report"' _ "$lk"
check "an id the index lacks is 'not in index'" sh -c 'grep -A1 -x "Message-ID: <nowhere.1234@example.org>" "$1" | grep -qx "  not in index"' _ "$lk"
check "an address in angle brackets is no Message-ID" sh -c '! grep -q "Message-ID: <zoe.hartmann@example.com>" "$1"' _ "$lk"
check "a search link is listed as one" sh -c 'grep -A1 -x "https://lore.kernel.org/all/?q=Zoe%20Hartmann" "$1" | grep -q "no single message"' _ "$lk"
"$DECORUM" case participant 2 reporter zoe.hartmann@example.com --name "Zoe Hartmann" >/dev/null
"$DECORUM" packet 2 --redact -o "$T/plr" >/dev/null 2>&1
check_eq "a redacted packet with citations exits 0" 0 $?
lk="$T/plr/links.txt"
check "redacted links.txt still lists the report's lore links" grep -qx 'https://lore.kernel.org/r/20261006145810.23025-1-kosterberg@example.net' "$lk"
check "... leaves out a link whose Message-ID names the reporter" grep -qx '(a link left out: its Message-ID names a reporter)' "$lk"
check "... shows such an id as its stand-in, still resolved" sh -c 'grep -A1 "^  Message-ID: <redacted\.[0-9a-f]*@redacted.invalid>" "$1" | grep -q "in index: Conduct report"' _ "$lk"
# The search link spells the reporter percent-encoded: the redaction
# decodes it and replaces the name, or the scan leaves the link out.
check "... redacts the search link that names the reporter" grep -qxE 'https://lore\.kernel\.org/all/\?q=Reporter A|\(a link left out: it names a reporter\)' "$lk"
check "... and names the reporter nowhere" sh -c '! grep -qi "zoe\|hartmann" "$1"' _ "$lk"
exit 0
