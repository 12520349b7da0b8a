#!/bin/sh
# gmon_live.sh -- gprof attribution on programs built and run here (issue
# 13 item 7): tests/e2e/src/gmon_plt.c calls into the C library in a loop,
# so ticks land in the PLT (dynamic) or IPLT and libc's own code (static).
# Built with gcc -pg as a PIE, a non-PIE and a static program, each run
# once; then per program:
#  - gprof -b -p / -q (parsed by tests/e2e/gprof2tsv) equal what
#    analysis/gprof_prop.c computes (tests/e2e/gprof_table), as in
#    peer_gmon.sh;
#  - profhub summary names no function by address and lists gprof's flat
#    profile: PLT ticks as _init, as gprof does (tests/e2e/gprof_flat_cmp);
#  - summary --gprof prints gprof -b -q's call graph (tests/e2e/
#    gprof_graph_cmp);
# the same for samples/src/recursion.c (cycles, self recursion), and a
# gmon.out without --exe is refused (exit 1) unless --raw-addresses.
# A run gets few ticks, under load sometimes none: gprof then prints no
# entry for main (samples/gmon/recursion-noticks checks that case every
# time, in gprof_views.sh and peer_gmon.sh).
# Skips (77) without gcc, gprof or python3.
. "$(dirname "$0")/lib.sh"
need_program gcc gprof python3
TABLE=$top_builddir/tests/e2e/gprof_table
G2T=$top_srcdir/tests/e2e/gprof2tsv

build() {
    mkdir -p "$tmp/$1"
    shift
    gcc -pg -O1 -fno-builtin "$@" -o "$tmp/$name/prog" 2>"$tmp/$name/cc.err"
}

PLT=$top_srcdir/tests/e2e/src/gmon_plt.c
for v in pie nopie static cycles; do
    name=$v scale=60
    case $v in
    pie) flags="-pie -fPIE $PLT" ;;
    nopie) flags="-no-pie $PLT" ;;
    static) flags="-static $PLT" ;;
    cycles) flags="$SAMPLES/src/recursion.c" scale=300 ;;
    esac
    # shellcheck disable=SC2086
    if ! build "$v" $flags; then
        echo "skip $v: gcc cannot build it: $(head -1 "$tmp/$v/cc.err")"
        continue
    fi
    d=$tmp/$v
    (cd "$d" && ./prog $scale >/dev/null) || { fail "$v: the program failed"; continue; }
    [ -s "$d/gmon.out" ] || { fail "$v: no gmon.out written"; continue; }
    gprof -b -p "$d/prog" "$d/gmon.out" >"$d/flat" 2>/dev/null &&
        gprof -b -q "$d/prog" "$d/gmon.out" >"$d/graph" 2>/dev/null ||
        { fail "$v: gprof failed"; continue; }

    # gprof's numbers, function by function
    checks=$((checks + 1))
    python3 "$G2T" "$d/flat" "$d/graph" | sort >"$d/want"
    "$TABLE" "$d/prog" "$d/gmon.out" | sort >"$d/got"
    if [ ! -s "$d/want" ]; then
        fail "$v: could not parse gprof's output"
    elif ! cmp -s "$d/want" "$d/got"; then
        fail "$v: gprof_table differs from gprof (< gprof, > profhub)"
        diff "$d/want" "$d/got"
    fi

    # the summary: gprof's functions and self seconds, no address names
    testrun "$PROFHUB" summary -w 100000 -n 0 --exe "$d/prog" "$d/gmon.out"
    if [ "$status" != 0 ]; then
        fail "$v: summary exit status $status"; show_output; continue
    fi
    checks=$((checks + 1))
    python3 "$top_srcdir/tests/e2e/gprof_flat_cmp" "$d/flat" "$d/graph" "$tmp/out" >"$d/cmp"
    if [ -s "$d/cmp" ]; then
        fail "$v: summary differs from gprof's flat profile"; cat "$d/cmp"
    else
        echo "ok   $v: $(grep -c '^fn' "$d/got") functions equal gprof" \
             "($(grep -c . "$d/flat") flat lines)"
    fi
    if expect_status 0 "$PROFHUB" summary --gprof --exe "$d/prog" "$d/gmon.out"; then
        checks=$((checks + 1))
        python3 "$top_srcdir/tests/e2e/gprof_graph_cmp" "$d/graph" "$tmp/out" >"$d/gcmp" ||
            { fail "$v: --gprof differs from gprof -b -q"; cat "$d/gcmp"; }
    fi
done

# Without the program: refused, unless raw addresses are asked for.
g=$SAMPLES/gmon/chain-nopie/gmon.out
if expect_status 1 "$PROFHUB" summary "$g"; then
    grep -q 'no executable given.*--exe PROG.*--raw-addresses' "$tmp/err" ||
        { fail "no --exe: the message does not name --exe and --raw-addresses"; cat "$tmp/err"; }
    [ -s "$tmp/out" ] && fail "no --exe: a report was printed"
fi
expect_status 1 "$PROFHUB" convert "$g" -o "$tmp/x.folded"
[ -e "$tmp/x.folded" ] && fail "no --exe: convert wrote a file"
if expect_status 0 "$PROFHUB" summary --raw-addresses -n 3 "$g"; then
    grep -q '0x' "$tmp/out" || fail "--raw-addresses: no address names"
fi
expect_status 0 "$PROFHUB" info --raw-addresses "$g"
finish
