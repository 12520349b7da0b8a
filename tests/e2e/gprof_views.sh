#!/bin/sh
# gprof_views.sh -- profhub summary of gmon.out as a gprof user reads it
# (issue 13 item 5, issue 17 item 3), against gprof run live on every
# samples/gmon/NAME/{prog,gmon.out}:
#  - the text table is in seconds: each function's self seconds equal
#    `gprof -b -p`'s, every function gprof's flat profile lists (called
#    functions with no time too) is listed, and the functions only we list
#    are uncalled roots with no time (main, gprof's <spontaneous>);
#  - the root of the call graph (main) has gprof's inclusive time;
#  - summary --gprof prints gprof -b -q's call graph line for line (index
#    numbers by rank: tests/e2e/gprof_graph_cmp), --butterfly '<cycle N>'
#    gprof's "as a whole" entry, and --callers of a root <spontaneous>.
# Skips (77) without gprof or python3.
. "$(dirname "$0")/lib.sh"
need_program gprof python3
set -- "$SAMPLES"/gmon/*/gmon.out
[ -f "$1" ] || skip "no samples/gmon/*/gmon.out"

for g in "$@"; do
    d=$(dirname "$g")
    name=$(basename "$d")
    [ -x "$d/prog" ] || continue
    gprof -b -p "$d/prog" "$g" >"$tmp/flat" 2>/dev/null &&
        gprof -b -q "$d/prog" "$g" >"$tmp/graph" 2>/dev/null ||
        { fail "$name: gprof failed"; continue; }
    expect_status 0 "$PROFHUB" summary -w 100000 -n 0 --exe "$d/prog" "$g" ||
        continue
    python3 "$top_srcdir/tests/e2e/gprof_flat_cmp" "$tmp/flat" "$tmp/graph" "$tmp/out" >"$tmp/cmp"
    checks=$((checks + 1))
    if [ -s "$tmp/cmp" ]; then
        fail "$name: summary differs from gprof -b -p"; cat "$tmp/cmp"
    else
        echo "ok   $name: summary in seconds equals gprof's flat profile ($(grep -c . "$tmp/flat") lines)"
    fi

    # the call graph, line for line
    if expect_status 0 "$PROFHUB" summary --gprof --exe "$d/prog" "$g"; then
        checks=$((checks + 1))
        if python3 "$top_srcdir/tests/e2e/gprof_graph_cmp" "$tmp/graph" "$tmp/out" >"$tmp/gcmp"; then
            echo "ok   $name: --gprof equals gprof -b -q ($(grep -c '^\[' "$tmp/out") entries)"
        else
            fail "$name: --gprof differs from gprof -b -q"; cat "$tmp/gcmp"
        fi
    fi
    # each cycle as a whole, asked for by name
    for c in $(sed -n 's/.*<cycle \([0-9]*\) as a whole>.*/\1/p' "$tmp/graph"); do
        sed -n "/<cycle $c as a whole>/,/^---/p" "$tmp/graph" |
            sed 's/\[[0-9]*\]/[N]/g' >"$tmp/cyc.want"
        if expect_status 0 "$PROFHUB" summary --exe "$d/prog" "$g" --butterfly "<cycle $c>"; then
            sed -n "/<cycle $c as a whole>/,/^---/p" "$tmp/out" |
                sed 's/\[[0-9]*\]/[N]/g' >"$tmp/cyc.got"
            if [ ! -s "$tmp/cyc.got" ] || ! cmp -s "$tmp/cyc.want" "$tmp/cyc.got"; then
                fail "$name: --butterfly '<cycle $c>' is not gprof's entry"
                diff "$tmp/cyc.want" "$tmp/cyc.got"
            fi
        fi
    done
    # a root gprof calls <spontaneous>
    if grep -q '<spontaneous>' "$tmp/graph" &&
        expect_status 0 "$PROFHUB" summary --exe "$d/prog" "$g" --callers main; then
        grep -q '< <spontaneous>' "$tmp/out" || fail "$name: main's callers are not <spontaneous>"
    fi
done
finish
