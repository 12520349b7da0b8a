#!/bin/sh
# record_crash.sh -- profhub record on a program that dies of SIGSEGV
# (tests/e2e/src/rec_segv.c): the samples taken before the crash are in the
# experiment, and profhub dies of the same signal (the shell sees 139 both
# times), with the same stdout.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

build rec_segv "$top_srcdir/tests/e2e/src/rec_segv.c"
cd "$tmp" || exit 99
ulimit -c 0

(./rec_segv >plain.out 2>/dev/null)
plain=$?
("$PROFHUB" record -o sg.phx -- ./rec_segv >rec.out 2>/dev/null)
rec=$?
checks=$((checks + 1))
echo "crash: exit $plain plain, $rec recorded"
[ "$plain" = "$rec" ] || fail "exit status $rec under profhub, $plain without"
cmp -s plain.out rec.out || fail "stdout differs under profhub record"
v=$(csv_field sg.phx doomed_work self_samples)
echo "crash: doomed_work $v samples"
[ -n "$v" ] && [ "$v" -ge 5 ] || fail "doomed_work has ${v:-no} samples"
finish
