#!/bin/sh
# One action table: the man page's KEYS section is exactly what the table
# generates, and the configuration file rebinds keys by action name, with
# a clear message (file and line) for a bad line and the defaults kept.
. "$(dirname "$0")/../lib.sh"
t_setup
export TZ=UTC LC_ALL=C.UTF-8

"$DECORUM" tui --dump-actions man >"$T/keys.man"
sed -n '/^\.\\" Generated from tui\/actions.def/,/^\.\\" End of the generated KEYS section/p' \
	"$TOP/docs/decorum.1" >"$T/page.man"
if diff -u "$T/keys.man" "$T/page.man" >"$T/diff"; then
	ok "docs/decorum.1 has the KEYS section the action table generates"
else
	fail "docs/decorum.1 KEYS section is stale (regenerate: decorum tui --dump-actions man)"
	sed 's/^/#   /' "$T/diff" | head -30
fi
"$DECORUM" tui --dump-actions text >"$T/keys.txt"
check "every action has a default key" sh -c '! grep -q "(none)" "$1"' _ "$T/keys.txt"

t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
mkdir -p "$XDG_CONFIG_HOME/decorum"
cfg="$XDG_CONFIG_HOME/decorum/config"
cat >"$cfg" <<'CFG'
[keys]
move-down = J Down
this line is wrong
frobnicate = x
help = C-?
[colors]
escalation = chartreuse
[ui]
default_query = subject:"hostile replies"
CFG
cat >"$T/script" <<'SCRIPT'
dump cfg-list
key J
key ?
dump cfg-help
key G
dump cfg-help-end
SCRIPT
export DECORUM_STORE="$T/store/decorum.db"
"$DECORUM" tui --script "$T/script" --dump-dir "$T" >"$T/out" 2>"$T/err"
check_eq "a bad configuration does not stop the TUI" 0 $?
check "the bad line is named by file and line" grep -qF "$cfg:3: not a \"key = value\" line" "$T/err"
check "an unknown action is named" grep -qF "$cfg:4: [keys] frobnicate: no such action" "$T/err"
check "a bad key name is named" grep -qF "$cfg:5: [keys] help: unknown key 'C-?'" "$T/err"
check "a bad colour is named" grep -qF "$cfg:7: [colors] escalation: 'chartreuse' is not a colour" "$T/err"
check "the first problem shows on the screen" grep -qF "config:3:" "$T/cfg-list.txt"
check "default_query opens the list" grep -qF "Threads matching subject:\"hostile replies\"" "$T/cfg-list.txt"
check "the rebinding is in force and in the help" grep -qE '^  +J Down +move-down' "$T/cfg-help.txt"
check "a key whose rebinding failed keeps its default" grep -qE '^  +\? F1 +help' "$T/cfg-help.txt"
check "the problems are listed in the help" grep -qF "frobnicate" "$T/cfg-help-end.txt"
exit 0
