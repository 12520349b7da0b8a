#!/bin/sh
# derived_events.sh -- KCachegrind's built-in derived events, the config
# file and --define apply to diff, merge, convert and draw as to summary.
# The numbers are checked against cg_annotate run here: CEst = Ir + 10 L1m
# + 100 LLm (KCachegrind's formula; L1m = I1mr + D1mr + D1mw, LLm = ILmr +
# DLmr + DLmw) computed from cg_annotate's per-function rows and totals.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program cg_annotate python3
B=$SAMPLES/cachegrind/checksum.before.out
A=$SAMPLES/cachegrind/checksum.after.out
[ -s "$B" ] && [ -s "$A" ] || skip "samples missing"
export XDG_CONFIG_HOME="$tmp/xdg" HOME="$tmp"

# cg_annotate's events per file:function and its totals, as JSON.
peer() {   # file -> $tmp/NAME.peer.json
    cg_annotate --threshold=0 "$1" >"$tmp/cga" 2>/dev/null ||
        fail "cg_annotate $1"
    python3 - "$tmp/cga" >"$tmp/$2.peer.json" <<'P'
import json, re, sys
events, rows, totals, on = None, {}, None, False
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("Events shown:"):
        events = line.split(":", 1)[1].split()
    if "file:function" in line:
        on = True
        continue
    if events is None or not re.match(r"^\s*[\d,.]", line):
        continue
    cells = re.findall(r"([\d,]+|\.)(?: \(\s*[\d.]+%\))?", line)
    vals = [0 if c == "." else int(c.replace(",", "")) for c in cells[:len(events)]]
    name = line.split()[-1]
    if line.endswith("PROGRAM TOTALS"):
        totals = dict(zip(events, vals))
    elif on:
        r = rows.setdefault(name, dict.fromkeys(events, 0))
        for e, v in zip(events, vals):
            r[e] += v
json.dump({"totals": totals, "rows": rows}, sys.stdout)
P
}
peer "$B" before
peer "$A" after

# CEst of a cg_annotate row.
cat >"$tmp/cest.py" <<'P'
def cest(r):
    l1 = r["I1mr"] + r["D1mr"] + r["D1mw"]
    ll = r["ILmr"] + r["DLmr"] + r["DLmw"]
    return r["Ir"] + 10 * l1 + 100 * ll
P

# diff -e CEst: totals and every function of both sides.
expect_status 0 "$PROFHUB" diff -e CEst -f json -n 0 --match name+file \
    "$B" "$A" && PYTHONPATH=$tmp python3 - "$tmp" "$tmp/out" <<'P' ||
import json, sys
from cest import cest
d = sys.argv[1]
b = json.load(open(d + "/before.peer.json"))
a = json.load(open(d + "/after.peer.json"))
j = json.load(open(sys.argv[2]))
t = j["totals"]["CEst"]
assert t["base"] == cest(b["totals"]) and t["new"] == cest(a["totals"]), t
n = 0
for r in j["rows"]:
    key = "%s:%s" % (r["file"], r["name"])
    for side, peer in (("base", b), ("new", a)):
        if key in peer["rows"]:
            assert r[side]["CEst"] == cest(peer["rows"][key]), (key, side, r)
            n += 1
assert n > 50, n
P
    fail "diff -e CEst disagrees with cg_annotate"
expect_status 0 "$PROFHUB" diff -e CEst "$B" "$A"
grep -q 'rows by |delta| of CEst' "$tmp/out" || fail "diff -e CEst: $(head -3 "$tmp/out")"
# A --fail-if rule on a built-in.
expect_status 3 "$PROFHUB" diff --fail-if 'CEst > +100%' "$B" "$A"

