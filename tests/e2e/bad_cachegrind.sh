#!/bin/sh
# bad_cachegrind.sh -- each malformed input in tests/bad/cachegrind/NAME.out
# makes `profhub info` exit 1 with exactly the line in NAME.err (and no
# crash: any other status fails).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
cd "$top_srcdir/tests/bad/cachegrind" || exit 99
failed=0 n=0
for f in *.out; do
    name=${f%.out}
    n=$((n + 1))
    "$PROFHUB" info -F cachegrind "$f" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc != 1 ]; then
        echo "FAIL $name: exit status $rc, expected 1"; failed=$((failed + 1))
    elif ! cmp -s "$tmp/err" "$name.err"; then
        echo "FAIL $name: message differs"; diff "$name.err" "$tmp/err"
        failed=$((failed + 1))
    fi
done
echo "$n bad inputs, $failed failed"
[ $failed = 0 ]
