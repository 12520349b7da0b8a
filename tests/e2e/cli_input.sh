#!/bin/sh
# cli_input.sh -- one profile, many wrappings, one reading: the same
# `profhub info --format json` (file name aside) for a sample read from a
# file, from standard input ("-"), gzip-compressed, as two concatenated
# gzip members, with "\r\n" line ends, and without a final newline; and a
# truncated gzip file is exit 1 with one line naming it.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program gzip

info() { # FILE -> info JSON without the "file" line, on stdout
    "$PROFHUB" info --format json "$1" | grep -v '^  "file": '
}

n=0
for sample in "$SAMPLES"/cachegrind/*.out "$SAMPLES"/callgrind/*.default.out; do
    [ -s "$sample" ] || continue
    n=$((n + 1))
    [ $n -le 4 ] || break
    name=$(basename "$sample")
    cp "$sample" "$tmp/plain"
    info "$tmp/plain" >"$tmp/want" 2>/dev/null || { fail "$name: info failed"; continue; }

    expect_status 0 sh -c '"$1" info --format json - <"$2"' sh "$PROFHUB" "$sample"
    grep -v '^  "file": ' "$tmp/out" | cmp -s - "$tmp/want" \
        || fail "$name: stdin reads differently"

    gzip -c "$sample" >"$tmp/one.gz"
    half=$(($(wc -c <"$sample") / 2))
    head -c "$half" "$sample" | gzip -c >"$tmp/two.gz"
    tail -c +"$((half + 1))" "$sample" | gzip -c >>"$tmp/two.gz"
    sed 's/$/\r/' "$sample" >"$tmp/crlf"
    head -c -1 "$sample" >"$tmp/nonl"
    for v in one.gz two.gz crlf nonl; do
        checks=$((checks + 1))
        info "$tmp/$v" 2>"$tmp/err" | cmp -s - "$tmp/want" \
            || { fail "$name: $v reads differently"; head -3 "$tmp/err"; }
    done

    size=$(wc -c <"$tmp/one.gz")
    head -c $((size - 12)) "$tmp/one.gz" >"$tmp/cut.gz"
    expect_status 1 "$PROFHUB" info "$tmp/cut.gz"
    [ "$(wc -l <"$tmp/err")" = 1 ] \
        && grep -q "^$tmp/cut.gz: truncated gzip data" "$tmp/err" \
        || { fail "$name: truncated gzip message"; show_output; }
done
[ $n -gt 0 ] || skip "no cachegrind or callgrind samples"

finish
