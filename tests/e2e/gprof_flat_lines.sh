#!/bin/sh
# gprof_flat_lines.sh -- summary --lines on gmon data is gprof -l's flat
# profile (issue 17): gprof -b -l -p run live on samples/gmon/* and on
# programs built here with gcc -pg -g -O1 (tests/e2e/src/gmon_plt.c as a PIE
# and a non-PIE, samples/src/recursion.c), compared row by row by
# tests/e2e/gprof_lines_cmp: the same line symbols, self and cumulative
# seconds, percent to gprof's two decimals, calls.  gprof -l stops on
# some programs ("somebody miscounted"); those are skipped, by name.
# Exit 77 without gprof or python3 (gcc only adds the built programs).
. "$(dirname "$0")/lib.sh"
need_program gprof python3

progs=
for gm in "$SAMPLES"/gmon/*/gmon.out; do
    [ -f "$gm" ] && progs="$progs $(dirname "$gm")"
done
if command -v gcc >/dev/null 2>&1; then
    PLT=$top_srcdir/tests/e2e/src/gmon_plt.c
    for v in pie nopie cycles; do
        case $v in
        pie) flags="-pie -fPIE $PLT" scale=60 ;;
        nopie) flags="-no-pie $PLT" scale=60 ;;
        cycles) flags="$SAMPLES/src/recursion.c" scale=300 ;;
        esac
        mkdir -p "$tmp/$v"
        # shellcheck disable=SC2086
        if ! gcc -pg -g -O1 -fno-builtin $flags -o "$tmp/$v/prog" 2>"$tmp/cc.err"; then
            echo "skip built $v: $(head -1 "$tmp/cc.err")"
            continue
        fi
        (cd "$tmp/$v" && ./prog $scale >/dev/null) ||
            { fail "built $v: the program failed"; continue; }
        progs="$progs $tmp/$v"
    done
fi

n=0
for d in $progs; do
    name=$(basename "$d")
    if ! gprof -b -l -p "$d/prog" "$d/gmon.out" >"$tmp/want" 2>"$tmp/gerr"; then
        echo "skip $name: gprof -l failed: $(head -1 "$tmp/gerr")"
        continue
    fi
    "$PROFHUB" summary --lines -n 0 -w 1000 --exe "$d/prog" "$d/gmon.out" \
        >"$tmp/text" 2>"$tmp/err" &&
        "$PROFHUB" summary --lines -n 0 -f json --exe "$d/prog" \
            "$d/gmon.out" >"$tmp/json" 2>>"$tmp/err" ||
        { fail "$name: summary --lines: $(cat "$tmp/err")"; continue; }
    if python3 "$top_srcdir/tests/e2e/gprof_lines_cmp" "$tmp/want" \
        "$tmp/text" "$tmp/json" >"$tmp/cmp" 2>"$tmp/count"; then
        echo "ok   $name: $(cat "$tmp/count")"
        checks=$((checks + 1))
    else
        fail "$name: summary --lines differs from gprof -b -l -p"
        head -20 "$tmp/cmp"
    fi
    n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "gprof -l read no program"
finish
