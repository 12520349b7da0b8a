#!/bin/sh
# pprof_export.sh -- go tool pprof reads what we write: for every pprof
# sample, pprof -> profhub -> pprof gives the same `go tool pprof -top`
# table and the same `-traces` (every sample's value and stack) for every
# sample type, and pprof -> callgrind gives every function the flat cost
# go tool pprof gives it in every sample type.  The largest callgrind
# sample and the one with 13 events, converted to pprof, give go tool
# pprof the same total and the same flat cost per function as our summary
# (stacks are approximated from flat data, so cum is not compared), and
# converting that pprof back to callgrind keeps the totals and that flat
# cost.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program go python3
CMP="python3 $top_srcdir/tests/e2e/pprofcmp.py"

unit_flag() {
    case $1 in
    nanoseconds) echo "-unit=ns" ;;
    bytes) echo "-unit=B" ;;
    *) echo "" ;;
    esac
}

events_of() {
    "$PROFHUB" info -f json "$1" | python3 -c '
import json, sys
for e in json.load(sys.stdin)["events"]:
    if not e["derived"]:
        print(e["name"], e["unit"] or "count")'
}

table() {   # FILE EVENT UNIT -> the -top table and its total line
    go tool pprof -top -nodecount=1000 -nodefraction=0 -edgefraction=0 \
        -sample_index="$2" $(unit_flag "$3") "$1" 2>/dev/null |
        sed -n '/^Showing nodes/,$p'
}

# flat_same TOP CSV EVENT: every function's flat in go tool pprof -top
# (TOP) equals its self EVENT in our summary (CSV), and the totals too.
flat_same() {
    python3 - "$@" <<'PY'
import csv, re, sys
top, total, on = {}, None, False
for line in open(sys.argv[1]):
    m = re.search(r"of (-?\d+)[A-Za-z]* total", line)   # 12ns, 12B
    if m and total is None:
        total = int(m.group(1))
    if re.match(r"^\s+flat\s+flat%", line):
        on = True
        continue
    if on and line.strip():
        p = line.split(None, 5)
        n = re.sub(r" \(inline\)$", "", p[5].rstrip("\n"))
        top[n] = top.get(n, 0) + int(re.sub(r"[A-Za-z]+$", "", p[0]))
ours = {}
for r in csv.DictReader(open(sys.argv[2])):
    n = r.get("function") or r["name"]
    ours[n] = ours.get(n, 0) + int(r["self_" + sys.argv[3]])
bad = [n for n in set(top) | set(ours) if top.get(n, 0) != ours.get(n, 0)]
for n in sorted(bad)[:10]:
    print(n, top.get(n, 0), ours.get(n, 0))
s = sum(ours.values())
print("%d functions, total pprof %s ours %s, %d flat differ" % (len(top), total, s, len(bad)))
sys.exit(1 if bad or total != s else 0)
PY
}

# flat_check WHAT PPROF EVENT UNIT FILE: go tool pprof's flat of PPROF in
# EVENT is the self cost of every function in our summary of FILE.
flat_check() {
    checks=$((checks + 1))
    go tool pprof -top -nodecount=100000 -nodefraction=0 -edgefraction=0 \
        -sample_index="$3" $(unit_flag "$4") "$2" >"$tmp/top.txt" 2>/dev/null
    "$PROFHUB" summary -n 0 -f csv -e "$3" "$5" >"$tmp/ours.csv"
    if flat_same "$tmp/top.txt" "$tmp/ours.csv" "$3" >"$tmp/cmp"; then
        echo "$1 $3: $(tail -1 "$tmp/cmp")"
    else
        fail "$1 $3: go tool pprof's flat differs"
        cat "$tmp/cmp"
    fi
}

