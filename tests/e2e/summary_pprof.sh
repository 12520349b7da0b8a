#!/bin/sh
# summary_pprof.sh -- data that comes as a context tree gets the same
# report: for every pprof sample and every sample type, the self and
# inclusive costs of `profhub summary --format json` per function name,
# and the total, equal go tool pprof -top's flat and cum (inclusive taken
# from the stacks, each stack once), and no inclusive exceeds the total.
# go missing => 77.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
A2T="perl $top_srcdir/tests/e2e/annotate2tsv"
SJ="perl $top_srcdir/tests/e2e/summary_json"

command -v go >/dev/null 2>&1 || skip "go is not installed"
perl -MJSON::PP -e 1 2>/dev/null || skip "no perl JSON::PP"
ls "$top_srcdir"/samples/pprof/*.pb.gz >/dev/null 2>&1 \
    || skip "no pprof samples"

export HOME="$tmp"   # go tool pprof keeps nothing of ours

checked=0
for sample in "$top_srcdir"/samples/pprof/*.pb.gz; do
    name=$(basename "$sample")
    "$PROFHUB" summary -f json -n 0 "$sample" >"$tmp/ours.json" 2>"$tmp/err" \
        || { echo "FAIL $name: profhub failed"; cat "$tmp/err"; failures=$((failures + 1)); continue; }
    $SJ bounds <"$tmp/ours.json" >"$tmp/bounds" \
        || { echo "FAIL $name: inclusive over the total"; cat "$tmp/bounds"; failures=$((failures + 1)); }
    events=$(perl -MJSON::PP -e 'local $/; print join(" ", map { $_->{name} }
        grep { !defined $_->{formula} } @{ decode_json(<STDIN>)->{events} })' \
        <"$tmp/ours.json")
    for ev in $events; do
        case $ev in
        *space|*bytes) unit=-unit=B ;;
        cpu|*nanoseconds|delay) unit=-unit=ns ;;
        *) unit= ;;
        esac
        ok=1
        timeout 120 go tool pprof -top -sample_index="$ev" $unit \
            -nodefraction=0 -edgefraction=0 -nodecount=1000000 "$sample" \
            >"$tmp/peer.txt" 2>"$tmp/peer.err" \
            || { echo "FAIL $name $ev: go tool pprof failed"; head -3 "$tmp/peer.err"; ok=0; }
        # "flat flat% sum% cum cum% name": numbers lose their unit suffix.
        perl -ne '
            BEGIN { print "events\t'"$ev"'\n" }
            if (/accounting for \S+, \S+ of (\d+)\D* total/) { print "total\t$1\n"; next }
            next unless /^\s*(\d+)\D*\s+\S+\s+\S+\s+(\d+)\D*\s+\S+\s+(.*?)( \(inline\))?\s*$/;
            print "self\t$3\t$1\nincl\t$3\t$2\n";' <"$tmp/peer.txt" >"$tmp/peer.tsv"
        $SJ byname "$ev" <"$tmp/ours.json" | perl -ne '
            BEGIN { print "events\t'"$ev"'\n" }
            chomp; my ($n, $s, $i) = split /\t/; print "self\t$n\t$s\nincl\t$n\t$i\n";' \
            >"$tmp/ours.tsv"
        perl -MJSON::PP -e 'local $/; print "total\t",
            decode_json(<STDIN>)->{totals}{"'"$ev"'"}, "\n"' \
            <"$tmp/ours.json" >>"$tmp/ours.tsv"
        if [ $ok = 1 ]; then
            $A2T compare self "$tmp/peer.tsv" "$tmp/ours.tsv" >"$tmp/cmp" || ok=0
            $A2T compare incl-nototal "$tmp/peer.tsv" "$tmp/ours.tsv" >>"$tmp/cmp" || ok=0
        fi
        checked=$((checked + 1))
        if [ $ok = 1 ]; then
            echo "ok   $name $ev: total, flat and cum of $(grep -c '^self' "$tmp/peer.tsv") functions equal"
        else
            echo "FAIL $name $ev"; grep -v '^compared' "$tmp/cmp" | head -10
            failures=$((failures + 1))
        fi
    done
done
echo "$checked sample types checked, $failures failed"
checks=$checked
[ "$checked" -gt 0 ] || fail "nothing was checked"
finish
