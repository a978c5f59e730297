#!/bin/sh
# tests/kernel/boot.sh [--decorum BINARY] [--html DIR]
#
# Build a small x86_64 kernel from the patched tree, pack an initramfs with
# busybox, decorum and its libraries, a fixture notmuch database and case
# store and the built HTML of the maintainer guide, boot it under
# qemu-system-x86_64 (TCG, never KVM; nothing touches the host's kernel)
# and judge the run by the markers the guest prints on the serial console.
#
#   --decorum BINARY  the decorum to run in the guest (default: ./decorum
#                     of the repository; when missing, the guest runs
#                     busybox and notmuch only and decorum's steps skip)
#   --html DIR        the Sphinx output (default: what sphinx.sh built)
#
# Prints "ok - ", "not ok - " and "skip - " lines; exits 1 on any failure.
# A kernel panic also ends QEMU with status 0 (panic=-1, -no-reboot), so
# only the markers count:
#   DECORUM-GUEST-BOOT           /init started
#   DECORUM-GUEST-OK-<step>      a step passed (DECORUM-GUEST-FAIL-<step>)
#   DECORUM-GUEST-DONE           every step ran; the guest reboots (= exits)
set -eu
. "$(dirname "$0")/common.sh"

DECORUM_BIN="$KTOP/decorum"
HTML=""
while [ $# -gt 0 ]; do
	case $1 in
	--decorum) DECORUM_BIN=$2; shift 2 ;;
	--html) HTML=$2; shift 2 ;;
	*) die "usage: boot.sh [--decorum BINARY] [--html DIR]" ;;
	esac
done

kernel_setup
sh "$KDIR/tree.sh" >/dev/null
[ -n "$HTML" ] || HTML="$KVDIR/docs/Documentation/output"
KB="$KVDIR/kbuild"
G="$KVDIR/guest"
mkdir -p "$KB" "$G"
failed=0
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; failed=1; }
skip() { echo "skip - $*"; }

# --- the kernel --------------------------------------------------------
# tinyconfig is 32-bit here; 64BIT first, then what a busybox, notmuch
# and SQLite userland needs (FILE_LOCKING: Xapian's and SQLite's locks).
KOPTS="64BIT PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE BLK_DEV_INITRD
RD_GZIP BINFMT_ELF BINFMT_SCRIPT DEVTMPFS DEVTMPFS_MOUNT PROC_FS SYSFS TMPFS
SHMEM FUTEX EPOLL SIGNALFD EVENTFD TIMERFD UNIX98_PTYS MULTIUSER
FILE_LOCKING"
kmake() {
	make -C "$KSRC" O="$KB" LOCALVERSION= "$@"
}

ckey=$(echo "$KOPTS" | sha256sum | cut -d' ' -f1)
if [ ! -f "$KB/.config" ] || [ "$(cat "$KB/config.key" 2>/dev/null)" != "$ckey" ]; then
	say "kernel: tinyconfig + $(echo $KOPTS | wc -w) options"
	rm -f "$KB/config.key"
	kmake tinyconfig >"$KVDIR/kconfig.log" 2>&1 ||
		{ cat "$KVDIR/kconfig.log" >&2; die "make tinyconfig failed"; }
	# shellcheck disable=SC2086
	"$KSRC/scripts/config" --file "$KB/.config" $(printf ' -e %s' $KOPTS)
	kmake olddefconfig >>"$KVDIR/kconfig.log" 2>&1 ||
		{ cat "$KVDIR/kconfig.log" >&2; die "make olddefconfig failed"; }
	for o in $KOPTS X86_64; do
		grep -q "^CONFIG_$o=y" "$KB/.config" ||
			die "CONFIG_$o did not stick in $KB/.config"
	done
	echo "$ckey" >"$KB/config.key"
fi
# A bzImage built from this very commit with this config is reused as is
# (make alone takes 3-10 s to find nothing to do in a 78,000-file tree).
bkey="$(git -C "$KSRC" rev-parse HEAD) $ckey"
if [ -f "$KB/arch/x86/boot/bzImage" ] &&
	[ "$(cat "$KB/build.key" 2>/dev/null)" = "$bkey" ]; then
	ok "kernel $KVER (tinyconfig, x86_64) builds from the patched tree (cached)"
