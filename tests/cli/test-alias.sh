#!/bin/sh
# Forms of a person's name added by hand (case alias) and the list of
# what redaction looks for (case people): the forms reach the scan and
# the redaction of every export, and never the history.
. "$(dirname "$0")/../lib.sh"
t_setup

t_case_fixture
rep=$(notmuch show --format=json "thread:$t1" | jq -r '.. | objects | select(has("headers")) | .headers.From' | sed -n 1p | sed 's/.*<//; s/>.*//')
check "a report thread and its sender" test -n "$rep"

# ---- people before anything is recorded ----
$D case people 1 >"$T/p0" 2>&1
check "case people lists the guessed reporter" grep -q "^Reporter A  <$rep>" "$T/p0"
check "... and says it is a guess" grep -q "no reporter recorded" "$T/p0"
$D case alias 1 reporter "Lenio" >/dev/null 2>"$T/err"
check_eq "a role with nobody in it is refused (exit 2)" 2 $?
check "... saying what to do" grep -q "add one first (case participant)" "$T/err"

# ---- aliases ----
$D case participant 1 reporter "$rep" >/dev/null
check "alias by role" $D case alias 1 reporter "Lenio"
check "alias by address" $D case alias 1 witness@example.com "Sammy"
$D case alias 1 reporter "$(printf 'two\nlines')" >/dev/null 2>&1
check_eq "a form with a newline is refused" 2 $?
$D case alias 1 reporter "   " >/dev/null 2>&1
check_eq "a blank form is refused" 2 $?
$D case alias 1 nobody "X" >/dev/null 2>&1
check_eq "a person who is neither address nor role is refused" 2 $?
$D case people 1 >"$T/p1"
check "the reporter's form is listed under Reporter A" sh -c "sed -n '/^Reporter A/,/^[^ ]/p' '$T/p1' | grep -qx '    Lenio (name, added by hand)'"
check "the other person's form under their own address" sh -c "sed -n '/<witness@example.com>/,/^[^ ]/p' '$T/p1' | grep -qx '    Sammy (name, added by hand)'"
$D case people 1 --json >"$T/p1.json"
check "case people --json: the reporter with the form" jq -e --arg a "$rep" '.[0].label == "Reporter A" and .[0].address == $a and (.[0].names | index("Lenio"))' "$T/p1.json"
check "... and its forms, each with kind and source" jq -e --arg a "$rep" '.[0].forms | (map(select(.text == "Lenio" and .kind == "name" and .source == "added by hand")) | length == 1) and (map(select(.text == $a and .kind == "address")) | length == 1)' "$T/p1.json"

# ---- names that only the mail's text gives: signature, salutation ----
mkdir -p "$T/mail/forms/cur" "$T/mail/forms/new" "$T/mail/forms/tmp"
cat >"$T/mail/forms/cur/1:2,S" <<'EOF2'
From: q.r@example.net
To: conduct@kernel.org
Subject: Forms report
Date: Tue, 01 Dec 2026 10:00:00 +0000
Message-ID: <forms-1@example.net>

I will mark the thread myself.

-- 
Quentin Reporterson
EOF2
cat >"$T/mail/forms/cur/2:2,S" <<'EOF2'
From: Carol Committee <carol@example.org>
To: q.r@example.net, conduct@kernel.org
Subject: Re: Forms report
Date: Tue, 01 Dec 2026 11:00:00 +0000
Message-ID: <forms-2@example.org>
In-Reply-To: <forms-1@example.net>

Hi Quen,

thanks.
EOF2
notmuch new --quiet >/dev/null 2>&1
t2=$(notmuch search --output=threads 'id:forms-1@example.net' | sed 's/thread://')
$D tag "$t2" escalation >/dev/null 2>&1 || fail "tag the forms thread"
$D case people 2 >"$T/pf" 2>&1
check "a name only in a signature is a form, saying so" grep -qx "    Quentin Reporterson (name, signature)" "$T/pf"
check "a name only in a salutation is a form, saying so" grep -qx "    Quen (name, salutation)" "$T/pf"
check "the words of the address are forms" grep -qx "    q.r@example.net (address)" "$T/pf"

# ---- the history says whose form, never the form ----
$D case show 1 >"$T/show"
$D case show 1 --json >"$T/show.json"
check "the history says a form was added" grep -q "added a form of the name of $rep" "$T/show"
check "case show never shows the form" sh -c "! grep -qi 'lenio\|sammy' '$T/show' '$T/show.json'"

# ---- the form reaches the redaction ----
$D case note 1 "Lenio wrote again; Sammy saw it" >/dev/null
# A redacted timeline shows notes only as added; an outcome's note is in
# decisions.txt, through the redaction.
$D case state 1 investigating >/dev/null
$D case outcome 1 coaching --note "Lenio wrote again; Sammy saw it" >/dev/null
$D packet 1 --redact -o "$T/pk" >/dev/null 2>"$T/err"
check "the redacted packet is written" test -f "$T/pk/timeline.txt"
check "no file of the redacted packet has the reporter's form" sh -c "! grep -rqi lenio '$T/pk'"
check "... it stands as Reporter A" grep -q "Reporter A wrote again" "$T/pk/decisions.txt"
$D packet 1 -o "$T/pk-full" >/dev/null 2>&1
check "the form is in the packet without redaction (the check can fail)" grep -rqi lenio "$T/pk-full"

# ---- remove and undo ----
check "remove a form" $D case alias 1 reporter "Lenio" --remove
$D case people 1 >"$T/p2"
check "... it is gone from case people" sh -c "! grep -q Lenio '$T/p2'"
check "undo the removal" $D case undo 1
$D case people 1 >"$T/p3"
check "... and it is back" grep -qx "    Lenio (name, added by hand)" "$T/p3"

exit 0
