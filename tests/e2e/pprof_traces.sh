#!/bin/sh
# pprof_traces.sh -- summary --traces prints every sample as
# `go tool pprof -traces` does (labels, value, stack leaf first, "(inline)"
# after inlined frames), run live on every real pprof sample, unfiltered
# and with pprof's filters; the same multiset of samples.  Skipped
# without go.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program go python3

set -- "$SAMPLES"/pprof/*.pb.gz
[ -e "$1" ] || skip "no pprof samples in $SAMPLES/pprof"

check() {
    f=$1 ev=$2 unit=$3
    shift 3
    name="$(basename "$f") $ev $*"
    ours=
    for a in "$@"; do ours="$ours -$a"; done
    checks=$((checks + 1))
    go tool pprof -traces -sample_index="$ev" $unit "$@" "$f" \
        >"$tmp/peer.txt" 2>/dev/null || { fail "$name: go tool pprof failed"; return; }
    # shellcheck disable=SC2086
    "$PROFHUB" summary --traces -e "$ev" $ours "$f" >"$tmp/ours.txt" \
        2>"$tmp/err" || { fail "$name: profhub summary --traces failed"; cat "$tmp/err"; return; }
    grep -q '(inline)' "$tmp/peer.txt" && ! grep -q '(inline)' "$tmp/ours.txt" \
        && fail "$name: no (inline) marker"
    if python3 "$top_srcdir/tests/e2e/pprofcmp.py" traces "$tmp/peer.txt" \
        "$tmp/ours.txt" >"$tmp/cmp"; then
        echo "$name: $(tail -1 "$tmp/cmp")"
    else
        fail "$name: differs from go tool pprof -traces"
        cat "$tmp/cmp"
    fi
}

for f in "$@"; do
    case $f in
    *heavy*cpu*) check "$f" cpu -unit=ns ;;
    *heavy*heap*) check "$f" alloc_space -unit=B ;;
    *cpu*)
        for flags in "" "-focus=sort" "-hide=runtime" \
            "-ignore=fib -hide=^runtime\."; do
            # shellcheck disable=SC2086
            check "$f" cpu -unit=ns $flags
        done
        ;;
    *heap*)
        for flags in "" "-tagfocus=256B" "-focus=main -tagignore=1kb:"; do
            # shellcheck disable=SC2086
            check "$f" alloc_space -unit=B $flags
        done
        ;;
    esac
done
finish
