#!/bin/sh
# draw_svg.sh -- profhub draw on a real sample of every format: the SVG is
# well-formed, has frames, and its tooltips carry the numbers
# `profhub summary --format json` prints for the same input (root = total,
# each function's inclusive and self); the differential flame graph of the
# checksum pair (samples/regen.sh: only checksum_block changes) colours
# that function and nothing else; treemap and call graph roots match the
# summary; bad requests fail with one clear line.  Also profhub report's
# page: no outside resources, both pictures, its errors.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3
check="python3 $top_srcdir/tests/e2e/svgcheck.py"

# SAMPLE NAME [profhub options...]: flame graph checked against summary.
flame() {
    in=$1 name=$2
    shift 2
    [ -s "$in" ] || { fail "sample $in is missing"; return; }
    expect_status 0 "$PROFHUB" draw flame "$@" "$in" -o "$tmp/$name.svg" ||
        return
    expect_status 0 "$PROFHUB" summary --format json --top 0 "$@" "$in" ||
        return
    cp "$tmp/out" "$tmp/$name.json"
    testrun $check flame "$tmp/$name.svg" "$tmp/$name.json"
    [ "$status" = 0 ] || fail "$name: $(cat "$tmp/out")"
}

flame "$SAMPLES/callgrind/chain.default.out" callgrind
flame "$SAMPLES/callgrind/recursion.default.out" recursion
flame "$SAMPLES/cachegrind/shapes.default.out" cachegrind
flame "$SAMPLES/gmon/chain-nopie/gmon.out" gmon \
    --exe "$SAMPLES/gmon/chain-nopie/prog"
flame "$SAMPLES/pprof/gowork.cpu.pb.gz" pprof
flame "$SAMPLES/pprof/gowork.heap.pb.gz" pprof_heap
flame "$SAMPLES/easyview/fig6_lulesh_bottomup.ezview" easyview
# A derived event, evaluated on each frame's sums; summary has the same
# formula built in (KCachegrind's L1m).
l1m='L1m = I1mr + D1mr + D1mw'
expect_status 0 "$PROFHUB" summary --format json --top 0 \
    "$SAMPLES/cachegrind/shapes.default.out" && cp "$tmp/out" "$tmp/l1m.json"
expect_status 0 "$PROFHUB" draw flame --define "$l1m" --event L1m \
    "$SAMPLES/cachegrind/shapes.default.out" -o "$tmp/l1m.svg" &&
    { testrun $check flame "$tmp/l1m.svg" "$tmp/l1m.json"
      [ "$status" = 0 ] || fail "L1m: $(cat "$tmp/out")"; }
grep -q 'Flame graph of L1m' "$tmp/l1m.svg" || fail "L1m: not drawn"

# The exporter draws the same flame graph as draw flame.
expect_status 0 "$PROFHUB" convert "$SAMPLES/pprof/gowork.cpu.pb.gz" \
    -o "$tmp/conv.svg"
cmp -s "$tmp/conv.svg" "$tmp/pprof.svg" || fail "convert -o x.svg differs from draw flame"

# Flat data says it is approximated.
grep -q 'stacks approximated from flat data' "$tmp/callgrind.svg" ||
    fail "callgrind flame graph does not say its stacks are approximated"
grep -q 'approximated' "$tmp/pprof.svg" &&
    fail "pprof flame graph claims to be approximated"

# Differential: BASE after (4 passes), NEW before (1 pass): checksum_block
# got 75% cheaper, so it is blue and the rest grey; the other way, red.
before=$SAMPLES/callgrind/checksum.before.out
after=$SAMPLES/callgrind/checksum.after.out
for pair in "$after $before blue" "$before $after red"; do
    set -- $pair
    expect_status 0 "$PROFHUB" draw diff "$1" "$2" -o "$tmp/diff.svg" || continue
    testrun $check diff "$tmp/diff.svg" checksum_block "$3"
    [ "$status" = 0 ] || fail "diff ($3): $(cat "$tmp/out")"
done
expect_status 0 "$PROFHUB" draw diff --normalize "$after" "$before" \
    -o "$tmp/diffn.svg" && grep -q 'NEW normalised' "$tmp/diffn.svg" ||
    fail "diff --normalize does not say so"

# Treemap and call graph around main, against the summary.
expect_status 0 "$PROFHUB" summary --format json --top 0 "$before" &&
    cp "$tmp/out" "$tmp/before.json"
expect_status 0 "$PROFHUB" draw treemap "$before" -o "$tmp/tm.svg" &&
    { testrun $check treemap "$tmp/tm.svg" "$tmp/before.json" main
      [ "$status" = 0 ] || fail "treemap: $(cat "$tmp/out")"; }
