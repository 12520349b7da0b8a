#!/bin/sh
# record_fork.sh -- profhub record on a program that forks
# (tests/e2e/src/rec_fork.c): parent and child each get their own part
# (distinct pids) with their own work; output and exit status unchanged.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

build rec_fork "$top_srcdir/tests/e2e/src/rec_fork.c"
cd "$tmp" || exit 99

./rec_fork >plain.out
expect_status 0 "$PROFHUB" record -c usertime -o fk.phx -- ./rec_fork
cmp -s plain.out "$tmp/out" || fail "stdout differs under profhub record"

# part lines of "profhub info" carry "pid N tid M" (in the part's name)
pids=$("$PROFHUB" info fk.phx | sed -n 's/^ *[0-9][0-9]* .*pid \([0-9][0-9]*\) tid .*/\1/p' |
       sort -u | wc -l)
echo "fork: $pids processes"
[ "$pids" -eq 2 ] || fail "expected parts of 2 processes, got $pids"
for fn in parent_work child_work; do
    v=$(csv_field fk.phx "$fn" incl_samples)
    [ -n "$v" ] && [ "$v" -gt 0 ] || fail "$fn has no samples"
done
finish
