#!/bin/sh
# bad_proto.sh -- each malformed input in tests/bad/{pprof,drcctprof,folded}
# (written by tests/bad/pprof/make-bad.py) makes `profhub info` exit 1 with
# exactly the line in NAME.err: binary formats name the byte offset of the
# bad record, folded stacks the line and column.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
for fmt in pprof drcctprof folded; do
    cd "$top_srcdir/tests/bad/$fmt" || exit 99
    for f in *; do
        case $f in *.err|*.py) continue ;; esac
        name=${f%.*}
        checks=$((checks + 1))
        "$PROFHUB" info -F "$fmt" "$f" >/dev/null 2>"$tmp/err"
        rc=$?
        if [ $rc != 1 ]; then
            fail "$fmt/$f: exit status $rc, expected 1"
        elif ! cmp -s "$tmp/err" "$name.err"; then
            fail "$fmt/$f: message differs"
            diff "$name.err" "$tmp/err"
        fi
    done
done
finish
