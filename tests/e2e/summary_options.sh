#!/bin/sh
# summary_options.sh -- the summary's options do what cgview.1 says: formula
# errors name their column and exit 2 (--define and the config file), the
# config file's derived events appear, parts and threads select costs that
# add up to the whole, --focus/--ignore filter, YAML and CSV carry the
# same numbers as JSON.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
CG=$SAMPLES/cachegrind/chain.default.out
CB=$SAMPLES/callgrind/chain.combined.out
[ -s "$CG" ] && [ -s "$CB" ] || skip "samples missing"
need_program python3
export XDG_CONFIG_HOME="$tmp/xdg" HOME="$tmp"

# --define: the column is the argument's, 1-based.
run_compare_err 2 "$PROFHUB" summary --define 'X = D1mr / / Dr' "$CG" <<'E'
profhub: --define: column 12: expected a name or number, got "/"
E
run_compare_err 2 "$PROFHUB" summary --define 'X = D1mr / Nope' "$CG" <<'E'
profhub: --define: column 12: unknown event "Nope"
E
run_compare_err 2 "$PROFHUB" summary --define 'X D1mr' "$CG" <<'E'
profhub: --define: column 7: expected NAME = FORMULA
E
run_compare_err 2 "$PROFHUB" summary --define 'Ir = Dr' "$CG" <<'E'
profhub: --define: column 1: "Ir" is a real event and cannot have a formula
E

# The config file: its place, its events, its errors.
mkdir -p "$tmp/xdg/profhub"
printf 'derived:\n  MissRate: D1mr / Dr\n  Pct: MissRate * 100\nother: 1\n' \
    >"$tmp/xdg/profhub/config.yaml"
expect_status 0 "$PROFHUB" summary -f json "$CG" \
    && python3 - "$tmp/out" <<'P' || fail "config events"
import json, sys
j = json.load(open(sys.argv[1]))
f = {e["name"]: e["formula"] for e in j["events"]}
assert f["MissRate"] == "D1mr / Dr" and f["Pct"] == "MissRate * 100", f
t = j["totals"]
assert abs(t["Pct"] - 100.0 * t["D1mr"] / t["Dr"]) < 1e-9, t
P
err_filter() { filter_paths; }
printf 'derived:\n  Y: D1mr +\n' >"$tmp/bad.yaml"
run_compare_err 2 "$PROFHUB" summary --config "$tmp/bad.yaml" "$CG" <<'E'
TMP/bad.yaml:2:12: expected a name or number, got end of formula
E
err_filter() { cat; }
expect_status 2 "$PROFHUB" summary --config "$tmp/none.yaml" "$CG"
rm -r "$tmp/xdg"

# Parts: each part alone adds up to all of them, per function.
expect_status 0 "$PROFHUB" summary -f json -n 0 "$CB" && cp "$tmp/out" "$tmp/all.json"
for k in 1 2 3 4; do
    expect_status 0 "$PROFHUB" summary -f json -n 0 --part $k "$CB" \
        && cp "$tmp/out" "$tmp/p$k.json"
done
python3 - "$tmp" <<'P' || fail "parts do not add up"
import json, sys
d = sys.argv[1]
def fns(j):
    out = {}
    for f in j["functions"]:
        k = (f["name"], f["file"], f["object"])
        out[k] = out.get(k, 0) + f["self"]["Ir"]
    return out
a = json.load(open(d + "/all.json"))
parts = [json.load(open("%s/p%d.json" % (d, k))) for k in range(1, 5)]
assert len(a["profile"]["parts"]) == 4
assert sum(p["totals"]["Ir"] for p in parts) == a["totals"]["Ir"]
s = {}
for p in parts:
    for k, v in fns(p).items():
        s[k] = s.get(k, 0) + v
fa = fns(a)
for k in set(s) | set(fa):
    assert s.get(k, 0) == fa.get(k, 0), (k, s.get(k), fa.get(k))
P
expect_status 1 "$PROFHUB" summary --part 5 "$CB"
expect_status 1 "$PROFHUB" summary --thread 9 "$CB"

# Filters (pprof's, by stack; flat data through approximated stacks,
# tests/e2e/pprof_filters.sh compares them with pprof): --show keeps only
# the frames it matches; --ignore drops the samples below level_c, so
# level_a and level_b keep only their own cost.
expect_status 0 "$PROFHUB" summary -f csv -n 0 --show '^level_' "$CB"
names=$(csv_tsv "$tmp/out" | tail -n +2 | cut -f1 | sort | tr '\n' ' ')
[ "$names" = "level_a level_b level_c level_d level_e " ] || fail "--show gave: $names"
grep -q "filtered approximately" "$tmp/err" || fail "--show on flat data: no approximation warning"
expect_status 0 "$PROFHUB" summary -f csv -n 0 --show '^level_' --ignore 'level_c' "$CB"
names=$(csv_tsv "$tmp/out" | tail -n +2 | cut -f1,6,7 | tr '\t' , | sort | tr '\n' ' ')
[ "$names" = "level_a,12,24 level_b,12,12 " ] || fail "--show/--ignore gave: $names"

# YAML (read back by a YAML parser) and CSV carry JSON's numbers.
expect_status 0 "$PROFHUB" summary -f json -n 10 "$CG" && cp "$tmp/out" "$tmp/j"
expect_status 0 "$PROFHUB" summary -f yaml -n 10 "$CG" && cp "$tmp/out" "$tmp/y"
expect_status 0 "$PROFHUB" summary -f csv -n 10 "$CG" && cp "$tmp/out" "$tmp/c"
python3 - "$tmp" <<'P' || fail "yaml or csv differ from json"
import csv, json, sys
d = sys.argv[1]
j = json.load(open(d + "/j"))
try:
    import yaml
    y = yaml.safe_load(open(d + "/y"))
    assert y == j, "yaml differs"
except ImportError:
    pass
rows = list(csv.DictReader(open(d + "/c")))
assert len(rows) == len(j["functions"])
for r, f in zip(rows, j["functions"]):
    assert r["name"] == f["name"]
    for ev, v in f["self"].items():
        assert float(r["self_" + ev]) == v, (f["name"], ev)
P
finish
