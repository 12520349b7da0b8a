#!/bin/sh
# memory_limit.sh -- memory is bounded by --max-memory / PROFHUB_MAX_MEMORY
# (issue 15 item 7).  Three inputs made here by a script, each small on
# disk and huge in memory: a gzip bomb (1 MiB of gzip inflating to 1 GiB
# of zeros), a gzipped pprof of a few KB holding 3 million empty samples,
# and a callgrind file with 1 million distinct function names.  Under a
# 64 MiB limit each must exit 1 with one message naming the file and the
# limit (never "protobuf decoding failed"); with the default limit (half
# the physical memory) real samples still read.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

python3 - "$tmp" <<'PY' || fail "cannot make the inputs"
import gzip, sys, zlib
d = sys.argv[1]
z = zlib.compressobj(9, zlib.DEFLATED, 31)      # gzip wrapper
with open(d + "/bomb.gz", "wb") as f:
    chunk = bytes(1 << 20)
    for _ in range(1024):
        f.write(z.compress(chunk))
    f.write(z.flush())
# pprof: string_table [""] (field 6), then 3M Sample{} (field 2, empty)
with gzip.open(d + "/samples.pb.gz", "wb") as f:
    f.write(b"\x32\x00" + b"\x12\x00" * 3000000)
with open(d + "/names.out", "w") as f:
    f.write("version: 1\ncmd: names\nevents: Ir\n")
    for i in range(1000000):
        f.write("fn=function_number_%d\n1 1\n" % i)
PY

expect_limit() {
    # $1: the file named in the message; then the command
    file=$1
    shift
    testrun "$@"
    if [ "$status" != 1 ] || ! grep -q "$file.*limit of 64 MiB" "$tmp/err" \
        || grep -q "protobuf decoding failed" "$tmp/err" \
        || [ "$(wc -l <"$tmp/err")" != 1 ]; then
        fail "$*: want exit 1 and one line naming $file and the limit"
        echo "exit $status"
        show_output
    fi
}

expect_limit bomb.gz "$PROFHUB" summary --max-memory 64M "$tmp/bomb.gz"
expect_limit bomb.gz env PROFHUB_MAX_MEMORY=64M "$PROFHUB" summary "$tmp/bomb.gz"
expect_limit samples.pb.gz "$PROFHUB" summary -F pprof --max-memory=64M \
    "$tmp/samples.pb.gz"
expect_limit names.out "$PROFHUB" convert --max-memory 64M \
    "$tmp/names.out" -o "$tmp/names.folded"
[ -e "$tmp/names.folded" ] && fail "an output was left behind"

# A bad size is a usage error; the default limit reads a real sample.
expect_status 2 "$PROFHUB" summary --max-memory lots \
    "$SAMPLES/callgrind/chain.default.out"
expect_status 2 env PROFHUB_MAX_MEMORY=12X "$PROFHUB" summary \
    "$SAMPLES/callgrind/chain.default.out"
expect_status 0 "$PROFHUB" summary "$SAMPLES/pprof/gowork.heavy.cpu.pb.gz"
expect_status 0 "$PROFHUB" summary "$SAMPLES/callgrind/chain.default.out"
finish
