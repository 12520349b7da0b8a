#!/bin/sh
# peer_cachegrind.sh -- for every sample in samples/cachegrind/, profhub's
# per-function self costs (rows per file:function and its own aggregate) and
# totals equal what cg_annotate prints, and the file that
# `profhub convert -t cachegrind` writes gives cg_annotate the very same
# numbers.  cg_annotate missing => skip (77).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program cg_annotate perl
PEERS=${PEER_SAMPLES:-$SAMPLES/cachegrind}
IRFACTS=$top_builddir/tests/e2e/irfacts
A2T="perl $top_srcdir/tests/e2e/annotate2tsv"
ls "$PEERS"/*.out* >/dev/null 2>&1 || skip "no samples in $PEERS"
[ -x "$IRFACTS" ] || { echo "ERROR: $IRFACTS is not built"; exit 99; }

mkdir "$tmp/cwd"

annotate() { # FILE OUT: cg_annotate's numbers as TSV (threshold 0: all)
    (cd "$tmp/cwd" && cg_annotate --threshold=0 --show-percs=no --auto=no \
        "$1") >"$2.txt" 2>"$2.err" \
        || { echo "cg_annotate failed on $1:"; cat "$2.err"; return 1; }
    $A2T parse self "$1" <"$2.txt" >"$2"
}

# summary_vs_peer DIR KIND PEERTSV SKIPFILE: `profhub summary --format csv`
# per file:function (KIND self or incl) against the peer's numbers.
summary_vs_peer() {
    "$PROFHUB" summary --format csv -n 0 --no-cycles "$1/in.out" \
        >"$1/sum.csv" 2>"$1/sum.err" \
        || { echo "profhub summary failed:"; cat "$1/sum.err"; return 1; }
    evs=$(awk -F '\t' '$1 == "events" { for (i = 2; i <= NF; i++)
        printf "%s%s", $i, (i < NF ? " " : ""); print ""; exit }' "$3")
    $A2T csv "$evs" <"$1/sum.csv" >"$1/sum" || return 1
    sed -n "s/^sum$2\t/s$2\t/p" "$1/sum" >"$1/sum.$2"
    sed -n "s/^$2\t/s$2\t/p" "$3" >"$1/peer.s$2"
    $A2T compare "s$2-nototal" "$1/peer.s$2" "$1/sum.$2" $4 \
        | sed 's/^/summary csv: /' >>"$1/cmp"
    ! grep -q 'summary csv: MISMATCH' "$1/cmp"
}

# cg_diff's output (the second run minus the first: negative counts, line
# 0 only) made now by the real tool is one more sample.
mkdir "$tmp/gen"
if command -v cg_diff >/dev/null 2>&1 && [ -s "$PEERS/checksum.before.out" ] \
        && [ -s "$PEERS/checksum.after.out" ]; then
    cg_diff "$PEERS/checksum.before.out" "$PEERS/checksum.after.out" \
        >"$tmp/gen/cg_diff.checksum.out" 2>"$tmp/gen/err" \
        || { echo "cg_diff failed:"; cat "$tmp/gen/err"; exit 99; }
fi

failed=0 checked=0
for sample in "$PEERS"/*.out* "$tmp"/gen/*.out; do
    [ -s "$sample" ] || continue
    name=$(basename "$sample")
    d=$tmp/$name
    mkdir "$d"
    cp "$sample" "$d/in.out"
    ok=1
    annotate "$d/in.out" "$d/peer" || ok=0
    if [ $ok = 1 ] && "$IRFACTS" "$d/in.out" >"$d/facts" 2>"$d/facts.err"; then
        $A2T facts <"$d/facts" >"$d/ours"
        $A2T compare self "$d/peer" "$d/ours" >"$d/cmp" || ok=0
        # profhub's per-function aggregate (function = file:name here).
        sed 's/^phself\t/self2\t/' "$d/ours" >"$d/ours.ph"
        sed 's/^self\t/self2\t/' "$d/peer" >"$d/peer.ph"
        $A2T compare self2 "$d/peer.ph" "$d/ours.ph" >>"$d/cmp" || ok=0
        # The user-facing report: profhub summary --format csv.
        summary_vs_peer "$d" self "$d/peer" "" || ok=0
    else
        [ $ok = 0 ] || { echo "irfacts failed on $name:"; cat "$d/facts.err"; }
        ok=0
    fi
    if [ $ok = 1 ]; then
        if "$PROFHUB" convert -t cachegrind -o "$d/rt.out" "$d/in.out" \
                2>"$d/conv.err"; then
            annotate "$d/rt.out" "$d/rt" || ok=0
            if [ $ok = 1 ]; then
                $A2T compare self "$d/peer" "$d/rt" >"$d/rtcmp" || ok=0
                sed 's/^/round trip: /' "$d/rtcmp" >>"$d/cmp"
            fi
        else
            echo "profhub convert failed on $name:"; cat "$d/conv.err"; ok=0
        fi
    fi
    checked=$((checked + 1))
    if [ $ok = 1 ]; then
        echo "ok   $name: $(grep -c . "$d/peer") peer lines equal (self, total, round trip);" \
            "$(grep -c 'all equal' "$d/cmp") comparisons"
    else
        echo "FAIL $name"
        [ -f "$d/cmp" ] && grep -v 'compared' "$d/cmp" | head -20
        failed=$((failed + 1))
    fi
done
echo "$checked samples checked, $failed failed"
[ $failed = 0 ]
