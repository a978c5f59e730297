#!/bin/sh
# Run every test and end with "N passed, N failed, N skipped".
#   tests/run.sh            unit, CLI, screen and tmux tests
#   tests/run.sh --kernel   also the kernel documentation series (QEMU)
# Unit tests are cmocka programs built with ASan and UBSan (build/tests/),
# and the command-line tests run build/san/decorum: leaks fail both;
# script tests print "ok - ", "not ok - " and "skip - " lines.
set -u
cd "$(dirname "$0")/.."

kernel=0
[ "${1:-}" = "--kernel" ] && kernel=1
passed=0
failed=0
skipped=0
log=$(mktemp)
rcfile=$(mktemp)
trap 'rm -f "$log" "$rcfile"' EXIT

count_script() {
	# $1: output file of a script test, $2: its exit status
	p=$(grep -c '^ok - ' "$1")
	f=$(grep -c '^not ok - ' "$1")
	s=$(grep -c '^skip - ' "$1")
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $3 exited with status $2"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

# Leaks fail the unit tests; only the libraries' own are suppressed.
ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export ASAN_OPTIONS LSAN_OPTIONS
for t in build/tests/test-*; do
	[ -x "$t" ] || continue
	echo "== $t"
	CMOCKA_MESSAGE_OUTPUT=stdout "$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	p=${p:-0}; f=${f:-0}; s=${s:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $t exited with status $rc"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
done

dirs="tests/cli tests/screen tests/e2e tests/faults"
[ "$kernel" -eq 1 ] && dirs="$dirs tests/kernel"
for d in $dirs; do
	# The command-line tests run the ASan build: a leak fails them.
	if [ "$d" = tests/cli ] && [ -x build/san/decorum ]; then
		DECORUM_BIN=$PWD/build/san/decorum
	else
		DECORUM_BIN=$PWD/decorum
	fi
	export DECORUM_BIN
	for t in "$d"/test-*.sh; do
		[ -f "$t" ] || continue
		echo "== $t"
		# Stream as it runs: the kernel steps take minutes and say so.
		{
			sh "$t" 2>&1
			echo $? >"$rcfile"
		} | tee "$log"
		rc=$(cat "$rcfile")
		count_script "$log" "$rc" "$t"
	done
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
