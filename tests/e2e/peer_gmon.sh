#!/bin/sh
# peer_gmon.sh -- gmon.out against GNU gprof (issue 6).  For every sample
# samples/gmon/NAME/{prog,gmon.out}: self seconds, calls, self calls,
# children seconds and cycle membership per function, and each cycle as a
# whole, as analysis/gprof_prop.c computes them (tests/e2e/gprof_table),
# equal what `gprof -b -p` and `gprof -b -q` print (parsed by
# tests/e2e/gprof2tsv).  Then the same for two runs summed (gprof -s), and
# the BSD layouts (tests/e2e/gmon2bsd rewrites each sample), and a
# conversion to callgrind read by callgrind_annotate must show the same
# self ticks per function as profhub holds.  Exit 77 when gprof is missing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
TABLE=$top_builddir/tests/e2e/gprof_table
case $TABLE in /*) ;; *) TABLE=$(pwd)/$TABLE ;; esac
G2T=$top_srcdir/tests/e2e/gprof2tsv

command -v gprof >/dev/null 2>&1 || skip "gprof not found"
command -v python3 >/dev/null 2>&1 || skip "python3 not found"
set -- "$top_srcdir"/samples/gmon/*/gmon.out
[ -f "$1" ] || skip "no samples/gmon/*/gmon.out"

n=0

# compare NAME PROG GMON...: gprof on the files (summed with -s first when
# several) against gprof_table on the same files.
compare() {
    cname=$1 prog=$2
    shift 2
    if [ $# -gt 1 ]; then
        # gprof 2.40 -s stops on some C++ programs ("somebody miscounted"):
        # then there is nothing to compare with
        if ! (cd "$tmp" && rm -f gmon.sum && gprof -s "$prog" "$@") >"$tmp/sumerr" 2>&1; then
            echo "skip $cname: gprof -s failed: $(head -1 "$tmp/sumerr")"; return
        fi
        cg=$tmp/gmon.sum
    else
        cg=$1
    fi
    gprof -b -p "$prog" "$cg" >"$tmp/flat" 2>/dev/null &&
        gprof -b -q "$prog" "$cg" >"$tmp/graph" 2>/dev/null &&
        python3 "$G2T" "$tmp/flat" "$tmp/graph" | sort >"$tmp/want" ||
        { echo "FAIL $cname: gprof"; failures=$((failures + 1)); return; }
    "$TABLE" "$prog" "$@" | sort >"$tmp/got" ||
        { echo "FAIL $cname: gprof_table"; failures=$((failures + 1)); return; }
    if [ ! -s "$tmp/want" ]; then
        echo "FAIL $cname: could not parse gprof's output"; failures=$((failures + 1))
    elif cmp -s "$tmp/want" "$tmp/got"; then
        echo "ok   $cname: $(grep -c '^fn' "$tmp/got") functions, $(grep -c '^cycle' "$tmp/got") cycles equal gprof"
    else
        echo "FAIL $cname: differs from gprof (< gprof, > profhub)"
        diff "$tmp/want" "$tmp/got"
        failures=$((failures + 1))
    fi
}

for g in "$@"; do
    d=$(dirname "$g")
    name=$(basename "$d")
    [ -x "$d/prog" ] || continue
    n=$((n + 1))
    compare "$name" "$d/prog" "$g"
    # gprof -s: the same run twice, summed
    compare "$name (x2, gprof -s)" "$d/prog" "$g" "$g"
    # the same data in the 4.4BSD and old BSD layouts (gprof reads both)
    if python3 "$top_srcdir/tests/e2e/gmon2bsd" "$g" "$tmp/$name.bsd44" "$tmp/$name.oldbsd" 2>/dev/null; then
        compare "$name (4.4BSD layout)" "$d/prog" "$tmp/$name.bsd44"
        compare "$name (old BSD layout)" "$d/prog" "$tmp/$name.oldbsd"
    fi
done

# Conversion to callgrind: callgrind_annotate's self cost per function must
# equal the IR's integer ticks (profhub summary, csv).
if command -v callgrind_annotate >/dev/null 2>&1 &&
   "$PROFHUB" formats 2>/dev/null | awk '$1 == "callgrind" && $3 == "yes" {f = 1} END {exit !f}'; then
    for g in "$@"; do
        d=$(dirname "$g")
        name=$(basename "$d")
        [ -x "$d/prog" ] || continue
        if ! "$PROFHUB" convert --exe "$d/prog" "$g" -o "$tmp/cg.out" -t callgrind 2>"$tmp/err"; then
            echo "FAIL $name: convert to callgrind"; cat "$tmp/err"; failures=$((failures + 1)); continue
        fi
        callgrind_annotate --threshold=100 "$tmp/cg.out" 2>/dev/null >"$tmp/cga.txt"
        python3 - "$tmp/cga.txt" >"$tmp/cga" <<'EOF'
import re, sys
# "56 (81.16%)  samples/src/recursion.c:mix [prog]"; code inlined from
# another file is a line of its own without the object, summed per function.
line = re.compile(r'^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[[^]]*\])?\s*$')
self = {}
table = seen = False
for l in open(sys.argv[1]):
    if 'file:function' in l:
        table = True
        continue
    if table and l.startswith('---'):
        if seen:
            break
        continue
    m = line.match(l) if table else None
    if m:
        seen = True
        fn = m.group(2).partition(':')[2]
        self[fn] = self.get(fn, 0) + int(m.group(1).replace(',', ''))
for fn, v in self.items():
    if v:
        print('%s\t%d' % (fn, v))
EOF
        sort "$tmp/cga" -o "$tmp/cga"
        "$PROFHUB" summary --exe "$d/prog" -n 0 -f csv "$g" 2>/dev/null >"$tmp/sum.csv"
        python3 - "$tmp/sum.csv" >"$tmp/ours" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
fi = head.index('name') if 'name' in head else head.index('function')
si = next(i for i, h in enumerate(head) if h.startswith('self'))
for r in rows[1:]:
    if (len(r) > max(fi, si) and not r[fi].startswith('<cycle')
            and r[si] not in ('', '0')):
        print('%s\t%s' % (r[fi], r[si]))
EOF
        sort "$tmp/ours" -o "$tmp/ours"
        if [ ! -s "$tmp/cga" ] && [ ! -s "$tmp/ours" ] &&
            gprof -b -p "$d/prog" "$g" 2>/dev/null | grep -q 'no time accumulated'; then
            echo "ok   $name: no self cost on either side (no tick, as gprof says)"
        elif [ ! -s "$tmp/cga" ] || [ ! -s "$tmp/ours" ]; then
            echo "FAIL $name: empty callgrind_annotate or summary output"; failures=$((failures + 1))
        elif cmp -s "$tmp/cga" "$tmp/ours"; then
            echo "ok   $name: callgrind_annotate self costs equal ($(wc -l <"$tmp/ours") functions)"
        else
            echo "FAIL $name: callgrind_annotate self costs differ (< annotate, > profhub)"
            diff "$tmp/cga" "$tmp/ours"; failures=$((failures + 1))
        fi
    done
else
    echo "callgrind_annotate or the callgrind exporter missing: conversion check skipped"
fi

echo "$n samples, $failures failed"
[ $n -gt 0 ] || skip "no sample was compared"
checks=$n
finish
