# tmux helpers for the terminal tests, sourced after tests/lib.sh's
# t_setup: a private server named by $1, and bounded polling of its pane.
#   t_tmux NAME   sets up tm, wait_for, wait_gone and step; kills the
#                 server on exit
t_tmux() {
	sock="$1-$$"
	trap 'tm kill-server >/dev/null 2>&1; t_cleanup' EXIT
}

tm() { tmux -L "$sock" -f /dev/null "$@"; }

# wait_for TEXT: poll the pane until TEXT shows, TMUX_POLLS times (100
# unless a test over a big corpus sets more) 0.1 s apart: bounded, not
# timed.
wait_for() {
	i=0
	while [ $i -lt "${TMUX_POLLS:-100}" ]; do
		if tm capture-pane -p -t dc 2>/dev/null | grep -qF -- "$1"; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "# timed out waiting for: $1"
	tm capture-pane -p -t dc 2>/dev/null | sed 's/^/#   | /'
	return 1
}

# wait_gone TEXT: the same, until TEXT no longer shows.
wait_gone() {
	i=0
	while [ $i -lt "${TMUX_POLLS:-100}" ]; do
		tm capture-pane -p -t dc 2>/dev/null | grep -qF -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "# still showing: $1"
	return 1
}

step() {
	if wait_for "$2"; then ok "$1"; else fail "$1"; fi
}
