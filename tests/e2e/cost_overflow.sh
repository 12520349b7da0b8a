#!/bin/sh
# cost_overflow.sh -- sums of costs never wrap (issue 15 item 8): a
# folded file with a stack of cost 2^63-1 and one of 1 had a total of
# -9.2e18; merging such files gave negative costs.  Now every sum stops at
# the int64 limit and profhub warns once.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

max=9223372036854775807
# The largest cost a folded line can carry, and a second stack beside it.
printf 'main;big %s\nmain;small 1\n' "$max" >"$tmp/max.folded"

expect_status 0 "$PROFHUB" summary --format csv -F folded "$tmp/max.folded"
grep -q -- '-9' "$tmp/out" && fail "a negative cost in the summary"
grep -q "went beyond 64 bits" "$tmp/err" || fail "no overflow warning"

for to in folded speedscope callgrind pprof; do
    expect_status 0 "$PROFHUB" convert -F folded -t "$to" "$tmp/max.folded" \
        -o "$tmp/max.$to"
    # folded and pprof write one value per stack: no sum to overflow
    case $to in speedscope|callgrind)
        grep -q "went beyond 64 bits" "$tmp/err" ||
            fail "$to: no overflow warning" ;;
    esac
    [ "$to" = pprof ] || ! grep -q -- '-9' "$tmp/max.$to" ||
        fail "$to: a wrapped negative cost was written"
done

# One stack twice (found by tests/fuzz/fuzz_folded): the samples of one
# context were summed unchecked, and the call's inclusive cost written to
# callgrind wrapped to -2^63.
printf 'main;big %s\nmain;big 1\n' "$max" >"$tmp/twice.folded"
expect_status 0 "$PROFHUB" convert -F folded -t callgrind "$tmp/twice.folded" \
    -o "$tmp/twice.callgrind"
grep -q "went beyond 64 bits" "$tmp/err" || fail "twice: no overflow warning"
! grep -q -- '-9' "$tmp/twice.callgrind" ||
    fail "twice: a wrapped call cost was written"

# Two copies merged: the sums stay at the limit.
expect_status 0 "$PROFHUB" merge -o "$tmp/merged.folded" \
    "$tmp/max.folded" "$tmp/max.folded"
! grep -q -- '-9' "$tmp/merged.folded" || fail "merge wrapped a sum"

# The pictures' frame tree sums the same way: two stacks of 2^63-1 under
# one root wrapped to a negative width ("no positive cost to draw").
printf 'a;b %s\na;c %s\n' "$max" "$max" >"$tmp/two.folded"
for kind in flame treemap; do
    expect_status 0 "$PROFHUB" draw "$kind" -o "$tmp/two.$kind.svg" \
        "$tmp/two.folded"
    grep -q "went beyond 64 bits" "$tmp/err" ||
        fail "draw $kind: no overflow warning"
done

# A sum that fits gives no warning.
expect_status 0 "$PROFHUB" summary "$SAMPLES/callgrind/chain.default.out"
! grep -q "64 bits" "$tmp/err" || fail "a warning without an overflow"
finish
