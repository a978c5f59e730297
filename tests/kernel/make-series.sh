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
# The cover letter keeps its subject and text: they are read back from the
# current 0000-cover-letter.patch (or taken from the branch description).
set -eu
. "$(dirname "$0")/common.sh"

kernel_setup
[ -d "$KSRC/.git" ] || die "no cached tree at $KSRC: run tests/kernel/tree.sh"
cd "$KSRC"
n=$(git rev-list --count decorum-base..HEAD)
[ "$n" -gt 0 ] || die "no commits on top of decorum-base in $KSRC"
branch=$(git symbolic-ref --short HEAD)

cover="$SERIES_DIR/0000-cover-letter.patch"
if [ -f "$cover" ]; then
	# Subject (unfolded, without "[PATCH 0/N] "), a blank line, then the
	# body up to the shortlog ("Name (N):").
	awk '
		state == 0 && /^Subject: / { subj = $0; state = 1; next }
		state == 1 && /^[ \t]/ { subj = subj $0; next }
		state == 1 { state = 2 }
		state == 2 && /^$/ { state = 3; next }
		state == 3 && /^[^ \t].* \([0-9]+\):$/ { exit }
		state == 3 { body = body $0 "\n" }
		END {
			sub(/^Subject: (\[[^]]*\] )?/, "", subj)
			sub(/\n+$/, "\n", body)
			printf "%s\n\n%s", subj, body
		}' "$cover" >"$KVDIR/cover.txt"
	git config "branch.$branch.description" "$(cat "$KVDIR/cover.txt")"
fi
git config "branch.$branch.description" >/dev/null ||
	die "no cover letter text: set git config branch.$branch.description in $KSRC"

rm -f "$SERIES_DIR"/*.patch
git format-patch -q --cover-letter --cover-from-description=subject \
	--zero-commit -o "$SERIES_DIR" decorum-base..HEAD
# The cover letter is dated "now"; date it like the last patch instead, so
# that regenerating an unchanged series changes no file.
date=$(git log -1 --format=%aD HEAD)
sed -i "1,/^\$/s/^Date: .*/Date: $date/" "$SERIES_DIR/0000-cover-letter.patch"
ls "$SERIES_DIR"/*.patch
