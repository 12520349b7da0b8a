#!/bin/sh
# cli_numbers.sh -- the command line's numbers are finite decimals: a
# --fail-if bound or a --threshold of "nan", "inf" or hex is a usage error
# (exit 2), since a gate on nan never holds and so could never fire
# (issue 15 item 9).  A finite bound still gates.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

before=$SAMPLES/cachegrind/checksum.before.out
after=$SAMPLES/cachegrind/checksum.after.out

for bound in nan +nan% NaN inf -inf% +Infinity 0x10% 1e999 '5%%' 5x; do
    expect_status 2 "$PROFHUB" diff --fail-if "Ir > $bound" "$before" "$after"
    grep -q "fail-if expects" "$tmp/err" ||
        fail "--fail-if 'Ir > $bound': no usage message"
    expect_status 2 "$PROFHUB" diff --threshold "$bound" "$before" "$after"
    expect_status 2 "$PROFHUB" summary --threshold "$bound" "$before"
done
# The same gate with a finite bound fires, in both spellings.
expect_status 3 "$PROFHUB" diff --fail-if 'Ir > +5%' "$before" "$after"
expect_status 3 "$PROFHUB" diff --fail-if 'Ir > 5e0%' "$before" "$after"
expect_status 0 "$PROFHUB" diff --fail-if 'Ir < -.5%' "$before" "$after"
expect_status 0 "$PROFHUB" summary --threshold 0.5% "$before"
finish
