#!/bin/sh
# cli_formats.sh -- `profhub formats`: the JSON form parses (python3 -m
# json.tool) and is a list of objects {name, description, read, write,
# extensions} with the right types; the text and CSV forms list the same
# formats with the same directions.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

expect_status 0 "$PROFHUB" formats --format json
cp "$tmp/out" "$tmp/formats.json"
python3 -m json.tool "$tmp/formats.json" >/dev/null \
    || fail "formats --format json is not valid JSON"

# Shape and types; prints "name read write" per format for the checks below.
python3 - "$tmp/formats.json" >"$tmp/json.list" <<'EOF2' \
    || fail "formats --format json: wrong shape"
import json, sys
data = json.load(open(sys.argv[1]))
assert isinstance(data, list), "not a list"
names = set()
for o in data:
    assert set(o) == {"name", "description", "read", "write", "extensions"}, o
    assert isinstance(o["name"], str) and o["name"], o
    assert o["name"] not in names, "duplicate " + o["name"]
    names.add(o["name"])
    assert isinstance(o["description"], str), o
    assert isinstance(o["read"], bool) and isinstance(o["write"], bool), o
    assert o["read"] or o["write"], o
    assert isinstance(o["extensions"], list), o
    assert all(isinstance(e, str) and e and not e.startswith(".")
               for e in o["extensions"]), o
    print(o["name"], "yes" if o["read"] else "-", "yes" if o["write"] else "-")
EOF2

# The text table says the same.
expect_status 0 "$PROFHUB" formats
if [ -s "$tmp/json.list" ]; then
    sed 1d "$tmp/out" | awk '{ print $1, $2, $3 }' >"$tmp/text.list"
    cmp -s "$tmp/json.list" "$tmp/text.list" \
        || { fail "text and JSON list different formats";
             diff "$tmp/json.list" "$tmp/text.list"; }
else
    grep -q 'no formats' "$tmp/out" || fail "empty registry not said"
fi

# CSV: a header and one row per format.
expect_status 0 "$PROFHUB" formats -f csv
[ "$(head -1 "$tmp/out")" = "name,description,read,write,extensions" ] \
    || fail "CSV header"
[ $(($(wc -l <"$tmp/out") - 1)) = "$(wc -l <"$tmp/json.list")" ] \
    || fail "CSV rows differ in number from JSON objects"
# CSV and YAML say what the JSON says (read and write as true/false).
cp "$tmp/out" "$tmp/formats.csv"
"$PROFHUB" formats -f json >"$tmp/formats.json" &&
    "$PROFHUB" formats -f yaml >"$tmp/formats.yaml" &&
    python3 - "$tmp" <<'P' || fail "formats: CSV or YAML differ from JSON"
import csv, json, sys
import yaml
d = sys.argv[1]
j = json.load(open(d + "/formats.json"))
y = yaml.safe_load(open(d + "/formats.yaml"))
assert y == j, (y, j)
rows = list(csv.DictReader(open(d + "/formats.csv")))
assert len(rows) == len(j)
for r, o in zip(rows, j):
    assert r["name"] == o["name"] and r["description"] == o["description"]
    assert r["read"] == str(o["read"]).lower(), r
    assert r["write"] == str(o["write"]).lower(), r
    assert r["extensions"].split() == o["extensions"], r
P

# info: YAML is the JSON, and the CSV's key,value rows are its scalars by
# path ("events.0.name"), null as an empty field.
for f in callgrind/chain.default.out pprof/gowork.cpu.pb.gz; do
    [ -s "$SAMPLES/$f" ] || continue
    for fmt in json yaml csv; do
        "$PROFHUB" info -f $fmt "$SAMPLES/$f" >"$tmp/info.$fmt" ||
            fail "info -f $fmt $f"
    done
    python3 - "$tmp" <<'P' || fail "info $f: CSV or YAML differ from JSON"
import csv, json, sys
import yaml
d = sys.argv[1]
j = json.load(open(d + "/info.json"))
assert yaml.safe_load(open(d + "/info.yaml")) == j
def flat(v, path, out):
    if isinstance(v, dict):
        for k, x in v.items():
            flat(x, path + [k], out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            flat(x, path + [str(i)], out)
    else:
        text = "" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
        out.append((".".join(path), text))
    return out
rows = list(csv.reader(open(d + "/info.csv")))
assert rows[0] == ["key", "value"], rows[0]
assert [tuple(r) for r in rows[1:]] == flat(j, [], []), "rows differ"
P
done

# Each readable format reads its own samples (when the samples are there).
while read -r name read write; do
    [ "$read" = yes ] || continue
    for f in "$SAMPLES/$name"/*; do
        [ -f "$f" ] && [ -s "$f" ] || continue
        case $f in *.md|*.txt|*README*|*.expected) continue ;; esac
        expect_status 0 "$PROFHUB" info --format json "$f" || continue
        python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d["format"] != sys.argv[1])' \
            "$name" <"$tmp/out" || fail "$f: info does not say format $name"
        break
    done
done <"$tmp/json.list"

finish
