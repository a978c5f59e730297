#!/bin/sh
# r replies to a reporter from the TUI: the draft comes from notmuch
# reply with an acknowledgement template on top, is edited in $EDITOR,
# goes out through [mail] sendmail, is stored with notmuch insert +sent,
# and the case's history records a reply event.  Cancelling sends
# nothing; without [mail] sendmail nothing is sent and the message says
# what to set.
. "$(dirname "$0")/../lib.sh"
t_setup
export TZ=UTC LC_ALL=C.UTF-8
export DECORUM_AS=test@example.org
export DECORUM_NOW=1796284800 # 2026-12-03 08:00 UTC
unset VISUAL
D="$DECORUM"

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
t1=$(notmuch search --output=threads --sort=oldest-first 'to:conduct@kernel.org' | sed -n '1s/thread://p')
first=$(notmuch search --output=messages --sort=oldest-first "thread:$t1" | sed -n '1s/^id://p')
reporter=$(notmuch address --output=address --output=sender "id:$first" | head -1)
check "a reported thread with a reporter" test -n "$first" -a -n "$reporter"
t2=$(notmuch search --output=threads --sort=oldest-first 'to:conduct@kernel.org' | sed -n '2s/thread://p')
first2=$(notmuch search --output=messages --sort=oldest-first "thread:$t2" | sed -n '1s/^id://p')
$D tag "$t1" escalation --note "personal attack" >/dev/null 2>&1
check_eq "the thread has case 1" 1 "$($D list "thread:$t1" --json | jq -r '.[0].case.id')"

# The stand-ins: sendmail keeps what it reads and its arguments; the
# editor adds a line to the draft.
cat >"$T/sendmail" <<SH
#!/bin/sh
n=\$(ls "$T"/sent-*.eml 2>/dev/null | wc -l)
echo "\$*" >"$T/sendmail-args"
cat >"$T/sent-\$n.eml"
SH
cat >"$T/editor" <<SH
#!/bin/sh
stat -c '%a' "\$1" "\$(dirname "\$1")" >"$T/draft-modes"
echo "An edited line from the committee." >>"\$1"
SH
chmod +x "$T/sendmail" "$T/editor"
export EDITOR="$T/editor"
cat >"$T/config" <<CFG
[mail]
sendmail = $T/sendmail -t -i
sent_folder = sent
[templates]
ack = Thank you for your report; it is case {case} ({subject}).
other = A second template.
CFG
export DECORUM_CONFIG="$T/config"
mkdir -p "$T/tmp"
export TMPDIR="$T/tmp" # where the drafts go

# Thread view: the message under the cursor (the report).
cat >"$T/script" <<'SCRIPT'
resize 130 40
key Enter
key r
dump reply-template
type ac
key Tab
key Enter
dump reply-send
key y
dump reply-sent
SCRIPT
"$D" tui --script "$T/script" --dump-dir "$T" "thread:$t1" >"$T/tui.out" 2>&1
check_eq "the TUI runs" 0 $?
check "the template prompt is shown" grep -q "Template (Tab completes" "$T/reply-template.txt"
check "Send? is asked after the editor" grep -q "Send? \[y/N/e(dit again)\]" "$T/reply-send.txt"
check "the TUI says it was replied and recorded" grep -q "Replied to <$first>; recorded on case #1" "$T/reply-sent.txt"
m="$T/sent-0.eml"
check "sendmail received one message" test -f "$m"
check "... run as configured (argv, not a shell)" grep -qx -- "-t -i" "$T/sendmail-args"
check "... In-Reply-To the reported message" grep -qi "^In-Reply-To: <$first>" "$m"
check "... To the reporter" sh -c 'grep -i "^To:" "$1" | grep -qF "$2"' _ "$m" "$reporter"
check "... with the template filled in" grep -q "Thank you for your report; it is case 1 (" "$m"
check "... and the edited line" grep -q "An edited line from the committee." "$m"
check "... with a Message-ID" grep -qi "^Message-ID: <" "$m"
check "... dated by decorum's clock" grep -q "^Date: Thu, 03 Dec 2026 08:00:00 +0000" "$m"
check "... as text/plain in UTF-8" grep -qi "^Content-Type: text/plain; charset=utf-8" "$m"
sent=$(sed -n 's/^Message-I[Dd]: <\(.*\)>.*/\1/Ip' "$m" | head -1)
notmuch new --quiet >/dev/null 2>&1
check_eq "notmuch search tag:sent finds the stored copy" "id:$sent" \
	"$(notmuch search --output=messages tag:sent)"
