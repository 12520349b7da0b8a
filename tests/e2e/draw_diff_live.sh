#!/bin/sh
# draw_diff_live.sh -- the differential flame graph of two real runs where
# one function got 20% cheaper (issue 14's "done when"): samples/src/
# checksum.c built with 5 passes in checksum_block (the source's 4, edited
# by sed) and with its own 4, both run under valgrind --tool=callgrind
# here.  checksum_block must be drawn in the improvement colour with a
# -20.00% tooltip, and every other frame grey.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program gcc valgrind python3

src=$SAMPLES/src/checksum.c
grep -q '^#define PASSES 4$' "$src" || skip "$src no longer has PASSES 4"
sed 's/^#define PASSES 4$/#define PASSES 5/' "$src" >"$tmp/checksum5.c"
cp "$src" "$tmp/checksum4.c"
for n in 4 5; do
    expect_status 0 gcc -O1 -g -DCHECKSUM_HEAVY "$tmp/checksum$n.c" \
        -o "$tmp/checksum$n" || finish
    expect_status 0 valgrind -q --tool=callgrind \
        --callgrind-out-file="$tmp/passes$n.out" "$tmp/checksum$n" || finish
done

expect_status 0 "$PROFHUB" draw diff "$tmp/passes5.out" "$tmp/passes4.out" \
    -o "$tmp/diff.svg"
testrun python3 "$top_srcdir/tests/e2e/svgcheck.py" diff "$tmp/diff.svg" \
    checksum_block blue
[ "$status" = 0 ] || fail "$(cat "$tmp/out" "$tmp/err")"
grep -A3 '<title>checksum_block' "$tmp/diff.svg" |
    grep -q 'self: NEW [0-9,]*, BASE [0-9,]*, change -[0-9,]* (-20.00%)' ||
    fail "checksum_block's tooltip does not say -20.00%"

finish
