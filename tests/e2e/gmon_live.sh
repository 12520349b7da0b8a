#!/bin/sh
# gmon_live.sh -- gprof attribution on programs built and run here (issue
# 13 item 7): tests/e2e/src/gmon_plt.c calls into the C library in a loop,
# so ticks land in the PLT (dynamic) or IPLT and libc's own code (static).
# Built with gcc -pg as a PIE, a non-PIE and a static program, each run
# once; then per program:
#  - gprof -b -p / -q (parsed by tests/e2e/gprof2tsv) equal what
#    analysis/gprof_prop.c computes (tests/e2e/gprof_table), as in
#    peer_gmon.sh;
#  - profhub summary names no function by address, lists the functions
#    gprof's flat profile gives time (PLT ticks as _init, as gprof does)
#    and has gprof's total;
# and a gmon.out without --exe is refused (exit 1) unless --raw-addresses.
# Skips (77) without gcc, gprof or python3.
. "$(dirname "$0")/lib.sh"
need_program gcc gprof python3
TABLE=$top_builddir/tests/e2e/gprof_table
G2T=$top_srcdir/tests/e2e/gprof2tsv

build() {
    mkdir -p "$tmp/$1"
    shift
    gcc -pg -O1 -fno-builtin "$@" "$top_srcdir/tests/e2e/src/gmon_plt.c" \
        -o "$tmp/$name/prog" 2>"$tmp/$name/cc.err"
}

for v in pie nopie static; do
    name=$v
    case $v in
    pie) flags="-pie -fPIE" ;;
    nopie) flags="-no-pie" ;;
    static) flags="-static" ;;
    esac
    # shellcheck disable=SC2086
    if ! build "$v" $flags; then
        echo "skip $v: gcc cannot build it: $(head -1 "$tmp/$v/cc.err")"
        continue
    fi
    d=$tmp/$v
    (cd "$d" && ./prog 60 >/dev/null) || { fail "$v: the program failed"; continue; }
    [ -s "$d/gmon.out" ] || { fail "$v: no gmon.out written"; continue; }
    gprof -b -p "$d/prog" "$d/gmon.out" >"$d/flat" 2>/dev/null &&
        gprof -b -q "$d/prog" "$d/gmon.out" >"$d/graph" 2>/dev/null ||
        { fail "$v: gprof failed"; continue; }

    # gprof's numbers, function by function
    checks=$((checks + 1))
    python3 "$G2T" "$d/flat" "$d/graph" | sort >"$d/want"
    "$TABLE" "$d/prog" "$d/gmon.out" | sort >"$d/got"
    if [ ! -s "$d/want" ]; then
        fail "$v: could not parse gprof's output"
    elif ! cmp -s "$d/want" "$d/got"; then
        fail "$v: gprof_table differs from gprof (< gprof, > profhub)"
        diff "$d/want" "$d/got"
    fi

    # the summary: the same functions with time, no address names, and
    # gprof's total
    testrun "$PROFHUB" summary --exe "$d/prog" -n 0 -f csv "$d/gmon.out"
    if [ "$status" != 0 ]; then
        fail "$v: summary exit status $status"; show_output; continue
    fi
    python3 - "$d/flat" "$tmp/out" >"$d/cmp" <<'EOF'
import csv, re, sys
flat = {}
total = 0.0
for l in open(sys.argv[1]):
    m = re.match(r'^\s*[\d.]+\s+([\d.]+)\s+([\d.]+)\s+(?:\d+\s+[\d.]+\s+[\d.]+\s+)?(\S.*?)\s*$', l)
    if m and float(m.group(2)) > 0:
        flat[m.group(3)] = float(m.group(2))
        total = float(m.group(1))
rows = list(csv.reader(open(sys.argv[2])))
head = rows[0]
fi = head.index('name') if 'name' in head else head.index('function')
si = next(i for i, h in enumerate(head) if h.startswith('self'))
ours, ticks = set(), 0
for r in rows[1:]:
    if len(r) <= max(fi, si) or r[fi].startswith('<cycle') or r[si] in ('', '0'):
        continue
    ours.add(r[fi])
    ticks += int(float(r[si]))
    if r[fi].startswith('0x'):
        print('address name %s' % r[fi])
for n in sorted(set(flat) - ours):
    print('gprof gives time to %s, summary does not' % n)
for n in sorted(ours - set(flat)):
    if n not in flat:
        print('summary gives time to %s, gprof does not' % n)
if '%.2f' % (ticks / 100.0) != '%.2f' % total:
    print('total %.2f s, gprof %.2f s' % (ticks / 100.0, total))
EOF
    checks=$((checks + 1))
    if [ -s "$d/cmp" ]; then
        fail "$v: summary differs from gprof's flat profile"; cat "$d/cmp"
    else
        echo "ok   $v: $(grep -c '^fn' "$d/got") functions equal gprof" \
             "($(grep -c . "$d/flat") flat lines)"
    fi
done

# Without the program: refused, unless raw addresses are asked for.
g=$SAMPLES/gmon/chain-nopie/gmon.out
if expect_status 1 "$PROFHUB" summary "$g"; then
    grep -q 'no executable given.*--exe PROG.*--raw-addresses' "$tmp/err" ||
        { fail "no --exe: the message does not name --exe and --raw-addresses"; cat "$tmp/err"; }
    [ -s "$tmp/out" ] && fail "no --exe: a report was printed"
fi
expect_status 1 "$PROFHUB" convert "$g" -o "$tmp/x.folded"
[ -e "$tmp/x.folded" ] && fail "no --exe: convert wrote a file"
if expect_status 0 "$PROFHUB" summary --raw-addresses -n 3 "$g"; then
    grep -q '0x' "$tmp/out" || fail "--raw-addresses: no address names"
fi
expect_status 0 "$PROFHUB" info --raw-addresses "$g"
finish
