#!/bin/sh
# [sync] key: the ssh key decorum sync signs and decrypts with comes from
# decorum's configuration as decorum was started with it ($DECORUM_CONFIG,
# else $XDG_CONFIG_HOME/decorum/config), else ~/.ssh/id_ed25519; a value
# that names no private key is a usage error naming the file and line.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
for p in git age ssh-keygen; do
	command -v $p >/dev/null 2>&1 || { skip "sync needs $p"; exit 0; }
done
t_index "$TOP/tests/corpus/demo"
export DECORUM_NOW=2026-12-03 DECORUM_AS=alice@example.org
unset DECORUM_CONFIG
R="$T/remote.git"
git init -q --bare "$R"
mkdir -p "$T/keys" "$XDG_CONFIG_HOME/decorum"
ssh-keygen -q -t ed25519 -N '' -C '' -f "$T/keys/alice"
ssh-keygen -q -t ed25519 -N '' -C '' -f "$T/keys/other"
check "alice registers herself" "$D" member add alice@example.org \
	--role committee --joined 2020-01-01 --key "$(cat "$T/keys/alice.pub")"
check "remote add" "$D" remote add origin "$R"
check_eq "there is no ~/.ssh/id_ed25519" no "$(test -e "$HOME/.ssh/id_ed25519" && echo yes || echo no)"

# try WHAT CONFIG-TEXT CODE PATTERN: decorum sync under DECORUM_CONFIG.
try() {
	printf '%s\n' "$2" >"$T/config"
	DECORUM_CONFIG="$T/config" "$D" sync >"$T/out" 2>"$T/err"
	check_eq "$1 (exit $3)" "$3" $?
	if [ -n "$4" ]; then
		check "... saying so" grep -qF -- "$4" "$T/err"
		sed 's/^/#   /' "$T/err"
	fi
}

"$D" sync >"$T/out" 2>"$T/err"
check_eq "without a key anywhere sync fails (exit 1)" 1 $?
check "... naming the default" grep -qF "$HOME/.ssh/id_ed25519.pub" "$T/err"

# The default file names a key that is not alice's; $DECORUM_CONFIG wins.
printf '[sync]\nkey = %s\n' "$T/keys/other" >"$XDG_CONFIG_HOME/decorum/config"
try "the key \$DECORUM_CONFIG names is the one used" \
	"[sync]
key = $T/keys/alice" 0 ""
check "... and the sync pushed" grep -q "pushed" "$T/out"
check_eq "... signed by alice's key" "$(ssh-keygen -lf "$T/keys/alice.pub" | cut -d' ' -f2)" \
	"$(git --git-dir="$R" for-each-ref --format='%(objectname)' refs/decorum/events/ | head -1 |
		xargs -I{} git --git-dir="$R" -c gpg.format=ssh -c gpg.ssh.allowedSignersFile=/dev/null log -1 --format=%GK {} 2>/dev/null)"
"$D" sync >"$T/out" 2>"$T/err"
check_eq "without \$DECORUM_CONFIG the default file is read: other's key is no member's (exit 4)" 4 $?
rm "$XDG_CONFIG_HOME/decorum/config"

mkdir -p "$HOME/k"
cp "$T/keys/alice" "$T/keys/alice.pub" "$HOME/k/"
try "~/ is the home directory" "[sync]
key = ~/k/alice" 0 ""
try "a relative path is refused" "[sync]
key = keys/alice" 2 "$T/config:2: [sync] key = keys/alice: not an absolute path"
try "~user/ is refused" "# sync
[sync]
key = ~alice/k/alice" 2 "$T/config:3: [sync] key = ~alice/k/alice: only ~/ is expanded"
try "a missing file is refused" "[sync]
key = $T/keys/nothing" 2 "$T/config:2: [sync] key = $T/keys/nothing: no such file"
try "the public half is refused" "[sync]
key = $T/keys/alice.pub" 2 "that is the public half; name the private key"
try "a directory is refused" "[sync]
key = $T/keys" 2 "$T/keys: no such file"
try "an empty key is the default" "[sync]
key =" 1 "$HOME/.ssh/id_ed25519.pub"
exit $T_FAILED
