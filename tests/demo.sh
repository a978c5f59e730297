#!/bin/sh
# make demo: index a copy of the fictional demo corpus into a private
# notmuch database under the cache directory and open decorum on it.
# The user's own notmuch configuration, mail and case store are untouched.
#
# With --quarter (make demo-quarter), record a worked quarter of cases on
# it instead (tests/demo-quarter.sh, into a store of its own) and print
# the report the committee would publish for it.
set -eu
quarter=
case "${1:-}" in
--quarter) quarter=1 ;;
"") ;;
*) echo "usage: tests/demo.sh [--quarter]" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
dir="${XDG_CACHE_HOME:-$HOME/.cache}/decorum/demo"

umask 077
if [ ! -f "$dir/.indexed" ] || [ "$top/tests/corpus/demo" -nt "$dir/.indexed" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$top/tests/corpus/demo" "$dir/mail"
	cat >"$dir/notmuch-config" <<CFG
[database]
path=$dir/mail
[user]
name=Demo Maintainer
primary_email=maintainer@example.org
[new]
tags=inbox;unread
[search]
exclude_tags=deleted;spam
[maildir]
synchronize_flags=false
CFG
	NOTMUCH_CONFIG="$dir/notmuch-config" notmuch new --quiet
	touch "$dir/.indexed"
fi

export NOTMUCH_CONFIG="$dir/notmuch-config"
if [ -n "$quarter" ]; then
	DEMO_STORE="$dir/quarter.db" sh "$top/tests/demo-quarter.sh"
	echo
	echo "decorum demo: the quarter's cases are in $dir/quarter.db; browse them with"
	echo "  NOTMUCH_CONFIG=$NOTMUCH_CONFIG DECORUM_STORE=$dir/quarter.db DECORUM_NOW=2026-12-01 $top/decorum tui"
	exit 0
fi
export DECORUM_STORE="$dir/decorum.db"
echo "decorum demo: notmuch database in $dir (NOTMUCH_CONFIG=$NOTMUCH_CONFIG)"
echo "decorum demo: case store $DECORUM_STORE"
echo
if [ -t 1 ] && "$top/decorum" --help 2>/dev/null | grep -q '^  tui '; then
	exec "$top/decorum" tui
fi
"$top/decorum" list
echo
echo "Try:  NOTMUCH_CONFIG=$NOTMUCH_CONFIG DECORUM_STORE=$DECORUM_STORE $top/decorum show THREAD-ID"
