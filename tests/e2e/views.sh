#!/bin/sh
# views.sh -- the views beside a profile (analysis/view_*.c), checked
# against real tools and against our own summary:
#  - a profile holding both shapes (a merge of a callgrind and a pprof
#    sample) converts to every format with every event's total equal to
#    summary's, and writing changes nothing;
#  - callees of a recursive function in a Go CPU profile are go tool pprof
#    -peek's (one recursion rule for arcs of a tree);
#  - gmon data written as callgrind carries gprof's call graph: main's
#    inclusive time is gprof's self + children;
#  - sampled stacks written as callgrind invent no call counts.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

totals() {   # totals() FILE: "EVENT VALUE" lines of summary's JSON
    "$PROFHUB" summary -f json "$1" 2>/dev/null | python3 -c '
import json, sys
for k, v in sorted(json.load(sys.stdin)["totals"].items()):
    print(k, v)'
}

# --- both shapes -------------------------------------------------------
cg=$SAMPLES/callgrind/chain.default.out
pb=$SAMPLES/pprof/gowork.cpu.pb.gz
expect_status 0 "$PROFHUB" merge -o "$tmp/m.callgrind" "$cg" "$pb"
totals "$tmp/m.callgrind" >"$tmp/want"
grep -q '^Ir [1-9]' "$tmp/want" && grep -q '^cpu [1-9]' "$tmp/want" ||
    fail "the merge lost a shape: $(cat "$tmp/want")"
for ext in callgrind cachegrind pb.gz drcctprof; do
    expect_status 0 "$PROFHUB" convert "$tmp/m.callgrind" -o "$tmp/c.$ext" ||
        continue
    totals "$tmp/c.$ext" >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" ||
        fail "$ext: totals $(tr '\n' ' ' <"$tmp/got")differ from summary's $(tr '\n' ' ' <"$tmp/want")"
done
# folded holds one event per file: each one alone
while read -r ev value; do
    expect_status 0 "$PROFHUB" convert -O event="$ev" "$tmp/m.callgrind" \
        -o "$tmp/c.$ev.folded" || continue
    got=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/c.$ev.folded")
    [ "$got" = "$value" ] || fail "folded $ev: total $got, summary $value"
done <"$tmp/want"

# --- callees of a recursive tree: go tool pprof -peek -------------------
if command -v go >/dev/null 2>&1; then
    for f in "$SAMPLES"/pprof/*cpu*.pb.gz; do
        name=$(basename "$f")
        checks=$((checks + 1))
        go tool pprof -peek 'sort\.pdqsort$' -unit=ns "$f" 2>/dev/null |
            awk '/\| sort\.pdqsort$/ { on = 1; next }
                 on && /^---/ { exit }
                 on { v = $1; sub(/ns$/, "", v); print $NF, v }' |
            sort >"$tmp/peek"
        [ -s "$tmp/peek" ] || { fail "$name: go tool pprof -peek printed no callees"; continue; }
        "$PROFHUB" summary --callees sort.pdqsort -e cpu -f json "$f" |
            python3 -c '
import json, sys
for f in json.load(sys.stdin)["functions"]:
    for c in f["callees"]:
        print(c["name"], c["inclusive"]["cpu"])' | sort >"$tmp/ours"
        cmp -s "$tmp/peek" "$tmp/ours" || {
            fail "$name: callees of sort.pdqsort differ from go tool pprof -peek"
            diff "$tmp/peek" "$tmp/ours"
        }
    done
else
    echo "go is not installed: -peek comparison skipped"
fi

# --- gmon to callgrind: gprof's call graph ------------------------------
if command -v gprof >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
    for d in "$SAMPLES"/gmon/*/; do
        name=$(basename "$d")
        checks=$((checks + 1))
        "$PROFHUB" convert --exe "$d/prog" "$d/gmon.out" -o "$tmp/g.callgrind" \
            2>"$tmp/err" || { fail "$name: convert failed"; continue; }
        grep -q 'without an inclusive cost' "$tmp/err" &&
            fail "$name: calls written without their cost"
        # gprof: main's self + children in seconds; ours: ticks / rate
        want=$(gprof -b -q "$d/prog" "$d/gmon.out" |
               awk '$1 ~ /^\[[0-9]+\]$/ && $(NF-1) == "main" { printf "%.2f", $3 + $4; exit }')
        # no tick at all: gprof prints no entry for main (no time, no calls)
        [ -z "$want" ] && gprof -b -p "$d/prog" "$d/gmon.out" |
            grep -q 'no time accumulated' && want=0.00
        rate=$(awk '/^desc: gmon.prof_rate:/ { print $3 }' "$tmp/g.callgrind")
        # callgrind_annotate splits a function by the file of each call
        # site (inlined code): main is the sum of its file:main lines
        got=$(callgrind_annotate --inclusive=yes "$tmp/g.callgrind" 2>/dev/null |
              awk -v r="${rate:-100}" '/:main( |$)/ { gsub(/,/, "", $1); s += $1 }
                                      END { printf "%.2f", s / r }')
        [ -n "$want" ] && [ "$want" = "$got" ] ||
            fail "$name: main inclusive $got s in callgrind_annotate, gprof says $want s"
    done
else
    echo "gprof or callgrind_annotate missing: gmon comparison skipped"
fi

# --- sampled stacks as callgrind: no invented call counts ---------------
expect_status 0 "$PROFHUB" convert "$pb" -o "$tmp/p.callgrind"
grep -q 'call counts of records from sampled stacks' "$tmp/err" ||
    fail "pprof -> callgrind: no warning that call counts are unknown"
grep '^calls=' "$tmp/p.callgrind" | grep -qv '^calls=0 ' &&
    fail "pprof -> callgrind: a call count was invented"

finish
