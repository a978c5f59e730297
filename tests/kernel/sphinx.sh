#!/bin/sh
# tests/kernel/sphinx.sh: build the HTML of Documentation/process/ and
# Documentation/gpu/ from the patched tree and fail on any Sphinx or
# kernel-doc warning that the unpatched tree does not already emit.
#
# Both directories are built as one Sphinx project (the top index plus
# include_patterns), not as two SPHINXDIRS projects: a :ref: from gpu/ to a
# label in process/ only resolves when both are in the same project, as they
# are on docs.kernel.org.
#
# The unpatched tree warns a lot (about 600 lines: MAINTAINERS entries for
# directories outside the subset, kernel-doc in gpu/), so -W is no use.
# The baseline is recorded once per kernel version, normalised (paths
# relative, line numbers dropped, sorted, unique), in
# <version>/sphinx-base.warnings.  The patched build then reuses the same
# output and doctrees, so it is incremental; every file the series touches
# is touched first, so that all of the series' documents are re-read and
# their warnings re-emitted.  A series that passed once is not rebuilt
# (<version>/sphinx.key holds its sha256).
#
# Output: <version>/docs/Documentation/output/ (process/, gpu/, ...);
# new warnings, if any, in <version>/sphinx-new.warnings.
set -eu
. "$(dirname "$0")/common.sh"

kernel_setup
sh "$KDIR/tree.sh" >/dev/null
DOCS="$KVDIR/docs"
OUT="$DOCS/Documentation/output"
BASE_WARN="$KVDIR/sphinx-base.warnings"

htmldocs() {
	# $1: log file
	run_logged Sphinx "$1" make -C "$KSRC" O="$DOCS" -j"$(nproc)" \
		SPHINXDIRS=. \
		SPHINXOPTS="-D include_patterns=index.rst,process/**,gpu/**" \
		htmldocs
}

normalise() {
	grep -E '(WARNING|ERROR|SEVERE|CRITICAL):|: (warning|error):' "$1" |
		sed -e "s|$KSRC/||g" -e "s|$DOCS/||g" -e 's/:[0-9][0-9]*:/:/g' |
		sort -u
}

if [ ! -f "$KVDIR/sphinx-base.done" ]; then
	say "Sphinx: building the unpatched process/ and gpu/ docs for the warning baseline (about 2 min, once per kernel version)"
	branch=$(git -C "$KSRC" symbolic-ref --short HEAD)
	trap 'git -C "$KSRC" checkout -q "$branch"' EXIT
	git -C "$KSRC" checkout -q --detach decorum-base
	rm -rf "$DOCS"
	if ! htmldocs "$KVDIR/sphinx-base.log"; then
		tail -n 40 "$KVDIR/sphinx-base.log" >&2
		die "the Sphinx build of the unpatched tree failed (log: $KVDIR/sphinx-base.log)"
	fi
	normalise "$KVDIR/sphinx-base.log" >"$BASE_WARN"
	git -C "$KSRC" checkout -q "$branch"
	trap - EXIT
	touch "$KVDIR/sphinx-base.done"
	say "Sphinx: baseline has $(wc -l <"$BASE_WARN") distinct warnings"
fi

key=$(series_key)
if [ "$(cat "$KVDIR/sphinx.key" 2>/dev/null)" = "$key" ] &&
	[ -f "$OUT/process/$KDOC_PAGE.html" ]; then
	say "Sphinx: the patched docs are up to date for this series (no new warnings)"
	echo "$OUT"
	exit 0
fi
rm -f "$KVDIR/sphinx.key"
say "Sphinx: building the patched process/ and gpu/ docs"
# Re-read every document the series changes, even those an earlier run
# already built, so that their warnings show up in this log.
(cd "$KSRC" && git diff --name-only decorum-base HEAD | xargs -r touch)
if ! htmldocs "$KVDIR/sphinx.log"; then
	tail -n 40 "$KVDIR/sphinx.log" >&2
	die "the Sphinx build of the patched tree failed (log: $KVDIR/sphinx.log)"
fi
normalise "$KVDIR/sphinx.log" | comm -13 "$BASE_WARN" - >"$KVDIR/sphinx-new.warnings"
if [ -s "$KVDIR/sphinx-new.warnings" ]; then
	echo "kernel: new Sphinx warnings (not in the unpatched tree's baseline):" >&2
	cat "$KVDIR/sphinx-new.warnings" >&2
	exit 1
fi
say "Sphinx: no new warnings ($(normalise "$KVDIR/sphinx.log" | wc -l) emitted, all in the baseline)"
echo "$key" >"$KVDIR/sphinx.key"
echo "$OUT"
