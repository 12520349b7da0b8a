#!/bin/sh
# cli_options.sh -- one command line across subcommands: convert checks
# every -O KEY=VALUE against the keys its writer reads (unknown key, bad
# percentage, unknown event: exit 2 with the valid keys named; good ones
# exit 0), the "not a profile" hint names -F, the input-format option, and
# diff and merge take -f/--format and -F/--from like summary and info.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
cd "$tmp" || exit 99
S=$SAMPLES/callgrind/chain.default.out

run_compare_err 2 "$PROFHUB" convert "$S" -o g.dot -O bogus=1 <<'EOF2'
profhub convert: -O bogus: unknown option of the dot writer (valid: event, node_threshold, edge_threshold)
Try 'profhub convert --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" convert "$S" -o g.dot -O node_threshold=abc <<'EOF2'
profhub convert: -O node_threshold: expected a percentage 0..100, got "abc"
Try 'profhub convert --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" convert "$S" -o g.folded -O event=nosuch <<'EOF2'
profhub convert: -O event: the profile has no event "nosuch" (profhub info lists its events)
Try 'profhub convert --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" convert "$S" -o c.out -t callgrind -O event=Ir <<'EOF2'
profhub convert: -O event: the callgrind writer takes no options
Try 'profhub convert --help' for more information.
EOF2
[ ! -e g.dot ] && [ ! -e g.folded ] && [ ! -e c.out ] ||
    fail "a refused -O left an output file"
expect_status 0 "$PROFHUB" convert "$S" -o g.dot -O event=Ir \
    -O node_threshold=5 -O edge_threshold=0.5
expect_status 0 "$PROFHUB" convert "$S" -o s.json -t speedscope -O event=Ir

# The hint names the input-format option, which every reader accepts.
echo 'not a profile' >bad.in
run_compare_err 1 "$PROFHUB" summary bad.in <<'EOF2'
bad.in: not a profile in any format profhub reads (-F FORMAT forces one)
EOF2
B=$SAMPLES/callgrind/checksum.before.out A=$SAMPLES/callgrind/checksum.after.out
for cmd in "summary -f csv -F callgrind $B" "info -f json -F callgrind $B" \
           "diff -f csv -F callgrind $B $A" \
           "merge --stats -f csv -F callgrind $B $A"; do
    # shellcheck disable=SC2086
    expect_status 0 "$PROFHUB" $cmd
    grep -q "[,:]" "$tmp/out" || fail "$cmd: no CSV or JSON"
done
expect_status 2 "$PROFHUB" diff -F nosuch "$B" "$A"
expect_status 2 "$PROFHUB" merge -F nosuch --stats "$B" "$A"
finish
