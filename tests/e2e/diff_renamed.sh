#!/bin/sh
# diff_renamed.sh -- profhub diff of two differently named builds, as a
# user makes them: samples/src/checksum.c built as a/checksum and as
# b/checksum_after (-DCHECKSUM_HEAVY: checksum_block does 4x the work), each
# run under valgrind here.  The default match pairs the two main programs
# whatever their names: no row is base-only or new-only, the per-function
# Ir deltas equal cg_diff's (cachegrind runs of the same two builds) and
# go tool pprof -diff_base's (by function name, on our pprof exports), the
# report names the rule and both programs, and a fn: gate judges the
# paired row.  --match name+file+object keeps the strict rule.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program gcc valgrind cg_diff python3

src=$top_srcdir/samples/src/checksum.c
mkdir "$tmp/a" "$tmp/b"
gcc -O1 -g "$src" -o "$tmp/a/checksum" || skip "cannot build checksum.c"
gcc -O1 -g -DCHECKSUM_HEAVY "$src" -o "$tmp/b/checksum_after" ||
    skip "cannot build checksum.c"
for t in callgrind cachegrind; do
    valgrind -q --tool=$t --$t-out-file="$tmp/before.$t" "$tmp/a/checksum" \
        >/dev/null 2>"$tmp/vg.err" &&
    valgrind -q --tool=$t --$t-out-file="$tmp/after.$t" \
        "$tmp/b/checksum_after" >/dev/null 2>>"$tmp/vg.err" ||
        { cat "$tmp/vg.err"; skip "valgrind --tool=$t failed here"; }
done
B=$tmp/before.callgrind A=$tmp/after.callgrind

# Every row paired; the report says by which rule and which programs.
expect_status 0 "$PROFHUB" diff --format csv --top 0 "$B" "$A"
cp "$tmp/out" "$tmp/ours.csv"
n=$(python3 -c 'import csv, sys
print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r["status"] != "both"))' \
    "$tmp/ours.csv")
[ "$n" = 0 ] || fail "$n rows not paired by the default rule"
expect_status 0 "$PROFHUB" diff "$B" "$A"
grep -q "matched by name+file+program (main program .*/a/checksum <-> .*/b/checksum_after" \
    "$tmp/out" || { fail "the report does not name the rule"; head -3 "$tmp/out"; }
expect_status 0 "$PROFHUB" diff --format json "$B" "$A"
python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["match"]
assert m["rule"] == "name+file+program", m
assert m["new_program"].endswith("/b/checksum_after"), m' "$tmp/out" ||
    fail "JSON has no match rule"

# Per-function Ir deltas against cg_diff of the cachegrind runs (cachegrind
# files carry no object names, so cg_diff pairs by file and function).
cg_diff "$tmp/before.cachegrind" "$tmp/after.cachegrind" >"$tmp/cg_diff.out" \
    2>/dev/null || fail "cg_diff failed"
checks=$((checks + 1))
python3 - "$tmp/cg_diff.out" "$tmp/ours.csv" <<'PY' || fail "Ir deltas differ from cg_diff"
import csv, sys
peer, fl, fn, col = {}, "", "", None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("events:"):
        col = line.split()[1:].index("Ir")
    elif line.startswith("fl="):
        fl = line[3:]
    elif line.startswith("fn="):
        fn = line[3:]
    elif line[:1].isdigit():
        f = line.split()
        peer[(fl, fn)] = peer.get((fl, fn), 0) + int(f[1 + col])
ours = {}
for r in csv.DictReader(open(sys.argv[2])):
    k = (r["file"] or "???", r["name"])
    ours[k] = ours.get(k, 0) + int(float(r["delta_Ir"]))
bad = [k for k in set(peer) | set(ours) if peer.get(k, 0) != ours.get(k, 0)]
for k in sorted(bad)[:10]:
    print("%s: cg_diff %s, profhub %s" % (k, peer.get(k), ours.get(k)))
want = sum(v for k, v in peer.items() if k[1] == "checksum_block")
print("%d functions, %d differ; checksum_block delta %s" % (len(peer), len(bad), want))
sys.exit(1 if bad or not want else 0)
PY

# The same deltas as go tool pprof -diff_base on our pprof exports (pprof
# pairs by function name).
if command -v go >/dev/null 2>&1; then
    checks=$((checks + 1))
    "$PROFHUB" convert "$B" -o "$tmp/before.pb.gz" 2>/dev/null &&
    "$PROFHUB" convert "$A" -o "$tmp/after.pb.gz" 2>/dev/null ||
        fail "convert to pprof failed"
    go tool pprof -top -nodefraction=0 -nodecount=100000 -sample_index=Ir \
        -diff_base="$tmp/before.pb.gz" "$tmp/after.pb.gz" >"$tmp/go.top" \
        2>/dev/null || fail "go tool pprof -diff_base failed"
    python3 - "$tmp/go.top" "$tmp/ours.csv" <<'PY' || fail "deltas differ from go tool pprof -diff_base"
import csv, re, sys
peer = {}
for line in open(sys.argv[1]):
    m = re.match(r"^\s*(-?\d+)\s+-?[\d.]+%\s+-?[\d.]+%\s+-?\d+\s+-?[\d.]+%\s+(.*\S)\s*$", line)
    if m and int(m.group(1)):
        peer[m.group(2)] = int(m.group(1))
ours = {}
for r in csv.DictReader(open(sys.argv[2])):
    d = int(float(r["delta_Ir"]))
    if d:
        ours[r["name"]] = ours.get(r["name"], 0) + d
bad = [k for k in set(peer) | set(ours) if peer.get(k) != ours.get(k)]
for k in sorted(bad)[:10]:
    print("%s: pprof %s, profhub %s" % (k, peer.get(k), ours.get(k)))
print("%d changed functions, %d differ" % (len(peer), len(bad)))
sys.exit(1 if bad or not peer else 0)
PY
fi

# The gate judges the paired row: checksum_block grew about 4x.
expect_status 3 "$PROFHUB" diff --fail-if 'fn:checksum_block Ir > +100%' "$B" "$A"
expect_status 0 "$PROFHUB" diff --fail-if 'fn:checksum_block Ir > +100%' "$A" "$B"

# The strict rule: the program's functions are base-only and new-only.
expect_status 0 "$PROFHUB" diff --match name+file+object --format csv \
    --top 0 "$B" "$A"
n=$(python3 -c 'import csv, sys
print(sum(1 for r in csv.DictReader(open(sys.argv[1]))
          if r["name"] == "checksum_block" and r["status"] != "both"))' "$tmp/out")
[ "$n" = 2 ] || fail "--match name+file+object: $n unpaired checksum_block rows, expected 2"
finish
