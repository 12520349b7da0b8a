#!/bin/sh
# sort_parts_peer.sh -- the summary options that choose order and parts,
# against their peers run live (issue 17, every view of summary --help):
#  - --sort inclusive orders as callgrind_annotate --inclusive=yes does
#    (the functions both tools give the same inclusive cost come in the
#    same order) on callgrind samples, and as go tool pprof -top -cum on
#    every pprof sample's first sample type (its first 40 rows);
#  - --part N and --thread N of the four per-thread files of
#    samples/callgrind/threads.sep.out-0N (loaded together as parts) give
#    each function the self cost callgrind_annotate prints for file N
#    alone (summed per function: the peer files inlined code apart).
# Each half skips without its peer; both missing => 77.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3
S=$SAMPLES/callgrind
have_cga=0 have_go=0
command -v callgrind_annotate >/dev/null 2>&1 && have_cga=1
command -v go >/dev/null 2>&1 && have_go=1
[ $have_cga = 1 ] || [ $have_go = 1 ] || skip "neither callgrind_annotate nor go"
mkdir "$tmp/cwd"   # callgrind_annotate strips its working directory

# callgrind_annotate's table rows: "N  file:function [object]" -> TSV
cga_rows() {
    (cd "$tmp/cwd" && callgrind_annotate --threshold=100 --show-percs=no \
        --auto=no "$@") | python3 -c '
import re, sys
on = False
for ln in sys.stdin:
    if re.match(r"^\S+\s+file:function", ln):
        on = True
        continue
    m = re.match(r"^\s*([\d,]+)\s+(.*?)(?: \[(.*)\])?$", ln.rstrip("\n"))
    if on and m and not ln.startswith("-"):
        print("%s\t%s\t%s" % (m.group(1).replace(",", ""), m.group(2), m.group(3) or ""))'
}

# same_order NAME PEER OURS: files of "value<TAB>name" rows in each
# tool's order.  The names both list once with the same value must come
# in the same order, read as their values (ties may come either way);
# names whose values differ are the rules' documented differences
# (recursion, cycles) that summary_peer.sh and tree_peer.sh check.
same_order() {
    if python3 - "$2" "$3" >"$tmp/order" <<'PY'; then
import collections, sys
def rows(path):
    r = [l.rstrip('\n').split('\t', 1) for l in open(path) if '\t' in l]
    n = collections.Counter(k for _, k in r)
    return [(float(v), k) for v, k in r if n[k] == 1]
peer, ours = rows(sys.argv[1]), rows(sys.argv[2])
pv, ov = dict((k, v) for v, k in peer), dict((k, v) for v, k in ours)
both = set(k for k in pv if k in ov and pv[k] == ov[k])
a = [v for v, k in peer if k in both]
b = [v for v, k in ours if k in both]
if a != b or len(a) < 5:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print('row %d: peer %g, ours %g' % (i + 1, x, y))
            break
    print('%d common rows' % len(a))
    sys.exit(1)
print('%d rows in the same order (%d of the peer\'s)' % (len(a), len(peer)))
PY
        checks=$((checks + 1))
        echo "ok   $1: $(cat "$tmp/order")"
    else
        fail "$1: order differs"; cat "$tmp/order"
    fi
}

if [ $have_cga = 1 ]; then
    for s in chain.default.out checksum.before.out threads.default.out; do
        [ -s "$S/$s" ] || continue
        cp "$S/$s" "$tmp/in.out"
        cga_rows --inclusive=yes "$tmp/in.out" |
            awk -F'\t' '{ sub(/^[^:]*:/, "", $2); print $1 "\t" $2 }' >"$tmp/peer.seq"
        "$PROFHUB" summary --sort inclusive --no-cycles -n 0 -f csv \
            "$tmp/in.out" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print("%s\t%s" % (r["incl_Ir"], r["name"]))' >"$tmp/ours.seq"
        same_order "$s --sort inclusive vs callgrind_annotate --inclusive=yes" \
            "$tmp/peer.seq" "$tmp/ours.seq"
    done

    set -- "$S"/threads.sep.out-0[1-4]
    for n in 1 2 3 4; do
        eval "f=\${$n}"
        # per function name: the peer files inlined code by its own file
        cga_rows "$f" | awk -F'\t' '{ k = $2; sub(/^[^:]*:/, "", k); s[k] += $1 }
            END { for (k in s) print k "\t" s[k] }' | sort >"$tmp/peer.$n"
        for opt in "--part $n" "--thread $n"; do
            # shellcheck disable=SC2086
            "$PROFHUB" summary $opt --no-cycles -n 0 -f csv "$@" 2>"$tmp/err" |
                python3 -c '
import csv, sys
s = {}
for r in csv.DictReader(sys.stdin):
    k = r["name"]
    s[k] = s.get(k, 0) + int(r["self_Ir"])
for k, v in s.items():
    if v:
        print("%s\t%d" % (k, v))' | sort >"$tmp/ours.$n"
            if cmp -s "$tmp/peer.$n" "$tmp/ours.$n"; then
                checks=$((checks + 1))
                echo "ok   $opt: $(wc -l <"$tmp/ours.$n") functions equal callgrind_annotate $(basename "$f")"
            else
                fail "$opt: self costs differ from callgrind_annotate $(basename "$f") (< peer, > ours)"
                diff "$tmp/peer.$n" "$tmp/ours.$n" | head -10
            fi
        done
    done
fi

if [ $have_go = 1 ]; then
    for f in "$SAMPLES"/pprof/*.pb.gz; do
        [ -s "$f" ] || continue
        name=$(basename "$f")
        "$PROFHUB" info -f json "$f" >"$tmp/info.json" || { fail "$name: info failed"; continue; }
        set -- $(python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["events"][0]
print(e["name"], {"nanoseconds": "-unit=ns", "bytes": "-unit=B"}.get(e["unit"], ""))' "$tmp/info.json")
        ev=$1 unit=${2:-}
        # shellcheck disable=SC2086
        go tool pprof -top -cum -nodecount=40 -nodefraction=0 -edgefraction=0 \
            -sample_index="$ev" $unit "$f" 2>/dev/null | python3 -c '
import re, sys
on = False
for ln in sys.stdin:
    if re.match(r"^\s*flat\s+flat%", ln):
        on = True
        continue
    f = ln.split()
    if on and len(f) >= 6:
        print("%s\t%s" % (re.sub(r"[^0-9.]", "", f[3]), " ".join(f[5:])))' >"$tmp/peer.seq"
        "$PROFHUB" summary --sort inclusive -e "$ev" -n 0 -f csv "$f" |
            python3 -c '
import csv, sys
ev = sys.argv[1]
for r in csv.DictReader(sys.stdin):
    v = float(r["incl_" + ev])
    print("%s\t%s" % (("%f" % v).rstrip("0").rstrip("."), r["name"]))' "$ev" >"$tmp/ours.seq"
        same_order "$name --sort inclusive vs go tool pprof -top -cum" \
            "$tmp/peer.seq" "$tmp/ours.seq"
    done
fi
finish
