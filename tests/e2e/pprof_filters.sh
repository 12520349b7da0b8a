#!/bin/sh
# pprof_filters.sh -- summary's pprof filters and cut-off give what
# `go tool pprof -top` gives with the same flags, run live on every real
# pprof sample (samples/pprof, made by Go's runtime/pprof): -focus, -ignore,
# -hide, -show, their mixes, -tagfocus/-tagignore on the heap profiles'
# "bytes" labels, -nodefraction and -lines.  Every function's (or line's)
# flat and cum, the "(inline)" markers, and the "Showing nodes accounting
# for X ... of T total" and "Dropped N nodes" lines must agree.  Skipped
# without go.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program go python3

set -- "$SAMPLES"/pprof/*.pb.gz
[ -e "$1" ] || skip "no pprof samples in $SAMPLES/pprof"

# One check: pprof's flags (-name=value) and the event; ours are the same
# flags with two dashes (-nodefraction is --node-fraction).
check() {
    f=$1 ev=$2 unit=$3
    shift 3
    name="$(basename "$f") $ev $*"
    ours=
    for a in "$@"; do
        case $a in
        -nodefraction=*) ours="$ours --node-fraction=${a#-nodefraction=}" ;;
        *) ours="$ours -$a" ;;
        esac
    done
    nf=-nodefraction=0
    case "$*" in *-nodefraction=*) nf= ;; esac
    checks=$((checks + 1))
    go tool pprof -top -nodecount=100000 $nf -edgefraction=0 \
        -sample_index="$ev" $unit "$@" "$f" >"$tmp/top.txt" 2>/dev/null \
        || { fail "$name: go tool pprof failed"; return; }
    # shellcheck disable=SC2086
    "$PROFHUB" summary -n 0 -f csv -e "$ev" $ours "$f" >"$tmp/ours.csv" \
        2>"$tmp/err" || { fail "$name: profhub summary failed"; cat "$tmp/err"; return; }
    # shellcheck disable=SC2086
    "$PROFHUB" summary -n 0 -e "$ev" $ours "$f" >"$tmp/ours.txt" \
        2>"$tmp/err" || { fail "$name: profhub summary (text) failed"; return; }
    # pprof's total line is the unfiltered total: compare functions only
    # here, the total and the shown sum through the Showing line.
    sed '/^Showing nodes/d' "$tmp/top.txt" >"$tmp/top2.txt"
    # the (inline) and (partial-inline) markers: the same names carry them
    sed -n 's/^ *[^ ]*  *[^ ]*  *[^ ]*  *[^ ]*  *[^ ]*  *\(.*(\(partial-\)\{0,1\}inline)\)$/\1/p' \
        "$tmp/top.txt" | sort >"$tmp/peer.marks"
    sed -n 's/^ *[^ ]*  *[^ ]*  *[^ ]*  *[^ ]*  *\(.*(\(partial-\)\{0,1\}inline)\)\(  [^ ]*\)\{0,1\}$/\1/p' \
        "$tmp/ours.txt" | sort >"$tmp/ours.marks"
    cmp -s "$tmp/peer.marks" "$tmp/ours.marks" || {
        fail "$name: (inline) markers differ"
        diff "$tmp/peer.marks" "$tmp/ours.marks" | head -10
    }
    if python3 "$top_srcdir/tests/e2e/pprofcmp.py" top "$tmp/top2.txt" \
        "$tmp/ours.csv" "$ev" >"$tmp/cmp" &&
        python3 "$top_srcdir/tests/e2e/pprofcmp.py" showing "$tmp/top.txt" \
            "$tmp/ours.txt" >>"$tmp/cmp"; then
        echo "$name: $(tr '\n' ' ' <"$tmp/cmp")"
    else
        fail "$name: differs from go tool pprof -top"
        cat "$tmp/cmp"
    fi
}

# Every flag set on the small samples, a few on the heavy ones (each
# check runs go tool pprof once).
for f in "$@"; do
    case $f in
    *heavy.cpu*)
        for flags in "-focus=sort -hide=runtime -nodefraction=0.05" \
            "-show=^main\." "-lines"; do
            # shellcheck disable=SC2086
            check "$f" cpu -unit=ns $flags
        done
        ;;
    *cpu*)
        for flags in "-focus=sort" "-ignore=sort" "-hide=runtime" \
            "-show=^main\." "-focus=main.work -ignore=hashKeys" \
            "-show=sort|strconv -ignore=fib" \
            "-focus=runtime.mallocgc -hide=^runtime\." "-focus=main.go" \
            "-nodefraction=0.05" "-focus=sort -hide=runtime -nodefraction=0.05" \
            "-ignore=nosuchfunction" "-tagfocus=nosuchlabel" "-lines" \
            "-lines -focus=sort" "-lines -hide=runtime -nodefraction=0.01"; do
            # shellcheck disable=SC2086
            check "$f" cpu -unit=ns $flags
        done
        ;;
    *heavy.heap*)
        for flags in "-tagfocus=bytes=48B:64B" "-lines -tagfocus=256B"; do
            # shellcheck disable=SC2086
            check "$f" alloc_space -unit=B $flags
        done
        ;;
    *heap*)
        for flags in "-tagfocus=256B" "-tagfocus=bytes=48B:64B" \
            "-tagfocus=1kb:" "-tagignore=:64B" "-tagfocus=:64B -focus=main" \
            "-tagfocus=bytes=256" "-hide=runtime -tagignore=256B" \
            "-nodefraction=0.01" "-lines"; do
            # shellcheck disable=SC2086
            check "$f" alloc_space -unit=B $flags
        done
        ;;
    esac
done
finish
