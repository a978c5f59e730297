#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# make bench: decorum against notmuch, sqlite3, alot and neomutt on
# several synthetic list archives.
#
#   sh tests/bench/run.sh [--prepare-only] [--runs N] [--only P1,P3,...]
#
# The archives: tests/bench/genmail at two seeds (2024 and 7, 10,000 and
# 100,000 messages each), and, when ../shared is present,
# ../shared/tools/genmaildir at seed 1 with 10,000 and 100,000 messages,
# and 300,000 with BENCH_LARGE=1 (generating and indexing that one takes
# longer than five minutes here; without it the P2 row says so).  Each
# is generated and indexed by notmuch once, into $DECORUM_BENCH_CACHE
# (default ${XDG_CACHE_HOME:-~/.cache}/decorum/bench); a stamp keyed on
# the generator's checksum, the size and the seed says when to do it
# again.  tests/bench/bench.py then times every measurement against its
# baseline in the same run and writes build/bench/results.json (never a
# tracked file).  Benchmarks are not tests: nothing here is part of make
# check.
#
# P10 (decorum sync, seven members) builds its own fixture into the same
# cache: 2,000 events by default, BENCH_SYNC_EVENTS=N for another size,
# BENCH_LARGE=1 for the 10,000 of issue 22 (about five minutes to build
# here, and as long again to measure).
set -eu

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BENCH="$TOP/tests/bench"
CACHE=${DECORUM_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/decorum/bench}
SHARED=${DECORUM_SHARED:-$TOP/../shared}

prepare_only=0
for a in "$@"; do
	[ "$a" = --prepare-only ] && prepare_only=1
done

DEBS="python3 hyperfine alot neomutt time tmux notmuch sqlite3 git age openssh-client" \
	sh "$TOP/tests/install-debs.sh"

# prepare NAME GENERATOR MESSAGES SEED: the maildir, its notmuch config
# and its index.
prepare() {
	dir="$CACHE/$1"
	key="gen=$(sha256sum "$2" | cut -c1-16) messages=$3 seed=$4 notmuch=$(notmuch --version | cut -d' ' -f2)"
	if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$key" ]; then
		return 0
	fi
	echo "bench: generating and indexing $3 messages in $dir (once)"
	rm -rf "$dir"
	mkdir -p "$dir"
	start=$(date +%s)
	/usr/bin/python3 "$2" --messages "$3" --seed "$4" --out "$dir/mail" \
		>/dev/null
	# Flags are not synchronised, so tagging never renames a file;
	# nothing is excluded, so decorum and notmuch see the same threads.
	cat >"$dir/notmuch-config" <<EOF
[database]
path=$dir/mail
[user]
name=Bench Maintainer
primary_email=maintainer@kernel.invalid
[new]
tags=inbox;
[search]
exclude_tags=
[maildir]
synchronize_flags=false
EOF
	NOTMUCH_CONFIG="$dir/notmuch-config" notmuch new --quiet
	echo "bench: generated and indexed $3 messages in $(($(date +%s) - start)) s"
	echo "$key" >"$dir/stamp"
}

mkdir -p "$CACHE"
prepare genmail-2024-10k "$BENCH/genmail" 10000 2024
prepare genmail-2024-100k "$BENCH/genmail" 100000 2024
prepare genmail-7-10k "$BENCH/genmail" 10000 7
prepare genmail-7-100k "$BENCH/genmail" 100000 7
archives="genmail-2024-10k genmail-2024-100k genmail-7-10k genmail-7-100k"
if [ -f "$SHARED/tools/genmaildir" ]; then
	prepare genmaildir-1-10k "$SHARED/tools/genmaildir" 10000 1
	prepare genmaildir-1-100k "$SHARED/tools/genmaildir" 100000 1
	archives="$archives genmaildir-1-10k genmaildir-1-100k"
	if [ "${BENCH_LARGE:-0}" = 1 ]; then
		prepare genmaildir-1-300k "$SHARED/tools/genmaildir" 300000 1
		archives="$archives genmaildir-1-300k"
	else
		echo "bench: genmaildir 300k skipped: BENCH_LARGE=1 generates it (more than five minutes)"
	fi
else
	echo "bench: genmaildir archives skipped: $SHARED/tools/genmaildir not present"
fi
[ "$prepare_only" = 1 ] && exit 0

exec /usr/bin/python3 "$BENCH/bench.py" --top "$TOP" --cache "$CACHE" \
	--archives "$archives" "$@"
