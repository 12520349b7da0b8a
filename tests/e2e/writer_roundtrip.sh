#!/bin/sh
# writer_roundtrip.sh -- every writer's output reads back with the same
# totals (issue 15 item 11): every sample and every tests/bad case that
# reads, plus edge cases made from a real sample (NUL and ESC in a name,
# a cost line before fn=), through every format profhub writes and reads.
# What a format cannot carry must be a drop warning.  See roundtrip.py.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

checks=1
python3 "$top_srcdir/tests/e2e/roundtrip.py" "$tmp" "$PROFHUB" \
    "$top_srcdir" || fail "round trips (above)"
finish
