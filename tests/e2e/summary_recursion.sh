#!/bin/sh
# summary_recursion.sh -- on the recursion samples (callgrind with plain
# self calls and with --separate-recs pseudo-functions like fib'2), no
# function's or cycle's inclusive cost exceeds the total, and the cycles
# found are the one in samples/src/recursion.c: is_even <-> is_odd (fib,
# walk, build and destroy only call themselves, which is no cycle).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
SJ="perl $top_srcdir/tests/e2e/summary_json"
SRC=$top_srcdir/samples/src/recursion.c

perl -MJSON::PP -e 1 2>/dev/null || skip "no perl JSON::PP"
ls "$top_srcdir"/samples/callgrind/recursion*.out >/dev/null 2>&1 \
    || skip "no recursion samples"
# The mutual recursion the expectation below stands for.
grep -q 'is_odd(' "$SRC" && grep -q 'is_even(' "$SRC" \
    || { echo "FAIL: $SRC no longer has is_even/is_odd"; exit 1; }
expected="cycle 1: is_even is_odd"


checked=0
for sample in "$top_srcdir"/samples/callgrind/recursion*.out; do
    name=$(basename "$sample")
    ok=1
    "$PROFHUB" summary -f json -n 0 "$sample" >"$tmp/ours.json" \
        2>"$tmp/err" || { cat "$tmp/err"; ok=0; }
    $SJ bounds <"$tmp/ours.json" >"$tmp/out" || ok=0
    # --separate-recs names recursion levels fn'2: compare base names.
    found=$(grep '^cycle' "$tmp/out" | perl -ne '
        chomp; my ($h, $m) = /^(cycle \d+): (.*)$/ or next;
        my %u = map { s/\x27\d+$//r => 1 } split / /, $m;
        print "$h: ", join(" ", sort keys %u), "\n"')
    [ "$found" = "$expected" ] || {
        echo "cycles found: ${found:-none}; expected: $expected"; ok=0; }
    checked=$((checked + 1))
    if [ $ok = 1 ]; then
        echo "ok   $name: inclusive <= total everywhere; $found"
    else
        echo "FAIL $name"; grep -v '^cycle' "$tmp/out" | head -10
        failures=$((failures + 1))
    fi
done
# Without the cycle rule the members' inclusive is KCachegrind's (calls
# into them), which counts the recursion again: make sure the test can
# see that, so the check above means something.
"$PROFHUB" summary -f json -n 0 --no-cycles \
    "$top_srcdir/samples/callgrind/recursion.recs1.out" >"$tmp/nc.json" \
    && ! $SJ bounds <"$tmp/nc.json" >/dev/null \
    || { echo "FAIL: --no-cycles did not exceed the total"; failures=$((failures + 1)); }
echo "$checked samples checked, $failures failed"
checks=$checked
[ "$checked" -gt 0 ] || fail "nothing was checked"
finish
