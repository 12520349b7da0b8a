#!/bin/sh
# folded_stacks.sh -- the folded writer prints each stack of names once:
# flat data's stack view has one node per line of a function (pprof keeps
# per-line cost), which folded cannot show, and those nodes were written
# as repeated lines (chain.default.out: 8,310 lines, 479 stacks repeated;
# the roundtrip fuzz target's input "fn=21) main" gave "21) main 20" and
# "21) main 10").  The values still add up to callgrind_annotate's
# PROGRAM TOTALS, run live; inlined frames stay apart ("_[i]").
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program callgrind_annotate

for s in chain.default.out shapes.instr.out threads.default.out; do
    in=$top_srcdir/samples/callgrind/$s
    expect_status 0 "$PROFHUB" convert -t folded -o "$tmp/$s.folded" "$in"
    rep=$(sed 's/ [0-9-]*$//' "$tmp/$s.folded" | sort | uniq -d | head -3)
    [ -z "$rep" ] || fail "$s: stacks written more than once: $rep"
    ours=$(awk '{ t += $NF } END { printf "%d", t }' "$tmp/$s.folded")
    peer=$(callgrind_annotate "$in" 2>/dev/null |
        sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
    [ -n "$peer" ] || fail "$s: no PROGRAM TOTALS from callgrind_annotate"
    [ "$ours" = "$peer" ] || fail "$s: folded sums to $ours, callgrind_annotate $peer"
done

# A context tree with inlined frames (pprof of Go code, samples/pprof):
# a function entered inlined and called is two frames of one parent.
for in in "$top_srcdir"/samples/pprof/*.pb.gz; do
    expect_status 0 "$PROFHUB" convert -t folded -o "$tmp/p.folded" "$in"
    rep=$(sed 's/ [0-9-]*$//' "$tmp/p.folded" | sort | uniq -d | head -3)
    [ -z "$rep" ] || fail "$(basename "$in"): stacks written twice: $rep"
done
finish
