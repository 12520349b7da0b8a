#!/bin/sh
# summary_coverage.sh -- --coverage PCT lists what callgrind_annotate
# --threshold=PCT lists (the top entries until PCT% of the total is
# covered; sorted by inclusive cost, until the last entry's inclusive cost
# leaves that much), run live on real callgrind samples, and an empty table
# keeps its header columns.
#
# callgrind_annotate counts per file:function, and splits a function whose
# inlined code lives in other files into several rows, where we count per
# function (issue 17, item 4), and its recursive inclusive costs count self
# calls again: the cases below are the ones where neither changes which
# functions are listed; <cycle N> rows (ours alone) are left out.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program callgrind_annotate
CG=$SAMPLES/callgrind

peer_names() {
    callgrind_annotate --auto=no "$@" 2>/dev/null \
        | sed -n '/file:function/,$p' | grep '%)' \
        | sed -E 's/^ *[0-9,]+ *\( *[0-9.]+%\)  //; s/ \[[^]]*\]$//' \
        | sed -E 's/^.*:([^:]+)$/\1/' | sort -u
}

check() {
    f=$CG/$1 pct=$2 sort=$3
    [ -s "$f" ] || { fail "$1: sample missing"; return; }
    checks=$((checks + 1))
    if [ "$sort" = inclusive ]; then
        peer_names --threshold="$pct" --inclusive=yes "$f" >"$tmp/peer"
    else
        peer_names --threshold="$pct" "$f" >"$tmp/peer"
    fi
    "$PROFHUB" summary -f csv -n 0 -s "$sort" --coverage "$pct" "$f" \
        >"$tmp/ours.csv" 2>"$tmp/err" || { fail "$1 $pct: summary failed"; return; }
    tail -n +2 "$tmp/ours.csv" | cut -d, -f1 | grep -v '^<cycle' | sort -u \
        >"$tmp/ours"
    if cmp -s "$tmp/peer" "$tmp/ours"; then
        echo "$1 --coverage $pct ($sort): $(wc -l <"$tmp/ours") functions, same"
    else
        fail "$1 --coverage $pct ($sort): differs from callgrind_annotate"
        diff "$tmp/peer" "$tmp/ours" | head -20
    fi
}

for c in "recursion.default.out 90" "recursion.default.out 95" \
    "recursion.recs1.out 95" "checksum.before.out 90" \
    "checksum.before.out 95" "checksum.after.out 95" \
    "chain.default.out 95" "threads.default.out 99" \
    "recursion.default.out 100"; do
    # shellcheck disable=SC2086
    check $c self
done
for c in "checksum.before.out 50" "checksum.before.out 99" \
    "chain.default.out 50" "chain.default.out 99" \
    "threads.default.out 90" "recursion.default.out 99"; do
    # shellcheck disable=SC2086
    check $c inclusive
done

# A table cut to nothing still has its columns.
checks=$((checks + 1))
"$PROFHUB" summary -t 99 "$CG/chain.default.out" >"$tmp/out" 2>&1
tail -1 "$tmp/out" | grep -q '^inclusive  *%  *self  *%  *function$' \
    || { fail "empty table: no header columns"; cat "$tmp/out"; }
finish
