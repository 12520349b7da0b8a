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
