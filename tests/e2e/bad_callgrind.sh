#!/bin/sh
# bad_callgrind.sh -- each malformed input in tests/bad/callgrind/NAME.out
# makes `profhub info` (format found by sniffing, as a user would run it)
# exit 1 with exactly the one line in NAME.err: "file:line:col: message".
# Any other status (a crash, a hang killed by make) fails.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
cd "$top_srcdir/tests/bad/callgrind" || exit 99
failed=0 n=0
for f in *.out; do
    name=${f%.out}
    n=$((n + 1))
    "$PROFHUB" info "$f" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc != 1 ]; then
        echo "FAIL $name: exit status $rc, expected 1"; failed=$((failed + 1))
    elif ! cmp -s "$tmp/err" "$name.err"; then
        echo "FAIL $name: message differs"; diff "$name.err" "$tmp/err"
        failed=$((failed + 1))
    elif [ "$(wc -l < "$tmp/err")" != 1 ]; then
        echo "FAIL $name: more than one line"; failed=$((failed + 1))
    fi
done
echo "$n bad inputs, $failed failed"
[ $failed = 0 ]
