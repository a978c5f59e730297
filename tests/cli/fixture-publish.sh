# Sourced by tests/cli/test-publish.sh: the fixture period of the
# published form, on the demo corpus, worked as a committee would in the
# quarter 2026-08-23 through 2026-11-21 (DECORUM_NOW 2026-11-20):
#   1 development-process related, education and coaching, closed
#   2 unacceptable behaviour: two reports of one incident (case 3's
#     report joins it), a remedial measure the TAB approves 2 to 1
#   3 the second report of case 2's incident: withdrawn
#   4 a TAB consultation: not a report
#   5 scope and enforcement related, no action needed
#   6 unacceptable behaviour: a remedial measure the TAB overturns 2 to 1
#   7, 8 maintainers' admonitions
# The TAB has three members with names, so that the overturned decision
# shows them.
fixture_publish() {
	fixture_cases || return 1
	D="$DECORUM"
	for m in "tab1:Aino Virtanen" "tab2:Bram de Vries" "tab3:Chidi Okafor"; do
		$D member add "${m%%:*}@example.org" --name "${m#*:}" --role tab \
			--joined 2020-01-01 >/dev/null || return 1
	done
	$D case state 1 investigating >/dev/null &&
	$D case outcome 1 coaching >/dev/null &&
	$D case category 1 "development-process related" >/dev/null &&
	$D case state 1 decided >/dev/null &&
	$D case state 1 closed >/dev/null || return 1
	# Case 3 reports case 2's incident: the committee withdraws it and
	# its report joins case 2 as one more report of that incident.
	$D case undo 3 >/dev/null || return 1
	$D case attach 2 id:20261009211200.50259-1-dsokolov@example.net \
		--report >/dev/null || return 1
	$D case category 2 "unacceptable behaviour or comments" >/dev/null &&
	$D case state 2 investigating >/dev/null &&
	$D case outcome 2 measure --what "patches not accepted" \
		--scope linux-mm --cycles 2 >/dev/null || return 1
	$D case vote 2 --on approve --member tab1@example.org for >/dev/null &&
	$D case vote 2 --on approve --member tab2@example.org for >/dev/null &&
	$D case vote 2 --on approve --member tab3@example.org against \
		>/dev/null || return 1
	$D case category 5 scope >/dev/null &&
	$D case state 5 investigating >/dev/null &&
	$D case outcome 5 no-action >/dev/null &&
	$D case state 5 decided >/dev/null || return 1
	$D case category 6 unacceptable >/dev/null &&
	$D case state 6 investigating >/dev/null &&
	$D case outcome 6 measure --what "list postings ignored" \
		--scope netdev --cycles 1 >/dev/null || return 1
	$D case vote 6 --on overturn --member tab1@example.org for >/dev/null &&
	$D case vote 6 --on overturn --member tab2@example.org for >/dev/null &&
	$D case vote 6 --on overturn --member tab3@example.org against \
		>/dev/null || return 1
}
