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
#   least and most wall seconds, the mean user and system seconds, the
#   median run's peak resident memory, and the ratio of the medians.
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
[ -x /usr/bin/time ] ||
    { echo "$0: GNU time missing (apt-get install time)" >&2; exit 1; }

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

# Per side: median wall (least, most), mean user and system, the median
# run's peak; then the ratio of the medians.
sort -n "$tmp/A" >"$tmp/A.sorted"
sort -n "$tmp/B" >"$tmp/B.sorted"
awk '
    FNR == 1 { side = FILENAME; sub(/.*\//, "", side); sub(/\..*/, "", side) }
    { w[side, FNR] = $1; u[side] += $2; s[side] += $3; m[side, FNR] = $4
      n[side] = FNR }
    END {
        for (k = 0; k < 2; k++) {
            d = k ? "B" : "A"; h = int((n[d] + 1) / 2); med[d] = w[d, h]
            printf "%s: wall %.2f s (%.2f-%.2f), user %.2f s, system %.2f s, " \
                   "peak %.1f MiB\n", d, w[d, h], w[d, 1], w[d, n[d]],
                   u[d] / n[d], s[d] / n[d], m[d, h] / 1024
        }
        if (med["B"] > 0)
            printf "A/B wall (medians): %.2f\n", med["A"] / med["B"]
    }' "$tmp/A.sorted" "$tmp/B.sorted"
