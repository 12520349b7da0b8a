#!/bin/sh
# proto_convert.sh -- conversions between the tree formats and to callgrind
# keep totals and per-function self and inclusive costs (our summary before
# and after): pprof -> drcctprof, drcctprof -> pprof, pprof -> callgrind,
# drcctprof -> callgrind, pprof -> folded (one event) -> pprof.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3
pcmp() { python3 "$top_srcdir/tests/e2e/pprofcmp.py" "$@"; }
# Event names may hold blanks ("total distance"): split lists on newlines.
nl='
'
IFS=$nl

additive_events() {
    "$PROFHUB" info -f json "$1" | python3 -c '
import json, sys
for e in json.load(sys.stdin)["events"]:
    if e["total"] is not None and not e["derived"]:
        print(e["name"])'
}

# The factor from FROM's raw values of EVENT to TO's: pprof holds a time
# in nanoseconds, so a value of 1 in microseconds is 1000 there; formats
# without units (callgrind) keep the raw values.
factor() {   # FROM TO EVENT
    "$PROFHUB" info -f json "$1" >"$tmp/fa.json"
    "$PROFHUB" info -f json "$2" >"$tmp/fb.json"
    python3 -c '
import json, sys
ns = {"seconds": 1e9, "milliseconds": 1e6, "microseconds": 1e3,
      "nanoseconds": 1}
def ev(path):
    for e in json.load(open(path))["events"]:
        if e["name"] == sys.argv[3]:
            return e
a, b = ev(sys.argv[1]), ev(sys.argv[2])
if b["unit"] not in ns:
    print(1)
else:
    print(round(a["scale"] * ns.get(a["unit"], 1) /
                (b["scale"] * ns[b["unit"]])))' "$tmp/fa.json" "$tmp/fb.json" "$3"
}

same_summary() {   # FROM TO EVENT...
    a=$1 b=$2
    shift 2
    for ev in "$@"; do
        checks=$((checks + 1))
        "$PROFHUB" summary -n 0 -f csv -e "$ev" "$a" >"$tmp/a.csv" 2>/dev/null
        "$PROFHUB" summary -n 0 -f csv -e "$ev" "$b" >"$tmp/b.csv" 2>/dev/null
        if pcmp csv "$tmp/a.csv" "$tmp/b.csv" "$ev" "$(factor "$a" "$b" "$ev")" >"$tmp/cmp"; then
            echo "$(basename "$a") -> $(basename "$b") $ev: $(tail -1 "$tmp/cmp")"
        else
            fail "$(basename "$a") -> $(basename "$b") $ev: summaries differ"
            cat "$tmp/cmp"
        fi
    done
}

for f in "$SAMPLES"/pprof/*.pb.gz; do
    [ -e "$f" ] || skip "no pprof samples"
    n=$(basename "$f" .pb.gz)
    evs=$(additive_events "$f")
    expect_status 0 "$PROFHUB" convert "$f" -o "$tmp/$n.drcctprof" &&
        same_summary "$f" "$tmp/$n.drcctprof" $evs
    expect_status 0 "$PROFHUB" convert "$f" -o "$tmp/$n.callgrind" &&
        same_summary "$f" "$tmp/$n.callgrind" $evs
    expect_status 0 "$PROFHUB" convert "$tmp/$n.drcctprof" -o "$tmp/$n.back.pb.gz" &&
        same_summary "$f" "$tmp/$n.back.pb.gz" $evs
    ev=$(echo "$evs" | tail -1)
    expect_status 0 "$PROFHUB" convert -O event="$ev" "$f" -o "$tmp/$n.folded" &&
        expect_status 0 "$PROFHUB" convert "$tmp/$n.folded" -o "$tmp/$n.f.pb.gz" &&
        "$PROFHUB" summary -n 0 -f csv -e "$ev" "$f" >"$tmp/a.csv" &&
        "$PROFHUB" summary -n 0 -f csv -e samples "$tmp/$n.f.pb.gz" |
            sed "1s/_samples/_$ev/g" >"$tmp/b.csv" &&
        checks=$((checks + 1)) &&
        if pcmp csv "$tmp/a.csv" "$tmp/b.csv" "$ev" >"$tmp/cmp"; then
            echo "$n -> folded -> pprof $ev: $(tail -1 "$tmp/cmp")"
        else
            fail "$n -> folded -> pprof $ev: summaries differ"
            cat "$tmp/cmp"
        fi
done
for f in "$SAMPLES"/easyview/fig6_lulesh_bottomup.ezview \
         "$SAMPLES"/easyview/fig7_lulesh_reuse_distance.ezview; do
    n=$(basename "$f" .ezview)
    evs=$(additive_events "$f")
    expect_status 0 "$PROFHUB" convert "$f" -o "$tmp/$n.pb.gz" &&
        same_summary "$f" "$tmp/$n.pb.gz" $evs
    # fig7's metric names hold blanks, which callgrind's events: line
    # cannot (the callgrind writer does not rename them yet): fig6 only.
    case $n in fig7*) continue ;; esac
    expect_status 0 "$PROFHUB" convert "$f" -o "$tmp/$n.callgrind" &&
        same_summary "$f" "$tmp/$n.callgrind" $evs
done
finish
