#!/bin/sh
# group_file.sh -- `profhub summary --group file` sums self costs by the
# file of the code (callgrind fi=/fe=, cachegrind fl=), as callgrind_annotate
# and cg_annotate file their "file:function" entries: on every single-file
# sample, the per-file sums of the peer's table equal our file table, every
# event.  `--group function-file` keeps inlined code under the function's
# own file: it equals our function table summed by its file column.
# A peer missing => that half is skipped; both missing => skip (77).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program perl
A2T="perl $top_srcdir/tests/e2e/annotate2tsv"
command -v callgrind_annotate >/dev/null 2>&1 \
    || command -v cg_annotate >/dev/null 2>&1 \
    || skip "neither callgrind_annotate nor cg_annotate is installed"
mkdir "$tmp/cwd"

# compare_files D SAMPLE: the peer's $D/peer.txt against our file table.
compare_files() {
    d=$1
    $A2T parse self "$2" <"$d/peer.txt" >"$d/peer.tsv" || return 1
    $A2T byfile self <"$d/peer.tsv" >"$d/peer.files"
    evs=$(awk -F '\t' '$1 == "events" { for (i = 2; i <= NF; i++)
        printf "%s%s", $i, (i < NF ? " " : ""); print ""; exit }' \
        "$d/peer.tsv")
    "$PROFHUB" summary --group file --format csv -n 0 "$d/in.out" \
        >"$d/ours.csv" 2>"$d/ours.err" || { cat "$d/ours.err"; return 1; }
    $A2T csv "$evs" name <"$d/ours.csv" | sed 's/^sumself\t/self\t/' \
        >"$d/ours.files"
    $A2T compare self-nototal "$d/peer.files" "$d/ours.files" >"$d/cmp"
}

# function_file D: --group function-file against the function table.
function_file() {
    d=$1
    evs=$(awk -F '\t' '$1 == "events" { for (i = 2; i <= NF; i++)
        printf "%s%s", $i, (i < NF ? " " : ""); print ""; exit }' \
        "$d/peer.tsv")
    "$PROFHUB" summary --format csv -n 0 --no-cycles "$d/in.out" \
        >"$d/fn.csv" 2>&1 || return 1
    $A2T csv "$evs" <"$d/fn.csv" | $A2T byfile sumself >"$d/fn.files"
    "$PROFHUB" summary --group function-file --format csv -n 0 "$d/in.out" \
        >"$d/ff.csv" 2>&1 || return 1
    $A2T csv "$evs" name <"$d/ff.csv" >"$d/ff.files"
    sed 's/^sumself\t/self\t/' "$d/ff.files" >"$d/ff.self"
    $A2T compare sumself-nototal "$d/fn.files" "$d/ff.files" >>"$d/cmp"
}

moved=0
for sample in "$SAMPLES"/callgrind/*.out "$SAMPLES"/cachegrind/*.out; do
    [ -s "$sample" ] || continue
    case $sample in
    */callgrind/*) peer=callgrind_annotate
        opts="--threshold=100 --show-percs=no --auto=no" ;;
    *) peer=cg_annotate
        opts="--threshold=0 --show-percs=no --auto=no" ;;
    esac
    command -v $peer >/dev/null 2>&1 || continue
    name=$(basename "$(dirname "$sample")")/$(basename "$sample")
    # callgrind_annotate reads one dump of one thread: runs of several
    # files are compared in peer_callgrind.sh; on combined dumps it
    # counts every dump's calls again (profhub.1, BUGS IN PEERS).
    case $name in
    callgrind/chain.dumps.out|callgrind/threads.sep*) continue ;;
    callgrind/chain.combined.out) continue ;;
    esac
    d=$tmp/$(echo "$name" | tr / _)
    mkdir "$d"
    cp "$sample" "$d/in.out"
    checks=$((checks + 1))
    # shellcheck disable=SC2086
    (cd "$tmp/cwd" && $peer $opts "$d/in.out") >"$d/peer.txt" 2>"$d/peer.err" \
        || { fail "$peer failed on $name"; cat "$d/peer.err"; continue; }
    if ! compare_files "$d" "$sample"; then
        fail "$name: --group file differs from $peer"
        grep MISMATCH "$d/cmp" | head -10
        continue
    fi
    if ! function_file "$d"; then
        fail "$name: --group function-file differs from the function table"
        grep MISMATCH "$d/cmp" | head -10
        continue
    fi
    # Count the files whose two groupings differ: inlined code moved.
    n=$($A2T compare self-nototal "$d/ff.self" "$d/ours.files" 2>&1 \
        | grep -c MISMATCH)
    moved=$((moved + n))
    echo "ok   $name: $(grep -c '^self' "$d/peer.files") files equal $peer's" \
        "($n event cells moved by inlining)"
done
[ $checks -gt 0 ] || skip "no sample with a peer"
# The callgrind samples carry fi=/fe= lines: the test must see them move.
if command -v callgrind_annotate >/dev/null 2>&1 && [ $moved = 0 ]; then
    fail "no inlined code moved between files: the test proves nothing"
fi
finish
