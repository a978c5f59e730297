# Shell test helpers, sourced by tests/cli/*.sh, tests/e2e/*.sh, ...
#
# Each check prints one TAP-like line that tests/run.sh counts:
#   "ok - what"  "not ok - what"  "skip - what (why)"
# Tests never touch the user's mail or store: t_setup points HOME, the XDG
# directories, NOTMUCH_CONFIG and DECORUM_STORE into a private temporary dir.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
DECORUM="${DECORUM_BIN:-$TOP/decorum}"
SHARED="$TOP/../shared"
T_FAILED=0

t_setup() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/decorum-test.XXXXXX")
	trap 't_cleanup' EXIT
	export HOME="$T/home"
	export XDG_DATA_HOME="$T/home/.local/share"
	export XDG_CONFIG_HOME="$T/home/.config"
	export XDG_CACHE_HOME="$T/home/.cache"
	export NOTMUCH_CONFIG="$T/notmuch-config"
	export DECORUM_STORE="$T/store/decorum.db"
	unset NOTMUCH_PROFILE NOTMUCH_DATABASE
	# Under the ASan build (tests/run.sh gives the command-line tests
	# build/san/decorum) every leak or memory error of any run is written
	# to $T/sanitizer.PID, and t_cleanup fails the test for it: a run whose
	# exit status or stderr the test does not look at is caught too.
	export ASAN_OPTIONS="detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0:log_path=$T/sanitizer"
	export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0"
	export UBSAN_OPTIONS="print_stacktrace=1:log_path=$T/sanitizer"
	mkdir -p "$HOME"
}

t_cleanup() {
	for f in "${T:-/nonexistent}"/sanitizer.*; do
		[ -f "$f" ] || continue
		echo "not ok - a sanitizer report: $(grep -m1 -E 'ERROR|SUMMARY|runtime error' "$f")"
		sed 's/^/#   /' "$f" | head -40
	done
	[ -n "${T:-}" ] && [ -d "$T" ] && rm -rf "$T"
}

ok() { echo "ok - $*"; }
fail() { echo "not ok - $*"; T_FAILED=1; }
skip() { echo "skip - $*"; }

# check "what" command...: ok when the command succeeds.
check() {
	what=$1
	shift
	if "$@" >"$T/check.out" 2>&1; then
		ok "$what"
	else
		fail "$what"
		sed 's/^/#   /' "$T/check.out" | head -40
	fi
}

# check_eq "what" expected actual
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		fail "$1"
		printf '#   expected: %s\n#   actual:   %s\n' "$2" "$3" | head -40
	fi
}

# t_index SRC: copy the maildir SRC to $T/mail and index it into a private
# notmuch database configured by $NOTMUCH_CONFIG.
t_index() {
	rm -rf "$T/mail"
	cp -r "$1" "$T/mail"
	chmod -R u+w "$T/mail"
	printf '[database]\npath=%s\n[user]\nname=Test User\nprimary_email=test@example.org\n[new]\ntags=inbox;unread\n[maildir]\nsynchronize_flags=false\n' \
		"$T/mail" >"$NOTMUCH_CONFIG"
	notmuch new --quiet >"$T/index.out" 2>&1
}

t_have_shared() {
	[ -d "$SHARED/corpora" ]
}

# Sync tests: a bare repository in $R as the remote, and for each member
# NAME a HOME of their own, $T/NAME, with an ssh ed25519 key in it.
t_sync_members() {
	R="$T/remote.git"
	git init -q --bare "$R"
	for m in "$@"; do
		mkdir -p "$T/$m/.ssh"
		ssh-keygen -q -t ed25519 -N '' -C '' -f "$T/$m/.ssh/id_ed25519"
	done
}
# A member's ssh public key.
pub() { cat "$T/$1/.ssh/id_ed25519.pub"; }
# A copy of the demo corpus as member NAME's mail, and a notmuch
# configuration for it in $T/NAME/notmuch-config (not indexed yet).
t_sync_mail() {
	cp -r "$TOP/tests/corpus/demo" "$T/$1/mail"
	chmod -R u+w "$T/$1/mail"
	printf '[database]\npath=%s\n[user]\nname=%s\nprimary_email=%s@example.org\n[new]\ntags=inbox;unread\n[maildir]\nsynchronize_flags=false\n' \
		"$T/$1/mail" "$1" "$1" >"$T/$1/notmuch-config"
}

# The demo corpus indexed, decorum in $D acting as test@example.org, and
# the first report to conduct@ in $t1 (its thread id), tagged as case 1
# of KIND (escalation unless named).
t_case_fixture() {
	t_index "$TOP/tests/corpus/demo" || { fail "index demo corpus"; exit 1; }
	D="$DECORUM"
	DECORUM_AS=test@example.org
	export DECORUM_AS
	t1=$(notmuch search --output=threads 'to:conduct@kernel.org' | sed -n 1p | sed 's/thread://')
	$D tag "$t1" "${1:-escalation}" >/dev/null 2>&1 || fail "tag the first report"
}
