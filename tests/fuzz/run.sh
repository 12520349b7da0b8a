#!/bin/sh
# run.sh -- run the libFuzzer targets of a --enable-fuzzing build.
#   tests/fuzz/run.sh BUILDDIR [SECONDS [TARGET...]]
# For each target, seeds a corpus in BUILDDIR/fuzz-corpus/TARGET from
# samples/TARGET/* and tests/bad/TARGET/* (under 256 KiB; pprof's .pb.gz
# also unpacked; the formula target from the formulas and --fail-if rules
# of the tests and the man page, the roundtrip target from every format's
# seeds), runs BUILDDIR/tests/fuzz/fuzz_TARGET for SECONDS (300), and
# leaves crash-*, leak-*, timeout-*, oom-* files in BUILDDIR/fuzz-out/TARGET.
# Exits 1 if any target found something.
# SECONDS are CPU seconds of the target (user + system): on a shared
# machine wall time says little.  The target is interrupted when it has
# used them (libFuzzer's -max_total_time, which is wall time, is set to
# 20 times SECONDS as a backstop).  Each run ends with one line for the
# table in tests/fuzz/README.md: CPU minutes, executions, cov/ft of
# libFuzzer's last status line, corpus files.
# PH_FUZZ_ARGS adds libFuzzer options, e.g. -max_len=8192 (small inputs
# run ~30x faster than the samples and reach more of the callgrind reader).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR [SECONDS [TARGET...]]}" && pwd) || exit 2
secs=${2:-300}
[ $# -gt 2 ] && shift 2 || set -- callgrind cachegrind gmon native pprof \
    drcctprof folded roundtrip formula
. "$top/tests/fuzz/seeds.sh"

# CPU seconds (user + system) used so far by process $1, or nothing.
cpu_of() {
    awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print int(($12 + $13) / hz) }' \
        "/proc/$1/stat" 2>/dev/null
}

status=0
for t; do
    bin=$build/tests/fuzz/fuzz_$t
    [ -x "$bin" ] || { echo "$t: no $bin (configure CC=clang --enable-fuzzing)"; status=1; continue; }
    corpus=$build/fuzz-corpus/$t out=$build/fuzz-out/$t
    mkdir -p "$corpus" "$out"
    seed_target "$t" "$corpus"
    exe=
    [ "$t" = gmon ] && exe=$top/$fuzz_gmon_exe
    echo "== $t: $(ls "$corpus" | wc -l) inputs, ${secs} CPU seconds"
    # UBSan's reports are findings too: stop at the first (the build lets
    # them recover, so libFuzzer would never see one)
    (cd "$out" && PH_FUZZ_GMON_EXE=$exe \
        UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
        exec "$bin" \
        -max_total_time=$((secs * 20)) -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 ${PH_FUZZ_ARGS:-} "$corpus" >"$out/log" 2>&1) &
    pid=$!
    used=0
    while kill -0 "$pid" 2>/dev/null; do
        sleep 5
        c=$(cpu_of "$pid") && [ -n "$c" ] && used=$c
        [ "$used" -ge "$secs" ] && kill -INT "$pid" 2>/dev/null
    done
    wait "$pid"
    tail -n 12 "$out/log" | grep -aE 'stat::number_of_executed_units|ERROR|SUMMARY'
    last=$(grep -aE '^#[0-9]+.*cov: ' "$out/log" | tail -n 1)
    echo "$t: $(awk -v s="$used" 'BEGIN { printf "%.1f", s / 60 }') CPU-min," \
        "$(grep -ao 'number_of_executed_units: [0-9]*' "$out/log" | tail -n 1 |
           grep -o '[0-9]*$') execs," \
        "$(echo "$last" | grep -aoE 'cov: [0-9]+ ft: [0-9]+')," \
        "corpus $(ls "$corpus" | wc -l) files"
    if ls "$out" | grep -Eq '^(crash|leak|timeout|oom)-'; then
        echo "$t: FOUND: $(ls "$out" | grep -E '^(crash|leak|timeout|oom)-' | tr '\n' ' ')"
        status=1
    fi
done
exit $status
