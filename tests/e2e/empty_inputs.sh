#!/bin/sh
# empty_inputs.sh -- valid inputs with nothing to sort (issue 15 item 12):
# every cachegrind sample to dot, an experiment with no costs (a real
# callgrind sample cut after its header) to cachegrind, and gmon with an
# --exe that has no DWARF lines, that is truncated, or whose section-name
# index is out of range.  They passed NULL to qsort or leaked a libdwarf
# error, which a build with --enable-sanitizers aborts on; here they must
# exit 0 (or 1 with a message for the truncated ELF) and print no
# sanitizer report.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

no_report() {
    if grep -q "runtime error\|Sanitizer" "$tmp/err"; then
        fail "sanitizer report: $*"
        show_output
    fi
}

for f in "$SAMPLES"/cachegrind/*.out; do
    expect_status 0 "$PROFHUB" convert -t dot "$f" -o "$tmp/out.dot"
    no_report "$f to dot"
done

sed '/^events:/q' "$SAMPLES/callgrind/chain.default.out" >"$tmp/empty.out"
expect_status 0 "$PROFHUB" convert -F callgrind -t cachegrind \
    "$tmp/empty.out" -o "$tmp/empty.cg"
no_report "empty experiment to cachegrind"

g=$SAMPLES/gmon/chain-nopie
if command -v objcopy >/dev/null 2>&1; then
    objcopy --strip-debug "$g/prog" "$tmp/nolines"
    expect_status 0 "$PROFHUB" summary --exe "$tmp/nolines" "$g/gmon.out"
    no_report "gmon with an --exe without DWARF"
fi
# e_shstrndx (offset 62 of an ELF64 header) set to 0x7000
cp "$g/prog" "$tmp/badindex"
printf '\000\160' | dd of="$tmp/badindex" bs=1 seek=62 conv=notrunc 2>/dev/null
testrun "$PROFHUB" summary --exe "$tmp/badindex" "$g/gmon.out"
no_report "gmon with a bad section-name index"
head -c 3000 "$g/prog" >"$tmp/truncated"
testrun "$PROFHUB" summary --exe "$tmp/truncated" "$g/gmon.out"
no_report "gmon with a truncated ELF"
[ "$status" -le 1 ] || fail "truncated ELF: exit $status"
finish
