#!/bin/sh
# tests/kernel/test-kernel.sh: the kernel documentation series in
# docs/kernel/, end to end.  Run by "make check" (tests/run.sh --kernel).
#
#   0. docs/kernel/ names nobody; docs/kernel/kernel-series.sh refuses to
#      run without a git identity, and builds the series signed off by a
#      fictional test identity, with no other sign-off in it
#   1. that series applies with git am to the pristine linux-source tree
#   2. scripts/checkpatch.pl --strict is clean on every patch of it
#   2a. docs/kernel/CLAIMS checks out against the tree (tests/kernel/claims.sh)
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

# 0. identities.  The shipped patches carry no author and no sign-off.
named=$(grep -l '^From: \|^Signed-off-by:' $(series_patches) 2>/dev/null)
if [ -z "$named" ]; then
	ok "docs/kernel/ patches carry no From: and no Signed-off-by:"
else
	notok "docs/kernel/ patches carry no From: and no Signed-off-by: ($named)"
fi
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
kt_tmp=$(mktemp -d)
trap 'rm -rf "$kt_tmp"' EXIT
if [ -n "$(git -C "$KTOP" config --local user.name 2>/dev/null)" ]; then
	skip "kernel-series.sh refuses without an identity (this clone sets one locally)"
elif GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
	sh "$SERIES_DIR/kernel-series.sh" "$kt_tmp/none" >"$kt_tmp/none.out" 2>&1; then
	notok "kernel-series.sh refuses without an identity"
elif grep -q 'no git identity' "$kt_tmp/none.out" && ! [ -e "$kt_tmp/none" ]; then
	ok "kernel-series.sh refuses without an identity, and writes nothing"
else
	notok "kernel-series.sh refuses without an identity"
	indent <"$kt_tmp/none.out"
fi
# A fictional sender for the rest of the run, through a gitconfig of its
# own as a user would have it.
printf '[user]\n\tname = Tess Fictional\n\temail = tess@example.invalid\n' \
	>"$kt_tmp/gitconfig"
GIT_CONFIG_GLOBAL=$kt_tmp/gitconfig
GIT_CONFIG_NOSYSTEM=1
export GIT_CONFIG_GLOBAL GIT_CONFIG_NOSYSTEM
series_ident || die "no test identity"

# 1. git am
if sh "$KDIR/tree.sh" >/dev/null 2>"$KCACHE/tree.err"; then
	ok "series ($npatches patches) applies with git am to linux $KVER"
else
	notok "series ($npatches patches) applies with git am to linux $KVER"
	indent <"$KCACHE/tree.err"
	exit 1
fi

SERIES_OUT="$KVDIR/series"
sent=$(ls "$SERIES_OUT"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-')

# 0 (cont.). Who the generated series says wrote and signed it.
bad=""
for p in "$SERIES_OUT"/*.patch; do
	name=${p##*/}
	from=$(sed -n '1,/^$/s/^From: //p' "$p")
	[ "$from" = "$ident" ] || bad="$bad $name(From: $from)"
	case "$name" in 0000-*) continue ;; esac
	grep -q "^Signed-off-by: $ident\$" "$p" || bad="$bad $name(not signed off)"
	others=$(grep '^Signed-off-by:' "$p" | grep -vxF "Signed-off-by: $ident")
	[ -z "$others" ] || bad="$bad $name($others)"
	grep -q '^base-commit: ' "$p" "$SERIES_OUT/0000-cover-letter.patch" ||
		bad="$bad (no base-commit)"
done
if [ -z "$bad" ]; then
	ok "generated series: written and signed off by $ident only, with base-commit"
else
	notok "generated series: written and signed off by $ident only:$bad"
fi
addr=$(sed -n '1,/^Subject/p' "$SERIES_OUT"/0003-*.patch)
missing=""
for a in corbet@lwn.net linux-doc@vger.kernel.org gregkh@linuxfoundation.org \
	dri-devel@lists.freedesktop.org; do
	case "$a" in gregkh*) f=$(sed -n '1,/^Subject/p' "$SERIES_OUT"/0001-*.patch) ;; *) f=$addr ;; esac
	echo "$f" | grep -qF "$a" || missing="$missing $a"
done
if [ -z "$missing" ]; then
	ok "generated series: To/Cc from get_maintainer.pl (docs, CoC entry, dri-devel on 3/3)"
else
	notok "generated series: To/Cc from get_maintainer.pl: missing$missing"
fi

# 2. checkpatch
for p in $sent; do
	name=${p##*/}
	if out=$(cd "$KSRC" && ./scripts/checkpatch.pl --strict "$p" 2>&1); then
		ok "checkpatch --strict: $name ($(echo "$out" | sed -n 's/^total: \([^,]*, [^,]*, [^,]*\),.*/\1/p'))"
	else
		notok "checkpatch --strict: $name"
		echo "$out" | indent
	fi
done

# 2a. the guide's claims against the 6.1 sources
if out=$(sh "$KDIR/claims.sh" 2>&1); then
	echo "$out"
else
	echo "$out" | grep '^ok - '
	echo "$out" | grep -v '^ok - ' | grep '^not ok - ' || notok "claims.sh: $out"
	failed=1
fi

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
