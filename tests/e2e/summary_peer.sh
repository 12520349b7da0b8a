#!/bin/sh
# summary_peer.sh -- on every callgrind and cachegrind sample, the numbers
# of `profhub summary --format json` equal what callgrind_annotate and
# cg_annotate print: totals, self cost per file:function, and (callgrind)
# inclusive cost, except where the rules differ on purpose: functions that
# call themselves (callgrind_annotate adds the recursive calls again) and
# members of cycles (profhub uses gprof's rule so inclusive never exceeds
# the total; summary_recursion.sh checks those).  Files with several parts
# are left out: the peers read only one part.  Peer missing => 77.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
IRFACTS=$top_builddir/tests/e2e/irfacts
A2T="perl $top_srcdir/tests/e2e/annotate2tsv"
SJ="perl $top_srcdir/tests/e2e/summary_json"

command -v callgrind_annotate >/dev/null 2>&1 \
    || skip "callgrind_annotate is not installed"
command -v cg_annotate >/dev/null 2>&1 \
    || skip "cg_annotate is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip "no perl JSON::PP"
[ -x "$IRFACTS" ] || skip "$IRFACTS not built"

mkdir "$tmp/cwd"   # the peers strip their working directory from names

checked=0 skipped=0
for sample in "$top_srcdir"/samples/callgrind/*.out* \
              "$top_srcdir"/samples/cachegrind/*.out*; do
    [ -s "$sample" ] || continue
    kind=$(basename "$(dirname "$sample")")
    name=$kind/$(basename "$sample")
    d=$tmp/$(echo "$name" | tr / _)
    mkdir "$d"
    cp "$sample" "$d/in.out"   # alone: no sibling is loaded as a part
    if ! "$PROFHUB" summary --format json --top 0 "$d/in.out" \
            >"$d/ours.json" 2>"$d/err"; then
        echo "FAIL $name: profhub summary failed:"; cat "$d/err"
        failures=$((failures + 1)); continue
    fi
    parts=$(perl -MJSON::PP -e 'local $/; print scalar @{ decode_json(<STDIN>)->{profile}{parts} }' <"$d/ours.json")
    if [ "$parts" != 1 ]; then
        echo "skip $name: $parts parts (the peer reads one)"
        skipped=$((skipped + 1)); continue
    fi
    ok=1
    if [ "$kind" = callgrind ]; then
        (cd "$tmp/cwd" && callgrind_annotate --threshold=100 --show-percs=no \
            --auto=no "$d/in.out") >"$d/peer.txt" 2>"$d/peer.err" || ok=0
        (cd "$tmp/cwd" && callgrind_annotate --threshold=100 --show-percs=no \
            --auto=no --inclusive=yes "$d/in.out") >"$d/peeri.txt" \
            2>>"$d/peer.err" || ok=0
    else
        (cd "$tmp/cwd" && cg_annotate --threshold=0 --show-percs=no \
            --auto=no "$d/in.out") >"$d/peer.txt" 2>"$d/peer.err" || ok=0
    fi
    if [ $ok = 0 ]; then
        echo "FAIL $name: the peer failed:"; cat "$d/peer.err"
        failures=$((failures + 1)); continue
    fi
    $A2T parse self "$d/in.out" <"$d/peer.txt" | $SJ collapse \
        >"$d/peer.self0" || ok=0
    if [ "$kind" = callgrind ]; then
        $SJ fixtotal "$d/in.out" <"$d/peer.self0" >"$d/peer.self" 2>"$d/note"
    else
        mv "$d/peer.self0" "$d/peer.self"
    fi
    $SJ tsv "$d/peer.self" <"$d/ours.json" >"$d/ours.tsv" || ok=0
    # callgrind_annotate's reading of "calls=0" records differs (dumps).
    $SJ zerocalls "$d/in.out" >"$d/skip"
    nt= what="totals, self"
    [ -s "$d/note" ] && what="totals (the sum of the file's cost lines), self"
    $A2T compare "self$nt" "$d/peer.self" "$d/ours.tsv" "$d/skip" \
        >"$d/cmp" || ok=0
    if [ "$kind" = callgrind ] && [ $ok = 1 ]; then
        # callgrind_annotate's inclusive of a function that is called is
        # the sum of the calls into "its file:name"; a function split over
        # files by inlined code also gets "other file:name" keys holding
        # only what was spent there.  Compare per function-file key; leave
        # out self-recursive functions (irfacts: the peer adds recursive
        # calls again), cycle members (gprof's rule on purpose), keys that
        # are no function's own file, and uncalled split functions.
        $A2T parse incl "$d/in.out" <"$d/peeri.txt" \
            | sed 's/^incl\t/incl2\t/' >"$d/peer.incl" || ok=0
        "$IRFACTS" "$d/in.out" 2>/dev/null | $A2T facts \
            | awk -F'\t' '$1 == "selfrec" { print $2 }' >"$d/skip2"
        awk -F'\t' '$1 == "skip2" { print $2 }' "$d/ours.tsv" >>"$d/skip2"
        awk -F'\t' 'NR == FNR { if ($1 == "incl2") ours[$2] = 1;
                                if ($1 == "calls2" && $3 == 0) uncalled[$2] = 1;
                                next }
                     $1 == "multi" { multi[$2] = 1; next }
                     $1 == "incl2" && !($2 in ours) { print $2 }
                     END { for (k in uncalled) { n = k; sub(/^[^:]*:/, "", n);
                                                 if (n in multi) print k } }' \
            "$d/ours.tsv" "$d/peer.self0" "$d/peer.incl" >>"$d/skip2"
        $A2T compare incl2-nototal "$d/peer.incl" "$d/ours.tsv" "$d/skip2" \
            >>"$d/cmp" || ok=0
        what="$what, inclusive of $(sed -n 's/^compared \([0-9]*\) incl2.*/\1/p' "$d/cmp") keys"
    fi
    checked=$((checked + 1))
    if [ $ok = 1 ]; then
        echo "ok   $name: $what equal (of $(grep -c '^self' "$d/peer.self") functions)"
    else
        echo "FAIL $name"
        grep -v '^compared' "$d/cmp" | head -20
        failures=$((failures + 1))
    fi
done
echo "$checked samples checked, $skipped skipped, $failures failed"
checks=$checked
[ "$checked" -gt 0 ] || fail "nothing was checked"
finish
