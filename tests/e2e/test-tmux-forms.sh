#!/bin/sh
# The case panel's name forms are kept between cursor moves (core keeps
# dc_case_forms' answer), and are never stale: with the TUI open in a
# real terminal, an alias and a participant added from the command line
# and a reply that notmuch new indexes into the case's thread each show
# in the panel after = or the next cursor move, as the rest of the
# panel does.  The people and the mail are fictional.
. "$(dirname "$0")/../lib.sh"
t_setup

if ! command -v tmux >/dev/null 2>&1; then
	skip "tmux forms test (tmux is not installed)"
	exit 0
fi
unset NO_COLOR VISUAL EDITOR TMUX DECORUM_AS
export LC_ALL=C.UTF-8 TZ=UTC DECORUM_NOW=1796284800 # 2026-12-03
mkdir -p "$T/maildir/cur" "$T/maildir/new" "$T/maildir/tmp"
t_index "$T/maildir" || { fail "index an empty maildir"; exit 1; }
cat >"$T/mail/cur/1796100000.M1.forms:2,S" <<'EOF'
From: Quentin Reporterson <quentin@example.org>
To: conduct@kernel.org
Subject: a report about the review
Date: Mon, 30 Nov 2026 09:00:00 +0000
Message-ID: <forms-report@example.org>

Hello,

a reviewer was rude to me.
EOF
cat >"$T/mail/cur/1796100001.M2.forms:2,S" <<'EOF'
From: Rhea Respondent <rhea@example.net>
To: conduct@kernel.org
Subject: Re: a report about the review
Date: Mon, 30 Nov 2026 10:00:00 +0000
Message-ID: <forms-reply@example.net>
In-Reply-To: <forms-report@example.org>

I did not mean it.
EOF
cat >"$T/mail/cur/1796000000.M3.forms:2,S" <<'EOF'
From: Lister Calm <calm@example.org>
To: linux-kernel@vger.kernel.org
Subject: [PATCH] an unrelated patch
Date: Sun, 29 Nov 2026 09:00:00 +0000
Message-ID: <forms-other@example.org>

A patch.
EOF
notmuch new --quiet >/dev/null 2>&1
thread=$(notmuch search --output=threads id:forms-report@example.org)
"$DECORUM" tag "$thread" escalation --note "rude review" >/dev/null 2>&1 ||
	fail "tag the report"

. "$TOP/tests/e2e/tmux-lib.sh"
t_tmux decorum-forms

# Wide: the panel beside the list, its lines wrapped whole.  The case's
# thread is the newer, so the cursor starts on it.
tm new-session -d -s dc -x 200 -y 50 \
	"env TERM=screen-256color '$DECORUM' tui 'subject:review or subject:unrelated'; echo decorum-exited-\$?; sleep 60"
step "the TUI opens on the case's thread with its name forms" \
	"quentinreporterson"

# Away and back: the cursor moves the panel reads again.
move() {
	tm send-keys -t dc j && wait_for "No case for this thread" >/dev/null
	tm send-keys -t dc k
}

# 1. An alias from the command line, then =.
"$DECORUM" case alias 1 quentin@example.org Quenny >/dev/null 2>&1 ||
	fail "case alias from the command line"
tm send-keys -t dc =
step "after =, the alias added from the command line is a name form" \
	"added by hand: Quenny"

# 2. A participant from the command line, then a cursor move.
"$DECORUM" case participant 1 witness wes.witness@example.net \
	--name "Wes Witness" >/dev/null 2>&1 ||
	fail "case participant from the command line"
move
step "after a cursor move, the new participant's forms are shown" \
	"wes_witness"

# 3. New mail in the case's thread, signed with a form of the reporter's
# name the thread did not show: notmuch new, then a cursor move.
check "the signed form is not a name form yet" \
	sh -c "! tmux -L '$sock' capture-pane -p -t dc | grep -q quenreporterson"
cat >"$T/mail/cur/1796100002.M4.forms:2,S" <<'EOF'
From: Quentin Reporterson <quentin@example.org>
To: conduct@kernel.org
Subject: Re: a report about the review
Date: Mon, 30 Nov 2026 11:00:00 +0000
Message-ID: <forms-more@example.org>
In-Reply-To: <forms-reply@example.net>

One more thing.

-- 
Quen Reporterson
EOF
notmuch new --quiet >/dev/null 2>&1
move
step "after notmuch new and a cursor move, the signature is a name form" \
	"quenreporterson"

# The command line gives the same forms (core keeps them for both).
"$DECORUM" case people 1 >"$T/people" 2>&1
check "case people lists the alias" grep -q "Quenny" "$T/people"
check "case people lists the signature" grep -q "Quen Reporterson" "$T/people"

tm send-keys -t dc q
step "the TUI exits cleanly" "decorum-exited-0"
exit 0
