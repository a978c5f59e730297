#!/bin/sh
# Install the Debian packages named in $DEBS that are not installed yet.
# Quick when nothing is missing; says what it installs; uses sudo when not
# root; waits for another apt run instead of failing on the dpkg lock.
set -eu

missing=""
for p in $DEBS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "decorum: installing missing Debian packages:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "decorum: need root or sudo to install:$missing" >&2
		exit 1
	}
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
apt="$SUDO apt-get -q -y -o DPkg::Lock::Timeout=600"
# A fresh machine has no package lists yet; refresh them when an install
# fails for want of them.
$apt install --no-install-recommends $missing >/tmp/decorum-apt.$$ 2>&1 || {
	$apt update >/dev/null
	$apt install --no-install-recommends $missing
}
rm -f /tmp/decorum-apt.$$