set -- "$SAMPLES"/pprof/*.pb.gz
[ -e "$1" ] || skip "no pprof samples in $SAMPLES/pprof"
for f in "$@"; do
    name=$(basename "$f")
    expect_status 0 "$PROFHUB" convert "$f" -o "$tmp/ours.pb.gz" || continue
    events_of "$f" >"$tmp/events"
    while read -r ev unit; do
        checks=$((checks + 1))
        table "$f" "$ev" "$unit" >"$tmp/a.top"
        table "$tmp/ours.pb.gz" "$ev" "$unit" >"$tmp/b.top"
        if [ ! -s "$tmp/a.top" ] || ! cmp -s "$tmp/a.top" "$tmp/b.top"; then
            fail "$name $ev: go tool pprof -top differs after our round trip"
            diff -u "$tmp/a.top" "$tmp/b.top" | head -20
        fi
        checks=$((checks + 1))
        go tool pprof -traces -sample_index="$ev" "$f" >"$tmp/a.tr" 2>/dev/null
        go tool pprof -traces -sample_index="$ev" "$tmp/ours.pb.gz" >"$tmp/b.tr" 2>/dev/null
        if $CMP traces "$tmp/a.tr" "$tmp/b.tr" >"$tmp/cmp"; then
            echo "$name $ev: top table same, traces $(tail -1 "$tmp/cmp")"
        else
            fail "$name $ev: go tool pprof -traces differs after our round trip"
            cat "$tmp/cmp"
        fi
    done <"$tmp/events"
done

# pprof -> callgrind: every function's self cost in every event is go tool
# pprof's flat of the source (samples keep no trailing zeros: a heap
# sample's inuse values are often 0 after alloc ones that are not).
for f in "$@"; do
    name=$(basename "$f")
    expect_status 0 "$PROFHUB" convert -t callgrind "$f" -o "$tmp/back.cg" ||
        continue
    events_of "$f" >"$tmp/events"
    while read -r ev unit; do
        flat_check "$name -> callgrind" "$f" "$ev" "$unit" "$tmp/back.cg"
    done <"$tmp/events"
done

# Flat data: the largest callgrind sample, and the one with 13 events
# (cache and branch simulation: many of its lines cost 0 in the last
# events).  Its pprof's flat per function is our summary's self cost; and
# back to callgrind, the totals survive and every function's self cost in
# every event is that flat again.
for cg in $(ls -S "$SAMPLES"/callgrind/*.out 2>/dev/null | head -1) \
          "$SAMPLES/callgrind/chain.cache-branch.out"; do
    [ -s "$cg" ] || continue
    name=$(basename "$cg")
    expect_status 0 "$PROFHUB" convert "$cg" -o "$tmp/cg.pb.gz"
    if ! grep -q "approximated" "$tmp/err"; then
        fail "$name: no warning that the stacks are approximated"
        show_output
    fi
    expect_status 0 "$PROFHUB" convert "$tmp/cg.pb.gz" -o "$tmp/back.callgrind"
    events_of "$cg" >"$tmp/events"
    while read -r ev unit; do
        # flat only: cum differs (the stacks are approximated)
        flat_check "$name -> pprof" "$tmp/cg.pb.gz" "$ev" "$unit" "$cg"
        flat_check "$name -> pprof -> callgrind" "$tmp/cg.pb.gz" "$ev" \
            "$unit" "$tmp/back.callgrind"
    done <"$tmp/events"
    # ... and back to callgrind: the totals survive.
    "$PROFHUB" info -f json "$cg" | python3 -c '
import json, sys
print(sorted((e["name"], e["total"]) for e in json.load(sys.stdin)["events"] if not e["derived"]))' >"$tmp/t1"
    "$PROFHUB" info -f json "$tmp/back.callgrind" | python3 -c '
import json, sys
print(sorted((e["name"], e["total"]) for e in json.load(sys.stdin)["events"] if not e["derived"]))' >"$tmp/t2"
    checks=$((checks + 1))
    if cmp -s "$tmp/t1" "$tmp/t2"; then
        echo "$name -> pprof -> callgrind: totals kept $(cat "$tmp/t1")"
    else
        fail "$name -> pprof -> callgrind: totals changed"
        cat "$tmp/t1" "$tmp/t2"
    fi
done

# gprof's ticks (unit seconds, scale 1/rate) reach pprof as nanoseconds.
g=$SAMPLES/gmon/chain-nopie
if [ -f "$g/gmon.out" ]; then
    checks=$((checks + 1))
    "$PROFHUB" convert --exe "$g/prog" "$g/gmon.out" -o "$tmp/g.pb.gz" 2>/dev/null
    got=$(go tool pprof -top -nodecount=1 -unit=ns "$tmp/g.pb.gz" 2>/dev/null |
          sed -n 's/.* of \([0-9]*\)ns total.*/\1/p')
    want=$("$PROFHUB" info -f json --exe "$g/prog" "$g/gmon.out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
rate = [m["value"] for m in d["metadata"] if m["key"] == "gmon.prof_rate"][0]
print(d["events"][0]["total"] * 10**9 // int(rate))')
    if [ -n "$got" ] && [ "$got" = "$want" ]; then
        echo "gmon chain-nopie -> pprof: ${got}ns, as gprof's ticks say"
    else
        fail "gmon -> pprof: go tool pprof total ${got}ns, expected ${want}ns"
    fi
fi
finish
