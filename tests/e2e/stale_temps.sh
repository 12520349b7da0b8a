#!/bin/sh
# stale_temps.sh -- a conversion killed by SIGKILL leaves its temporary
# file (nothing can catch SIGKILL); the next conversion into the same
# file removes it (issue 15 item 13).  Temporaries of a live process and
# other hidden files are left alone.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program python3

# A folded input big enough that the writer runs for a while.
python3 -c '
for k in range(60000):
    print(";".join("f%d" % (k * 7 + j) for j in range(8)), k % 97 + 1)
' >"$tmp/big.folded"
mkdir "$tmp/o"
"$PROFHUB" convert -F folded -t callgrind "$tmp/big.folded" \
    -o "$tmp/o/out.callgrind" 2>/dev/null &
pid=$!
seen() {
    for f in "$tmp/o/.out.callgrind.profhub-$pid."*; do
        [ -e "$f" ] && return 0
    done
    return 1
}
i=0
while [ $i -lt 3000 ] && ! seen; do
    sleep 0.01
    i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
stale=$(ls -a "$tmp/o" | grep "^\.out\.callgrind\.profhub-" || true)
if [ -z "$stale" ]; then
    # The run ended before we saw its temporary: nothing to test.
    skip "the conversion finished before it could be killed"
fi
[ ! -e "$tmp/o/out.callgrind" ] || fail "a killed run produced the output"

# A temporary of a live process (this shell) and an unrelated hidden file.
: >"$tmp/o/.out.callgrind.profhub-$$.abcdef"
: >"$tmp/o/.out.callgrind.keep"
expect_status 0 "$PROFHUB" convert -t callgrind \
    "$SAMPLES/callgrind/chain.default.out" -o "$tmp/o/out.callgrind"
[ ! -e "$tmp/o/$stale" ] || fail "the stale temporary $stale is still there"
[ -e "$tmp/o/.out.callgrind.profhub-$$.abcdef" ] ||
    fail "the temporary of a live process was removed"
[ -e "$tmp/o/.out.callgrind.keep" ] || fail "an unrelated file was removed"
[ -s "$tmp/o/out.callgrind" ] || fail "no output"
finish
