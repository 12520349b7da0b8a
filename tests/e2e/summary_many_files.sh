#!/bin/sh
# summary_many_files.sh -- "profhub summary FILE..." sums the FILEs as they
# load (the parts kept as descriptors only): memory of N copies stays near
# that of a few, every part is still listed, and the totals are N times
# callgrind_annotate's total of one copy.  --part keeps each part's rows.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program callgrind_annotate python3
[ -x /usr/bin/time ] || skip "no GNU time (/usr/bin/time)"

in=$SAMPLES/callgrind/chain.instr-jumps.out
n=100
i=1
while [ $i -le $n ]; do
    ln -s "$in" "$tmp/p$i.out"
    i=$((i + 1))
done
copies() { i=1; while [ $i -le "$1" ]; do echo "$tmp/p$i.out"; i=$((i + 1)); done; }

# Peak RSS (kB) of a summary of the first k copies.
peak() {
    # shellcheck disable=SC2046 # one word per file name, no spaces
    /usr/bin/time -f %M -o "$tmp/rss" "$PROFHUB" summary -f json -n 5 \
        $(copies "$1") >"$tmp/sum$1.json" 2>"$tmp/err$1" ||
        fail "summary of $1 copies: $(cat "$tmp/err$1")"
    tail -1 "$tmp/rss"
}
few=$(peak 10)
many=$(peak $n)
# Under ASan freed memory waits in a quarantine, so the peak follows what
# was allocated in all, not what is held: the bound is for real builds.
if ldd "$PROFHUB" 2>/dev/null | grep -q libasan; then
    echo "sanitizer build: peak RSS not compared (${few} kB, ${many} kB)"
else
    [ $((many * 2)) -le $((few * 3)) ] ||
        fail "peak RSS of $n copies ${many} kB, of 10 copies ${few} kB: above 1.5x"
fi

want=$(callgrind_annotate "$in" 2>/dev/null |
       awk '/PROGRAM TOTALS/ { v = $1; gsub(",", "", v); print v; exit }')
[ -n "$want" ] || fail "no PROGRAM TOTALS from callgrind_annotate"
for k in 10 $n; do
    python3 - "$tmp/sum$k.json" "$k" "$want" <<'PY' || fail "summary of $k copies"
import json, sys
d = json.load(open(sys.argv[1]))
k, one = int(sys.argv[2]), int(sys.argv[3])
parts = d["profile"]["parts"]
assert len(parts) == k, (len(parts), k)
assert all(p["selected"] for p in parts), parts
assert d["totals"]["Ir"] == k * one, (d["totals"]["Ir"], k, one)
top = d["functions"][0]
assert top["name"] == "hot_loop", top
PY
done

# --part N reads part N's own rows: hot_loop's self cost is one copy's,
# as callgrind_annotate gives it.
one=$(callgrind_annotate "$in" 2>/dev/null |
      awk '/:hot_loop/ { v = $1; gsub(",", "", v); print v; exit }')
# shellcheck disable=SC2046
expect_status 0 "$PROFHUB" summary -f json --part 3 $(copies 5)
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["functions"] if f["name"] == "hot_loop"][0]
assert f["self"]["Ir"] == int(sys.argv[2]), f' "$tmp/out" "$one" ||
    fail "--part 3 of 5 copies: hot_loop not one copy's ($one)"
finish