else
	rm -f "$KB/build.key"
	if [ -f "$KB/arch/x86/boot/bzImage" ]; then
		say "kernel: make bzImage (incremental)"
	else
		say "kernel: make bzImage (cold: 2-8 min on 2 cores)"
	fi
	if run_logged kernel "$KVDIR/kbuild.log" kmake -j"$(nproc)" bzImage; then
		echo "$bkey" >"$KB/build.key"
		ok "kernel $KVER (tinyconfig, x86_64) builds from the patched tree"
	else
		tail -n 30 "$KVDIR/kbuild.log" | sed 's/^/# /'
		notok "kernel $KVER (tinyconfig, x86_64) builds from the patched tree"
		exit 1
	fi
fi
BZIMAGE="$KB/arch/x86/boot/bzImage"

# --- the initramfs -----------------------------------------------------
R="$G/root"
rm -rf "$R"
mkdir -p "$R/bin" "$R/sbin" "$R/usr/bin" "$R/usr/sbin" "$R/usr/local/bin" \
	"$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/root" "$R/etc/decorum" \
	"$R/var/lib/decorum"

# busybox-static, one relative symlink per applet.
BUSYBOX=$(command -v busybox) || die "busybox not found (make deps-kernel)"
cp "$BUSYBOX" "$R/bin/busybox"
for a in $("$BUSYBOX" --list); do
	[ -e "$R/bin/$a" ] || ln -s busybox "$R/bin/$a"
done

# copy_prog BINARY DEST: the program and every library ldd lists, the loader
# included, at the same paths.  mawk has no \s: split on blanks and keep the
# fields that are absolute paths.
copy_prog() {
	if ldd "$1" 2>/dev/null | grep -q 'not found'; then
		ldd "$1" >&2
		die "$1: a library is missing on the host"
	fi
	mkdir -p "$R$(dirname "$2")"
	cp -L "$1" "$R$2"
	chmod 755 "$R$2"
	for lib in $(ldd "$1" 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }'); do
		[ -e "$R$lib" ] && continue
		mkdir -p "$R$(dirname "$lib")"
		cp -L "$lib" "$R$lib"
		dirname "$lib" >>"$G/libdirs"
	done
}
: >"$G/libdirs"

# The built HTML of the guide and the pages that link to it, laid out as on
# docs.kernel.org, plus the guide's source.
DOCROOT=/usr/local/share/decorum/kernel-doc
have_html=1
for f in "process/$KDOC_PAGE.html" process/code-of-conduct-interpretation.html \
	process/code-of-conduct.html gpu/introduction.html; do
	if [ -f "$HTML/$f" ]; then
		mkdir -p "$R$DOCROOT/html/$(dirname "$f")"
		cp "$HTML/$f" "$R$DOCROOT/html/$f"
	else
		have_html=0
	fi
done
mkdir -p "$R$DOCROOT/process"
cp "$KSRC/Documentation/process/$KDOC_PAGE.rst" "$R$DOCROOT/process/"

# --- the fixture: a notmuch database and a case store ------------------
F="$G/fixture"
rm -rf "$F"
mkdir -p "$F"
if [ -d "$KTOP/tests/corpus/demo" ]; then
	fixture_src="tests/corpus/demo"
	cp -r "$KTOP/tests/corpus/demo" "$F/mail"
	chmod -R u+w "$F/mail"
	rm -rf "$F/mail/.notmuch"
else
	fixture_src="a generated maildir"
	sh "$KDIR/fixture-mail.sh" "$F/mail"
fi
nmconfig() {
	# $1: the mail root as the guest or the host sees it
	printf '[database]\npath=%s\n[user]\nname=Guest Maintainer\nprimary_email=maintainer@example.org\n[new]\ntags=inbox;unread\n[maildir]\nsynchronize_flags=false\n' "$1"
}
nmconfig "$F/mail" >"$F/notmuch-config"
NOTMUCH_CONFIG="$F/notmuch-config" notmuch new --quiet >"$G/notmuch-new.log" 2>&1 ||
	{ cat "$G/notmuch-new.log" >&2; die "notmuch new failed on the fixture"; }
nmsgs=$(NOTMUCH_CONFIG="$F/notmuch-config" notmuch count '*')

NOTMUCH_BIN=$(command -v notmuch) || die "notmuch not found (make deps)"
copy_prog "$NOTMUCH_BIN" /usr/bin/notmuch

