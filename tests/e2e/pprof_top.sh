#!/bin/sh
# pprof_top.sh -- our summary of every pprof sample equals what
# `go tool pprof -top -nodecount=1000` prints: flat and cum per function and
# the total, for every sample type (samples/pprof/*.pb.gz, made by Go's
# runtime/pprof through samples/regen.sh).  Skipped without go.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program go python3

# pprof prints values scaled to a unit; ask for the base unit so the
# numbers are exact.
unit_flag() {
    case $1 in
    nanoseconds) echo "-unit=ns" ;;
    bytes) echo "-unit=B" ;;
    *) echo "" ;;
    esac
}

set -- "$SAMPLES"/pprof/*.pb.gz
[ -e "$1" ] || skip "no pprof samples in $SAMPLES/pprof"
for f in "$@"; do
    name=$(basename "$f")
    "$PROFHUB" info -f json "$f" >"$tmp/info.json" || { fail "$name: info failed"; continue; }
    python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["events"]:
    print(e["name"], e["unit"] or "count")' "$tmp/info.json" >"$tmp/events"
    while read -r ev unit; do
        checks=$((checks + 1))
        go tool pprof -top -nodecount=1000 -nodefraction=0 -edgefraction=0 \
            -sample_index="$ev" $(unit_flag "$unit") "$f" \
            >"$tmp/top.txt" 2>/dev/null || { fail "$name: go tool pprof failed"; continue; }
        "$PROFHUB" summary -n 0 -f csv -e "$ev" "$f" >"$tmp/ours.csv" \
            || { fail "$name: profhub summary -e $ev failed"; continue; }
        if python3 "$top_srcdir/tests/e2e/pprofcmp.py" top "$tmp/top.txt" \
            "$tmp/ours.csv" "$ev" >"$tmp/cmp"; then
            echo "$name $ev: $(tail -1 "$tmp/cmp")"
        else
            fail "$name $ev: differs from go tool pprof -top"
            cat "$tmp/cmp"
        fi
    done <"$tmp/events"
done
finish
