#!/bin/sh
# summary_ratio.sh -- a derived ratio is a ratio of sums: for every
# function of the samples with cache events, `--define 'MissRate = D1mr /
# Dr'` gives the function's D1mr over its Dr, both summed independently
# from what cg_annotate / callgrind_annotate print; the built-in L1m is
# I1mr + D1mr + D1mw of the same sums.  Peer missing => 77.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
A2T="perl $top_srcdir/tests/e2e/annotate2tsv"
SJ="perl $top_srcdir/tests/e2e/summary_json"

command -v cg_annotate >/dev/null 2>&1 || skip "no cg_annotate"
command -v callgrind_annotate >/dev/null 2>&1 \
    || skip "no callgrind_annotate"
perl -MJSON::PP -e 1 2>/dev/null || skip "no perl JSON::PP"

mkdir "$tmp/cwd"

checked=0
for sample in "$top_srcdir"/samples/cachegrind/chain.default.out \
              "$top_srcdir"/samples/cachegrind/shapes.default.out \
              "$top_srcdir"/samples/callgrind/chain.cache-branch.out; do
    [ -s "$sample" ] || continue
    name=$(basename "$(dirname "$sample")")/$(basename "$sample")
    d=$tmp/$(echo "$name" | tr / _)
    mkdir "$d" && cp "$sample" "$d/in.out"
    case $name in
    cachegrind/*) (cd "$tmp/cwd" && cg_annotate --threshold=0 \
                    --show-percs=no --auto=no "$d/in.out") >"$d/peer.txt" ;;
    *) (cd "$tmp/cwd" && callgrind_annotate --threshold=100 \
                    --show-percs=no --auto=no "$d/in.out") >"$d/peer.txt" ;;
    esac || { echo "FAIL $name: the peer failed"; failures=$((failures + 1)); continue; }
    $A2T parse self "$d/in.out" <"$d/peer.txt" | $SJ collapse >"$d/peer"
    ok=1
    "$PROFHUB" summary -f json -n 0 --define 'MissRate = D1mr / Dr' \
        --define 'L1sum = I1mr + D1mr + D1mw' "$d/in.out" \
        >"$d/ours.json" 2>"$d/err" || { cat "$d/err"; ok=0; }
    if [ $ok = 1 ]; then
        $SJ ratio D1mr Dr MissRate "$d/peer" <"$d/ours.json" >"$d/cmp" 2>&1 \
            || ok=0
        # The built-in L1m equals the user's sum of the same events.
        perl -MJSON::PP -e '
            local $/; my $j = decode_json(<STDIN>); my $bad = 0;
            for my $f (@{ $j->{functions} }) {
                next if ($f->{self}{L1m} // -1) == $f->{self}{L1sum};
                print "MISMATCH L1m of $f->{name}\n"; $bad++;
            }
            exit($bad ? 1 : 0);' <"$d/ours.json" >>"$d/cmp" || ok=0
    fi
    checked=$((checked + 1))
    if [ $ok = 1 ]; then
        echo "ok   $name: $(grep compared "$d/cmp")"
    else
        echo "FAIL $name"; head -20 "$d/cmp"; failures=$((failures + 1))
    fi
done
echo "$checked samples checked, $failures failed"
checks=$checked
[ "$checked" -gt 0 ] || fail "nothing was checked"
finish
