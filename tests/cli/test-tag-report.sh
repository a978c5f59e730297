#!/bin/sh
# Tagging a thread names its report by thread structure, not by date.
#
# dc_action_tag() finds the thread's first toplevel message without
# building the thread when it can (core/mail/mail.c,
# dc_mail_thread_head): the oldest message, when its In-Reply-To and
# References name no message of the thread.  A reply dated before its
# parent must not become the report, nor its sender the reporter:
# redaction would then hide the wrong person.  Both front ends (decorum
# tag and the TUI's e, Enter) give the same case, covering every message
# of the thread, and the cases stay on their Message-IDs after the index
# is rebuilt.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
export DECORUM_AS=test@example.org

# msg FILE FROM DATE ID [PARENT [REFERENCES]]
msg() {
	{
		printf 'From: %s\nTo: list@example.org\nSubject: %s\n' "$2" \
			"${5:+Re: }Conduct on the list ($(basename "$1" | cut -c1))"
		printf 'Date: %s\nMessage-ID: <%s>\n' "$3" "$4"
		[ -n "${5:-}" ] && printf 'In-Reply-To: <%s>\nReferences: %s\n' \
			"$5" "${6:-<$5>}"
		printf '\nBody of %s.\n' "$4"
	} >"$T/src/cur/$1:2,S"
}
mkdir -p "$T/src/cur" "$T/src/new" "$T/src/tmp"
# a: a reply whose clock was wrong, dated days before the report it
#    answers; another reply later.
msg a1 'Rhea Root <rhea.root@example.org>' 'Sat, 10 Jan 2026 10:00:00 +0000' \
	a-report@example.org
msg a2 'Xan Early <xan.early@example.org>' 'Mon, 05 Jan 2026 09:00:00 +0000' \
	a-early@example.org a-report@example.org
msg a3 'Yara Late <yara.late@example.org>' 'Sun, 11 Jan 2026 09:00:00 +0000' \
	a-late@example.org a-early@example.org \
	'<a-report@example.org> <a-early@example.org>'
# b: the same, the early reply tied to the report by References only.
msg b1 'Bo Report <bo.report@example.org>' 'Sat, 10 Jan 2026 10:00:00 +0000' \
	b-report@example.org
msg b2 'Cy Early <cy.early@example.org>' 'Mon, 05 Jan 2026 09:00:00 +0000' \
	b-early@example.org b-missing@example.org \
	'<b-report@example.org> <b-missing@example.org>'
# c: in order; the report answers a message this index does not have.
msg c1 'Di Report <di.report@example.org>' 'Thu, 01 Jan 2026 10:00:00 +0000' \
	c-report@example.org c-elsewhere@example.org
msg c2 'Ed Reply <ed.reply@example.org>' 'Fri, 02 Jan 2026 10:00:00 +0000' \
	c-reply@example.org c-report@example.org \
	'<c-elsewhere@example.org> <c-report@example.org>'
# d: two messages of the same second; the one notmuch puts first.
msg d1 'Fay First <fay.first@example.org>' 'Thu, 01 Jan 2026 10:00:00 +0000' \
	d-report@example.org
msg d2 'Gus Same <gus.same@example.org>' 'Thu, 01 Jan 2026 10:00:00 +0000' \
	d-same@example.org d-report@example.org
t_index "$T/src" || { fail "index the fixture"; exit 1; }

thread_of() { notmuch search --output=threads "id:$1" | sed 's/^thread://'; }
# The thread's first toplevel message as notmuch show has it.
first_toplevel() {
	notmuch show --format=json --entire-thread=true "thread:$1" |
		jq -r '.[0][0][0].id'
}
thread_msgs() { notmuch search --output=messages "thread:$1" | sed 's/^id://' | sort; }
case_msgs() { $D case show "$1" --json | jq -r '.messages[].message_id' | sort; }
report_of() { $D case show "$1" --json | jq -r '.messages[] | select(.role == "report") | .message_id'; }
reporter_of() { $D case people "$1" --json | jq -r '.[] | select(.label == "Reporter A") | .address'; }

n=0
for x in a b c d; do
	t=$(thread_of "$x-report@example.org")
	check_eq "thread $x: notmuch's first toplevel is the report" \
		"$x-report@example.org" "$(first_toplevel "$t")"
	thread_msgs "$t" >"$T/want-$x"
	for how in cli tui; do
		n=$((n + 1))
		if [ $how = cli ]; then
			$D tag "$t" escalation --note "$x" >/dev/null 2>"$T/err" ||
				sed 's/^/#   /' "$T/err"
		else
			# The case of the CLI is closed, so that the TUI opens
			# its own: e, n (a new case), Enter (no note).
			$D case state $((n - 1)) closed --note done >/dev/null
			printf 'key e\nkey n\nkey Enter\nkey Q\n' >"$T/tag.keys"
			$D tui --script "$T/tag.keys" --dump-dir "$T" \
				"thread:$t" >"$T/tui.out" 2>&1 ||
				sed 's/^/#   /' "$T/tui.out"
		fi
		check_eq "$x, $how: case $n is opened" "$n" \
			"$($D cases --json | jq length)"
		check_eq "$x, $how: the report is the first toplevel message" \
			"$x-report@example.org" "$(report_of $n)"
		r=$(notmuch show --format=json "id:$x-report@example.org" |
			jq -r '.[0][0][0].headers.From' | sed 's/.*<//; s/>.*//')
		check_eq "$x, $how: the reporter is its sender" "$r" \
			"$(reporter_of $n)"
		check "$x, $how: the case covers every message of the thread" \
			cmp "$T/want-$x" "$(case_msgs $n >"$T/got"; echo "$T/got")"
		echo "$x" >"$T/thread-$n"
	done
done
check "the report of a is dated after its reply" test \
	"$($D case show 1 --json | jq -r .reported)" = 2026-01-10T10:00:00Z

# The same mail indexed again (new thread ids): each case keeps its
# Message-IDs and its report.
notmuch dump --output="$T/dump" 2>/dev/null
rm -rf "$T/mail/.notmuch"
notmuch new --quiet >/dev/null 2>&1
notmuch restore --input="$T/dump" >/dev/null 2>&1
for i in $(seq 1 $n); do
	x=$(cat "$T/thread-$i")
	check_eq "after a rebuild, case $i keeps its report" \
		"$x-report@example.org" "$(report_of $i)"
	check "after a rebuild, case $i has its thread's Message-IDs" \
		cmp "$T/want-$x" "$(case_msgs $i >"$T/got"; echo "$T/got")"
done
t=$(thread_of a-report@example.org)
check_eq "after a rebuild, the list shows a's open case on its thread" 2 \
	"$($D list --json "thread:$t" | jq -r '.[0].case.id')"
check "verify passes" $D verify
exit $T_FAILED
