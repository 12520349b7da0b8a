#!/bin/sh
# bad_gmon.sh -- each malformed input tests/bad/gmon/NAME.gmon (made from a
# real gmon.out by tests/bad/gmon/make.sh) makes `profhub info -F gmon
# --exe PROG` exit 1 with exactly the lines in NAME.err: truncated records,
# unknown tags, absurd counts, and the wrong executable (NAME.exe names it;
# otherwise the sample's own program).  Any other status (a crash) fails.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
cd "$top_srcdir/tests/bad/gmon" || exit 99
[ -f "$top_srcdir/samples/gmon/recursion-pie/prog" ] || skip "no sample"
n=0
for f in *.gmon; do
    name=${f%.gmon}
    n=$((n + 1))
    exe=samples/gmon/recursion-pie/prog
    [ -f "$name.exe" ] && exe=$(cat "$name.exe")
    # the executable is named relative to the top of the tree
    ln -sf "$top_srcdir/$exe" "$tmp/prog"
    "$PROFHUB" info -F gmon --exe "$tmp/prog" "$f" >/dev/null 2>"$tmp/err"
    rc=$?
    sed "s|$tmp/prog|PROG|g" "$tmp/err" >"$tmp/err2"
    if [ $rc != 1 ]; then
        echo "FAIL $name: exit status $rc, expected 1"; cat "$tmp/err"
        failures=$((failures + 1))
    elif ! cmp -s "$tmp/err2" "$name.err"; then
        echo "FAIL $name: message differs"; diff "$name.err" "$tmp/err2"
        failures=$((failures + 1))
    fi
done
echo "$n bad inputs, $failures failed"
checks=$n
finish
