#!/bin/sh
# record_missed.sh -- profhub record never returns an empty or partial
# profile without a word (tests/e2e/src/rec_short.c): a program that
# SIGKILLs itself keeps the samples it handed over and gets a warning;
# short-lived children and a run too short to sample are named; a
# nonexistent program and a static binary are refused before anything
# runs (exit 1, no file left); a script that execs a static binary is
# warned about.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

build rec_short "$top_srcdir/tests/e2e/src/rec_short.c"
cd "$tmp" || exit 99
ulimit -c 0

# SIGKILL: the shell sees 137 both times; the samples are there.
(./rec_short sigkill >plain.out 2>/dev/null)
plain=$?
("$PROFHUB" record -o kill.phx -- ./rec_short sigkill >rec.out 2>kill.err)
rec=$?
checks=$((checks + 1))
echo "sigkill: exit $plain plain, $rec recorded"
[ "$plain" = "$rec" ] || fail "exit status $rec under profhub, $plain without"
grep -q "(rec_short pid [0-9]*) ended without writing its last samples" \
    kill.err || fail "no warning about the killed process: $(cat kill.err)"
v=$(csv_field kill.phx burn self_samples)
echo "sigkill: burn has ${v:-no} samples"
[ -n "$v" ] && [ "$v" -ge 10 ] || fail "burn has ${v:-no} samples"

# Four children that exit at once: named, the parent's work recorded.
expect_status 0 "$PROFHUB" record -o ch.phx -- ./rec_short children
grep -q "record: 4 processes recorded no sample (rec_short pid" "$tmp/err" ||
    fail "children: no warning: $(cat "$tmp/err")"
v=$(csv_field ch.phx parent_work incl_samples)
[ -n "$v" ] && [ "$v" -gt 0 ] || v=$(csv_field ch.phx burn self_samples)
[ -n "$v" ] && [ "$v" -gt 0 ] || fail "children: the parent has no samples"

expect_status 0 "$PROFHUB" record -o q.phx -- ./rec_short quick
grep -q "the profile of ./rec_short has no samples" "$tmp/err" ||
    fail "quick: no warning: $(cat "$tmp/err")"

# Refused before running: exit 1, a message, nothing left in the folder.
mkdir refused && cd refused || exit 99
expect_status 1 "$PROFHUB" record -o x.phx -- ./no-such-program
grep -q "record: ./no-such-program: No such file or directory" "$tmp/err" ||
    fail "nonexistent: $(cat "$tmp/err")"
expect_status 1 "$PROFHUB" record -- no-such-program-on-path
[ -z "$(ls -A)" ] || fail "files left by refused runs: $(ls -A)"
cd .. || exit 99

if gcc -static -O1 -o rec_static "$top_srcdir/tests/e2e/src/rec_short.c" \
    2>/dev/null; then
    mkdir st && cd st || exit 99
    expect_status 1 "$PROFHUB" record -o s.phx -- ../rec_static quick
    grep -q "rec_static is statically linked" "$tmp/err" ||
        fail "static: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "static: the program ran"
    [ -z "$(ls -A)" ] || fail "files left by the static run: $(ls -A)"
    printf '#!/bin/sh\nexec ../rec_static quick\n' >run.sh
    chmod +x run.sh
    expect_status 0 "$PROFHUB" record -o sh.phx -- ./run.sh
    grep -q "exec'ed a program that never loaded the profhub runtime" \
        "$tmp/err" || fail "script to static: $(cat "$tmp/err")"
    cd .. || exit 99
else
    echo "no static libc: static binaries not tried"
fi
finish
