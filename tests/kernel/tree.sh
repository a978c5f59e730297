#!/bin/sh
# tests/kernel/tree.sh: bring the cached kernel tree to "pristine tarball +
# the series in docs/kernel/ applied with git am", and print its path.
#
# The base commit (tag decorum-base) holds exactly what the tarball holds:
# git add -Af, because the Debian .gitignore block ("/*") and the tree's own
# ".*" rules would hide files.  The tree is unpacked once per kernel version;
# the series is re-applied (reset to the base, git am) only when the sha256
# of docs/kernel/*.patch changes.  Build products live outside the tree
# (make O=), so a reset keeps them and rebuilds stay incremental.
#
# Exit status: 0 when the series applied, 1 on any failure (git am's output
# is in <version>/am.log).
set -eu
. "$(dirname "$0")/common.sh"

kernel_setup
mkdir -p "$KCACHE"

if [ ! -f "$KVDIR/base.done" ]; then
	rm -rf "$KVDIR"
	mkdir -p "$KSRC"
	say "unpacking $KTARBALL (linux $KVER) into $KSRC"
	tar -xJf "$KTARBALL" --strip-components=1 -C "$KSRC"
	say "committing the pristine tree as tag decorum-base (about a minute)"
	(
		cd "$KSRC"
		git init -q
		git config user.name "decorum developers"
		git config user.email "decorum@example.org"
		git config gc.auto 0
		git add -Af .
		git commit -q --no-verify -m "Linux $KVER (Debian linux-source tarball)"
		git tag decorum-base
	)
	touch "$KVDIR/base.done"
	# Older versions are dead weight (about 2 GB each).
	for d in "$KCACHE"/*/; do
		[ "${d%/}" = "$KVDIR" ] && continue
		[ -f "${d}base.done" ] || continue
		say "removing the cache of an older kernel: $d"
		rm -rf "${d%/}"
	done
fi

[ "${1:-}" = --base ] && { echo "$KSRC"; exit 0; }

key=$(series_key)
head=$(git -C "$KSRC" rev-parse HEAD)
if [ -f "$KVDIR/series.key" ] && [ "$(cat "$KVDIR/series.key")" = "$key $head" ]; then
	echo "$KSRC"
	exit 0
fi

say "building the series signed off by you ($SERIES_DIR/kernel-series.sh)"
rm -rf "$KVDIR/series"
sh "$SERIES_DIR/kernel-series.sh" "$KVDIR/series" >/dev/null ||
	die "kernel-series.sh could not build the series"
say "applying the series ($(series_patches | wc -l) patches) with git am"
cd "$KSRC"
# Commits made in the tree since the series was last applied (work not yet
# exported with make-series.sh) are kept on a branch, never just dropped.
if [ -f "$KVDIR/series.key" ]; then
	applied=$(cut -d' ' -f2 "$KVDIR/series.key")
	if [ "$applied" != "$head" ] &&
		[ -n "$(git rev-list "decorum-base..$head" 2>/dev/null)" ]; then
		keep="decorum-unexported-$(date +%Y%m%d-%H%M%S)"
		git branch -f "$keep" "$head"
	fi
fi
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	git stash push -q -m "decorum: edits found before re-applying the series" &&
		say "the tree had uncommitted edits: kept in git stash"
fi
rm -f "$KVDIR/series.key"
git am --abort >/dev/null 2>&1 || true
git reset -q --hard decorum-base
git clean -q -fdx -- Documentation >/dev/null 2>&1 || true
patches=$(ls "$KVDIR"/series/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-')
[ -n "$patches" ] || die "no patches in $KVDIR/series"
# shellcheck disable=SC2086
if ! git am $patches >"$KVDIR/am.log" 2>&1; then
	cat "$KVDIR/am.log" >&2
	git am --abort >/dev/null 2>&1 || true
	[ -n "${keep:-}" ] && say "the tree's previous commits are on branch $keep"
	exit 1
fi
if [ -n "${keep:-}" ]; then
	if git diff --quiet "$keep" HEAD; then
		git branch -D -q "$keep"
	else
		say "the tree had commits not in docs/kernel/ (make-series.sh exports them): kept as branch $keep"
	fi
fi
echo "$key $(git rev-parse HEAD)" >"$KVDIR/series.key"
echo "$KSRC"
