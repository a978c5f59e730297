# Sourced by the export tests: index the demo corpus and open a fixed set
# of cases on it, found by message id so that notmuch's thread numbering
# does not matter.  Sets $CASE_THREADS (message id per case, in order).
fixture_thread() {
	notmuch search --output=threads "id:$1" | sed 's/^thread://'
}

fixture_cases() {
	t_index "$TOP/tests/corpus/demo" || return 1
	for spec in \
		escalation:20260915014500.13872-1-rachel.abernathy@example.net \
		escalation:20261009081500.24793-1-zoe.hartmann@example.com \
		escalation:20261009211200.50259-1-dsokolov@example.net \
		tab:20261008083000.2549-1-marcus.penhallow@example.org \
		escalation:20261022060000.15813-1-yusuf.haddad@example.com \
		escalation:20261105072000.51430-1-eleni.papadopoulou@example.net \
		admonition:20261102090000.55210-1-eleni.papadopoulou@example.net \
		admonition:20261117101500.60125-1-ravi.menon@example.com; do
		"$DECORUM" tag "$(fixture_thread "${spec#*:}")" "${spec%%:*}" \
			>/dev/null || return 1
	done
}
