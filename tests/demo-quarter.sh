#!/bin/sh
# make demo-quarter (tests/demo.sh --quarter): a quarter of the committee's
# work on the fictional demo corpus, recorded through decorum's own
# commands as a committee member would, on the days it would happen
# (DECORUM_NOW), into a store of its own; then the report the committee
# would publish for it.  Run by tests/demo.sh with NOTMUCH_CONFIG set to
# the demo index; DEMO_STORE is the store to write (made afresh).
#
# The quarter, 2026-09-01 through 2026-11-30:
#   - a concern about the tone of a netdev review: education and coaching
#   - two reports of one incident, hostile replies on linux-mm: the second
#     report's case is withdrawn and its mail joins the first; a remedial
#     measure, which the TAB approves
#   - a maintainer asking the TAB for advice: a consultation, not a report
#   - a report about a rejected patch: scope, no action needed
#   - personal attacks in an RFC thread: a remedial measure that the TAB
#     overturns, 2 to 1
#   - two admonitions by maintainers, which they handle themselves
set -eu
D=${DECORUM_BIN:-$(cd "$(dirname "$0")/.." && pwd)/decorum}
: "${DEMO_STORE:?}"

rm -f "$DEMO_STORE" "$DEMO_STORE-wal" "$DEMO_STORE-shm"
export DECORUM_STORE="$DEMO_STORE"
export DECORUM_AS=committee.demo@example.org

at() { # DAY: what follows happens that day, at noon UTC
	export DECORUM_NOW="$1T12:00:00Z"
}
thread() { # MESSAGE-ID: its thread
	notmuch search --output=threads "id:$1" | sed 's/^thread://'
}
open_case() { # KIND MESSAGE-ID: prints the case number
	"$D" tag "$(thread "$2")" "$1" | sed -n 's/^case \([0-9]*\):.*/\1/p'
}
q() { "$D" "$@" >/dev/null; }
tab_votes() { # CASE QUESTION CHOICE CHOICE CHOICE
	c=$1 on=$2
	shift 2
	for m in tab.brandt tab.reyes tab.okonkwo; do
		q case vote "$c" --on "$on" --member "$m@example.org" "$1"
		shift
	done
}

at 2026-09-01
q member add committee.demo@example.org --name "Demo Committee Member" \
	--role committee --joined 2020-01-01
q member add tab.brandt@example.org --name "Ilse Brandt" --role tab --joined 2020-01-01
q member add tab.reyes@example.org --name "Tomas Reyes" --role tab --joined 2020-01-01
q member add tab.okonkwo@example.org --name "Ada Okonkwo" --role tab --joined 2020-01-01

at 2026-09-15
tone=$(open_case escalation 20260915014500.13872-1-rachel.abernathy@example.net)
q case category "$tone" dev
q case state "$tone" investigating
at 2026-09-22
q case outcome "$tone" coaching --note "talked through how to word a rejection"
q case state "$tone" decided
at 2026-09-29
q case state "$tone" closed

at 2026-10-08
q tag "$(thread 20261008083000.2549-1-marcus.penhallow@example.org)" tab

at 2026-10-09
mm=$(open_case escalation 20261009081500.24793-1-zoe.hartmann@example.com)
q case category "$mm" unacceptable
q case state "$mm" investigating
at 2026-10-10
# A second report of the same incident: its case is withdrawn and its
# mail joins the first case as one more report.
dup=$(open_case escalation 20261009211200.50259-1-dsokolov@example.net)
q case undo "$dup"
q case attach "$mm" id:20261009211200.50259-1-dsokolov@example.net --report
at 2026-10-20
q case outcome "$mm" measure --what "patches not accepted" --scope linux-mm \
	--cycles 2

at 2026-10-22
scope=$(open_case escalation 20261022060000.15813-1-yusuf.haddad@example.com)
q case category "$scope" scope
q case state "$scope" investigating

at 2026-10-27
tab_votes "$mm" approve for for against

at 2026-10-29
q case outcome "$scope" no-action --note "a patch rejected on its merits"
q case state "$scope" decided

at 2026-11-02
q tag "$(thread 20261102090000.55210-1-eleni.papadopoulou@example.net)" admonition

at 2026-11-05
rfc=$(open_case escalation 20261105072000.51430-1-eleni.papadopoulou@example.net)
q case category "$rfc" unacceptable
q case state "$rfc" investigating
at 2026-11-12
q case outcome "$rfc" measure --what "list postings ignored" --scope netdev \
	--cycles 1
at 2026-11-17
q tag "$(thread 20261117101500.60125-1-ravi.menon@example.com)" admonition

at 2026-11-19
tab_votes "$rfc" overturn for for against

at 2026-12-01
"$D" report --publish 2026-09-01..2026-11-30
