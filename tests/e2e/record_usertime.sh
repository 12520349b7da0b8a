#!/bin/sh
# record_usertime.sh -- profhub record -c usertime on samples/src/chain.c:
# main's inclusive share is near 100% and every stack through hot_loop
# runs main -> run_round -> level_a -> ... -> level_e -> hot_loop, the
# chain written in the source.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

build chain "$SAMPLES/src/chain.c"
cd "$tmp" || exit 99

./chain 200 >plain.out
expect_status 0 "$PROFHUB" record -c usertime -p rate=1000 -o ut.phx -- ./chain 200
cmp -s plain.out "$tmp/out" || fail "stdout differs under profhub record"

all=$(total ut.phx samples)
main=$(csv_field ut.phx main incl_samples)
echo "usertime: $all samples, main inclusive $main"
[ "$all" -ge 20 ] || fail "only $all samples"
[ -n "$main" ] && [ $((main * 100)) -ge $((all * 95)) ] ||
    fail "main's inclusive share is $main of $all, expected near 100%"

expect_status 0 "$PROFHUB" convert ut.phx -O event=samples -o ut.folded
want="main;run_round;level_a;level_b;level_c;level_d;level_e;hot_loop"
bad=$(grep ';hot_loop ' ut.folded | grep -v ";$want " | head -3)
[ -z "$bad" ] || fail "stacks through hot_loop with another chain: $bad"
n=$(grep -c ";$want " ut.folded)
[ "$n" -ge 1 ] || fail "no stack main -> ... -> hot_loop"
finish
