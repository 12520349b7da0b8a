#!/bin/sh
# diff_peers.sh -- profhub diff against the peers on the before/after pairs
# of samples/ (checksum_block does four times the work in "after"):
# per-function deltas equal cg_diff's, the changed function is the top row,
# the totals equal go tool pprof -diff_base's, a diff written as callgrind
# reads back in callgrind_annotate, and --fail-if gates with exit 3.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program cg_diff callgrind_annotate awk

cgb=$SAMPLES/cachegrind/checksum.before.out
cga=$SAMPLES/cachegrind/checksum.after.out

# cg_diff prints a cachegrind file of after - before, one "0 deltas" line
# per (file, function).  Our CSV has base_E,new_E,delta_E per event.
cg_diff "$cgb" "$cga" >"$tmp/cg_diff.out" 2>/dev/null ||
    fail "cg_diff failed"
awk '/^events:/ { n = NF - 1; for (i = 2; i <= NF; i++) ev[i - 1] = $i }
     /^fl=/ { fl = substr($0, 4) }
     /^fn=/ { fn = substr($0, 4) }
     /^[0-9]/ { for (i = 1; i <= n; i++) print fl "|" fn "|" ev[i] "|" ($(i + 1) + 0) }' \
    "$tmp/cg_diff.out" | sort >"$tmp/peer"

expect_status 0 "$PROFHUB" diff --format csv --top 0 "$cgb" "$cga"
# CSV: name,file,object,status, then base/new/delta per event, read by a
# CSV parser.  An unknown file is "" for us, "???" for cg_diff.
csv_tsv "$tmp/out" >"$tmp/out.tsv"
head -1 "$tmp/out.tsv" | tr '\t' '\n' >"$tmp/cols"
awk -F'\t' 'NR == FNR { col[FNR] = $0; next }
         FNR > 1 { if ($2 == "") $2 = "???"
                   for (i = 5; i <= NF; i++) if (col[i] ~ /^delta_/) {
                       e = substr(col[i], 7); print $2 "|" $1 "|" e "|" ($i + 0) } }' \
    "$tmp/cols" "$tmp/out.tsv" | sort >"$tmp/ours"
if ! cmp -s "$tmp/peer" "$tmp/ours"; then
    fail "per-function deltas differ from cg_diff"
    diff "$tmp/peer" "$tmp/ours" | head -20
fi
[ "$(wc -l <"$tmp/peer")" -gt 100 ] || fail "cg_diff gave too few rows"

# The changed function is the top row, with cg_diff's Ir delta.
expect_status 0 "$PROFHUB" diff --format csv --top 1 "$cgb" "$cga"
csv_tsv "$tmp/out" >"$tmp/out.tsv"
top=$(sed -n 2p "$tmp/out.tsv" | cut -f1)
[ "$top" = checksum_block ] || fail "top row is \"$top\", not checksum_block"
want=$(grep '|checksum_block|Ir|' "$tmp/peer" | cut -d'|' -f4)
got=$(csv_get "$tmp/out" name checksum_block delta_Ir)
[ -n "$want" ] && [ "$want" = "$got" ] ||
    fail "checksum_block delta Ir: cg_diff $want, profhub $got"

# The gate: a regression trips it, the reverse does not.
expect_status 3 "$PROFHUB" diff --fail-if 'Ir > +5%' "$cgb" "$cga"
grep -q "fail-if 'Ir > +5%' holds" "$tmp/err" || fail "no reason printed"
expect_status 0 "$PROFHUB" diff --fail-if 'Ir > +5%' "$cga" "$cgb"
expect_status 3 "$PROFHUB" diff --fail-if 'fn:checksum_block Ir > +2%' \
    "$cgb" "$cga"
expect_status 0 "$PROFHUB" diff --fail-if 'fn:checksum_block Ir > +2%' \
    "$cga" "$cgb"
expect_status 2 "$PROFHUB" diff --fail-if 'Ir >> 5' "$cgb" "$cga"
expect_status 2 "$PROFHUB" diff --fail-if 'Nope > +5%' "$cgb" "$cga"

# A diff written as callgrind: callgrind_annotate reads it, and its total
# is the change of the totals.
clb=$SAMPLES/callgrind/checksum.before.out
cla=$SAMPLES/callgrind/checksum.after.out
expect_status 0 "$PROFHUB" diff -o "$tmp/diff.callgrind" "$clb" "$cla"
tb=$(callgrind_annotate "$clb" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
ta=$(callgrind_annotate "$cla" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
td=$(callgrind_annotate "$tmp/diff.callgrind" |
     awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
[ -n "$td" ] && [ "$td" = "$((ta - tb))" ] ||
    fail "callgrind_annotate on the diff: total $td, expected $((ta - tb))"
callgrind_annotate "$tmp/diff.callgrind" | grep -q 'checksum.c:checksum_block' ||
    fail "checksum_block missing from the written diff"

# pprof pair: totals as go tool pprof -diff_base counts them (the base
# total, and the sum of all flat deltas).
if command -v go >/dev/null 2>&1; then
    pb=$SAMPLES/pprof/gowork.cpu.pb.gz
    pn=$SAMPLES/pprof/gowork.heavy.cpu.pb.gz
    go tool pprof -top -unit=ns -nodefraction=0 -nodecount=100000 \
        -diff_base="$pb" "$pn" >"$tmp/go.top" 2>/dev/null ||
        fail "go tool pprof -diff_base failed"
    gbase=$(sed -n 's/.*% of \([0-9]*\)ns total.*/\1/p' "$tmp/go.top")
    gdelta=$(sed -n 's/^Showing nodes accounting for \(-*[0-9]*\)ns.*/\1/p' "$tmp/go.top")
    expect_status 0 "$PROFHUB" diff --format json --top 0 "$pb" "$pn"
    ours=$(python3 -c 'import json,sys
t = json.load(open(sys.argv[1]))["totals"]["cpu"]
print(int(t["base"]), int(t["delta"]))' "$tmp/out")
    [ -n "$gbase" ] && [ "$ours" = "$gbase $gdelta" ] ||
        fail "pprof totals: go tool pprof base $gbase delta $gdelta, profhub $ours"
fi
finish