# convert -O event=CEst: the folded stacks add up to cg_annotate's CEst.
expect_status 0 "$PROFHUB" convert -O event=CEst "$A" -o "$tmp/a.folded"
got=$(awk '{ s += $NF } END { printf "%d", s }' "$tmp/a.folded")
want=$(PYTHONPATH=$tmp python3 -c "
import json; from cest import cest
print(cest(json.load(open('$tmp/after.peer.json'))['totals']))")
[ "$got" = "$want" ] || fail "folded CEst: $got, cg_annotate's formula $want"

# convert --define: the formula travels in a callgrind file, and a linear
# one becomes a pprof sample type; both read back to Ir + Dr.
irdr=$(python3 -c "
import json; t = json.load(open('$tmp/after.peer.json'))['totals']
print(t['Ir'] + t['Dr'])")
for ext in callgrind pb.gz; do
    expect_status 0 "$PROFHUB" convert --define 'X = Ir + Dr' "$A" \
        -o "$tmp/x.$ext"
    expect_status 0 "$PROFHUB" summary -f json "$tmp/x.$ext"
    got=$(python3 -c "
import json; print(json.load(open('$tmp/out'))['totals']['X'])")
    [ "$got" = "$irdr" ] || fail "convert --define to $ext: X = $got, want $irdr"
done
grep -q '^event: X = Ir + Dr$' "$tmp/x.callgrind" ||
    fail "convert --define: no event: line"

# merge: --define on the merged profile, --stats on a built-in.
expect_status 0 "$PROFHUB" merge --define 'X = Ir + Dr' "$B" "$A" \
    -o "$tmp/m.callgrind"
expect_status 0 "$PROFHUB" summary -f json "$tmp/m.callgrind"
python3 - "$tmp" <<'P' || fail "merge --define: X is not the sum's Ir + Dr"
import json, sys
d = sys.argv[1]
t = json.load(open(d + "/out"))["totals"]
s = [json.load(open(d + "/%s.peer.json" % k))["totals"] for k in ("before", "after")]
assert t["X"] == sum(x["Ir"] + x["Dr"] for x in s), t
P
expect_status 0 "$PROFHUB" merge --stats -e CEst -f csv -n 1 "$B" "$A"
want=$(PYTHONPATH=$tmp python3 -c "
import json; from cest import cest
r = [cest(json.load(open('$tmp/%s.peer.json' % k))['rows']['samples/src/checksum.c:checksum_block']) for k in ('before', 'after')]
print('checksum_block,%d,%d' % (min(r), max(r)))")
got=$(python3 -c "
import csv; r = list(csv.reader(open('$tmp/out')))[1]; print(','.join([r[0], r[3], r[4]]))")
[ "$got" = "$want" ] || fail "merge --stats -e CEst: $got, want $want"

# The config file's events reach diff and convert; an entry naming an
# event the profile lacks is skipped, a bad formula is an error.
mkdir -p "$tmp/xdg/profhub"
printf 'derived:\n  Mem: Dr + Dw\n  Cyc: cpu + 1\n' >"$tmp/xdg/profhub/config.yaml"
expect_status 0 "$PROFHUB" diff -e Mem -f json "$B" "$A"
python3 - "$tmp/out" "$tmp" <<'P' || fail "diff -e Mem from the config file"
import json, sys
t = json.load(open(sys.argv[1]))["totals"]["Mem"]
d = sys.argv[2]
b, a = (json.load(open(d + "/%s.peer.json" % k))["totals"] for k in ("before", "after"))
assert t["base"] == b["Dr"] + b["Dw"] and t["new"] == a["Dr"] + a["Dw"], t
P
expect_status 0 "$PROFHUB" convert "$A" -o "$tmp/c.callgrind"
grep -q '^event: Mem = Dr + Dw$' "$tmp/c.callgrind" ||
    fail "convert: the config file's event is not written"
printf 'derived:\n  Y: Dr +\n' >"$tmp/xdg/profhub/config.yaml"
for cmd in "diff $B" "merge -o $tmp/y.callgrind" "convert -o $tmp/y.callgrind"; do
    # shellcheck disable=SC2086
    expect_status 2 "$PROFHUB" $cmd "$A"
    grep -q 'config.yaml:2:10: expected a name or number' "$tmp/err" ||
        fail "$cmd: config error: $(cat "$tmp/err")"
done
[ -e "$tmp/y.callgrind" ] && fail "a bad config file left an output"
rm -r "$tmp/xdg"

# --define errors read the same in every command.
for cmd in "summary" "diff $B" "convert -o $tmp/z.folded" "draw flame -o $tmp/z.svg"; do
    # shellcheck disable=SC2086
    run_compare_err 2 "$PROFHUB" $cmd --define 'Z = Ir +' "$A" <<'E'
profhub: --define: column 9: expected a name or number, got end of formula
E
done
finish
