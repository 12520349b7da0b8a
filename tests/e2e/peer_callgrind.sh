#!/bin/sh
# peer_callgrind.sh -- for every sample in samples/callgrind/, profhub's
# per-function self and inclusive costs and totals equal what
# callgrind_annotate prints (default and --inclusive=yes), and the file that
# `profhub convert -t callgrind` writes gives callgrind_annotate the very same
# numbers.  callgrind_annotate missing => skip (77).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program callgrind_annotate perl
PEERS=${PEER_SAMPLES:-$SAMPLES/callgrind}
IRFACTS=$top_builddir/tests/e2e/irfacts
A2T="perl $top_srcdir/tests/e2e/annotate2tsv"
ls "$PEERS"/*.out* >/dev/null 2>&1 || skip "no samples in $PEERS"
[ -x "$IRFACTS" ] || { echo "ERROR: $IRFACTS is not built"; exit 99; }

mkdir "$tmp/cwd"

annotate() { # FILE KIND OUT [options]: peer numbers as TSV
    f=$1 kind=$2 out=$3
    shift 3
    (cd "$tmp/cwd" && callgrind_annotate --threshold=100 --show-percs=no \
        --auto=no "$@" "$f") >"$out.txt" 2>"$out.err" \
        || { echo "callgrind_annotate failed on $f:"; cat "$out.err"; return 1; }
    $A2T parse "$kind" "$f" <"$out.txt" >"$out"
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

failed=0 checked=0
for sample in "$PEERS"/*.out*; do
    [ -s "$sample" ] || continue          # the 0-byte base of --separate-threads
    name=$(basename "$sample")
    d=$tmp/$name
    mkdir "$d"
    # Alone in a folder, so that no sibling (-01, .1) is loaded as a part.
    cp "$sample" "$d/in.out"
    ok=1
    annotate "$d/in.out" self "$d/peer.self" || ok=0
    annotate "$d/in.out" incl "$d/peer.incl" --inclusive=yes || ok=0
    if [ $ok = 1 ] && "$IRFACTS" "$d/in.out" >"$d/facts" 2>"$d/facts.err"; then
        $A2T facts <"$d/facts" >"$d/ours"
        nt=
        # callgrind_annotate reads one part: with several, its total is the
        # last part's, so only per-function sums are comparable.
        [ "$(awk '$1 == "parts" { print $2 }' "$d/facts")" = 1 ] || nt=-nototal
        $A2T compare "self$nt" "$d/peer.self" "$d/ours" >"$d/cmp" || ok=0
        $A2T compare "incl$nt" "$d/peer.incl" "$d/ours" >>"$d/cmp" || ok=0
        # profhub's own inclusive (ph_func_incl) against the peer, except
        # where the two rules differ by design (annotate2tsv facts lists
        # those keys and why: self calls, calls=0, inlined roots).
        awk -F '\t' '$1 == "phskip" { print $2 }' "$d/ours" >"$d/skip"
        sed 's/^phincl\t/incl2\t/' "$d/ours" >"$d/ours.ph"
        sed 's/^incl\t/incl2\t/' "$d/peer.incl" >"$d/peer.ph"
        $A2T compare "incl2-nototal" "$d/peer.ph" "$d/ours.ph" "$d/skip" \
            >>"$d/cmp" || ok=0
        # The user-facing report: profhub summary --format csv, self (keys
        # whose function has no inlined rows elsewhere) and inclusive.
        awk -F '\t' '$1 == "selfskip" { print $2 }' "$d/ours" >"$d/sskip"
        summary_vs_peer "$d" self "$d/peer.self" "$d/sskip" || ok=0
        summary_vs_peer "$d" incl "$d/peer.incl" "$d/skip" || ok=0
    else
        [ $ok = 0 ] || { echo "irfacts failed on $name:"; cat "$d/facts.err"; }
        ok=0
    fi
    # Round trip: our callgrind file gives the peer the same numbers.
    if [ $ok = 1 ]; then
        if "$PROFHUB" convert -t callgrind -o "$d/rt.out" "$d/in.out" \
                2>"$d/conv.err"; then
            annotate "$d/rt.out" self "$d/rt.self" || ok=0
            annotate "$d/rt.out" incl "$d/rt.incl" --inclusive=yes || ok=0
            [ $ok = 0 ] || {
                $A2T compare self "$d/peer.self" "$d/rt.self" >"$d/rtcmp" || ok=0
                $A2T compare incl "$d/peer.incl" "$d/rt.incl" >>"$d/rtcmp" || ok=0
                sed 's/^/round trip: /' "$d/rtcmp" >>"$d/cmp"
            }
        else
            echo "profhub convert failed on $name:"; cat "$d/conv.err"; ok=0
        fi
    fi
    xs=
    # Across formats: the cachegrind file we write gives cg_annotate the
    # same per-function self costs (files with calls=0 records excepted:
    # callgrind_annotate counts those lines as self cost, the cachegrind
    # writer drops every call record).
    if [ $ok = 1 ] && command -v cg_annotate >/dev/null 2>&1 \
            && ! grep -q '^calls=0 ' "$d/in.out"; then
        if "$PROFHUB" convert -t cachegrind -o "$d/x.cg" "$d/in.out" \
                2>"$d/convx.err" \
            && (cd "$tmp/cwd" && cg_annotate --threshold=0 --show-percs=no \
                    --auto=no "$d/x.cg") >"$d/x.txt" 2>"$d/x.err"; then
            $A2T parse self "$d/x.cg" <"$d/x.txt" >"$d/x.self"
            $A2T compare self-nototal "$d/peer.self" "$d/x.self" >"$d/xcmp" || ok=0
            xs=", to cachegrind"
            sed 's/^/to cachegrind: /' "$d/xcmp" >>"$d/cmp"
        else
            echo "callgrind -> cachegrind failed on $name:"
            cat "$d/convx.err" "$d/x.err" 2>/dev/null
            ok=0
        fi
    fi
    checked=$((checked + 1))
    if [ $ok = 1 ]; then
        echo "ok   $name: $(grep -c . "$d/peer.self") peer lines equal (self, incl, round trip$xs);" \
            "$(grep -c 'all equal' "$d/cmp") comparisons"
    else
        echo "FAIL $name"
        [ -f "$d/cmp" ] && grep -v 'compared' "$d/cmp" | head -20
        failed=$((failed + 1))
    fi
done
# A run's several files (--separate-threads: BASE-01 ...; dumps: BASE.1 ...)
# given by their base name load as parts of one profile: its per-function
# self costs equal the sum of what callgrind_annotate prints per file.
runs=0
for base in "$PEERS"/*.out; do
    b=$(basename "$base")
    re=$(printf '%s' "$b" | sed 's/[.[\*^$]/\\&/g')
    files=$(cd "$PEERS" && ls | grep -E "^$re(\.[0-9]+)?(-[0-9]+)?\$")
    [ "$(echo "$files" | wc -l)" -gt 1 ] || continue
    runs=$((runs + 1))
    d=$tmp/run.$b
    mkdir "$d"
    ok=1 nf=0
    for one in $files; do
        [ -s "$PEERS/$one" ] || continue
        nf=$((nf + 1))
        annotate "$PEERS/$one" self "$d/peer.$one" || ok=0
        cat "$d/peer.$one" >>"$d/peer.all"
    done
    if [ $ok = 1 ] && "$IRFACTS" "$base" >"$d/facts" 2>"$d/facts.err"; then
        $A2T facts <"$d/facts" >"$d/ours"
        $A2T compare self-nototal "$d/peer.all" "$d/ours" >"$d/cmp" || ok=0
        np=$(awk '$1 == "parts" { print $2 }' "$d/facts")
    else
        cat "$d/facts.err" 2>/dev/null
        ok=0
    fi
    if [ $ok = 1 ]; then
        echo "ok   run $b: $nf files, $np parts, per-function self = sum of the peer's"
    else
        echo "FAIL run $b"
        [ -f "$d/cmp" ] && grep -v 'compared' "$d/cmp" | head -20
        failed=$((failed + 1))
    fi
done
echo "$checked samples checked, $runs runs of several files, $failed failed"
[ $failed = 0 ]
