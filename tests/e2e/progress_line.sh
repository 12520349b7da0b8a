#!/bin/sh
# progress_line.sh -- loads that take more than a second draw a progress
# line on stderr when it is a terminal, and nothing otherwise: a merge of
# many files (as many copies of a real sample as this machine needs to
# take a second and a half) under script(1)'s terminal shows "reading K
# of N files" with its percentage, clears the line before an error and at
# the end, and writes what the same merge writes without a terminal.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program script

in=$SAMPLES/callgrind/chain.instr-jumps.out
mkdir "$tmp/c"

# The merge of n copies (their names in $tmp/list), run by $tmp/run.sh:
# script -c takes one string, too short for thousands of names.
make_copies() {
    : >"$tmp/list"
    i=1
    while [ $i -le "$1" ]; do
        [ -e "$tmp/c/$i" ] || ln -s "$in" "$tmp/c/$i"
        echo "$tmp/c/$i" >>"$tmp/list"
        i=$((i + 1))
    done
}
cat >"$tmp/run.sh" <<'EOF'
# shellcheck disable=SC2046 # one word per file name, no spaces
exec "$1" merge -o "$2" $(cat "$3") ${4:+"$4"}
EOF

now_ms() { echo $(($(date +%s%N) / 1000000)); }

n=300 took=0
while :; do
    make_copies $n
    start=$(now_ms)
    script -qec "sh '$tmp/run.sh' '$PROFHUB' '$tmp/tty.callgrind' '$tmp/list'" \
        /dev/null >"$tmp/tty" </dev/null ||
        fail "merge of $n copies under a terminal: $(tail -c 300 "$tmp/tty")"
    took=$(($(now_ms) - start))
    checks=$((checks + 1))
    [ $took -lt 1500 ] && [ $n -lt 64000 ] || break
    n=$((n * 2))
done
echo "merge of $n copies: $took ms"

expect_status 0 sh "$tmp/run.sh" "$PROFHUB" "$tmp/plain.callgrind" "$tmp/list"
[ -s "$tmp/err" ] && fail "stderr not a terminal, yet: $(head -c 200 "$tmp/err")"
cmp -s "$tmp/tty.callgrind" "$tmp/plain.callgrind" ||
    fail "the merge under a terminal wrote other bytes"

if [ $took -ge 1500 ]; then
    tr '\r' '\n' <"$tmp/tty" >"$tmp/lines"
    checks=$((checks + 3))
    grep -Eq "^profhub: reading [0-9]+ of $n files +[0-9]+%" "$tmp/lines" ||
        fail "no progress line: $(head -c 300 "$tmp/lines")"
    # the line comes back to the start of the line and is erased at the end
    tail -c 4 "$tmp/tty" | od -An -c | grep -q '\\r 033   \[   K' ||
        fail "the progress line is not cleared at the end"

    # An error after the line was drawn starts a line of its own.
    printf 'events: Ir\nfn=x\n1 2 3\n' >"$tmp/bad.callgrind"
    script -qec "sh '$tmp/run.sh' '$PROFHUB' '$tmp/x.callgrind' '$tmp/list' '$tmp/bad.callgrind'" \
        /dev/null >"$tmp/tty2" </dev/null && fail "a bad last file: exit 0"
    tr '\r' '\n' <"$tmp/tty2" | grep -q "^.\[K$tmp/bad.callgrind:3:5: " ||
        fail "the error shares the progress line: $(tail -c 300 "$tmp/tty2")"
    [ -e "$tmp/x.callgrind" ] && fail "a failed merge left its output"
else
    # (64,000 copies in under 1.5 s: the line could not be seen here)
    [ "$failures" -gt 0 ] && finish
    skip "merged $n copies in $took ms: no load took a second"
fi
finish
