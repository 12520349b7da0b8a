#!/bin/sh
# record_signals.sh -- profhub record leaves the program's signals alone
# (tests/e2e/src/rec_sigprof.c): a program with its own SIGPROF handler
# and ITIMER_PROF counts about the same ticks with and without record (not
# twice as many), one with a handler and no timer gets none, one that sets
# SIGPROF to SIG_DFL is not killed, and one that takes over, blocks and
# waits for every signal up to SIGRTMAX prints exactly what it prints
# without us.  Each run is still sampled.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

build rec_sigprof "$top_srcdir/tests/e2e/src/rec_sigprof.c"
cd "$tmp" || exit 99

sampled() {   # FILE: spin must have samples
    v=$(csv_field "$1" spin self_samples)
    echo "signals: $1: spin has ${v:-no} samples"
    [ -n "$v" ] && [ "$v" -ge 10 ] || fail "$1: spin has ${v:-no} samples"
}

for mode in own-timer handler default every; do
    ./rec_sigprof $mode >"plain-$mode.out"
    expect_status 0 "$PROFHUB" record -o "$mode.phx" -- ./rec_sigprof $mode
    cp "$tmp/out" "rec-$mode.out"
    sampled "$mode.phx"
done
expect_status 0 "$PROFHUB" record -c usertime -o every-u.phx -- \
    ./rec_sigprof every
cp "$tmp/out" rec-every-u.out
sampled every-u.phx

# ITIMER_PROF ticks follow the program's CPU time: within 25%.
plain=$(sed -n 's/^ticks //p' plain-own-timer.out)
rec=$(sed -n 's/^ticks //p' rec-own-timer.out)
echo "signals: own ITIMER_PROF ticks: $plain plain, $rec recorded"
checks=$((checks + 1))
[ -n "$plain" ] && [ -n "$rec" ] && [ "$plain" -gt 50 ] &&
    [ $((rec * 4)) -le $((plain * 5)) ] && [ $((rec * 5)) -ge $((plain * 4)) ] ||
    fail "ticks $rec under record, $plain without"

for f in handler default every; do
    checks=$((checks + 1))
    cmp -s "plain-$f.out" "rec-$f.out" ||
        fail "$f: output differs under record: $(cat "rec-$f.out")"
done
cmp -s plain-every.out rec-every-u.out || fail "every: differs with usertime"
grep -qx 'ticks 0' rec-handler.out || fail "handler: stray SIGPROF"
grep -qx 'stray 0' rec-every.out || fail "every: stray signals"
finish
