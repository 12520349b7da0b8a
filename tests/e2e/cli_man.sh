#!/bin/sh
# cli_man.sh -- every command in the EXAMPLES of cgview/profhub.1 and
# cgview/cgview.1 (lines starting with "$ ") runs and exits 0, on real
# samples copied under the names the examples use (jq's man.test idea:
# the manual cannot drift from the program).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

# Files the examples name, and the samples that stand in for them.
put() { # NAME SAMPLE
    [ -s "$2" ] || skip "sample $2 is missing"
    cp "$2" "$tmp/run/$1"
}
mkdir "$tmp/run" "$tmp/bin"
put callgrind.out.1234 "$SAMPLES/callgrind/chain.default.out"
put cachegrind.out.4711 "$SAMPLES/cachegrind/chain.default.out"
put cpu.pb.gz "$SAMPLES/pprof/gowork.cpu.pb.gz"
put gmon.out "$SAMPLES/gmon/chain-nopie/gmon.out"
put prog "$SAMPLES/gmon/chain-nopie/prog"
chmod +x "$tmp/run/prog"
ln -s "$PROFHUB" "$tmp/bin/profhub"
ln -s "$PROFHUB" "$tmp/bin/cgview"

for page in "$top_srcdir/cgview/profhub.1" "$top_srcdir/cgview/cgview.1"; do
    sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$page" | sed -n 's/^\$ //p' \
        | sed 's/\\-/-/g' >"$tmp/examples"
    [ -s "$tmp/examples" ] || fail "$page: no examples"
    while IFS= read -r cmd; do
        expect_status 0 sh -c "cd '$tmp/run' && PATH='$tmp/bin':\$PATH && $cmd" \
            || echo "  (example in $(basename "$page"): $cmd)"
        grep -q 'warning' "$tmp/err" && echo "  note: $cmd: $(head -1 "$tmp/err")"
    done <"$tmp/examples"
done

# Every option of summary --help that chooses a view says, in PEERS of
# profhub.1, whose meaning it follows (issue 17); the input options do
# not choose a view (--dump-instr is valgrind's, named in the help).
checks=$((checks + 1))
"$PROFHUB" summary --help | grep -o -- '--[a-z][a-z-]*' | sort -u |
    grep -v -x -e --help -e --from -e --exe -e --raw-addresses \
        -e --format -e --width -e --dump-instr >"$tmp/opts"
sed -n '/^\.SH PEERS/,/^\.SH ENVIRONMENT/p' "$top_srcdir/cgview/profhub.1" | sed 's/\\-/-/g' >"$tmp/peers"
while read -r o; do
    grep -q -- "$o\b" "$tmp/peers" ||
        fail "profhub.1 PEERS does not say whose meaning $o follows"
done <"$tmp/opts"
[ -s "$tmp/opts" ] || fail "no options read from summary --help"

finish
