#!/bin/sh
# The category of a case: the default list is the published reports'
# own, [report] categories replaces it, anything else is refused with
# the list, and only a committee member sets it once the committee has
# members.
. "$(dirname "$0")/../lib.sh"
t_setup

t_case_fixture

check_eq "a new case has no category" null "$($D case show 1 --json | jq .category)"
check "case show says so" sh -c "$D case show 1 | grep -q '^category: (none set)'"
$D case category 1 "rudeness" >/dev/null 2>"$T/err"
check_eq "a category not in the list is a usage error" 2 $?
check "... and the message lists the default categories" \
	grep -q '"development-process related"; "scope and enforcement related"; "unacceptable behaviour or comments"' "$T/err"
check "a unique prefix names a category" $D case category 1 "unacc"
check_eq "... stored by its full words" "unacceptable behaviour or comments" \
	"$($D case show 1 --json | jq -r .category)"
check "case show prints it" sh -c "$D case show 1 | grep -q '^category: unacceptable behaviour or comments'"
check_eq "the history records it" 1 \
	"$($D case show 1 --json | jq '[.history[] | select(.type == "category")] | length')"
check "the same words in another case" $D case category 1 "Scope and Enforcement Related"
check_eq "... replace the category" "scope and enforcement related" \
	"$($D case show 1 --json | jq -r .category)"
check "undo brings the earlier one back" $D case undo 1
check_eq "... unacceptable again" "unacceptable behaviour or comments" \
	"$($D case show 1 --json | jq -r .category)"

# A configured list, separated by ";" and by new lines.
mkdir -p "$XDG_CONFIG_HOME/decorum"
printf '[report]\ncategories = harassment; review tone\\nscope questions\n' \
	>"$XDG_CONFIG_HOME/decorum/config"
$D case category 1 "development-process related" >/dev/null 2>"$T/err"
check_eq "with a configured list the defaults are refused" 2 $?
check "... and the configured ones listed" \
	grep -q '"harassment"; "review tone"; "scope questions"' "$T/err"
check "a configured category after a new line" $D case category 1 "scope questions"
# A case with a category and nothing else is read by the report without
# a full replay (store/export.c): its category must still be there.
$D report --publish 2026-01-01..2026-12-31 >"$T/pub.eml" 2>"$T/pub.err"
check "the published form groups it under its category" sh -c \
	"grep -A2 '^Scope questions:\$' '$T/pub.eml' | grep -q '^  - One report: still under review.\$'"
$D case category 1 "" >/dev/null 2>&1
check_eq "an empty category is refused" 2 $?

# Once the committee has a member, only a committee member sets it.
$D member add cc@example.org --role committee >/dev/null 2>&1
$D member add test@example.org --role maintainer >/dev/null 2>&1 || true
DECORUM_AS=other@example.org $D case category 1 harassment >/dev/null 2>&1
rc=$?
check "someone else cannot set it (refused or not found)" test "$rc" -eq 4 -o "$rc" -eq 1
DECORUM_AS=test@example.org $D case category 1 harassment >/dev/null 2>"$T/err"
check_eq "the maintainer who opened it is refused" 4 $?
check "... saying only the committee sets it" grep -q "only the committee" "$T/err"
check_eq "the category did not change" "scope questions" \
	"$(DECORUM_AS=test@example.org $D case show 1 --json | jq -r .category)"

t_cleanup
