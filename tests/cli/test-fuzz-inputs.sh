#!/bin/sh
# Every saved fuzz input, replayed once under ASan and UBSan: the seeds of
# tests/fuzz/seeds/ and the findings kept in tests/fuzz/regress/ (each a
# bug that was fixed; see tests/fuzz/regress/README).
. "$(dirname "$0")/../lib.sh"
t_setup
# Leaks and errors as in every script test (tests/lib.sh): the narrow
# suppressions of tests/lsan.supp, reports failing the test at its end.

for src in "$TOP"/tests/fuzz/fuzz-*.c; do
	n=${src##*/fuzz-}
	n=${n%.c}
	bin="$TOP/build/fuzz/replay-$n"
	if [ ! -x "$bin" ]; then
		fail "fuzz inputs of $n: $bin not built (make tests)"
		continue
	fi
	for kind in seeds regress; do
		d="$TOP/tests/fuzz/$kind/$n"
		[ -d "$d" ] || continue
		check "fuzz $kind of $n replay cleanly" "$bin" "$d"
	done
done
