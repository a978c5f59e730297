#!/bin/sh
# tests/kernel/claims.sh [GUIDE]: check docs/kernel/CLAIMS against the
# pristine linux-source tree (tag decorum-base in the cache) and the guide
# (taken from patch 1/3, or GUIDE).
#
#   - the source words of each claim are at its FILE:LINE-LINE in the tree
#     (whitespace and line breaks ignored, nothing else);
#   - the guide words of each claim are in the guide;
#   - each address, URL and number in the guide is in the guide words and
#     the source words of some claim (the kernel's own version number
#     excepted), so that no figure or address can enter the guide unlisted.
# Prints ok/not ok lines; exit 1 on any failure.
set -u
. "$(dirname "$0")/common.sh"

kernel_setup
[ -d "$KSRC/.git" ] || sh "$KDIR/tree.sh" --base >/dev/null ||
	die "no kernel tree at $KSRC"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

guide=${1:-}
if [ -z "$guide" ]; then
	guide=$work/guide.rst
	awk -v file="Documentation/process/$KDOC_PAGE.rst" -f "$SERIES_DIR/new-file.awk" \
		"$SERIES_DIR"/0001-*.patch >"$guide"
fi
[ -s "$guide" ] || die "no guide text"

# One claim per line: FILE, FIRST, LAST, SOURCE-WORDS, GUIDE-WORDS (tabs).
grep -v '^#' "$SERIES_DIR/CLAIMS" | grep -v '^[[:space:]]*$' | awk -F' [|] ' '
	NF != 3 { print "BAD\t" $0; next }
	{
		loc = $1; first = last = 0; file = loc
		if (loc !~ /^upstream:/) {
			n = split(loc, a, ":"); file = a[1]
			split(a[2], r, "-"); first = r[1]; last = (r[2] != "" ? r[2] : r[1])
		}
		print file "\t" first "\t" last "\t" $2 "\t" $3
	}' >"$work/claims"

norm() { tr '\n\t' '  ' | tr -s ' ' | sed 's/^ //; s/ $//'; }
failed=0
n=0
norm <"$guide" >"$work/guide.norm"
while IFS='	' read -r file first last src said; do
	n=$((n + 1))
	if [ "$file" = BAD ]; then
		echo "not ok - CLAIMS line not FILE:LINES | source | guide: $first"
		failed=1
		continue
	fi
	case "$file" in
	upstream:*) ;;
	*)
		if ! git -C "$KSRC" show "decorum-base:$file" >"$work/src" 2>/dev/null; then
			echo "not ok - claim $n: no $file in linux $KVER"
			failed=1
		elif ! sed -n "${first},${last}p" "$work/src" | norm |
			grep -qiF -- "$(printf '%s' "$src" | norm)"; then
			echo "not ok - claim $n: \"$src\" is not at $file:$first-$last"
			failed=1
		fi
		;;
	esac
	if ! grep -qiF -- "$(printf '%s' "$said" | norm)" "$work/guide.norm"; then
		echo "not ok - claim $n: the guide does not say \"$said\""
		failed=1
	fi
done <"$work/claims"
[ "$failed" -eq 0 ] && echo "ok - CLAIMS: $n claims found at their lines in linux $KVER and in the guide"

# Addresses, URLs, numbers and number words in the guide (not in its rst
# markup: labels and the SPDX line are not claims).
ver=${KVER%.*}
grep -v '^\.\. ' "$guide" | norm |
	grep -oiE '[a-z0-9._-]+@[a-z0-9.-]+[a-z]|https?://[^ >)]*[^ >).,]|[0-9]+([.][0-9]+)*|(one|two|three|four)[- ](thirds?|quarters?)|half|quarterly|majority|unanimous' |
	sort -u >"$work/tokens"
bad=0
while read -r t; do
	[ "$t" = "$ver" ] && continue
	if ! awk -F'\t' -v t="$t" '
		BEGIN { t = tolower(t) }
		index(tolower($5), t) && ($1 ~ /^upstream:/ || index(tolower($4), t)) { found = 1 }
		END { exit !found }' "$work/claims"; then
		echo "not ok - the guide says \"$t\", which no claim in CLAIMS backs"
		bad=1
	fi
done <"$work/tokens"
[ "$bad" -eq 0 ] && echo "ok - every address, URL and number in the guide ($(wc -l <"$work/tokens") kinds) is backed by a claim"
[ "$failed" -eq 0 ] && [ "$bad" -eq 0 ]
