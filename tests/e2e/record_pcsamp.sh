#!/bin/sh
# record_pcsamp.sh -- profhub record -c pcsamp on samples/src/chain.c: the
# hot function (hot_loop) holds most samples; the program's stdout and exit
# status are the same with and without recording; the profile converts to
# callgrind (callgrind_annotate reads it) and pprof (go tool pprof reads it).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

build chain "$SAMPLES/src/chain.c"
cd "$tmp" || exit 99

./chain 200 >plain.out 2>plain.err
plain_status=$?
expect_status 0 "$PROFHUB" record -p rate=1000 -o pc.phx -- ./chain 200
cp "$tmp/out" rec.out
cmp -s plain.out rec.out || fail "stdout differs under profhub record"
[ -s "$tmp/err" ] && fail "profhub record printed on stderr: $(cat "$tmp/err")"
[ "$plain_status" = 0 ] || fail "chain itself exited $plain_status"

all=$(total pc.phx samples)
hot=$(csv_field pc.phx hot_loop self_samples)
echo "pcsamp: $all samples, hot_loop $hot"
[ "$all" -ge 20 ] || fail "only $all samples for about 0.2 s of CPU at 1000 Hz"
[ -n "$hot" ] && [ $((hot * 100)) -ge $((all * 60)) ] ||
    fail "hot_loop holds $hot of $all samples, expected most"

# default rate, native default name
expect_status 0 "$PROFHUB" record -- ./chain 50
[ -f chain-pcsamp.phx ] || fail "default output chain-pcsamp.phx missing"

# conversions through the exporter registry
expect_status 0 "$PROFHUB" record -p rate=1000 -o pc.callgrind -- ./chain 200
if command -v callgrind_annotate >/dev/null 2>&1; then
    callgrind_annotate pc.callgrind >ann.txt 2>/dev/null ||
        fail "callgrind_annotate cannot read the recorded profile"
    grep -q "hot_loop" ann.txt || fail "callgrind_annotate does not show hot_loop"
fi
expect_status 0 "$PROFHUB" record -p rate=1000 -o pc.pb.gz -- ./chain 200
if command -v go >/dev/null 2>&1; then
    go tool pprof -top pc.pb.gz >top.txt 2>/dev/null ||
        fail "go tool pprof cannot read the recorded profile"
    awk 'f { print $NF; exit } /flat%/ { f = 1 }' top.txt | grep -qx hot_loop ||
        fail "go tool pprof's top function is not hot_loop: $(head -8 top.txt)"
fi
finish
