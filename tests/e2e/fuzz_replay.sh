#!/bin/sh
# fuzz_replay.sh -- every fuzz target, built without libFuzzer (replay.c's
# main), given each of its seeds once: the samples and tests/bad cases of
# its format, every format's for the writer round trip, the quoted
# formulas and --fail-if rules for the formula target.  A target aborts
# on what it checks (an event lost without a drop warning, an error
# without a position, a crash under the sanitizer build), so a finding
# that became a tests/bad case stays fixed here, and the targets keep
# compiling with gcc -Werror.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
top=$top_srcdir build=$top_builddir
. "$top/tests/fuzz/seeds.sh"
PH_FUZZ_GMON_EXE=$top/$fuzz_gmon_exe
export PH_FUZZ_GMON_EXE

for t in $fuzz_importers roundtrip formula; do
    bin=$build/tests/fuzz/fuzz_$t
    [ -x "$bin" ] || { echo "ERROR: $bin is not built"; exit 99; }
    mkdir "$tmp/$t"
    seed_target "$t" "$tmp/$t"
    n=$(ls "$tmp/$t" | wc -l)
    # native has no committed samples: its seeds are recorded (run.sh's
    # fuzz-seeds); every other target must have some
    [ "$n" -gt 0 ] || [ "$t" = native ] || fail "$t: no seeds"
    [ "$n" -gt 0 ] || continue
    testrun "$bin" "$tmp/$t"/*
    [ "$status" -eq 0 ] ||
        { fail "$t: the target failed (exit $status) on a seed"; show_output; }
    echo "$t: $n seeds replayed"
done
finish
