#!/bin/sh
# Run the libFuzzer harnesses built in build/fuzz/, one at a time, each for
# $FUZZ_TIME seconds (default 60), or until it has done $FUZZ_RUNS
# executions when that is set, and print the executions each did.
#   tests/fuzz/run.sh                 every harness
#   tests/fuzz/run.sh sanitize event  some of them
# The growing corpus lives in build/fuzz/corpus/NAME; the seeds in
# tests/fuzz/seeds/NAME and the findings kept as regression inputs in
# tests/fuzz/regress/NAME are read, never written.  A crash leaves its
# input in build/fuzz/findings/ and makes the run fail.
#
# FUZZ_JOBS=N runs N processes of each harness at once over its one
# corpus (libFuzzer reloads what the others add), for a machine with N
# cores; with FUZZ_RUNS each does its share, and the executions printed
# are their sum.  Logs: build/fuzz/NAME.log, NAME.2.log, ...
#
# FUZZ_LEAKS=end leaves LeakSanitizer out of the run and checks every
# input of the grown corpus for leaks once at the end instead.  Harnesses
# over libnotmuch, Xapian or GMime keep caches that libFuzzer takes for a
# possible leak, and its full leak scan after such an input is most of
# their time (query: 300 executions a second with it, 5,700 without).
set -u
cd "$(dirname "$0")/../.." || exit 2
# Another build of the harnesses (a long run beside daily builds).
dir=${FUZZ_DIR:-build/fuzz}

time=${FUZZ_TIME:-60}
runs=""
# With a run count the time is only a bound (0: none).
jobs=${FUZZ_JOBS:-1}
case $jobs in
''|*[!0-9]*|0) echo "fuzz: FUZZ_JOBS must be a number of processes" >&2
	exit 2 ;;
esac
# Each job's share, rounded up.
[ -n "${FUZZ_RUNS:-}" ] &&
	runs="-runs=$(((FUZZ_RUNS + jobs - 1) / jobs))" && time=${FUZZ_TIME:-0}
names=$*
if [ -z "$names" ]; then
	for f in "$dir"/fuzz-*; do
		[ -x "$f" ] && names="$names ${f#"$dir"/fuzz-}"
	done
fi
mkdir -p "$dir/findings"
status=0
summary=""
for n in $names; do
	bin=$dir/fuzz-$n
	[ -x "$bin" ] || { echo "fuzz: no harness $bin" >&2; status=1; continue; }
	corpus=$dir/corpus/$n
	mkdir -p "$corpus"
	dirs="$corpus"
	[ -d "tests/fuzz/seeds/$n" ] && dirs="$dirs tests/fuzz/seeds/$n"
	[ -d "tests/fuzz/regress/$n" ] && dirs="$dirs tests/fuzz/regress/$n"
	dict=""
	leaks=""
	asan=detect_leaks=1
	# Long runs: no allocation stacks either (an input that fails is
	# kept and shows them when run again); GMime's many small
	# allocations made recording them a third of the redaction harness.
	# And a 16 MiB quarantine of freed memory instead of 256: a use
	# after free is caught while less than 16 MiB has been freed since
	# (most inputs allocate far less; the largest redaction messages
	# allocate 35-43 MiB in all, valgrind), and the redaction harness
	# runs 1.3x as fast (963 executions a second against 720).
	[ "${FUZZ_LEAKS:-}" = end ] && leaks="-detect_leaks=0" &&
		asan=detect_leaks=1:malloc_context_size=0:quarantine_size_mb=16
	[ -f "tests/fuzz/$n.dict" ] && dict="-dict=tests/fuzz/$n.dict"
	# Flags of one harness (tests/fuzz/NAME.flags, one line).
	[ -f "tests/fuzz/$n.flags" ] && dict="$dict $(cat "tests/fuzz/$n.flags")"
	log=$dir/$n.log
	echo "fuzz: $n for ${time}s ${runs}$([ "$jobs" -gt 1 ] && echo " x $jobs jobs")"
	pids=""
	logs=""
	j=1
	while [ "$j" -le "$jobs" ]; do
		l=$log
		[ "$j" -gt 1 ] && l=$dir/$n.$j.log
		logs="$logs $l"
		# shellcheck disable=SC2086
		LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp \
		ASAN_OPTIONS=$asan "$bin" $dirs $dict $runs $leaks \
			-max_total_time="$time" \
			-print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix="$dir/findings/$n-" >"$l" 2>&1 &
		pids="$pids $!"
		j=$((j + 1))
	done
	rc=0
	for p in $pids; do
		wait "$p" || rc=$?
	done
	if [ "$rc" -eq 0 ] && [ -n "$leaks" ]; then
		echo "fuzz: $n leak check of $(find "$corpus" -type f | wc -l) corpus inputs"
		# shellcheck disable=SC2086
		LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp \
		ASAN_OPTIONS=detect_leaks=1 "$bin" $dirs -runs=0 \
			-timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix="$dir/findings/$n-" >"$log.leaks" 2>&1
		rc=$?
		[ "$rc" -eq 0 ] && grep -q 'leak has been found' "$log.leaks" && rc=1
		[ "$rc" -ne 0 ] && cat "$log.leaks" >>"$log"
	fi
	# One figure per job (the leak pass prints none).
	execs=$(for l in $logs; do
		sed -n 's/^stat::number_of_executed_units: *//p' "$l" | tail -n 1
	done | awk '{ s += $1 } END { if (NR) print s }')
	rate=$(for l in $logs; do
		sed -n 's/^stat::average_exec_per_sec: *//p' "$l" | tail -n 1
	done | awk '{ s += $1 } END { if (NR) print s }')
	if [ "$rc" -ne 0 ]; then
		status=1
		echo "fuzz: $n FOUND A PROBLEM (status $rc), see$logs:"
		# shellcheck disable=SC2086
		grep -hE '^(==[0-9]+==|SUMMARY|.*broken promise|artifact_prefix|Test unit written)' $logs | head -20
	fi
	line=$(printf '%-10s %12s executions  %8s/s  %s' "$n" "${execs:-?}" \
		"${rate:-?}" "$([ "$rc" -eq 0 ] && echo 'no finding' || echo FINDING)")
	echo "fuzz: $line"
	summary="$summary$line
"
done
printf '\n%s' "$summary"
exit "$status"
