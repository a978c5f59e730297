#!/bin/sh
# The queries of / outlive the session: the next one recalls them with
# Up.  They are kept in $XDG_STATE_HOME/decorum/history, 0600 in a 0700
# directory whatever the umask, and "decorum erase --reporter" drops the
# queries that name the address.
. "$(dirname "$0")/../lib.sh"
t_setup
export TZ=UTC LC_ALL=C.UTF-8 DECORUM_NOW=1796284800
unset NO_COLOR DECORUM_AS VISUAL EDITOR
export XDG_STATE_HOME="$T/state"
hist="$XDG_STATE_HOME/decorum/history"

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
cat >"$T/first" <<'SCRIPT'
key /
type from:rachel.abernathy@example.net
key Enter
key /
type tag:coc/escalation
key Enter
SCRIPT
cat >"$T/second" <<'SCRIPT'
key /
key Up
dump h-up
key Up
dump h-up2
SCRIPT
(umask 0 && "$DECORUM" tui --script "$T/first" --dump-dir "$T" >"$T/out" 2>&1)
check_eq "the first session runs" 0 $?
check_eq "the history is 0600" 600 "$(stat -c %a "$hist" 2>&1)"
check_eq "its directory is 0700" 700 "$(stat -c %a "${hist%/*}" 2>&1)"
check_eq "it holds the queries, oldest first" \
	"from:rachel.abernathy@example.net|tag:coc/escalation" \
	"$(paste -sd'|' "$hist" 2>&1)"
"$DECORUM" tui --script "$T/second" --dump-dir "$T" >"$T/out" 2>&1
check_eq "the second session runs" 0 $?
check "Up recalls the last query of the session before" \
	grep -q '^  Query: tag:coc/escalation *$' "$T/h-up.txt"
check "and Up again the one before it" \
	grep -q '^  Query: from:rachel.abernathy@example.net *$' "$T/h-up2.txt"

# A case of the demo, so that there is a store to erase from.
"$DECORUM" tag "$(notmuch search --output=threads --limit=1 to:conduct@kernel.org | sed 's/^thread://')" \
	escalation >"$T/out" 2>&1
"$DECORUM" erase --reporter Rachel.Abernathy@example.net >"$T/erase.out" 2>&1
check_eq "erase runs" 0 $?
check "erase says it dropped the query" \
	grep -q "erased 1 query from the search history" "$T/erase.out"
check_eq "the history keeps only the other query" "tag:coc/escalation" \
	"$(cat "$hist" 2>&1)"
check_eq "and stays 0600" 600 "$(stat -c %a "$hist" 2>&1)"

# A symbolic link at its place is neither read nor written through.
rm -f "$hist"
echo "subject:elsewhere" >"$T/elsewhere"
ln -s "$T/elsewhere" "$hist"
"$DECORUM" tui --script "$T/first" --dump-dir "$T" >"$T/out" 2>&1
check_eq "a session with a linked history runs" 0 $?
check_eq "the file it points to is untouched" "subject:elsewhere" "$(cat "$T/elsewhere")"
check "the history is still the link" test -L "$hist"
exit 0
