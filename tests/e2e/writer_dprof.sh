#!/bin/sh
# writer_dprof.sh -- samples/dprof2calltree/work.pl.out, written by
# kcachegrind-converters' dprof2calltree from Perl Devel::DProf's
# samples/dprof2calltree/tmon.out, loads; its total equals the file's own
# summary: and every sub's call count (calls from other subs plus
# recursive calls) equals dprofpp's #Calls for the same tmon.out.
# (dprofpp's times are CPU seconds, the converter's ticks are elapsed
# time, so times are not compared.)  Skipped without dprofpp.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program dprofpp python3

d=$SAMPLES/dprof2calltree
(cd "$tmp" && dprofpp -O 1000 "$d/tmon.out") >"$tmp/peer.txt" 2>&1 \
    || fail "dprofpp failed"
testrun "$PROFHUB" summary -n 0 "$d/work.pl.out"
[ "$status" = 0 ] || { fail "profhub summary exited $status"; show_output; }
cp "$tmp/out" "$tmp/ours.txt"
checks=$((checks + 1))
python3 - "$tmp/peer.txt" "$tmp/ours.txt" "$d/work.pl.out" <<'PY' || fail "differs from dprofpp / summary:"
import re, sys
peer = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 7 and f[3].isdigit():
        peer[f[6].replace("main::", "", 1)] = int(f[3])
summary = None
for line in open(sys.argv[3]):
    if line.startswith("summary:"):
        summary = int(line.split()[1])
total, bad, n = None, 0, 0
# Text report: "events:   Tick   244", then rows
# "inclusive  %  self  %  calls  function".
row = re.compile(r"^\s*([\d,]+)\s+[\d.]+%\s+([\d,]+)\s+[\d.]+%\s+([\d,+]+)\s+(\S+)")
for line in open(sys.argv[2]):
    m = re.match(r"^events:\s+Tick\s+([\d,]+)", line)
    if m:
        total = int(m.group(1).replace(",", ""))
    m = row.match(line)
    if not m:
        continue
    calls = sum(int(x.replace(",", "")) for x in m.group(3).split("+"))
    name = m.group(4)
    if calls == 0:      # roots: the converter writes no calls= for them
        continue
    n += 1
    if peer.get(name) != calls:
        print("%s: %d calls, dprofpp %s" % (name, calls, peer.get(name))); bad += 1
if total is None or total != summary:
    print("total %s, summary: %s" % (total, summary)); bad += 1
print("%d subs with calls, total %s Tick, summary: %s: %d differ"
      % (n, total, summary, bad))
sys.exit(1 if bad else 0)
PY
finish
