#!/bin/sh
# annotate_peer.sh -- summary --annotate FN against callgrind_annotate
# --tree=both --inclusive=yes --auto=yes --context N and cg_annotate
# --auto=yes, live, on every single-file sample whose program's source is
# in samples/src: the whole file FN's code lies in, every event with its
# percentage, the same lines printed around each costly line (--context,
# default 8, as the peers'), whole source lines, and the calls of a line
# merged per callee ("=> file:fn (Nx)").  tests/e2e/annocmp turns both
# outputs into comparable lines.  JSON: FN's lines carry their calls.
# pprof data against go tool pprof -list (flat and cum, tests/e2e/listcmp).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program perl
AC="perl $top_srcdir/tests/e2e/annocmp"
command -v callgrind_annotate >/dev/null 2>&1 \
    || command -v cg_annotate >/dev/null 2>&1 \
    || skip "neither callgrind_annotate nor cg_annotate is installed"

# compare NAME SAMPLE FN CONTEXT [peer options]: run in the source tree,
# where the files' recorded paths (samples/src/X.c) resolve.
compare() {
    name=$1 sample=$2 fn=$3 ctx=$4
    shift 4
    d=$tmp/$name.$ctx
    mkdir -p "$d"
    checks=$((checks + 1))
    src=$(grep -o 'samples/src/[a-z]*\.c[p]*' "$sample" | head -1)
    case $name in cg_diff) src=samples/src/checksum.c ;; esac
    [ -n "$src" ] || { fail "$name: no samples/src file named"; return; }
    ne=$(sed -n 's/^events: *//p' "$sample" | head -1 | wc -w)
    (cd "$top_srcdir" && "$@" "$sample") >"$d/peer.txt" 2>"$d/peer.err" \
        || { fail "$name: $1 failed"; cat "$d/peer.err"; return; }
    copt=
    [ "$ctx" = default ] || copt="--context $ctx"
    # shellcheck disable=SC2086
    (cd "$top_srcdir" && "$PROFHUB" summary --annotate "$fn" $copt \
        "$sample") >"$d/ours.txt" 2>"$d/ours.err" \
        || { fail "$name: profhub failed"; cat "$d/ours.err"; return; }
    # callgrind_annotate's percentages are of the file's summary: line,
    # ours of the costs (its totals: line); where the two differ (a few
    # cache misses before the first dump), only the numbers compare.
    pc=
    [ "$(sed -n 's/^summary: *//p' "$sample")" = \
        "$(sed -n 's/^totals: *//p' "$sample")" ] \
        || ! grep -q '^totals:' "$sample" || pc=nopc
    $AC "$src" "$ne" $pc <"$d/peer.txt" >"$d/peer" 2>"$d/err" \
        && $AC "$src" "$ne" $pc <"$d/ours.txt" >"$d/ours" 2>>"$d/err" \
        || { fail "$name: $(cat "$d/err")"; return; }
    if cmp -s "$d/peer" "$d/ours"; then
        echo "ok   $name --context $ctx: $src, $(grep -c '^L' "$d/peer") lines," \
            "$(grep -c '^C' "$d/peer") call lines, $ne events equal $1's" \
            "${pc:+(percentages: summary: differs from totals:)}"
    else
        fail "$name --context $ctx: $src differs from $1"
        diff "$d/peer" "$d/ours" | head -10
    fi
}

if command -v callgrind_annotate >/dev/null 2>&1; then
    # Not recursion.*: where fib and fib'2 (--separate-recs) share a
    # line, callgrind_annotate prints the calls of the first function it
    # met there only (profhub.1, PEERS).
    for s in chain.default chain.cache-branch chain.instr-jumps \
            shapes.instr checksum.before \
            shapes.default threads.default; do
        f=$SAMPLES/callgrind/$s.out
        [ -s "$f" ] || continue
        for ctx in default 3; do
            c=8
            [ $ctx = default ] || c=$ctx
            compare "callgrind/$s" "$f" '^main$' $ctx callgrind_annotate \
                --tree=both --inclusive=yes --auto=yes --context=$c
        done
    done
