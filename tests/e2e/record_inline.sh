#!/bin/sh
# record_inline.sh -- profhub record -c usertime on a C++ program built
# with g++ -g -O2 (tests/e2e/src/rec_inline.cpp): names are demangled
# (ns::Box<unsigned long>::run...) and the inlined hot function (mix) is
# its own frame below the function it was inlined into, with most of the
# samples, read from DWARF inlined-subroutine entries.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

need_program g++
g++ -g -O2 -o "$tmp/rec_inline" "$top_srcdir/tests/e2e/src/rec_inline.cpp" ||
    { echo "ERROR: cannot build rec_inline.cpp"; exit 99; }
cd "$tmp" || exit 99

./rec_inline >plain.out
expect_status 0 "$PROFHUB" record -c usertime -p rate=1000 -o in.phx -- ./rec_inline
cmp -s plain.out "$tmp/out" || fail "stdout differs under profhub record"
expect_status 0 "$PROFHUB" summary --format csv -n 0 in.phx
grep -q '^"\{0,1\}ns::Box<unsigned long>::run(unsigned long, long)' "$tmp/out" ||
    fail "no demangled ns::Box<unsigned long>::run: $(head -5 "$tmp/out")"
all=$(total in.phx samples)
mix=$(csv_field in.phx mix self_samples)
echo "inline: $all samples, mix self $mix"
[ -n "$mix" ] && [ $((mix * 100)) -ge $((all * 60)) ] ||
    fail "the inlined mix holds ${mix:-no} of $all samples, expected most"
expect_status 0 "$PROFHUB" convert in.phx -O event=samples -o in.folded
# the folded writer marks inlined frames with _[i] (flame-graph convention)
grep -q 'ns::Box<unsigned long>::run(unsigned long, long)[^;]*;mix_\[i\] ' in.folded ||
    fail "mix is not a frame below ns::Box<unsigned long>::run: $(head -2 in.folded)"
finish
