#!/bin/sh
# The redaction probes (tests/redaction/README): every export path over
# every probe.  A leak probe hides a reporter's identity one way; after
# `decorum packet --redact`, `decorum report` in each format and
# --publish, and the TUI's P, R w and R f w (the published form), none of its "gone" texts may be found in any decoding
# (tests/redaction/check.py), and the export must be written unless the
# probe says it is refused.  A clean probe must not be refused by any of
# them, and its "kept" texts must survive the packet.
# One line per probe and path:  ok - leak/05-entities-decimal: packet
# PROBE=NAME runs only the probes whose file name contains NAME.
. "$(dirname "$0")/../lib.sh"
t_setup
P="$TOP/tests/redaction"
if ! command -v python3 >/dev/null 2>&1; then
	skip "redaction probes (no python3 for tests/redaction/check.py)"
	exit 0
fi
export TZ=UTC LC_ALL=C.UTF-8 DECORUM_NOW=1796284800 # 2026-12-03 00:00
unset NO_COLOR DECORUM_AS VISUAL EDITOR
REPORT_DAY=2026-12-03

# directive FILE KEY: the values of "# KEY: value" lines of the header.
directive() {
	sed -n '/^[^#]/q; s/^# '"$2"': //p' "$1"
}

# judge NAME: the gone (and kept) texts of the probe as check.py options.
judge_args() {
	directive "$1" gone | while IFS= read -r g; do
		printf -- '--gone\n%s\n' "$g"
	done
	[ "${2:-}" = kept ] || return 0
	directive "$1" kept | while IFS= read -r k; do
		printf -- '--kept\n%s\n' "$k"
	done
}

# judge PROBE WHAT-KEPT PATH...: check.py, its findings into $T/why
judge() {
	probe=$1 mode=$2
	shift 2
	judge_args "$probe" "$mode" >"$T/args"
	# One option or value a line: names may hold spaces.
	(
		set --  "$@"
		while IFS= read -r a; do set -- "$@" "$a"; done <"$T/args"
		python3 "$P/check.py" "$@"
	) >>"$T/why" 2>&1
}

