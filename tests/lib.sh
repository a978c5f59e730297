# Shell test helpers, sourced by tests/cli/*.sh, tests/e2e/*.sh, ...
#
# Each check prints one TAP-like line that tests/run.sh counts:
#   "ok - what"  "not ok - what"  "skip - what (why)"
# Tests never touch the user's mail or store: t_setup points HOME, the XDG
# directories, NOTMUCH_CONFIG and DECORUM_STORE into a private temporary dir.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
DECORUM="$TOP/decorum"
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
	export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0"
	mkdir -p "$HOME"
}

t_cleanup() {
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
