#!/bin/sh
# easyview.sh -- the three real EasyView profiles (samples/easyview, see its
# README) load with the format the content says (fig4 is pprof despite its
# .ezview name), with totals equal to an independent count made by
# pbwalk.py (a hand-written protobuf walker); drcctprof -> profhub ->
# drcctprof keeps every sample's stack and every metric value, including
# the non-additive ones (context ids, enums) that profhub never sums.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3
WALK="python3 $top_srcdir/tests/e2e/pbwalk.py"
E=$SAMPLES/easyview

for f in fig4_memory_flow:pprof fig6_lulesh_bottomup:drcctprof \
         fig7_lulesh_reuse_distance:drcctprof; do
    name=${f%%:*}
    kind=${f#*:}
    file=$E/$name.ezview
    expect_status 0 "$PROFHUB" info -f json "$file" || continue
    cp "$tmp/out" "$tmp/info.json"
    # Our totals (additive events) and counts, as "NAME TOTAL" lines.
    python3 - "$tmp/info.json" "$kind" >"$tmp/ours" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if d["format"] != sys.argv[2]:
    print("format", d["format"])
for e in d["events"]:
    if e["total"] is not None:
        print(e["name"], e["total"])
print("samples", d["counts"]["samples"])
if sys.argv[2] == "drcctprof":
    print("contexts", d["counts"]["contexts"])
PY
    $WALK "$kind" "$file" >"$tmp/walk"
    # The walker also sums non-additive metrics; keep the names we total.
    awk 'NR == FNR { split($0, a, " "); n = $0; sub(/ [^ ]*$/, "", n); keep[n] = 1; next }
         { n = $0; sub(/ [^ ]*$/, "", n); if (n in keep) print }' \
        "$tmp/ours" "$tmp/walk" >"$tmp/walk.kept"
    checks=$((checks + 1))
    if cmp -s "$tmp/ours" "$tmp/walk.kept" && [ -s "$tmp/ours" ]; then
        echo "$name ($kind): $(wc -l <"$tmp/ours") totals and counts equal the walker's:" \
            $(grep -v '^value' "$tmp/ours" | tr '\n' ' ')
    else
        fail "$name: totals differ from the independent count"
        diff "$tmp/walk.kept" "$tmp/ours" | head -20
    fi
    [ "$kind" = drcctprof ] || continue
    expect_status 0 "$PROFHUB" convert "$file" -o "$tmp/rt.drcctprof" || continue
    $WALK stacks "$file" >"$tmp/a.st"
    $WALK stacks "$tmp/rt.drcctprof" >"$tmp/b.st"
    $WALK drcctprof "$file" >"$tmp/a.sum"
    $WALK drcctprof "$tmp/rt.drcctprof" >"$tmp/b.sum"
    checks=$((checks + 1))
    if cmp -s "$tmp/a.st" "$tmp/b.st" && cmp -s "$tmp/a.sum" "$tmp/b.sum"; then
        echo "$name: drcctprof round trip keeps $(wc -l <"$tmp/a.st") samples' stacks and values"
    else
        fail "$name: drcctprof round trip changed samples"
        diff "$tmp/a.st" "$tmp/b.st" | head -10
        diff "$tmp/a.sum" "$tmp/b.sum" | head -10
    fi
done
finish
