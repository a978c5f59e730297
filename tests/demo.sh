#!/bin/sh
# make demo: index a copy of the fictional demo corpus into a private
# notmuch database under the cache directory and open decorum on it.
# The user's own notmuch configuration, mail and case store are untouched.
set -eu
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