check "... in the sent folder" sh -c 'notmuch search --output=files tag:sent | grep -q "/sent/"'
$D case show 1 >"$T/show.txt" 2>&1
check "case show has the reply event" grep -q "replied to <$first> as <$sent>" "$T/show.txt"
$D case show 1 --json >"$T/show.json" 2>&1
check "... whose payload names no body text" sh -c '! grep -q "edited line\|Thank you" "$1"' _ "$T/show.json"
check_eq "the draft was private: a 0600 file in a 0700 directory" "600 700" \
	"$(tr '\n' ' ' <"$T/draft-modes" | sed 's/ $//')"
check "... and is gone after sending" test -z "$(ls -A "$T/tmp")"
check "the reply joined the thread" test "$(notmuch count "thread:$t1 and id:$sent")" = 1

# The panel shows it too.
cat >"$T/script-panel" <<'SCRIPT'
resize 130 60
key Enter
key =
dump reply-panel
SCRIPT
"$D" tui --script "$T/script-panel" --dump-dir "$T" "thread:$t1" >/dev/null 2>&1
check "the case panel shows replied to" grep -q "test@example.org: replied to" "$T/reply-panel.txt"
check "= refreshes now that r replies" grep -q "^ *Refreshed" "$T/reply-panel.txt"


# The list: the thread's first message, no template; n sends nothing;
# e edits again.
cat >"$T/script-cancel" <<'SCRIPT'
resize 130 40
key r
key Enter
key e
key n
dump reply-cancelled
SCRIPT
"$D" tui --script "$T/script-cancel" --dump-dir "$T" "thread:$t2" >/dev/null 2>&1
check "n sends nothing" test ! -f "$T/sent-1.eml"
check "... and says so" grep -q "Not sent; the draft is discarded" "$T/reply-cancelled.txt"
check "... and leaves no draft behind" test -z "$(ls -A "$T/tmp")"

# A thread without a case: sent, nothing recorded (first message, from
# the list).
cat >"$T/script-nocase" <<'SCRIPT'
resize 130 40
key r
key Enter
key y
dump reply-nocase
SCRIPT
"$D" tui --script "$T/script-nocase" --dump-dir "$T" "thread:$t2" >/dev/null 2>&1
check "a thread without a case gets its reply" grep -qi "^In-Reply-To: <$first2>" "$T/sent-1.eml"
check "... and the TUI says nothing was recorded" grep -q "the thread has no case, so nothing was recorded" "$T/reply-nocase.txt"
check "... two marked +sent now" test "$(notmuch count tag:sent)" = 2

# The same from the command line: case reply N MSGID --file F.
echo "Written without an editor." >"$T/body.txt"
$D case reply 1 "id:$first" --file "$T/body.txt" --template ac >"$T/cli.out" 2>&1
rc=$?
check_eq "case reply runs" 0 $rc
[ $rc = 0 ] || sed "s/^/#   /" "$T/cli.out"
check "... and says what it did" grep -q "case 1: replied to <$first> as <" "$T/cli.out"
check "... the mail answers the report" grep -qi "^In-Reply-To: <$first>" "$T/sent-2.eml"
check "... with the template (a unique prefix) and the text" sh -c 'grep -q "it is case 1" "$1" && grep -q "Written without an editor." "$1"' _ "$T/sent-2.eml"
check_eq "... and the history has two replies" 2 "$($D case show 1 | grep -c 'replied to <')"
$D case reply 1 "id:$first" --file "$T/body.txt" --template nosuch >"$T/cli-bad.out" 2>&1
check_eq "an unknown template is a usage error" 2 $?
check "... and nothing is sent" test ! -f "$T/sent-3.eml"

# From is the acting identity (--as here), not notmuch's pick of the
# user's addresses, with the user's name; the TUI's r writes the same
# from [identity] address, which is who the status bar says acts.
check_eq "notmuch reply itself writes user.primary_email" "From: Test User <test@example.org>" \
	"$(notmuch reply "id:$first" | grep '^From:')"
$D --as desk@example.org case reply 1 "id:$first" --file "$T/body.txt" >"$T/cli-as.out" 2>&1
check "case reply --as ADDRESS sends" test -f "$T/sent-3.eml"
check_eq "... From the acting identity, with the user's name" "From: Test User <desk@example.org>" \
	"$(grep -i '^From:' "$T/sent-3.eml")"
