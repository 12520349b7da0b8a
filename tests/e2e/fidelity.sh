#!/bin/sh
# fidelity.sh -- conversions show what the source tool showed: objects
# survive both ways between callgrind and pprof (go tool pprof reads the
# program as its first mapping; callgrind gets the pprof mappings' files).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

# callgrind -> pprof: mapping 1 is the program of the run's cmd:
cg=$SAMPLES/callgrind/chain.default.out
prog=$(awk '/^cmd:/ { print $2; exit }' "$cg")
expect_status 0 "$PROFHUB" convert "$cg" -o "$tmp/c.pb.gz"
if command -v go >/dev/null 2>&1; then
    checks=$((checks + 1))
    first=$(go tool pprof -raw "$tmp/c.pb.gz" 2>/dev/null |
            awk '/^Mappings/ { getline; print $3; exit }')
    [ "$(basename "${first:-none}")" = "$(basename "$prog")" ] ||
        fail "callgrind -> pprof: first mapping is $first, not the program $prog"
    # lines survive: hot_loop's cost is on its source lines, not on
    # line 0, and they add up to its self cost
    checks=$((checks + 1))
    go tool pprof -lines -top -nodecount=100000 -nodefraction=0 "$tmp/c.pb.gz" 2>/dev/null |
        awk '$6 == "hot_loop" { n++; s += $1 } END { print n + 0, s + 0 }' \
        >"$tmp/lines"
    self=$("$PROFHUB" summary -n 0 -f csv "$cg" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r["name"] == "hot_loop":
        print(r["self_Ir"])')
    read -r nlines sum <"$tmp/lines"
    [ "$nlines" -ge 5 ] && [ "$sum" = "$self" ] ||
        fail "callgrind -> pprof: hot_loop on $nlines lines adding to $sum, self is $self"
else
    echo "go is not installed: mapping order and lines not checked by go tool pprof"
fi

# pprof -> callgrind and summary: functions belong to their mapping's file
pb=$SAMPLES/pprof/gowork.cpu.pb.gz
expect_status 0 "$PROFHUB" convert "$pb" -o "$tmp/p.callgrind"
checks=$((checks + 1))
grep -q '^ob=???' "$tmp/p.callgrind" &&
    fail "pprof -> callgrind: ob=??? although the profile names its mappings"
expect_status 0 "$PROFHUB" summary -g object -f csv "$pb"
checks=$((checks + 1))
grep -q '???' "$tmp/out" && fail "summary -g object of pprof data shows ???"

# units: a drcctprof "sec" metric holds microseconds (HPCToolkit's
# converter); gmon ticks are 1/rate seconds.  pprof exports say the time
# the source tool means.
if command -v go >/dev/null 2>&1; then
    ez=$SAMPLES/easyview/fig6_lulesh_bottomup.ezview
    expect_status 0 "$PROFHUB" convert "$ez" -o "$tmp/e.pb.gz"
    checks=$((checks + 1))
    sum=$("$PROFHUB" info -f json "$ez" | python3 -c '
import json, sys
print("%.2fs" % (json.load(sys.stdin)["events"][0]["total"] / 1e6))')
    go tool pprof -top -unit=s "$tmp/e.pb.gz" 2>/dev/null |
        grep -q "of $sum total" ||
        fail "drcctprof -> pprof: go tool pprof does not show $sum in all"
    d=$SAMPLES/gmon/chain-nopie
    if command -v gprof >/dev/null 2>&1; then
        expect_status 0 "$PROFHUB" convert --exe "$d/prog" "$d/gmon.out" \
            -o "$tmp/g.pb.gz"
        checks=$((checks + 1))
        secs=$(gprof -b -p "$d/prog" "$d/gmon.out" |
               awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+/ { c = $2 } END { print c }')
        go tool pprof -top -unit=s "$tmp/g.pb.gz" 2>/dev/null |
            grep -q "of ${secs}s total" ||
            fail "gmon -> pprof: go tool pprof total is not gprof's ${secs}s"
    fi
fi

finish
