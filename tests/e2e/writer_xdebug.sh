#!/bin/sh
# writer_xdebug.sh -- samples/xdebug/work.php.out, written by Xdebug 3's
# profiler, loads (its "calls=N 0 0" lines carry a field after the target,
# which KCachegrind ignores: one counted warning), and every function's
# own Time and Memory equal what callgrind_annotate prints for it; our
# total is the sum of those rows (KCachegrind's rule), and {main}'s
# inclusive time is the script time Xdebug recorded in summary: to 1%
# (Xdebug's summary also counts time outside any function).
# Skipped without callgrind_annotate.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program callgrind_annotate python3

f=$SAMPLES/xdebug/work.php.out
mkdir "$tmp/cwd"    # callgrind_annotate strips its working folder from names
(cd "$tmp/cwd" && callgrind_annotate --threshold=100 --show-percs=no \
    --auto=no "$f") >"$tmp/peer.txt" 2>&1 || fail "callgrind_annotate failed"
testrun "$PROFHUB" summary -n 0 -f csv "$f"
[ "$status" = 0 ] || { fail "profhub summary exited $status"; show_output; }
cp "$tmp/out" "$tmp/ours.csv"
n=$(grep -c 'after the target position' "$tmp/err")
[ "$n" = 1 ] || { fail "expected one counted warning, got $n lines"; cat "$tmp/err"; }
checks=$((checks + 1))
python3 - "$tmp/peer.txt" "$tmp/ours.csv" <<'PY' || fail "differs from callgrind_annotate"
import csv, re, sys
peer, total = {}, None
rows = re.compile(r"^\s*([\d,]+)\s+([\d,]+)\s+(.*\S)\s*$")
num = lambda s: int(s.replace(",", ""))
for line in open(sys.argv[1]):
    m = rows.match(line)
    if not m:
        continue
    if m.group(3) == "PROGRAM TOTALS":
        total = num(m.group(1))
    else:
        peer[m.group(3)] = (num(m.group(1)), num(m.group(2)))
bad, sums, main_incl = 0, [0, 0], None
for row in csv.DictReader(open(sys.argv[2])):
    key = row["file"] + ":" + row["name"]
    got = (int(row["self_Time_(10ns)"]), int(row["self_Memory_(bytes)"]))
    sums[0] += got[0]; sums[1] += got[1]
    if row["name"] == "{main}":
        main_incl = int(row["incl_Time_(10ns)"])
    want = peer.pop(key, None)
    if want != got:
        print("%s: profhub %s, callgrind_annotate %s" % (key, got, want)); bad += 1
if peer:
    print("only in callgrind_annotate: %s" % sorted(peer)); bad += 1
if main_incl is None or total is None or abs(main_incl - total) > total / 100:
    print("{main} inclusive %s, Xdebug's summary %s" % (main_incl, total)); bad += 1
print("total %d (rows), {main} inclusive %s, summary: %s: %d differ"
      % (sums[0], main_incl, total, bad))
sys.exit(1 if bad else 0)
PY
finish
