#!/bin/sh
# writer_gopprof.sh -- samples/gopprof/gowork.cpu.out, written by
# `go tool pprof -callgrind` from samples/pprof/gowork.cpu.pb.gz, loads, and
# our summary of it equals `go tool pprof -top` of the source profile: the
# total, and flat and cum of every function.  Skipped without go.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program go python3

f=$SAMPLES/gopprof/gowork.cpu.out
src=$SAMPLES/pprof/gowork.cpu.pb.gz
checks=$((checks + 1))
go tool pprof -top -nodecount=1000 -nodefraction=0 -edgefraction=0 \
    -sample_index=cpu -unit=ms "$src" >"$tmp/top.txt" 2>/dev/null \
    || fail "go tool pprof -top failed on $src"
"$PROFHUB" summary -n 0 -f csv "$f" >"$tmp/ours.csv" 2>"$tmp/err" \
    || { fail "profhub summary failed on $f"; cat "$tmp/err"; }
if python3 "$top_srcdir/tests/e2e/pprofcmp.py" top "$tmp/top.txt" \
        "$tmp/ours.csv" 'cpu(ms)' >"$tmp/cmp"; then
    echo "gowork.cpu.out: $(tail -1 "$tmp/cmp")"
else
    fail "gowork.cpu.out differs from go tool pprof -top of the source"
    cat "$tmp/cmp"
fi
# The total, as pprof prints it ("Total samples = 1420ms").
want=$(sed -n 's/.*Total samples = \([0-9]*\)ms.*/\1/p' "$tmp/top.txt")
got=$("$PROFHUB" info -f json "$f" | python3 -c '
import json, sys
print(json.load(sys.stdin)["events"][0]["total"])')
checks=$((checks + 1))
[ -n "$want" ] && [ "$want" = "$got" ] \
    || fail "total: go tool pprof says ${want}ms, profhub ${got}"
echo "total: pprof ${want}ms, profhub $got"
finish
