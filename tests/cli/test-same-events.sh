#!/bin/sh
# The TUI and the command line do each action the same way: one sequence
# of actions, once by keys and once by commands, records the same events
# (apart from the time and who acted).
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
t_index "$TOP/tests/corpus/demo"
export DECORUM_NOW=2026-12-03

first_of() {
	notmuch search --output=threads --exclude=false "$1" | head -1 |
		sed 's/^thread://'
}
t1=$(first_of 'subject:"hostile replies on linux-mm"')
t2=$(first_of 'subject:"Advice on a heated mm review"')

events() {
	sqlite3 "$1" "SELECT case_id, type, data FROM events ORDER BY id"
}

# By keys.
export DECORUM_STORE="$T/tui.db"
cat >"$T/session.keys" <<EOF
key /
type thread:$t1
key Enter
key e
type personal attack in review
key Enter
key s
type acknowledged
key Enter
key s
type investigating
key Enter
key o
type measure
key Enter
type patches not accepted
key Enter
type mm
key Enter
type 2027-06-01
key Enter
type until the next merge window
key Enter
key m
type the respondent was told by mail
key Enter
key u
key y
key /
type thread:$t2
key Enter
key t
type is this behaviour acceptable?
key Enter
key C
type escalation
key Enter
key y
dump end
key Q
EOF
$D --as maint@example.org tui --script "$T/session.keys" --dump-dir "${DUMPS:-$T}" \
	>"$T/tui.out" 2>&1
check_eq "the key script runs" 0 $?

# By commands.
export DECORUM_STORE="$T/cli.db"
C="$D --as maint@example.org"
$C tag "$t1" escalation --note "personal attack in review" >/dev/null &&
	$C case state 1 acknowledged >/dev/null &&
	$C case state 1 investigating >/dev/null &&
	$C case outcome 1 measure --what "patches not accepted" --scope mm \
		--until 2027-06-01 --note "until the next merge window" >/dev/null &&
	$C case note 1 "the respondent was told by mail" >/dev/null &&
	$C case undo 1 >/dev/null &&
	$C tag "$t2" tab --note "is this behaviour acceptable?" >/dev/null &&
	$C case convert 2 escalation >/dev/null
check_eq "the commands run" 0 $?

events "$T/tui.db" >"$T/tui.ev"
events "$T/cli.db" >"$T/cli.ev"
check "some events were recorded" test "$(wc -l <"$T/cli.ev")" -ge 8
if cmp -s "$T/tui.ev" "$T/cli.ev"; then
	ok "the TUI and the CLI recorded the same events"
else
	fail "the TUI and the CLI recorded the same events"
	diff "$T/tui.ev" "$T/cli.ev" | sed 's/^/#   /' | head -30
fi
check_eq "the same Message-IDs" \
	"$(sqlite3 "$T/cli.db" 'SELECT case_id, message_id, scope, role FROM case_mail ORDER BY 1, 2')" \
	"$(sqlite3 "$T/tui.db" 'SELECT case_id, message_id, scope, role FROM case_mail ORDER BY 1, 2')"
exit $T_FAILED
