#!/bin/sh
# merge_copies.sh -- profhub merge of N copies of a sample equals N times
# the sample, as the peers read it: callgrind_annotate and cg_annotate on
# the merged file give N times every per-function number of the original.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program callgrind_annotate cg_annotate awk

# file:function -> number, times k.
table() {   # tool k file
    case $1 in cg_annotate) all=0 ;; *) all=100 ;; esac
    "$1" --threshold=$all "$3" 2>/dev/null |
        awk -v k="$2" '/file:function/ { on = 1; next }
             on && /^-+$/ { if (seen) exit; next }
             on && NF >= 2 && $1 ~ /^-?[0-9,]+$/ {
                 # file:function, without the [object] callgrind_annotate
                 # takes from whichever of two same-named functions it met
                 # first (it keys them by file:function alone)
                 seen = 1; v = $1; gsub(",", "", v)
                 sub(/ \[[^]]*\]$/, ""); print $NF "|" v * k }' | sort
}

for f in callgrind/chain.default.out cachegrind/chain.default.out; do
    case $f in callgrind/*) tool=callgrind_annotate ext=callgrind ;;
               *) tool=cg_annotate ext=cachegrind ;; esac
    in=$SAMPLES/$f
    expect_status 0 "$PROFHUB" merge "$in" "$in" "$in" -o "$tmp/m3.$ext"
    table "$tool" 3 "$in" >"$tmp/want"
    table "$tool" 1 "$tmp/m3.$ext" >"$tmp/got"
    [ "$(wc -l <"$tmp/want")" -gt 10 ] || fail "$f: too few rows from $tool"
    if ! cmp -s "$tmp/want" "$tmp/got"; then
        fail "$f: merge of 3 copies is not 3 times the sample"
        diff "$tmp/want" "$tmp/got" | head -10
    fi
done

# Twelve copies cross the merge's compaction (every 8 inputs and at the
# end): the result is the size of one input, with 12 times its numbers as
# the peers read them, and go tool pprof's own merge of the same copies.
in=$SAMPLES/callgrind/chain.instr-jumps.out
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do set -- "$@" "$in"; done
expect_status 0 "$PROFHUB" merge "$@" -o "$tmp/m12.callgrind"
table callgrind_annotate 12 "$in" >"$tmp/want"
table callgrind_annotate 1 "$tmp/m12.callgrind" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || { fail "12 copies: not 12 times the sample"
                                   diff "$tmp/want" "$tmp/got" | head; }
[ "$(wc -c <"$tmp/m12.callgrind")" -lt $((2 * $(wc -c <"$in"))) ] ||
    fail "12 copies merged: $(wc -c <"$tmp/m12.callgrind") bytes, input $(wc -c <"$in")"
# Jumps are summed too: each jump line's counts are 12 times the input's.
for f in "$in" "$tmp/m12.callgrind"; do
    grep -c '^j\(ump\|cnd\)=' "$f"
done >"$tmp/njumps"
[ "$(sed -n 2p "$tmp/njumps")" -le "$(sed -n 1p "$tmp/njumps")" ] ||
    fail "jump lines grew: $(tr '\n' ' ' <"$tmp/njumps")"
jsum() { sed -n 's/^j\(ump\|cnd\)=\([0-9]*\).*/\2/p' "$1" | awk '{ s += $1 } END { print s }'; }
[ "$(jsum "$tmp/m12.callgrind")" = "$(( $(jsum "$in") * 12 ))" ] ||
    fail "jump counts: $(jsum "$tmp/m12.callgrind") against 12 x $(jsum "$in")"

if command -v go >/dev/null 2>&1; then
    in=$SAMPLES/pprof/gowork.heap.pb.gz
    set --
    for i in 1 2 3 4 5 6 7 8 9 10 11 12; do set -- "$@" "$in"; done
    expect_status 0 "$PROFHUB" merge "$@" -o "$tmp/m12.pb.gz"
    for ev in alloc_space alloc_objects; do
        go tool pprof -top -nodefraction=0 -sample_index=$ev "$@" 2>/dev/null |
            sed -n '/flat%/,$p' >"$tmp/want"
        go tool pprof -top -nodefraction=0 -sample_index=$ev "$tmp/m12.pb.gz" 2>/dev/null |
            sed -n '/flat%/,$p' >"$tmp/got"
        [ "$(wc -l <"$tmp/want")" -gt 5 ] || fail "too few rows from go tool pprof"
        cmp -s "$tmp/want" "$tmp/got" || { fail "pprof $ev: merge of 12 differs from go tool pprof's"
                                           diff "$tmp/want" "$tmp/got" | head; }
    done
fi

# --stats across copies: no imbalance; across the threads of one run:
# the main thread's function has imbalance (max - mean) / max.
in=$SAMPLES/callgrind/chain.default.out
expect_status 0 "$PROFHUB" merge --stats --format csv --top 1 "$in" "$in"
sed -n 2p "$tmp/out" | grep -q '^hot_loop,.*,4500018,4500018,4500018,0,0$' ||
    fail "stats of two copies: $(sed -n 2p "$tmp/out")"
expect_status 0 "$PROFHUB" merge --stats --format json --top 0 \
    "$SAMPLES/callgrind/threads.sep.out"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["across"] == "parts" and d["columns"] == 4, d
for f in d["functions"]:
    assert f["min"] <= f["mean"] <= f["max"], f
    if f["max"]:
        assert abs(f["imbalance"] - (f["max"] - f["mean"]) / f["max"]) < 1e-9, f' \
    "$tmp/out" || fail "stats across the parts of threads.sep.out"
expect_status 2 "$PROFHUB" merge "$in"
finish
