#!/bin/sh
# annotate_unknown.sh -- summary --annotate FN of a function without debug
# information (its code in "???", every such function's at once) shows
# FN's lines only: its own cost and the calls it makes, each as
# callgrind_annotate --tree=calling prints them for FN, live.  The whole of
# "???" would be every stripped function's calls (callgrind_annotate leaves
# "???" out of its annotation).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
command -v callgrind_annotate >/dev/null 2>&1 \
    || skip "callgrind_annotate is not installed"

f=$SAMPLES/callgrind/chain.default.out
callgrind_annotate --tree=calling --threshold=100 "$f" >"$tmp/peer.txt" \
    2>"$tmp/peer.err" || { cat "$tmp/peer.err"; fail "callgrind_annotate"; }

# Functions of "???" named by address, named once (callgrind_annotate
# takes functions of one name in "???" as one), that call others.
"$PROFHUB" summary -f csv -n 0 "$f" >"$tmp/table.csv" || fail "summary"
csv_tsv "$tmp/table.csv" | cut -f1 | sort | uniq -d >"$tmp/twice"
awk '/^ *[0-9,]+ \([ 0-9.]+%\)  \*  \?\?\?:0x[0-9a-f]+ \[/ {
         fn = $0; sub(/.*\?\?\?:/, "", fn); sub(/ .*/, "", fn); cur = fn
         n[fn]++; next }
     /^ *[0-9,]+ \([ 0-9.]+%\)  >/ { if (cur != "") calls[cur]++; next }
     /^$/ { cur = "" }
     END { for (fn in n) if (n[fn] == 1 && calls[fn] > 0) print fn }' \
    "$tmp/peer.txt" | sort | comm -23 - "$tmp/twice" >"$tmp/fns"
[ -s "$tmp/fns" ] || fail "no function of ??? with calls in $f"

checks=0
while read -r fn; do
    checks=$((checks + 1))
    # the peer's block for fn: "self" then "cost file:callee (Nx)" lines
    awk -v fn="$fn" '
        $0 ~ ("\\*  \\?\\?\\?:" fn " \\[") { on = 1; c = $1; gsub(/,/, "", c)
                                            print "self", c; next }
        on && /^$/ { exit }
        on && / >   / { c = $1; gsub(/,/, "", c); s = $0
                        sub(/.* >   /, "", s); sub(/ \[[^]]*\]$/, "", s)
                        print c, s }' "$tmp/peer.txt" | sort >"$tmp/want"
    "$PROFHUB" summary --annotate "^$fn\$" -e Ir "$f" >"$tmp/ours" \
        2>"$tmp/err" || {
        fail "$fn: profhub failed"
        cat "$tmp/err"
        continue
    }
    grep -q "No debug information" "$tmp/ours" || {
        fail "$fn: no note that ??? has no debug information"
        continue
    }
    sed -n '/Auto-annotated source: ???/,$p' "$tmp/ours" | awk '
        / <counts for unidentified lines>$/ { c = $1; gsub(/,/, "", c)
                                              print "self", c; next }
        / => / { c = $1; gsub(/,/, "", c); s = $0; sub(/.* => /, "", s)
                 print c, s }' | sort >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || {
        fail "$fn: its ??? lines differ from callgrind_annotate's calls"
        diff "$tmp/want" "$tmp/got" | head -20
    }
done <"$tmp/fns"
[ "$checks" -gt 0 ] || fail "nothing compared"
finish