have_decorum=0
supports() {
	# $1: a subcommand; true when decorum --help lists it
	"$DECORUM_BIN" --help 2>&1 | awk -v c="$1" '$1 == c { f = 1 } END { exit !f }'
}
# What the guest must print for the decorum steps, made on the host by the
# same binary from the same fixture.
mkdir -p "$R/etc/decorum/expected"
REPORT_PERIOD=2000-01-01..2099-12-31
hostdc() {
	"$DECORUM_BIN" --config "$F/notmuch-config" --store "$F/decorum.db" \
		--as maintainer@example.org "$@"
}
if [ -x "$DECORUM_BIN" ]; then
	have_decorum=1
	copy_prog "$DECORUM_BIN" /usr/local/bin/decorum
	# The case store: the fixture's three oldest threads as an escalation,
	# an admonition and a TAB consultation.
	if supports tag; then
		kinds="escalation admonition tab"
		for t in $(NOTMUCH_CONFIG="$F/notmuch-config" notmuch search \
			--output=threads --sort=oldest-first '*' | head -n 3); do
			k=${kinds%% *}
			kinds=${kinds#* }
			hostdc tag "${t#thread:}" "$k" --note "fixture case" \
				>>"$G/store.log" 2>&1 || {
				cat "$G/store.log" >&2
				die "decorum tag failed while making the fixture store"
			}
		done
	fi
	hostdc list --json >"$R/etc/decorum/expected/list.json" 2>"$G/host-list.err" ||
		{ cat "$G/host-list.err" >&2; die "decorum list --json failed on the host"; }
	if [ -f "$F/decorum.db" ]; then
		if supports cases; then
			hostdc cases --json >"$R/etc/decorum/expected/cases.json" ||
				die "decorum cases --json failed on the host"
		fi
		if supports report; then
			hostdc report --period "$REPORT_PERIOD" \
				>"$R/etc/decorum/expected/report.txt" ||
				die "decorum report failed on the host"
		fi
		cp "$F/decorum.db" "$R/var/lib/decorum/decorum.db"
	fi
fi

# The mail goes in last: decorum tag has added its tags to the database.
cp -r "$F/mail" "$R/var/lib/decorum/mail"
nmconfig /var/lib/decorum/mail >"$R/etc/decorum/notmuch-config"

# --- the guest's /init and its steps -----------------------------------
libpath=$(sort -u "$G/libdirs" | tr '\n' ':')
{
	cat <<EOF
#!/bin/sh
export PATH=/bin:/sbin:/usr/bin:/usr/sbin:/usr/local/bin
export HOME=/root LD_LIBRARY_PATH=${libpath%:}
export NOTMUCH_CONFIG=/etc/decorum/notmuch-config
export DECORUM_STORE=/var/lib/decorum/decorum.db
export DOCROOT=$DOCROOT
EOF
	cat <<'EOF'
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
# Keep kernel messages from splitting the markers' lines.
echo 1 >/proc/sys/kernel/printk
echo "DECORUM-GUEST-BOOT $(uname -r) $(uname -m)"
step() {
	name=$1
	shift
	echo "DECORUM-GUEST-RUN-$name: $*"
	"$@" >/tmp/step.out 2>&1
	rc=$?
	sed 's/^/  | /' /tmp/step.out | head -n 40
	if [ "$rc" -eq 0 ]; then
		echo "DECORUM-GUEST-OK-$name"
	else
		echo "DECORUM-GUEST-FAIL-$name (status $rc)"
	fi
}
# matches NAME COMMAND...: the command succeeds and prints exactly what it
# printed on the host (/etc/decorum/expected/NAME).
matches() {
	exp=/etc/decorum/expected/$1
	shift
	"$@" >/tmp/matches.out 2>/tmp/matches.err || {
		cat /tmp/matches.err
		return 1
	}
	diff "$exp" /tmp/matches.out
}
dc() {
	decorum --config "$NOTMUCH_CONFIG" --store "$DECORUM_STORE" "$@"
}
. /etc/decorum/steps
echo "DECORUM-GUEST-DONE"
sync
reboot -f
EOF
} >"$R/init"
chmod 755 "$R/init"

# One step per line: "step NAME COMMAND...".  The host expects
# DECORUM-GUEST-OK-NAME for each.
{
	echo "step busybox test \"\$(echo decorum | tr a-z A-Z)\" = DECORUM"
	if [ "$have_html" -eq 1 ]; then
		printf 'step html sh -c '\''for a in %s; do grep -q "id=\\"$a\\"" "$DOCROOT/html/process/%s.html" || { echo "no anchor $a"; exit 1; }; done'\''\n' \
			"$KDOC_ANCHORS" "$KDOC_PAGE"
	fi
	echo "step notmuch-read test \"\$(notmuch count '*')\" = $nmsgs"
	if [ "$have_decorum" -eq 1 ]; then
		echo "step decorum-version decorum --version"
		echo "step decorum-list matches list.json dc list --json"
		[ -f "$R/etc/decorum/expected/cases.json" ] &&
			echo "step decorum-cases matches cases.json dc cases --json"
		[ -f "$R/etc/decorum/expected/report.txt" ] &&
			echo "step decorum-report matches report.txt dc report --period $REPORT_PERIOD"
		supports doc &&
			echo "step decorum-doc-check dc doc --check \"\$DOCROOT/html\""
		# The text our series adds, read from the installed guide.
		supports doc &&
			echo "step decorum-doc-escalation sh -c 'DECORUM_KERNEL_DOC=\$DOCROOT decorum doc escalation | grep -F \"or on what must happen first.\"'"
	fi
	# Last: a write (Xapian's fcntl lock needs FILE_LOCKING) changes the
	# tags the steps above compare.
	echo "step notmuch-write sh -c 'notmuch tag +guest -- \"*\" && test \"\$(notmuch count tag:guest)\" = $nmsgs'"
} >"$R/etc/decorum/steps"
steps=$(awk '$1 == "step" { print $2 }' "$R/etc/decorum/steps")

# A cpio list for the kernel's gen_init_cpio: no root needed for the
# device nodes, every file owned by root.
cc -O2 -o "$G/gen_init_cpio" "$KSRC/usr/gen_init_cpio.c" ||
	die "cannot build gen_init_cpio"
(
	cd "$R"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	find . -mindepth 1 -type d -printf 'dir /%P %m 0 0\n'
	find . -mindepth 1 -type f -printf "file /%P $R/%P %m 0 0\n"
	find . -mindepth 1 -type l -printf 'slink /%P %l 777 0 0\n'
) >"$G/cpio.list"
"$G/gen_init_cpio" "$G/cpio.list" | gzip -n -6 >"$G/initramfs.cpio.gz"
say "initramfs: $(du -h "$G/initramfs.cpio.gz" | cut -f1) (busybox, notmuch$([ "$have_decorum" -eq 1 ] && echo ", decorum"), $nmsgs messages from $fixture_src)"

# --- boot ----------------------------------------------------------------
LOG="$G/console.log"
say "qemu: booting (TCG, timeout ${DECORUM_QEMU_TIMEOUT:-180} s)"
qrc=0
timeout -k 10 "${DECORUM_QEMU_TIMEOUT:-180}" qemu-system-x86_64 \
	-accel tcg -m 512 -nodefaults -display none -no-reboot \
	-serial "file:$LOG" -monitor none \
	-kernel "$BZIMAGE" -initrd "$G/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 rdinit=/init" </dev/null >"$G/qemu.out" 2>&1 ||
	qrc=$?
tr -d '\r' <"$LOG" >"$G/console.txt"
say "qemu: exited with status $qrc"

dump_console() {
	echo "# console log ($LOG):"
	sed 's/^/#   /' "$G/console.txt" | tail -n 200
	[ -s "$G/qemu.out" ] && sed 's/^/# qemu: /' "$G/qemu.out"
	return 0
}
has() {
	grep -q "^$1\$" "$G/console.txt"
}
dumped=0
fail_dump() {
	notok "$1"
	[ "$dumped" -eq 1 ] || dump_console
	dumped=1
}

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	fail_dump "qemu finished within ${DECORUM_QEMU_TIMEOUT:-180} s"
fi
if grep -q "Kernel panic" "$G/console.txt"; then
	fail_dump "guest kernel did not panic"
fi
if grep -q "^DECORUM-GUEST-BOOT " "$G/console.txt"; then
	ok "guest boots: $(grep '^DECORUM-GUEST-BOOT ' "$G/console.txt" | cut -d' ' -f2-) runs /init"
else
	fail_dump "guest boots and runs /init"
fi
for s in $steps; do
	if has "DECORUM-GUEST-OK-$s"; then
		ok "guest step $s"
	else
		fail_dump "guest step $s"
	fi
done
if [ "$have_decorum" -eq 0 ]; then
	skip "decorum in guest (binary not built)"
else
	[ -f "$R/etc/decorum/expected/cases.json" ] ||
		skip "decorum cases in guest (no fixture case store or no cases command)"
	[ -f "$R/etc/decorum/expected/report.txt" ] ||
		skip "decorum report in guest (no fixture case store or no report command)"
	supports doc || skip "decorum doc --check in guest (decorum has no doc command yet)"
fi
if has DECORUM-GUEST-DONE; then
	ok "guest ran every step and shut down"
else
	fail_dump "guest ran every step and shut down"
fi
exit "$failed"
