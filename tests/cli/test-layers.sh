#!/bin/sh
# The layers, lowest first: core/base, store, the rest of core, tui.  An
# include runs only downwards (tui -> core -> store -> core/base), tui
# reaches store only through core, each library stays in its layer, and
# every JSON output is written by the one printer.  The build's fences
# (poison headers, see the Makefile) make a wrong include fail to compile;
# this checks the rules and that the fences bite.
. "$(dirname "$0")/../lib.sh"
t_setup
cd "$TOP" || exit 1

# includes FILES...: "file: header" for every quoted include.
includes() {
	grep -H '^#include "' "$@" | sed 's/:#include "\([^"]*\)".*/: \1/'
}
# none "what" PATTERN FILES...: no quoted include of FILES matches.
none() {
	what=$1 pat=$2
	shift 2
	bad=$(includes "$@" | grep -E ": ($pat)")
	if [ -z "$bad" ]; then
		ok "$what"
	else
		fail "$what"
		echo "$bad" | sed 's/^/#   /' | head -20
	fi
}
high='core/(mail|case|privacy|export|docs)/'
none "core/base includes no store, core or tui header" "store/|$high|tui/" core/base/*.[ch]
none "store includes no core header above base, and no tui" "$high|tui/" store/*.[ch]
none "core includes no tui header" "tui/" core/*/*.[ch]
none "core includes none of store's internals" "store/sql\\.h" core/*/*.[ch]
none "tui reaches store only through core" "store/" tui/*.[ch]

# lib "what" HEADER-PATTERN ALLOWED-DIRS: the library's headers only there.
lib() {
	bad=$(grep -lE "^#include <($2)" core/*/*.[ch] store/*.[ch] tui/*.[ch] | grep -vE "^($3)")
	if [ -z "$bad" ]; then
		ok "$1"
	else
		fail "$1"
		echo "$bad" | sed 's/^/#   /'
	fi
}
lib "SQLite only in store" 'sqlite3\.h' 'store/'
lib "notmuch and GMime only in core's mail and privacy rooms" 'notmuch\.h|gmime/' 'core/(mail|privacy)/'
lib "ICU only in core's privacy room" 'unicode/' 'core/privacy/'
lib "curses only in tui" 'n?curses|ncursesw/|term\.h' 'tui/'

bad=$(grep -ln 'dc_json_' core/*/*.c store/*.c tui/*.c | grep -vxE 'core/base/(json|sprinter)\.c')
check_eq "every JSON output goes through the one printer (core/base/sprinter.h)" "" "$bad"

# The fences bite: a probe in each layer that includes what it may not.
CFLAGS_PKG=$(pkg-config --cflags ncursesw gmime-3.0 glib-2.0 sqlite3)
probe() {
	# probe LAYER HEADER: compiling '#include HEADER' behind LAYER's fence
	# fails, naming the fence.
	printf '#include %s\n' "$2" >"$T/probe.c"
	# shellcheck disable=SC2086
	if cc -fsyntax-only -I"build/fence/$1" -I. -Ibuild $CFLAGS_PKG "$T/probe.c" >"$T/probe.out" 2>&1; then
		return 1
	fi
	grep -q "layer fence: $1 code may not include" "$T/probe.out"
}
if [ -d build/fence/core ]; then
	check "the fence stops curses in core" probe core '<curses.h>'
	check "the fence stops SQLite in core" probe core '<sqlite3.h>'
	check "the fence stops a tui header in core" probe core '"tui/tui.h"'
	check "the fence stops notmuch in store" probe store '<notmuch.h>'
	check "the fence stops a core header in store" probe store '"core/case/case.h"'
	check "the fence stops SQLite in tui" probe tui '<sqlite3.h>'
	check "the fence stops GMime in tui" probe tui '<gmime/gmime.h>'
	check "the fence stops store's internals in tui" probe tui '"store/sql.h"'
	check "the fence stops store in core/base" probe base '"store/store.h"'
	check "... and lets a layer include what it may" sh -c 'printf "#include \"core/case/case.h\"\n#include <notmuch.h>\n" >"$1/ok.c" && cc -fsyntax-only -Ibuild/fence/core -I. -Ibuild $2 "$1/ok.c"' _ "$T" "$CFLAGS_PKG"
else
	fail "the fences are built (make tests builds build/fence)"
fi
exit 0
