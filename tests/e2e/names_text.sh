#!/bin/sh
# names_text.sh -- names are bytes; text outputs stay valid (issue 15 item
# 10).  A real sample's names are made invalid by a script (bytes 0xff
# 0xfe, an ESC sequence, a lone continuation byte); then JSON and speedscope
# must load in python3's strict json, YAML in a YAML parser (python3-yaml,
# when installed), and the text report must hold no raw control byte.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

"$PROFHUB" convert -t folded -o "$tmp/chain.folded" \
    "$SAMPLES/callgrind/chain.default.out" 2>/dev/null ||
    fail "cannot make the folded input"
python3 - "$tmp/chain.folded" "$tmp/bad.folded" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
marks = [b"\xff\xfe", b"\x1b[31m", b"\x80", b"\xed\xa0\x80"]
for i, line in enumerate(lines):     # every leaf frame gets a mark
    if b" " in line:
        stack, count = line.rsplit(b" ", 1)
        lines[i] = stack + marks[i % len(marks)] + b" " + count
open(sys.argv[2], "wb").write(b"\n".join(lines))
PY

strict_json() {
    python3 -c 'import json, sys
json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))' "$1"
}

for fmt in json yaml; do
    expect_status 0 "$PROFHUB" summary -F folded --format $fmt "$tmp/bad.folded"
    cp "$tmp/out" "$tmp/report.$fmt"
done
strict_json "$tmp/report.json" || fail "summary json is not strict JSON"
grep -q 'ufffd' "$tmp/report.json" || fail "summary json: no U+FFFD escape"
if python3 -c 'import yaml' 2>/dev/null; then
    python3 -c 'import yaml, sys
d = yaml.safe_load(open(sys.argv[1], "rb"))
assert len(d["functions"]) > 4, "document cut short"' "$tmp/report.yaml" ||
        fail "summary yaml does not load"
else
    echo "python3-yaml missing: the YAML check is skipped"
fi
expect_status 0 "$PROFHUB" convert -F folded -o "$tmp/bad.speedscope.json" \
    "$tmp/bad.folded"
strict_json "$tmp/bad.speedscope.json" || fail "speedscope is not strict JSON"
expect_status 0 "$PROFHUB" info -F folded --format json "$tmp/bad.folded"
expect_status 0 "$PROFHUB" summary -F folded "$tmp/bad.folded"
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/out"; then
    fail "text report prints a raw ESC"
fi
grep -q 'x1b\[31m' "$tmp/out" || fail "text report: ESC not shown as \\x1b"
grep -q 'xff' "$tmp/out" || fail "text report: byte 0xff not shown as \\xff"
# an event name with a control byte is shown whole in the events list
# ("I\x01r", not cut to the width of its bytes: "I\x0")
sed "s/^events: Ir\$/events: I$(printf '\001')r/" \
    "$SAMPLES/callgrind/chain.default.out" > "$tmp/ctl.out"
expect_status 0 "$PROFHUB" summary "$tmp/ctl.out"
grep -q '^events: *I\\x01r ' "$tmp/out" ||
    fail "events list: 'I\\x01r' not shown whole"
finish
