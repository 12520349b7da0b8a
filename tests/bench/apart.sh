#!/bin/sh
# apart.sh -- time two profhub binaries on the same command as a user who
# runs it once would see it: each run starts some seconds after the last
# one ended.  On virtual machines whose guest reports freed memory to the
# host (Linux page_reporting: within about a second), a command run right
# after another big one takes back the pages that one freed, at ten times
# the speed of pages the host must back again: hyperfine's runs back to
# back, and the second command of every pair, look faster than a lone
# run (tests/bench/README.md, nineteenth round).  The two binaries take
# turns, in both orders, so neither always follows the other.
#
# usage: apart.sh [-n PAIRS] [-s SECONDS] PROFHUB_A PROFHUB_B ARGS...
#   runs "PROFHUB_A ARGS" and "PROFHUB_B ARGS" PAIRS times each (default
#   6), sleeping SECONDS (default 3) before each run; prints the median,
#   least and most wall seconds, the mean user and system seconds and the
#   median peak resident memory of each, and the ratio of the medians.
set -eu

pairs=6 pause=3
while [ $# -gt 0 ]; do
    case $1 in
    -n) pairs=$2; shift 2 ;;
    -s) pause=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 3 ] || { sed -n '12,16p' "$0" >&2; exit 2; }
a=$1 b=$2
shift 2
[ -x /usr/bin/time ] || { echo "$0: GNU time missing (apt-get install time)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/apart.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

i=0
while [ $i -lt "$pairs" ]; do
    # A then B on even rounds, B then A on odd ones
    if [ $((i % 2)) -eq 0 ]; then order="A B"; else order="B A"; fi
    for side in $order; do
        if [ $side = A ]; then bin=$a; else bin=$b; fi
        sleep "$pause"
        /usr/bin/time -o "$tmp/one" -f "%e %U %S %M" "$bin" "$@" \
            >/dev/null 2>&1 || true
        tail -n 1 "$tmp/one" >>"$tmp/$side"
    done
    i=$((i + 1))
done

summary() {     # summary SIDE: median wall (least, most), means, peak
    sort -n "$tmp/$1" | awk -v side="$1" '
        { w[NR] = $1; u += $2; s += $3; m[NR] = $4 }
        END {
            h = int((NR + 1) / 2)
            printf "%s: wall %.2f s (%.2f-%.2f), user %.2f s, system %.2f s, " \
                   "peak %.1f MiB\n", side, w[h], w[1], w[NR], u / NR, s / NR,
                   m[h] / 1024
            print w[h] > "'"$tmp"'/median." side
        }'
}
summary A
summary B
awk -v a="$(cat "$tmp/median.A")" -v b="$(cat "$tmp/median.B")" \
    'BEGIN { if (b > 0) printf "A/B wall (medians): %.2f\n", a / b }'
