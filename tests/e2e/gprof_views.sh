#!/bin/sh
# gprof_views.sh -- profhub summary of gmon.out as a gprof user reads it
# (issue 13 item 5, issue 17 item 3), against gprof run live on every
# samples/gmon/NAME/{prog,gmon.out}:
#  - the text table is in seconds: each function's self seconds equal
#    `gprof -b -p`'s, every function gprof's flat profile lists (called
#    functions with no time too) is listed, and the functions only we list
#    are uncalled roots with no time (main, gprof's <spontaneous>);
#  - the root of the call graph (main) has gprof's inclusive time.
# Skips (77) without gprof or python3.
. "$(dirname "$0")/lib.sh"
need_program gprof python3
set -- "$SAMPLES"/gmon/*/gmon.out
[ -f "$1" ] || skip "no samples/gmon/*/gmon.out"

for g in "$@"; do
    d=$(dirname "$g")
    name=$(basename "$d")
    [ -x "$d/prog" ] || continue
    gprof -b -p "$d/prog" "$g" >"$tmp/flat" 2>/dev/null &&
        gprof -b -q "$d/prog" "$g" >"$tmp/graph" 2>/dev/null ||
        { fail "$name: gprof failed"; continue; }
    expect_status 0 "$PROFHUB" summary -w 100000 -n 0 --exe "$d/prog" "$g" ||
        continue
    python3 - "$tmp/flat" "$tmp/graph" "$tmp/out" >"$tmp/cmp" <<'EOF'
import re, sys
flat = {}
for l in open(sys.argv[1]):
    m = re.match(r'^\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s+(?:\d+\s+[\d.]+\s+[\d.]+\s+)?(\S.*?)\s*$', l)
    if m:
        flat[re.sub(r' <cycle \d+>$', '', m.group(2))] = m.group(1)
# gprof's primary lines: [N] %time self children called name [N]
total = {}
for l in open(sys.argv[2]):
    m = re.match(r'^\[\d+\]\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+(?:[\d+]+\s+)?(\S.*?)\s+\[\d+\]\s*$', l)
    if m:
        total[re.sub(r' <cycle \d+>$', '', m.group(3))] = float(m.group(1)) + float(m.group(2))
ours = {}
row = re.compile(r'^\s*([\d.]+)\s+[\d.]+%\s+([\d.]+)\s+[\d.]+%\s+([\d,+]+)\s+(.*?)(?:  \S+)?$')
started = False
for l in open(sys.argv[3]):
    if l.startswith('inclusive'):
        started = True
        continue
    if not started or not l.strip() or l.startswith('cycles'):
        if started and not l.strip():
            break
        continue
    m = row.match(l.rstrip('\n'))
    if not m:
        print('unparsed: %r' % l)
        continue
    n = re.sub(r' <cycle \d+>$', '', m.group(4))
    if n.startswith('<cycle'):
        continue
    ours[n] = (m.group(1), m.group(2), m.group(3))
if not ours:
    print('no rows parsed')
for n, s in sorted(flat.items()):
    if n not in ours:
        print('%s: in gprof -p, not in summary' % n)
    elif ours[n][1] != s:
        print('%s: self %s s, gprof %s s' % (n, ours[n][1], s))
for n, (incl, s, calls) in sorted(ours.items()):
    if n not in flat and not (s == '0.00' and calls == '0'):
        print('%s: in summary only' % n)
    if n not in flat and n in total and '%.2f' % total[n] != incl:
        print('%s: inclusive %s s, gprof self+children %.2f s' % (n, incl, total[n]))
if 'main' in total and 'main' not in ours:
    print('main: not listed')
EOF
    checks=$((checks + 1))
    if [ -s "$tmp/cmp" ]; then
        fail "$name: summary differs from gprof -b -p"; cat "$tmp/cmp"
    else
        echo "ok   $name: summary in seconds equals gprof's flat profile ($(grep -c . "$tmp/flat") lines)"
    fi
done
finish
