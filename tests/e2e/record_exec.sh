#!/bin/sh
# record_exec.sh -- profhub record on a program that execs itself
# (tests/e2e/src/rec_exec.c): samples from before and after the exec are
# both kept (two images of one pid), and the final exit status (5) and
# stdout are those of the plain run.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

build rec_exec "$top_srcdir/tests/e2e/src/rec_exec.c"
cd "$tmp" || exit 99

./rec_exec >plain.out
plain=$?
expect_status "$plain" "$PROFHUB" record -c usertime -o ex.phx -- ./rec_exec
cmp -s plain.out "$tmp/out" || fail "stdout differs under profhub record"
[ "$plain" = 5 ] || fail "rec_exec itself exited $plain, expected 5"
for fn in before_exec after_exec; do
    v=$(csv_field ex.phx "$fn" incl_samples)
    echo "exec: $fn $v"
    [ -n "$v" ] && [ "$v" -gt 0 ] || fail "$fn has no samples"
done
finish