fi
if command -v cg_annotate >/dev/null 2>&1; then
    for s in chain.default chain.branch checksum.before shapes.default; do
        f=$SAMPLES/cachegrind/$s.out
        [ -s "$f" ] || continue
        compare "cachegrind/$s" "$f" '^main$' default cg_annotate --auto=yes
        compare "cachegrind/$s" "$f" '^main$' 2 cg_annotate --auto=yes \
            --context=2
    done
fi

# pprof data: go tool pprof -list's flat and cum of every line of each
# main.* function (cum: every stack through the line once, so the line of
# a call carries the callee's cost: 270ms at sort.Strings(words)).
if command -v go >/dev/null 2>&1 && perl -MJSON::PP -e 1 2>/dev/null; then
    for f in "$SAMPLES"/pprof/gowork*.cpu.pb.gz; do
        [ -s "$f" ] || continue
        "$PROFHUB" summary -f csv -n 0 "$f" 2>/dev/null \
            | sed -n 's/^\(main\.[A-Za-z]*\),.*/\1/p' | sort -u >"$tmp/fns"
        [ -s "$tmp/fns" ] || { fail "$f: no main.* function"; continue; }
        while read -r fn; do
            checks=$((checks + 1))
            d=$tmp/list.$(basename "$f").$fn
            mkdir "$d"
            (cd "$top_srcdir" && go tool pprof -unit=ns \
                -source_path samples/src/gowork -list "^$fn\$" "$f") \
                >"$d/peer.txt" 2>&1 \
                || { fail "go tool pprof -list $fn failed"; cat "$d/peer.txt"; continue; }
            "$PROFHUB" summary --annotate "^$fn\$" -e cpu -f json "$f" \
                >"$d/ours.json" 2>"$d/err" \
                || { fail "profhub --annotate $fn failed"; cat "$d/err"; continue; }
            if perl "$top_srcdir/tests/e2e/listcmp" cpu "$d/peer.txt" \
                    "$d/ours.json" >"$d/cmp" 2>&1; then
                echo "ok   $(basename "$f") $fn: $(tail -1 "$d/cmp") (pprof -list)"
            else
                fail "$(basename "$f") $fn differs from pprof -list"
                head -5 "$d/cmp"
            fi
        done <"$tmp/fns"
    done
fi

# Costs at line 0 (cg_diff writes every function's difference there):
# cg_annotate prints them as "<counts for unidentified lines in FILE>".
if command -v cg_diff >/dev/null 2>&1 && command -v cg_annotate >/dev/null 2>&1 \
        && [ -s "$SAMPLES/cachegrind/checksum.before.out" ]; then
    (cd "$top_srcdir" && cg_diff samples/cachegrind/checksum.before.out \
        samples/cachegrind/checksum.after.out) >"$tmp/diff.cg" 2>"$tmp/err" \
        || fail "cg_diff failed: $(cat "$tmp/err")"
    compare cg_diff "$tmp/diff.cg" '^main$' default cg_annotate --auto=yes
    grep -q '^U ' "$tmp/cg_diff.default/ours" \
        || fail "cg_diff: no line of unidentified counts"
fi

# Two call records from one line to one callee read as one arc, in text
# (above) and in JSON: each line of FN lists its calls.
f=$SAMPLES/callgrind/chain.default.out
if [ -s "$f" ] && perl -MJSON::PP -e 1 2>/dev/null; then
    testrun "$PROFHUB" summary --annotate level_e -f json "$f"
    perl -MJSON::PP -e '
        local $/; my $d = decode_json(<STDIN>);
        my ($n, $c) = (0, 0);
        for my $l (@{ $d->{functions}[0]{lines} }) {
            for my $k (@{ $l->{calls} }) {
                $n++;
                $c += $k->{calls} if $k->{name} eq "hot_loop";
            }
        }
        exit(!($n == 2 && $c == 3 && @{ $d->{functions}[0]{files} } == 1));
    ' <"$tmp/out" || { fail "JSON: level_e lines without its 2 calls"; show_output; }
fi
finish
