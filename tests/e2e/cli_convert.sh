#!/bin/sh
# cli_convert.sh -- `profhub convert`: usage errors (exit 2, exact
# messages), bad input (exit 1), and data safety: a failed conversion --
# bad input, a missing or read-only folder, a file size limit hit half-way,
# a full device -- never leaves a partial file and never touches an existing
# output; a good one replaces it and reads back with the same totals.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

# The samples may carry warnings of their own (callgrind's summary: line):
# the messages checked here are the errors.
err_filter() {
    grep -v ': warning: ' || true
}

# A format profhub both reads and writes, with a real sample to convert.
"$PROFHUB" formats --format json >"$tmp/formats.json" || exit 99
python3 - "$tmp/formats.json" >"$tmp/pick" <<'EOF2'
import json, sys
fs = json.load(open(sys.argv[1]))
rw = [f for f in fs if f["read"] and f["write"]
      and any("*" not in e for e in f["extensions"])]
ro = [f for f in fs if f["read"] and not f["write"]]
print(" ".join(f["name"] + ":" + [e for e in f["extensions"] if "*" not in e][0]
               for f in rw))
print(ro[0]["name"] if ro else "")
EOF2
pairs=$(sed -n 1p "$tmp/pick")
readonly_fmt=$(sed -n 2p "$tmp/pick")
fmt= ext= sample=
for p in $pairs; do
    for f in "$SAMPLES/${p%%:*}"/*; do
        [ -f "$f" ] && [ -s "$f" ] || continue
        case $f in *.md|*.txt|*README*|*.expected) continue ;; esac
        fmt=${p%%:*} ext=${p#*:} sample=$f
        break 2
    done
done

# --- usage errors: exit 2 -------------------------------------------
run_compare_err 2 "$PROFHUB" convert in.out -o out.x -t nosuch <<'EOF2'
profhub convert: unknown format "nosuch" (profhub formats lists the known ones)
Try 'profhub convert --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" convert in.out -o out.zzz <<'EOF2'
profhub convert: cannot tell the output format from "out.zzz"; give -t FORMAT
Try 'profhub convert --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" convert in.out <<'EOF2'
profhub convert: missing -o OUT
Try 'profhub convert --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" convert -o - in.out <<'EOF2'
profhub convert: writing to standard output needs -t FORMAT
Try 'profhub convert --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" convert in.out -o x -t "${fmt:-x}" -O novalue <<'EOF2'
profhub convert: option '-O' expects KEY=VALUE, got "novalue"
Try 'profhub convert --help' for more information.
EOF2
if [ -n "$readonly_fmt" ]; then
    run_compare_err 2 "$PROFHUB" convert in.out -o x -t "$readonly_fmt" <<EOF2
profhub convert: format "$readonly_fmt" can only be read (profhub formats lists every format and its directions)
Try 'profhub convert --help' for more information.
EOF2
fi
[ -n "$fmt" ] || { finish; }

# --- bad input: exit 1, nothing written, existing output intact -----
mkdir "$tmp/d"
out=$tmp/d/out.$ext
printf 'precious\n' >"$out"
cp "$out" "$tmp/precious"
printf 'this is not a profile\n' >"$tmp/bad.in"
run_compare_err 1 "$PROFHUB" convert "$tmp/bad.in" -o "$out" <<EOF2
$tmp/bad.in: not a profile in any format profhub reads (-F FORMAT forces one)
EOF2
run_compare_err 1 "$PROFHUB" convert "$tmp/none.in" -o "$out" <<EOF2
$tmp/none.in: No such file or directory
EOF2
cmp -s "$out" "$tmp/precious" || fail "bad input changed the existing output"
[ "$(ls -A "$tmp/d")" = "out.$ext" ] || fail "bad input left files: $(ls -A "$tmp/d")"
rm "$out"
run_compare_err 1 "$PROFHUB" convert "$tmp/bad.in" -o "$out" <<EOF2
$tmp/bad.in: not a profile in any format profhub reads (-F FORMAT forces one)
EOF2
[ -z "$(ls -A "$tmp/d")" ] || fail "bad input created files: $(ls -A "$tmp/d")"

# --- output folder missing or read-only: exit 1, nothing left -------
run_compare_err 1 "$PROFHUB" convert "$sample" -o "$tmp/nodir/out.$ext" <<EOF2
$tmp/nodir/out.$ext: cannot create a temporary file in $tmp/nodir: No such file or directory
EOF2
# Root writes into read-only folders: as root, run as nobody (setpriv).
as_user=
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null 2>&1 \
        && as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
    # nobody must be able to run profhub from where it was built.
    $as_user "$PROFHUB" --version >/dev/null 2>&1 || as_user=
    chmod 755 "$tmp"
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
    mkdir "$tmp/ro"
    cp "$sample" "$tmp/ro.in"
    chmod 644 "$tmp/ro.in"
    chmod 555 "$tmp/ro"
    run_compare_err 1 $as_user "$PROFHUB" convert "$tmp/ro.in" -o "$tmp/ro/out.$ext" <<EOF2
$tmp/ro/out.$ext: cannot create a temporary file in $tmp/ro: Permission denied
EOF2
    [ -z "$(ls -A "$tmp/ro")" ] || fail "read-only folder got files"
fi

# --- a write that fails half-way (file size limit of 1 block) -------
printf 'precious\n' >"$out"
expect_status 1 sh -c 'ulimit -f 1 && exec "$@"' sh \
    "$PROFHUB" convert "$sample" -o "$out"
grep -q "^$out: write error: File too large" "$tmp/err" \
    || { fail "size limit: unexpected message"; show_output; }
cmp -s "$out" "$tmp/precious" || fail "failed write changed the existing output"
[ "$(ls -A "$tmp/d")" = "out.$ext" ] || fail "failed write left files: $(ls -A "$tmp/d")"

# --- a full device: written in place, error reported, device kept ---
if [ -c /dev/full ]; then
    expect_status 1 "$PROFHUB" convert "$sample" -o /dev/full -t "$fmt"
    grep -q "No space left on device" "$tmp/err" \
        || { fail "/dev/full: unexpected message"; show_output; }
    [ -c /dev/full ] || fail "/dev/full is no longer a device"
    expect_status 1 sh -c '"$@" >/dev/full' sh \
        "$PROFHUB" convert "$sample" -o - -t "$fmt"
fi

# --- success: the output replaces the old file and reads back --------
expect_status 0 "$PROFHUB" convert "$sample" -o "$out"
cmp -s "$out" "$tmp/precious" && fail "successful convert kept the old file"
[ "$(ls -A "$tmp/d")" = "out.$ext" ] || fail "convert left files: $(ls -A "$tmp/d")"
expect_status 0 "$PROFHUB" convert "$sample" -o - -t "$fmt"
cmp -s "$tmp/out" "$out" || fail "-o - and -o FILE wrote different bytes"
"$PROFHUB" info --format json "$sample" >"$tmp/a.json" 2>/dev/null
"$PROFHUB" info --format json "$out" >"$tmp/b.json" 2>/dev/null
python3 - "$tmp/a.json" "$tmp/b.json" <<'EOF2' || fail "totals changed in $fmt -> $fmt"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ta = {e["name"]: e["total"] for e in a["events"] if not e["derived"]}
tb = {e["name"]: e["total"] for e in b["events"] if not e["derived"]}
sys.exit(0 if ta == tb else 1)
EOF2

# --- what a format cannot hold is said once per kind, with a count ---
stacks=$(ls "$SAMPLES"/pprof/*.pb.gz 2>/dev/null | head -1)
if [ -n "$stacks" ] && grep -q '"name": "cachegrind".*"write": true' "$tmp/formats.json"; then
    expect_status 0 "$PROFHUB" convert "$stacks" -o "$tmp/flat.cachegrind"
    grep -Eq '^profhub: warning: cachegrind: dropped [0-9]+ ' "$tmp/err" \
        || { fail "pprof -> cachegrind: no drop warning"; show_output; }
    grep -v '^profhub: warning: cachegrind: dropped [0-9][0-9]* ' "$tmp/err" \
        | grep . && fail "pprof -> cachegrind: other lines on stderr"
    [ "$(sed 's/dropped [0-9]*//' "$tmp/err" | sort | uniq -d)" = "" ] \
        || fail "pprof -> cachegrind: a kind of drop is said twice"
fi

finish
