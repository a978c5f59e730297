#!/bin/sh
# --config FILE that does not exist: the message names the file given.
. "$(dirname "$0")/../lib.sh"
t_setup
"$DECORUM" --config "$T/nonexistent-config" list >"$T/out" 2>"$T/err"
check_eq "a missing --config file is an error" 3 $?
check "the message names the file given" grep -qF "$T/nonexistent-config" "$T/err"
exit 0
