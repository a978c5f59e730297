#!/bin/sh
# The identity read from a configuration file that has a bad line
# elsewhere.
. "$(dirname "$0")/../lib.sh"
t_setup
D="$DECORUM"
unset DECORUM_AS DECORUM_CONFIG

# ---- identity through the one configuration reader ----
mkdir -p "$XDG_CONFIG_HOME/decorum"
cfg="$XDG_CONFIG_HOME/decorum/config"
cat >"$cfg" <<'CFG'
[ui]
this line is wrong
[identity]
address = chair@example.org
CFG
check_eq "a bad line does not lose the identity" chair@example.org \
	"$($D member whoami --json 2>/dev/null | jq -r .identity)"
cp "$cfg" "$T/other-config"
sed -i 's/chair@/other@/' "$T/other-config"
check_eq "\$DECORUM_CONFIG names another file" other@example.org \
	"$(DECORUM_CONFIG="$T/other-config" $D member whoami --json 2>/dev/null | jq -r .identity)"
rm -f "$cfg"
check_eq "no file: nobody identified" null \
	"$($D member whoami --json 2>/dev/null | jq -r .identity)"

exit 0