# setup PROBE DIR: maildir, notmuch index, case store and the case.
setup() {
	probe=$1 d=$2
	mkdir -p "$d/mail/cur" "$d/mail/new" "$d/mail/tmp" "$d/home" "$d/dumps"
	awk -v dir="$d/mail/cur" '
		BEGIN { n = 1; hdr = 1 }
		hdr && /^#/ { next }
		{ hdr = 0 }
		/^%%$/ { n++; next }
		{ print > (dir "/" n ":2,S") }
	' "$probe"
	printf '[database]\npath=%s\n[user]\nname=Carol Committee\nprimary_email=carol@example.org\n[new]\ntags=inbox;unread\n[maildir]\nsynchronize_flags=false\n' \
		"$d/mail" >"$d/notmuch-config"
	export NOTMUCH_CONFIG="$d/notmuch-config" HOME="$d/home"
	export DECORUM_STORE="$d/store/decorum.db"
	notmuch new --quiet >"$d/index.out" 2>&1 || return 1
	# The committee member who acts (notmuch's primary_email) is
	# registered: the scans ignore the committee's own addresses.
	"$DECORUM" member add carol@example.org --name "Carol Committee" \
		--role committee --joined 2026-01-01 >"$d/tag.out" 2>&1 ||
		return 1
	th=$(notmuch search --output=threads --sort=oldest-first '*' | head -n 1)
	"$DECORUM" tag "${th#thread:}" escalation --note "see the thread" \
		>>"$d/tag.out" 2>&1 || return 1
	directive "$probe" reporter | while IFS= read -r r; do
		addr=${r%% *} name=${r#* }
		[ "$name" = "$r" ] && name=
		"$DECORUM" case participant 1 reporter "$addr" \
			${name:+--name "$name"} >>"$d/tag.out" 2>&1 || exit 1
	done || return 1
	directive "$probe" alias | while IFS= read -r a; do
		"$DECORUM" case alias 1 "${a%% *}" "${a#* }" \
			>>"$d/tag.out" 2>&1 || exit 1
	done || return 1
	directive "$probe" note | while IFS= read -r n; do
		"$DECORUM" case note 1 "$n" >>"$d/tag.out" 2>&1 || exit 1
	done
}

# expect PROBE PATH: 0 when the probe's export by PATH should be
# written, 4 when refused.
expect() {
	if directive "$1" refused | grep -qx "$2"; then echo 4; else echo 0; fi
}

# result NAME PATH: one line for the probe and the path.
result() {
	if [ -s "$T/why" ]; then
		fail "$1: $2"
		sed 's/^/#   /' "$T/why" | head -12
	else
		ok "$1: $2"
	fi
	: >"$T/why"
}

cat >"$T/tui.keys" <<'KEYS'
key Enter
key P
key Enter
key Enter
key Enter
key Enter
dump packet
key q
key R
dump report
key w
key Enter
dump report-written
key f
dump published
key w
key Enter
dump published-written
KEYS

for kind in leak clean; do
	for probe in "$P/$kind"/*.eml; do
		[ -f "$probe" ] || continue
		name=$kind/$(basename "$probe" .eml)
		case "$name" in *"${PROBE:-}"*) ;; *) continue ;; esac
		n=$(basename "$probe" .eml)
		d="$T/$kind-$n"
		: >"$T/why"
		if ! setup "$probe" "$d"; then
			fail "$name: setup"
			sed 's/^/#   /' "$d/index.out" "$d/tag.out" | head -12
			continue
		fi
		mode=nokept
		[ "$kind" = clean ] && mode=kept

		# ---- decorum packet --redact
		"$DECORUM" packet 1 -o "$d/packet" --redact >"$d/packet.out" 2>&1
		rc=$? want=$(expect "$probe" packet)
		if [ "$rc" -ne "$want" ]; then
			echo "packet --redact exited $rc, expected $want:" >>"$T/why"
			head -c 600 "$d/packet.out" >>"$T/why"
		elif [ "$rc" -eq 0 ]; then
			judge "$probe" "$mode" "$d/packet"
		else
			judge "$probe" nokept "$d/packet.out"
		fi
		result "$name" "packet --redact"

		# ---- decorum report, every format
		for f in text md json csv; do
			"$DECORUM" report --format "$f" -o "$d/report.$f" \
				>"$d/report-$f.out" 2>&1
			rc=$? want=$(expect "$probe" report)
			if [ "$rc" -ne "$want" ]; then
				echo "report --format $f exited $rc, expected $want:" >>"$T/why"
				head -c 600 "$d/report-$f.out" >>"$T/why"
			fi
			judge "$probe" nokept "$d/report-$f.out"
			[ -f "$d/report.$f" ] && judge "$probe" nokept "$d/report.$f"
		done
		result "$name" "report (text, md, json, csv)"

		# ---- decorum report --publish (the form needs a category)
		"$DECORUM" case category 1 dev >>"$d/tag.out" 2>&1 ||
			echo "case category failed: $(tail -n 1 "$d/tag.out")" >>"$T/why"
		"$DECORUM" report --publish -o "$d/published.eml" \
			>"$d/published.out" 2>&1
		rc=$? want=$(expect "$probe" publish)
		if [ "$rc" -ne "$want" ]; then
			echo "report --publish exited $rc, expected $want:" >>"$T/why"
			head -c 600 "$d/published.out" >>"$T/why"
		fi
		judge "$probe" nokept "$d/published.out"
		[ -f "$d/published.eml" ] && judge "$probe" nokept "$d/published.eml"
		result "$name" "report --publish"

		# ---- the TUI: P in the thread, then R and w
		"$DECORUM" tui --script "$T/tui.keys" --dump-dir "$d/dumps" \
			>"$d/tui.out" 2>&1 ||
			echo "the TUI script failed: $(head -c 300 "$d/tui.out")" >>"$T/why"
		tp="$HOME/decorum-packet-case-1" tr="$HOME/decorum-report-$REPORT_DAY.txt"
		if [ "$(expect "$probe" packet)" = 0 ]; then
			[ -d "$tp" ] || echo "P wrote no packet: $(grep -m1 -i 'refused\|fail\|error\|not' "$d/dumps/packet.txt" 2>/dev/null)" >>"$T/why"
		else
			[ ! -e "$tp" ] || echo "P wrote a packet that should be refused" >>"$T/why"
		fi
		tw=$HOME/decorum-published-$REPORT_DAY.eml
		for e in "report R w $tr report-written" \
			"publish f w $tw published-written"; do
			set -- $e
			if [ "$(expect "$probe" "$1")" = 0 ]; then
				[ -f "$4" ] || echo "$2 $3 wrote no $1: $(grep -m1 -i 'refused' "$d/dumps/$5.txt" 2>/dev/null)" >>"$T/why"
			else
				[ ! -e "$4" ] || echo "$2 $3 wrote a $1 that should be refused" >>"$T/why"
			fi
			[ -f "$4" ] && judge "$probe" nokept "$4"
		done
		[ -d "$tp" ] && judge "$probe" "$mode" "$tp"
		# The screens show the mail to the committee member (that is
		# what they are for); only the last message, which may be a
		# refusal, could reach a log.
		for f in "$d"/dumps/*.txt; do
			[ -f "$f" ] && tail -n 1 "$f" >"$f.last" &&
				judge "$probe" nokept "$f.last"
		done
		result "$name" "TUI (P, R w, R f w)"
	done
done
exit 0
