#!/bin/sh
# docs/kernel/kernel-series.sh [OUTDIR]: write the kernel documentation
# series as a sendable patch series, authored and signed off by you.
#
# The patches in docs/kernel/ carry no author and no Signed-off-by: only
# the person who sends a patch can certify the Developer's Certificate of
# Origin.  This script commits them onto the pristine linux-source tree
# (tag decorum-base in the cache, see tests/kernel/common.sh) with your
# git identity (git config user.name / user.email, or GIT_AUTHOR_NAME /
# GIT_AUTHOR_EMAIL), adds your Signed-off-by, and runs
#   git format-patch --cover-letter --base=decorum-base
# with To: and Cc: taken from scripts/get_maintainer.pl for each patch.
# The result (default build/kernel-series/) is ready for git send-email
# after you have read it.  Run by "make kernel-series".
set -eu
. "$(dirname "$0")/../../tests/kernel/common.sh"

out=${1:-$KTOP/build/kernel-series}
case "$out" in /*) ;; *) out=$(pwd)/$out ;; esac

series_ident ||
	die "no git identity: set yours with
    git config --global user.name 'Your Name'
    git config --global user.email you@example.org
  (the patches are signed off with it: use your real name, see
  Documentation/process/submitting-patches.rst)"

kernel_setup
sh "$KDIR/tree.sh" --base >/dev/null
cd "$KSRC"

GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL

# Commit with a private index: the tree's work tree and HEAD stay as they
# are (tests/kernel/tree.sh owns them).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
GIT_INDEX_FILE=$work/index
export GIT_INDEX_FILE
git read-tree decorum-base
parent=$(git rev-parse decorum-base)
for p in $(series_patches); do
	git mailinfo "$work/msg" "$work/diff" <"$p" >"$work/info" ||
		die "${p##*/}: not a patch mail"
	subj=$(sed -n 's/^Subject: //p' "$work/info")
	[ -n "$subj" ] || die "${p##*/}: no subject"
	if grep -qi '^signed-off-by:' "$work/msg"; then
		die "${p##*/}: carries a Signed-off-by; the series must not sign for anyone"
	fi
	date=$(sed -n 's/^Date: //p' "$work/info")
	{
		printf '%s\n\n' "$subj"
		cat "$work/msg"
	} | git interpret-trailers --trailer "Signed-off-by: $ident" >"$work/commit"
	git apply --cached "$work/diff" || die "${p##*/} does not apply to linux $KVER"
	tree=$(git write-tree)
	parent=$(GIT_AUTHOR_DATE=${date:-} GIT_COMMITTER_DATE=${date:-} git commit-tree "$tree" -p "$parent" -F "$work/commit")
done
git update-ref refs/heads/decorum-series "$parent"
cover="$SERIES_DIR/cover-letter.txt"
[ -f "$cover" ] || die "no $cover"
git config branch.decorum-series.description "$(cat "$cover")"

rm -rf "$out"
mkdir -p "$out"
git format-patch -q --cover-letter --cover-from-description=subject \
	--base=decorum-base -o "$out" decorum-base..decorum-series

# To: the people, Cc: the lists, from MAINTAINERS; the cover letter goes
# to everyone any patch goes to.
: >"$work/to.all"
: >"$work/cc.all"
# MAINTAINERS as the series leaves it (1/3 adds the guide to the Code of
# Conduct entry), whatever the work tree holds: a fresh tree is still at
# decorum-base here.
git show decorum-series:MAINTAINERS >"$work/MAINTAINERS"
gm() {
	./scripts/get_maintainer.pl --mpath "$work/MAINTAINERS" \
		--no-rolestats --no-git --no-git-fallback "$@"
}
add_headers() {
	awk -v to="$2" -v cc="$3" '
		function field(name, list,    n, a, i, line) {
			n = split(list, a, "\n"); line = ""
			for (i = 1; i <= n; i++) if (a[i] != "")
				line = line (line == "" ? name ": " : ",\n    ") a[i]
			if (line != "") print line
		}
		!done && /^Subject: / {
			field("To", to); field("Cc", cc); done = 1
		}
		{ print }' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}
for f in "$out"/*.patch; do
	case "${f##*/}" in 0000-*) continue ;; esac
	to=$(gm --no-l "$f")
	cc=$(gm --no-m --no-r "$f")
	[ -n "$to" ] || die "get_maintainer.pl found nobody for ${f##*/}"
	echo "$to" >>"$work/to.all"
	echo "$cc" >>"$work/cc.all"
	add_headers "$f" "$to" "$cc"
done
add_headers "$out/0000-cover-letter.patch" "$(awk '!s[$0]++' "$work/to.all")" \
	"$(awk '!s[$0]++' "$work/cc.all")"
# The cover letter is dated "now"; date it like the last patch, so that
# building an unchanged series twice gives the same files.
date=$(git log -1 --format=%aD decorum-series)
sed -i "1,/^\$/s/^Date: .*/Date: $date/" "$out/0000-cover-letter.patch"
ls "$out"/*.patch