mv "$T/sent-3.eml" "$T/from-cli.eml"
cp "$T/config" "$T/config-plain"
printf '[identity]\naddress = conduct-desk@example.org\n' >>"$T/config"
cat >"$T/script-identity" <<'SCRIPT'
resize 130 40
key r
key Enter
dump reply-identity-send
key y
SCRIPT
DECORUM_AS= "$D" tui --script "$T/script-identity" --dump-dir "$T" "thread:$t2" >/dev/null 2>&1
check "the TUI acts as [identity] address" grep -q "as conduct-desk@example.org " "$T/reply-identity-send.txt"
check_eq "... and r sends From it, with the user's name" "From: Test User <conduct-desk@example.org>" \
	"$(grep -i '^From:' "$T/sent-3.eml" 2>&1)"
mv "$T/sent-3.eml" "$T/from-tui.eml"
cat >"$T/script-as" <<'SCRIPT'
resize 130 40
key r
key Enter
dump reply-as-send
key y
SCRIPT
DECORUM_AS=env-desk@example.org "$D" tui --script "$T/script-as" --dump-dir "$T" "thread:$t2" >/dev/null 2>&1
check "\$DECORUM_AS comes before [identity] in the TUI too" grep -q "as env-desk@example.org" "$T/reply-as-send.txt"
check_eq "... and r sends From it" "From: Test User <env-desk@example.org>" \
	"$(grep -i '^From:' "$T/sent-3.eml" 2>&1)"
mv "$T/sent-3.eml" "$T/from-env.eml"
cp "$T/config-plain" "$T/config"

# The TAB packet's timeline names the mail, never its text.
$D packet 1 -o "$T/packet" >/dev/null 2>&1
check "the packet's timeline has the reply" grep -q "reply: replied to <$first> as <$sent>" "$T/packet/timeline.txt"
check "... and not its text" sh -c '! grep -rq "An edited line" "$1"/timeline.* "$1"/decisions.* "$1"/cover.eml' _ "$T/packet"
$D packet 1 -o "$T/packet-r" --redact >/dev/null 2>&1
check "... redacted, the report's Message-ID is not shown" sh -c 'grep -q "reply: replied to <" "$1" && ! grep -q "$2" "$1"' _ "$T/packet-r/timeline.txt" "$first"

# u does not take a reply back (the mail is gone): it undoes the
# opening, and a withdrawn case gets no reply.
check "undo skips the replies" sh -c '$1 case undo 1 >/dev/null 2>&1; $1 case show 1 | grep -q "undid event [0-9]* (open)"' _ "$D"
$D case reply 1 "id:$first" --file "$T/body.txt" >"$T/cli-withdrawn.out" 2>&1
check "a withdrawn case is refused before sending" sh -c 'grep -q "withdrawn.*nothing was sent" "$1" && test ! -f "$2"' _ "$T/cli-withdrawn.out" "$T/sent-3.eml"

# No [mail] sendmail: a clear message, nothing sent, no editor run.
printf '[templates]\nack = hello\n' >"$T/config"
cat >"$T/script-unset" <<'SCRIPT'
resize 130 40
key Enter
key r
dump reply-unset
SCRIPT
rm -f "$T"/sent-*.eml
"$D" tui --script "$T/script-unset" --dump-dir "$T" "thread:$t1" >/dev/null 2>&1
check "unset sendmail: nothing sent" test ! -f "$T/sent-0.eml"
check "... and a clear message" grep -q "no \[mail\] sendmail command in" "$T/reply-unset.txt"

# A bad template placeholder is refused before anything is drafted.
printf '[mail]\nsendmail = %s\n[templates]\nbad = Dear {nmae}\n' "$T/sendmail" >"$T/config"
cat >"$T/script-bad" <<'SCRIPT'
resize 130 40
key Enter
key r
type bad
key Enter
dump reply-bad
SCRIPT
"$D" tui --script "$T/script-bad" --dump-dir "$T" "thread:$t1" >/dev/null 2>&1
check "an unknown placeholder is refused" grep -q "the template has {nmae}" "$T/reply-bad.txt"
check "... and nothing is sent" test ! -f "$T/sent-0.eml"
if [ -n "${VERBOSE:-}" ]; then cat "$T/reply-sent.txt"; fi
exit 0