# A context tree's treemap, exact: from main.main of the Go profile.
expect_status 0 "$PROFHUB" draw treemap --root main.main \
    "$SAMPLES/pprof/gowork.cpu.pb.gz" -o "$tmp/tm2.svg" &&
    { testrun $check treemap "$tmp/tm2.svg" "$tmp/pprof.json" main.main
      [ "$status" = 0 ] || fail "pprof treemap: $(cat "$tmp/out")"; }
if command -v dot >/dev/null 2>&1; then
    expect_status 0 "$PROFHUB" draw callgraph "$before" -o "$tmp/cg.svg" &&
        { testrun $check callgraph "$tmp/cg.svg" "$tmp/before.json" main
          [ "$status" = 0 ] || fail "callgraph: $(cat "$tmp/out")"; }
    expect_status 0 "$PROFHUB" draw callgraph --root count_bits \
        "$before" -o "$tmp/cg2.svg" &&
        { testrun $check callgraph "$tmp/cg2.svg" "$tmp/before.json" count_bits
          [ "$status" = 0 ] || fail "callgraph --root: $(cat "$tmp/out")"; }
    # C++ names are folded in the boxes, whole in the tooltips.
    expect_status 0 "$PROFHUB" draw callgraph --root total_area \
        "$SAMPLES/callgrind/shapes.default.out" -o "$tmp/cg3.svg" &&
        { grep -q '>total_area(\.\.\.)<' "$tmp/cg3.svg" &&
          grep -q '<title>total_area(std::vector&lt;' "$tmp/cg3.svg" ||
          fail "callgraph: C++ names not folded or not whole in tooltips"; }
else
    echo "note: Graphviz dot is not installed; call graph not drawn"
fi
# Without dot: a clear error, no output file.
PROFHUB_DOT=$tmp/no-such-dot expect_status 1 "$PROFHUB" draw callgraph \
    "$before" -o "$tmp/nodot.svg"
grep -q 'needs Graphviz' "$tmp/err" || fail "no Graphviz: $(cat "$tmp/err")"
[ -e "$tmp/nodot.svg" ] && fail "a failed call graph left a file"

# Options and bad requests.
expect_status 0 "$PROFHUB" draw flame --inverted --color self \
    --highlight '^main$' "$before" -o "$tmp/opt.svg"
grep -q '1 frames match /^main$/' "$tmp/opt.svg" ||
    fail "--highlight does not say what it matched"
grep -q 'Icicle graph' "$tmp/opt.svg" || fail "--inverted: no icicle title"
expect_status 2 "$PROFHUB" draw pie "$before" -o "$tmp/x.svg"
expect_status 2 "$PROFHUB" draw diff "$before" -o "$tmp/x.svg"
expect_status 2 "$PROFHUB" draw flame "$before"
# A writer's error is recorded on its output and printed in the one
# style of file errors: "FILE: message".
err_filter() { filter_paths; }
run_compare_err 1 "$PROFHUB" draw flame --event nosuch "$before" -o "$tmp/x.svg" <<'E'
TMP/x.svg: no event "nosuch" in the profile
E
err_filter() { cat; }
expect_status 1 "$PROFHUB" draw flame --min-width 200 "$before" -o "$tmp/x.svg"
expect_status 2 "$PROFHUB" draw flame --define 'Ir = 2' "$before" -o "$tmp/x.svg"
expect_status 2 "$PROFHUB" draw flame --define 'X = Ir +' "$before" -o "$tmp/x.svg"
grep -q 'define: column 9:' "$tmp/err" || fail "--define error: $(cat "$tmp/err")"
expect_status 1 "$PROFHUB" draw treemap --root nosuch "$before" -o "$tmp/x.svg"
[ -e "$tmp/x.svg" ] && fail "a failed picture left a file"

# The HTML report: self-contained (nothing to fetch), and its errors.
expect_status 0 "$PROFHUB" report "$before" --base "$after" -o "$tmp/r.html"
grep -Eiq '(src|href)=|url\(|@import|https?://[^"]*\.(js|css|woff)' \
    "$tmp/r.html" && fail "report refers to outside resources"
[ "$(grep -c '<svg ' "$tmp/r.html")" = 2 ] || fail "report: not 2 pictures"
expect_status 2 "$PROFHUB" report "$before"
expect_status 2 "$PROFHUB" report -o "$tmp/r2.html"
expect_status 1 "$PROFHUB" report --event nosuch "$before" -o "$tmp/r2.html"
[ -e "$tmp/r2.html" ] && fail "a failed report left a file"

finish
