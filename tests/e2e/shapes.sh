#!/bin/sh
# shapes.sh -- adversarial shapes of 10^5 elements (one stack 10^5 frames
# deep, 10^5 event names on one line, ...) take at most a few times the
# CPU time of a normal input of the same size, in every reader and writer
# (issue 15 item 6).  The inputs are made by shapes.py in $tmp.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

checks=$((checks + 1))
python3 "$top_srcdir/tests/e2e/shapes.py" "$tmp" "$PROFHUB" ||
    fail "an adversarial shape took more than linear time (see above)"
finish
