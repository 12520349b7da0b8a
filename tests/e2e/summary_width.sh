#!/bin/sh
# summary_width.sh -- every text view of `profhub summary` fits an
# 80-column terminal (longest line <= 80 characters, COLUMNS=80) on every
# sample, with long C++ and glibc names and long paths, and exits 0; -w N
# fits N columns; in a pipe without COLUMNS or -w nothing is cut.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
S=$top_srcdir/samples


checked=0
check() { # LABEL profhub-summary-args...
    label=$1
    shift
    COLUMNS=80 "$PROFHUB" summary "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc != 0 ]; then
        echo "FAIL $label: exit status $rc"; head -3 "$tmp/err"
        failures=$((failures + 1)); return
    fi
    # Characters, not bytes (C++ names are ASCII, paths may not be).
    max=$(LC_ALL=C.UTF-8 awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/out")
    checked=$((checked + 1))
    if [ "$max" -gt 80 ]; then
        echo "FAIL $label: a line of $max columns:"
        LC_ALL=C.UTF-8 awk 'length($0) > 80' "$tmp/out" | head -3
        failures=$((failures + 1))
    fi
}

for f in "$S"/callgrind/*.out* "$S"/cachegrind/*.out* "$S"/pprof/*.pb.gz; do
    [ -s "$f" ] || continue
    n=$(basename "$f")
    check "$n" "$f"
    check "$n --top 0" --top 0 "$f"
    check "$n --group file" --group file "$f"
    check "$n --group object" --group object "$f"
    check "$n --group class" --group class "$f"
    check "$n --sort inclusive" --sort inclusive "$f"
    check "$n --tree" --tree --top 10 "$f"
    # main, or each thread's start (--separate-threads parts).
    check "$n --butterfly main" --butterfly 'main$|^start_thread$' "$f"
    check "$n --annotate main" --annotate '^main|^start_thread$' \
        --source-dir "$top_srcdir" "$f"
done
for d in "$S"/gmon/*/; do
    [ -f "$d/gmon.out" ] || continue
    n=gmon/$(basename "$d")
    check "$n" --exe "$d/prog" "$d/gmon.out"
    check "$n --tree" --tree --exe "$d/prog" "$d/gmon.out"
done
# -w wins over COLUMNS; a pipe without either cuts nothing: the longest
# function name of the C++ sample appears whole.
f=$S/callgrind/shapes.default.out
COLUMNS=80 "$PROFHUB" summary -w 120 -n 0 "$f" >"$tmp/out" 2>/dev/null
max=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/out")
checked=$((checked + 1))
[ "$max" -gt 80 ] && [ "$max" -le 120 ] ||
    { echo "FAIL -w 120: longest line $max"; failures=$((failures + 1)); }
long=$("$PROFHUB" summary -f csv -n 0 "$f" | python3 -c '
import csv, sys
print(max((r["name"] for r in csv.DictReader(sys.stdin)), key=len))')
checked=$((checked + 1))
(unset COLUMNS; "$PROFHUB" summary -n 0 "$f") >"$tmp/out" 2>/dev/null
[ "${#long}" -gt 60 ] && grep -qF -- "$long" "$tmp/out" ||
    { echo "FAIL pipe: \"$long\" was cut"; failures=$((failures + 1)); }
echo "$checked reports checked, $failures failed"
checks=$checked
[ "$checked" -gt 0 ] || fail "nothing was checked"
finish
