#!/bin/sh
# draw_browser.sh -- the pictures and the HTML report in headless Chromium
# (tests/e2e/browser.py drives it through chromedriver, from file:// URLs,
# with the network off): on a real sample of every format, the browser
# draws as many frames as the file holds, the tooltips show the totals of
# `profhub summary --format json`, a real click on a frame zooms it to the
# full width and hides the rest, and the console stays free of errors and
# warnings.  The report's table rows, both flame graphs and its search box
# are checked too.  Screenshots go to $PROFHUB_SHOTS when it is set (to
# look at them), else to the test's temporary folder.  Skips (77) without
# chromium and chromedriver.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3
check="python3 $top_srcdir/tests/e2e/svgcheck.py"
shots=${PROFHUB_SHOTS:-$tmp/shots}
mkdir -p "$shots"

pages=
# NAME INPUT [options]: a flame graph and the summary of the same input.
picture() {
    name=$1 in=$2
    shift 2
    [ -s "$in" ] || { fail "sample $in is missing"; return; }
    expect_status 0 "$PROFHUB" draw flame "$@" "$in" -o "$tmp/$name.svg" ||
        return
    expect_status 0 "$PROFHUB" summary --format json "$@" "$in" || return
    cp "$tmp/out" "$tmp/$name.json"
    pages="$pages $tmp/$name.svg"
}
picture callgrind "$SAMPLES/callgrind/chain.default.out"
picture cachegrind "$SAMPLES/cachegrind/shapes.default.out"
picture gmon "$SAMPLES/gmon/chain-nopie/gmon.out" \
    --exe "$SAMPLES/gmon/chain-nopie/prog"
picture pprof "$SAMPLES/pprof/gowork.cpu.pb.gz"
picture easyview "$SAMPLES/easyview/fig6_lulesh_bottomup.ezview"

before=$SAMPLES/callgrind/checksum.before.out
after=$SAMPLES/callgrind/checksum.after.out
expect_status 0 "$PROFHUB" summary --format json "$before" &&
    cp "$tmp/out" "$tmp/before.json"
expect_status 0 "$PROFHUB" draw diff "$after" "$before" -o "$tmp/diff.svg" &&
    pages="$pages $tmp/diff.svg"
expect_status 0 "$PROFHUB" draw treemap "$before" -o "$tmp/treemap.svg" &&
    pages="$pages $tmp/treemap.svg"
if command -v dot >/dev/null 2>&1; then
    expect_status 0 "$PROFHUB" draw callgraph "$before" \
        -o "$tmp/callgraph.svg" && pages="$pages $tmp/callgraph.svg"
fi
expect_status 0 "$PROFHUB" report "$before" --base "$after" \
    -o "$tmp/report.html" && pages="$pages $tmp/report.html"

# shellcheck disable=SC2086
python3 "$top_srcdir/tests/e2e/browser.py" --shots "$shots" \
    --search checksum_block $pages >"$tmp/facts.json" 2>"$tmp/browser.err"
case $? in
0) ;;
77) skip "$(cat "$tmp/browser.err")" ;;
*) fail "browser.py: $(cat "$tmp/browser.err")"; finish ;;
esac

# PAGE SVG|- SUMMARY|-
seen() {
    testrun $check browser "$tmp/facts.json" "$@"
    [ "$status" = 0 ] || fail "$(cat "$tmp/out" "$tmp/err")"
}
for n in callgrind cachegrind gmon pprof easyview; do
    [ -s "$tmp/$n.svg" ] && seen "$tmp/$n.svg" "$tmp/$n.svg" "$tmp/$n.json"
done
seen "$tmp/diff.svg" "$tmp/diff.svg" -
seen "$tmp/treemap.svg" - "$tmp/before.json"
seen "$tmp/report.html" - "$tmp/before.json"
[ -s "$tmp/callgraph.svg" ] && seen "$tmp/callgraph.svg" - -

# Counts the checks above do not cover.
testrun python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
f = json.load(open(t + "/facts.json"))
def at(n): return f[t + "/" + n]
bad = []
if at("treemap.svg")["boxes"] < 3: bad.append("treemap: boxes %d" % at("treemap.svg")["boxes"])
r = at("report.html")
if r["svgs"] != 2: bad.append("report: %d pictures, expected 2" % r["svgs"])
if r["rows"] < 5: bad.append("report: %d table rows" % r["rows"])
if not r.get("search_hits"): bad.append("report: search found no frame")
if t + "/callgraph.svg" in f and f[t + "/callgraph.svg"]["nodes"] < 2:
    bad.append("callgraph: %d nodes" % f[t + "/callgraph.svg"]["nodes"])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
[ "$status" = 0 ] || fail "$(cat "$tmp/out" "$tmp/err")"

finish
