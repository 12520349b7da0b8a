#!/bin/sh
# run.sh -- run the libFuzzer targets of a --enable-fuzzing build.
#   tests/fuzz/run.sh BUILDDIR [SECONDS [FORMAT...]]
# For each format, seeds a corpus in BUILDDIR/fuzz-corpus/FORMAT from
# samples/FORMAT/* and tests/bad/FORMAT/* (under 256 KiB; pprof's .pb.gz
# also unpacked), runs BUILDDIR/tests/fuzz/fuzz_FORMAT for SECONDS (300),
# and leaves crash-*, leak-*, timeout-*, oom-* files in
# BUILDDIR/fuzz-out/FORMAT.  Exits 1 if any target found something.
# PH_FUZZ_ARGS adds libFuzzer options, e.g. -max_len=8192 (small inputs
# run ~30x faster than the samples and reach more of the callgrind reader).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR [SECONDS [FORMAT...]]}" && pwd) || exit 2
secs=${2:-300}
[ $# -gt 2 ] && shift 2 || set -- callgrind cachegrind gmon native pprof drcctprof folded
status=0
for fmt; do
    bin=$build/tests/fuzz/fuzz_$fmt
    [ -x "$bin" ] || { echo "$fmt: no $bin (configure CC=clang --enable-fuzzing)"; status=1; continue; }
    corpus=$build/fuzz-corpus/$fmt out=$build/fuzz-out/$fmt
    mkdir -p "$corpus" "$out"
    for d in "$top/samples/$fmt" "$top/tests/bad/$fmt" "$build/fuzz-seeds/$fmt"; do
        [ -d "$d" ] || continue
        find "$d" -type f -size -256k ! -name '*.err' ! -name '*.sh' \
            ! -name '*.py' ! -name '*.exe' -exec cp {} "$corpus/" \;
    done
    for z in "$corpus"/*.gz; do
        [ -f "$z" ] && gzip -dc "$z" >"${z%.gz}"
    done
    exe=
    [ "$fmt" = gmon ] && exe=$top/samples/gmon/recursion-pie/prog
    echo "== $fmt: $(ls "$corpus" | wc -l) inputs, ${secs}s"
    (cd "$out" && PH_FUZZ_GMON_EXE=$exe "$bin" -max_total_time="$secs" \
        -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 ${PH_FUZZ_ARGS:-} \
        "$corpus" >"$out/log" 2>&1)
    tail -n 12 "$out/log" | grep -E 'stat::number_of_executed_units|ERROR|SUMMARY'
    if ls "$out" | grep -Eq '^(crash|leak|timeout|oom)-'; then
        echo "$fmt: FOUND: $(ls "$out" | grep -E '^(crash|leak|timeout|oom)-' | tr '\n' ' ')"
        status=1
    fi
done
exit $status
