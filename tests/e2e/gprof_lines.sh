#!/bin/sh
# gprof_lines.sh -- gmon histogram ticks per source line against GNU
# gprof -l (issue 17 item 7).  gprof -l makes a line symbol wherever the
# line of an address changes and splits each histogram bin among the line
# symbols it overlaps; `summary --annotate FN -f csv` must give every
# function's lines the ticks gprof -b -l -p prints as seconds (0.01 s a
# tick).  gprof splits bins in fractions and rounds the printed sum, we
# split in whole ticks, so a line may differ by one tick; more (a bin's
# ticks on one line of two) fails.  Exit 77 when gprof is missing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

need_program gprof python3
set -- "$top_srcdir"/samples/gmon/*/gmon.out
[ -f "$1" ] || skip "no samples/gmon/*/gmon.out"

n=0
for gm in "$@"; do
    d=$(dirname "$gm") name=$(basename "$(dirname "$gm")")
    # gprof 2.40 -l stops on some C++ programs ("somebody miscounted")
    if ! gprof -b -l -p "$d/prog" "$gm" >"$tmp/want.$name" 2>"$tmp/gerr"; then
        echo "skip $name: gprof -l failed: $(head -1 "$tmp/gerr")"
        continue
    fi
    gprof -b -p "$d/prog" "$gm" >"$tmp/flat.$name" 2>/dev/null ||
        fail "$name: gprof -b -p failed"
    : >"$tmp/got.$name"
    # every function gprof gives self time
    for fn in $(awk 'NR > 5 && $3 + 0 > 0 { print $NF }' "$tmp/flat.$name"); do
        "$PROFHUB" summary --exe "$d/prog" --annotate "$fn" -f csv "$gm" \
            >>"$tmp/got.$name" 2>"$tmp/err" ||
            fail "$name: --annotate $fn: $(cat "$tmp/err")"
    done
    python3 - "$tmp/want.$name" "$tmp/got.$name" >"$tmp/cmp.$name" <<'PY' ||
import re, sys
want, got = {}, {}
row = re.compile(r'^\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s.*\((\S+):(\d+) @ [0-9a-f]+\)$')
for ln in open(sys.argv[1]):
    m = row.match(ln)
    if m:
        k = (m.group(2), int(m.group(3)))
        want[k] = want.get(k, 0) + round(float(m.group(1)) * 100)
for ln in open(sys.argv[2]):
    f = ln.rstrip('\n').split(',')
    if f[0] == 'function' or len(f) != 4 or not f[2].isdigit():
        continue
    k = (f[1].rsplit('/', 1)[-1], int(f[2]))
    got[k] = got.get(k, 0) + int(f[3])
bad = 0
for k in sorted(set(want) | set(got)):
    w, g = want.get(k, 0), got.get(k, 0)
    if w or g:
        print('%s:%d gprof %d ours %d' % (k[0], k[1], w, g))
    if abs(w - g) > 1:
        print('  differs')
        bad = 1
if not want:
    print('no line rows from gprof'); bad = 1
sys.exit(bad)
PY
        { cat "$tmp/cmp.$name"; fail "$name: ticks per line differ from gprof -l"; }
    nl=$(grep -c ' gprof ' "$tmp/cmp.$name")
    off=$(awk '/ gprof / && $3 != $5' "$tmp/cmp.$name" | wc -l)
    echo "$name: $nl lines, $off of them one tick apart"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "gprof -l read no sample"
finish
