#!/bin/sh
# tests/kernel/test-kernel.sh: the kernel documentation series in
# docs/kernel/, end to end.  Run by "make check" (tests/run.sh --kernel).
#
#   1. the series applies with git am to the pristine linux-source tree
#   2. scripts/checkpatch.pl --strict is clean on every patch
#   3. a Sphinx build of process/ and gpu/ adds no warning to the baseline
#   4. the guide's three labels are anchors in the built HTML
#   5. the cross-links from the interpretation document, the process index
#      and gpu/introduction resolve to anchors that exist
#   6. a kernel built from the patched tree boots under QEMU with decorum,
#      a fixture and the HTML in its initramfs (tests/kernel/boot.sh)
#
# DECORUM_KERNEL_BOOT=0 leaves out step 6 (quick runs while editing).
# The tree and builds are cached (see common.sh); cold about 6-8 min, warm
# about 20 s.  Progress goes to stderr.
set -u
. "$(dirname "$0")/common.sh"

# Not t_setup: the cache must stay where the user's HOME says, so that a
# second run is warm.  Two runs at once would trip over the same tree.
mkdir -p "$KCACHE"
exec 9>"$KCACHE/.lock"
if ! flock -n 9; then
	say "another kernel check holds $KCACHE/.lock; waiting"
	flock -w 3600 9 || die "timed out waiting for $KCACHE/.lock"
fi

failed=0
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; failed=1; }
skip() { echo "skip - $*"; }
indent() { sed 's/^/#   /' | head -n "${1:-60}"; }

command -v qemu-system-x86_64 >/dev/null 2>&1 && [ -r "$KTARBALL" ] &&
	command -v sphinx-build >/dev/null 2>&1 ||
	{ notok "kernel packages installed (run make deps-kernel)"; exit 1; }

kernel_setup
npatches=$(series_patches | wc -l)
if [ "$npatches" -eq 0 ]; then
	notok "docs/kernel/ holds a patch series"
	exit 1
fi

# 1. git am
if sh "$KDIR/tree.sh" >/dev/null 2>"$KCACHE/tree.err"; then
	ok "series ($npatches patches) applies with git am to linux $KVER"
else
	notok "series ($npatches patches) applies with git am to linux $KVER"
	indent <"$KCACHE/tree.err"
	exit 1
fi

# 2. checkpatch
for p in $(series_patches); do
	name=${p##*/}
	if out=$(cd "$KSRC" && ./scripts/checkpatch.pl --strict "$p" 2>&1); then
		ok "checkpatch --strict: $name ($(echo "$out" | sed -n 's/^total: \([^,]*, [^,]*, [^,]*\),.*/\1/p'))"
	else
		notok "checkpatch --strict: $name"
		echo "$out" | indent
	fi
done

# 3. Sphinx
if OUT=$(sh "$KDIR/sphinx.sh" 2>"$KCACHE/sphinx.err"); then
	ok "Sphinx (process/ + gpu/): no warning beyond the unpatched tree's $(wc -l <"$KVDIR/sphinx-base.warnings")"
	cat "$KCACHE/sphinx.err" >&2
else
	notok "Sphinx (process/ + gpu/): no warning beyond the unpatched tree's"
	indent 80 <"$KCACHE/sphinx.err"
	OUT="$KVDIR/docs/Documentation/output"
fi

# 4. anchors
GUIDE="$OUT/process/$KDOC_PAGE.html"
for a in $KDOC_ANCHORS; do
	if [ -f "$GUIDE" ] && grep -q "id=\"$a\"" "$GUIDE"; then
		ok "anchor #$a in process/$KDOC_PAGE.html"
	else
		notok "anchor #$a in process/$KDOC_PAGE.html"
	fi
done

# 5. cross-links: every link from FROM into the guide names an anchor that
# exists, and the links include the REQUIRED anchors.
check_links() {
	# $1: page (relative to $OUT), $2: href prefix, $3: required anchors
	from="$OUT/$1"
	if [ ! -f "$from" ] || [ ! -f "$GUIDE" ]; then
		notok "links from $1 to the guide resolve (page not built)"
		return
	fi
	frags=$(grep -o "href=\"$2#[^\"]*\"" "$from" |
		sed -e "s|^href=\"$2#||" -e 's/"$//' | sort -u)
	bad=""
	for f in $frags; do
		grep -q "id=\"$f\"" "$GUIDE" || bad="$bad #$f"
	done
	for r in $3; do
		echo "$frags" | grep -qx "$r" || bad="$bad (no link to #$r)"
	done
	if [ -z "$frags" ]; then
		notok "links from $1 to the guide resolve (none found)"
	elif [ -n "$bad" ]; then
		notok "links from $1 to the guide resolve:$bad"
	else
		ok "links from $1 to the guide resolve ($(echo $frags | sed 's/\([^ ]*\)/#\1/g'))"
	fi
}
check_links process/code-of-conduct-interpretation.html "$KDOC_PAGE.html" \
	"coc-maintainer-admonition coc-maintainer-escalation coc-maintainer-tab-consultation"
check_links gpu/introduction.html "../process/$KDOC_PAGE.html" "$KDOC_ANCHORS"
if [ -f "$OUT/process/index.html" ] &&
	grep -q "href=\"$KDOC_PAGE.html\"" "$OUT/process/index.html"; then
	ok "process/index.html lists the guide"
else
	notok "process/index.html lists the guide"
fi

# 6. QEMU
if [ "${DECORUM_KERNEL_BOOT:-1}" = 0 ]; then
	skip "kernel build and QEMU boot (DECORUM_KERNEL_BOOT=0)"
else
	sh "$KDIR/boot.sh" --decorum "$KTOP/decorum" --html "$OUT" || failed=1
fi

say "kernel checks done"
exit "$failed"
