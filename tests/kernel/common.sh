# Shared settings for the kernel documentation checks (tests/kernel/*.sh).
# Sourced, not run.  POSIX sh.
#
# The kernel tree, its builds and the Sphinx output live in a cache outside
# the repository:
#   $DECORUM_KERNEL_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/decorum/kernel
# Inside it, one directory per kernel version (read from the tarball's
# Makefile), so a new linux-source package starts a fresh tree:
#   <version>/src         git tree: tag decorum-base = the tarball, then the
#                         series applied with git am
#   <version>/series.key  sha256 of the applied patches (and the HEAD it made)
#   <version>/docs        Sphinx output and doctrees (process + gpu)
#   <version>/kbuild      kernel build directory (make O=)
#   <version>/guest       initramfs staging, fixture, console log

KTOP=$(cd "$(dirname "$0")/../.." && pwd)
KDIR="$KTOP/tests/kernel"
SERIES_DIR="$KTOP/docs/kernel"
KCACHE=${DECORUM_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/decorum/kernel}
KTARBALL=${DECORUM_KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

# A python3 earlier in PATH (pyenv, venvs) lacks the modules the kernel and
# Sphinx builds need: Debian's own tools come first.
PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
export PATH
# Stable messages and sort order whatever the caller's locale.
LC_ALL=C.UTF-8
export LC_ALL

# The page the series adds and its three stable labels (as HTML anchors:
# Sphinx turns the underscores of a label into hyphens).
KDOC_PAGE=code-of-conduct-maintainer-guide
KDOC_ANCHORS="coc-maintainer-admonition coc-maintainer-escalation coc-maintainer-tab-consultation"

# Progress on stderr, with the seconds since the script started.
k_t0=$(date +%s)
say() {
	echo "kernel: [$(($(date +%s) - k_t0))s] $*" >&2
}

die() {
	echo "kernel: error: $*" >&2
	exit 1
}

# The kernel version of the tarball, e.g. 6.1.192, from its top Makefile.
# Reading it means decompressing the head of the tarball (about 1 s), so
# the answer is kept beside the tarball's size, mtime and path.
kernel_version() {
	[ -r "$KTARBALL" ] || die "no kernel source tarball at $KTARBALL (make deps-kernel)"
	k_stamp="$(stat -L -c '%s %Y' "$KTARBALL") $KTARBALL"
	if [ -f "$KCACHE/tarball.version" ] &&
		[ "$(sed -n 1p "$KCACHE/tarball.version")" = "$k_stamp" ]; then
		sed -n 2p "$KCACHE/tarball.version"
		return
	fi
	k_ver=$(kernel_version_read)
	if [ -n "$k_ver" ] && mkdir -p "$KCACHE" 2>/dev/null; then
		printf '%s\n%s\n' "$k_stamp" "$k_ver" >"$KCACHE/tarball.version.$$" &&
			mv "$KCACHE/tarball.version.$$" "$KCACHE/tarball.version"
	fi
	echo "$k_ver"
}

kernel_version_read() {
	k_top=$(tar -tJf "$KTARBALL" 2>/dev/null | head -n 1)
	k_top=${k_top%%/*}
	tar -xJf "$KTARBALL" --occurrence=1 -O "$k_top/Makefile" 2>/dev/null |
		awk -F' *= *' '
			$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
			$1 == "SUBLEVEL" { s = $2 } $1 == "EXTRAVERSION" { e = $2 }
			$1 == "NAME" { exit }
			END { if (v != "") print v "." p (s != "" ? "." s : "") e }'
}

# The patches of the series in order, without the cover letter.
series_patches() {
	for p in "$SERIES_DIR"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$p" ] || continue
		case "${p##*/}" in 0000-*) continue ;; esac
		echo "$p"
	done
}

# The identity that authors and signs off the series: GIT_AUTHOR_NAME and
# GIT_AUTHOR_EMAIL, else git config user.name and user.email.  Sets name,
# email and ident ("Name <email>"); fails when either is unset.
series_ident() {
	name=${GIT_AUTHOR_NAME:-$(git -C "$KTOP" config user.name 2>/dev/null || true)}
	email=${GIT_AUTHOR_EMAIL:-$(git -C "$KTOP" config user.email 2>/dev/null || true)}
	ident="$name <$email>"
	[ -n "$name" ] && [ -n "$email" ] &&
		[ "$(printf '%s' "$ident" | wc -l)" -eq 0 ]
}

# sha256 over every file of the series (cover letter included), the
# script that builds it, and the identity that signs it.
series_key() {
	{
		cat "$SERIES_DIR"/*.patch "$SERIES_DIR/cover-letter.txt" \
			"$SERIES_DIR/kernel-series.sh" 2>/dev/null
		series_ident && echo "$ident"
	} | sha256sum | cut -d' ' -f1
}

# Set KVER and KVDIR (the per-version cache directory).
kernel_setup() {
	KVER=$(kernel_version)
	[ -n "$KVER" ] || die "cannot read the kernel version from $KTARBALL"
	KVDIR="$KCACHE/$KVER"
	KSRC="$KVDIR/src"
}

# run_logged LABEL LOG COMMAND...: run a long command with its output in
# LOG, and every 20 s say what it is doing (the last line of LOG).
run_logged() {
	rl_label=$1
	rl_log=$2
	shift 2
	"$@" >"$rl_log" 2>&1 &
	rl_pid=$!
	rl_n=0
	while kill -0 "$rl_pid" 2>/dev/null; do
		sleep 1
		rl_n=$((rl_n + 1))
		[ $((rl_n % 20)) -eq 0 ] &&
			say "$rl_label: $(tail -n 1 "$rl_log" | tr -d '\r' | cut -c1-100)"
	done
	wait "$rl_pid"
}
