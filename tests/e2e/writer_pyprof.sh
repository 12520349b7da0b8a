#!/bin/sh
# writer_pyprof.sh -- samples/pyprof2calltree/work.py.out, written by
# pyprof2calltree from cProfile's stats samples/pyprof2calltree/work.prof,
# loads, and our summary of it equals what cProfile recorded (read with
# Python's own pstats): the total time, every function's own time
# (tottime) and its calls from other functions (primitive calls).  The
# file's summary: is the largest inclusive time, not the total: profhub
# warns about it and keeps the sum of the cost lines, as KCachegrind does.
# Skipped without python3.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

d=$SAMPLES/pyprof2calltree
testrun "$PROFHUB" summary -n 0 -f csv "$d/work.py.out"
[ "$status" = 0 ] || { fail "profhub summary exited $status"; show_output; }
cp "$tmp/out" "$tmp/ours.csv"
grep -q 'summary: says' "$tmp/err" \
    || fail "no warning about the summary: line"
checks=$((checks + 1))
python3 - "$d/work.prof" "$tmp/ours.csv" <<'PY' || fail "differs from cProfile's stats"
import csv, pstats, sys
st = pstats.Stats(sys.argv[1])
ours = {}
for row in csv.DictReader(open(sys.argv[2])):
    ours[(row["file"], row["name"])] = row
bad = 0
total = 0
for (fname, line, name), (cc, nc, tt, ct, callers) in st.stats.items():
    want = tt * 1e9
    row = ours.pop((fname, name), None)
    if row is None:
        print("missing: %s:%s" % (fname, name)); bad += 1; continue
    got = int(row["self_ns"])
    total += got
    if abs(got - want) > 1:
        print("%s: self %d ns, cProfile %.1f ns" % (name, got, want)); bad += 1
    # Calls from other functions; roots have no calls= line to carry them.
    if callers and int(row["calls"]) != cc:
        print("%s: %s calls, cProfile %d" % (name, row["calls"], cc)); bad += 1
if ours:
    print("extra rows: %s" % sorted(ours)); bad += 1
want = st.total_tt * 1e9
if abs(total - want) > len(st.stats):
    print("total %d ns, cProfile %.1f ns" % (total, want)); bad += 1
print("%d functions, total %d ns (cProfile %.0f ns): %d differ"
      % (len(st.stats), total, want, bad))
sys.exit(1 if bad else 0)
PY
finish
