#!/bin/sh
# tests/kernel/make-series.sh: regenerate docs/kernel/*.patch from the
# commits on top of tag decorum-base in the cached kernel tree.
#
# The patches in docs/kernel/ are the source of truth; the cached tree is
# where they are edited.  To change the series:
#   src=$(sh tests/kernel/tree.sh)      # tree = base + current series
#   cd "$src" && edit, git commit --amend / git rebase -i decorum-base
#                (git add -f: the Debian .gitignore hides every top-level
#                path; commits need -s)
#   sh tests/kernel/make-series.sh      # back into docs/kernel/
set -eu
. "$(dirname "$0")/common.sh"

kernel_setup
[ -d "$KSRC/.git" ] || die "no cached tree at $KSRC: run tests/kernel/tree.sh"
cd "$KSRC"
n=$(git rev-list --count decorum-base..HEAD)
[ "$n" -gt 0 ] || die "no commits on top of decorum-base in $KSRC"

# The shipped patches name nobody: no From: line (git mailinfo and
# kernel-series.sh do not need one) and no Signed-off-by, which only the
# sender can give (kernel-series.sh adds theirs).  The cover letter's text
# is docs/kernel/cover-letter.txt, edited by hand.
rm -f "$SERIES_DIR"/*.patch
git format-patch -q --no-signature --zero-commit -o "$SERIES_DIR" decorum-base..HEAD
for f in $(series_patches); do
	awk '
		hdr && /^From: / { skip = 1; next }
		hdr && skip && /^[ \t]/ { next }
		hdr && /^$/ { hdr = 0 }
		{ skip = 0 }
		!hdr && !diff && /^[Ss]igned-off-by: / { next }
		!hdr && /^---$/ { diff = 1 }
		{ print }' hdr=1 "$f" |
		# the blank line that stood before the sign-off
		awk '!diff && /^$/ { blank++; next }
			!diff && /^---$/ { diff = 1; blank = 0 }
			{ for (; blank > 0; blank--) print ""; print }' >"$f.tmp" &&
		mv "$f.tmp" "$f"
done
series_patches
