#!/bin/sh
# Membership: who may change it, and the identity read from a
# configuration file that has a bad line elsewhere.
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

# ---- who may change the membership ----
check "anyone registers a TAB member while no committee member is active" \
	$D --as someone@example.org member add tab@example.org --role tab
check "anyone registers the first committee member" \
	$D --as someone@example.org member add chair@example.org --role committee --joined 2020-01-01
$D --as someone@example.org member add friend@example.org --role committee >/dev/null 2>"$T/err"
check_eq "then a non-member may not add one (exit 4)" 4 $?
check "... saying who may" grep -q "only an active committee member may add, change or end a membership, and someone@example.org is not one" "$T/err"
$D --as tab@example.org member add friend@example.org --role committee >/dev/null 2>&1
check_eq "nor may a TAB member" 4 $?
$D --as someone@example.org member leave chair@example.org >/dev/null 2>&1
check_eq "nor end a membership" 4 $?
$D member add friend@example.org --role committee >/dev/null 2>&1
check_eq "nor may someone unidentified" 4 $?
check_eq "a refused change is not recorded" 2 "$($D --as chair@example.org member list --json | jq length)"
check "an active committee member adds one" \
	$D --as chair@example.org member add friend@example.org --role committee --joined 2020-01-01
check "and changes one" \
	$D --as chair@example.org member add tab@example.org --name "Tab Member"
check "and ends one" \
	$D --as friend@example.org member leave chair@example.org
$D --as chair@example.org member add chair2@example.org >/dev/null 2>&1
check_eq "a member who left may no longer change it" 4 $?
printf '[identity]\naddress = friend@example.org\n' >"$cfg"
check "the configured identity counts" \
	$D member add chair2@example.org --role committee
exit 0
