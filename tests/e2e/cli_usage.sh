#!/bin/sh
# cli_usage.sh -- the front end's contract: --help for profhub and every
# subcommand (exit 0, usage on stdout), --version, usage errors with exit 2
# and the exact message and hint, a missing file exit 1, and cgview as
# "profhub summary".
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

# No command: the usage on stderr, exit 2.
expect_status 2 "$PROFHUB"
grep -q '^Usage: profhub COMMAND' "$tmp/err" || fail "no usage on stderr"

run_compare_err 2 "$PROFHUB" frobnicate <<'EOF2'
profhub: unknown command "frobnicate"
Try 'profhub --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" --frobnicate <<'EOF2'
profhub: unknown option '--frobnicate'
Try 'profhub --help' for more information.
EOF2

# --version prints the package version and the written formats' versions
# (tests/pkg/version.sh checks those against the writers).
version=$(sed -n 's/^AC_INIT(\[profhub\], \[\([^]]*\)\].*/\1/p' \
    "$top_srcdir/configure.ac")
run_compare "$PROFHUB" --version <<EOF2
profhub $version
Formats written:
  callgrind  format version 1
  pprof      profile.proto (perftools.profiles, proto3), gzipped
  drcctprof  drcctprof.profile schema of DrCCTProf 7ccd5081 (2021-03-24)
EOF2

# Every command in --help answers --help with its usage on stdout.
expect_status 0 "$PROFHUB" --help
commands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$tmp/out")
[ -n "$commands" ] || fail "--help lists no commands"
for c in $commands; do
    expect_status 0 "$PROFHUB" "$c" --help || continue
    grep -q '^Usage: ' "$tmp/out" || fail "$c --help: no Usage line"
    [ -s "$tmp/err" ] && fail "$c --help wrote on stderr"
    expect_status 0 "$PROFHUB" help "$c"
done

# Usage errors: exit 2, message in "profhub CMD:" form, hint line.
run_compare_err 2 "$PROFHUB" info <<'EOF2'
profhub info: missing FILE
Try 'profhub info --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" info --bogus x <<'EOF2'
profhub info: unknown option '--bogus'
Try 'profhub info --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" info -F <<'EOF2'
profhub info: option '-F' needs a value
Try 'profhub info --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" info --format xml x <<'EOF2'
profhub info: unknown report format "xml" (expected text, csv, json, yaml)
Try 'profhub info --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" info -F nosuch x <<'EOF2'
profhub info: unknown format "nosuch" (profhub formats lists the known ones)
Try 'profhub info --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" summary -n many x <<'EOF2'
profhub summary: option '--top' expects a number, got "many"
Try 'profhub summary --help' for more information.
EOF2
run_compare_err 2 "$PROFHUB" formats extra <<'EOF2'
profhub formats: unexpected argument "extra"
Try 'profhub formats --help' for more information.
EOF2

# A file that is not there is bad input: exit 1, "profhub: FILE: why".
run_compare_err 1 "$PROFHUB" info "$tmp/none.out" <<EOF2
$tmp/none.out: No such file or directory
EOF2
run_compare_err 1 "$PROFHUB" info "$tmp" <<EOF2
$tmp: is a directory
EOF2
# Content profhub does not know: exit 1, one line naming the file.
printf 'hello, world\n' >"$tmp/hello.txt"
run_compare_err 1 "$PROFHUB" info "$tmp/hello.txt" <<EOF2
$tmp/hello.txt: not a profile in any format profhub reads (-F FORMAT forces one)
EOF2
# An empty file (callgrind's reader takes it, for its per-thread files).
: >"$tmp/empty.out"
expect_status 1 "$PROFHUB" summary "$tmp/empty.out"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^$tmp/empty.out:" "$tmp/err" \
    || { fail "empty file: not one line naming the file"; show_output; }
# A corrupt gzip wrapper is caught before any reader sees the bytes.
printf '\037\213\010\000garbage' >"$tmp/bad.gz"
expect_status 1 "$PROFHUB" info "$tmp/bad.gz"
grep -q "^$tmp/bad.gz: .*gzip" "$tmp/err" \
    || { fail "corrupt gzip: unexpected message"; show_output; }

# cgview is profhub summary under another name.
ln -s "$PROFHUB" "$tmp/cgview"
expect_status 0 "$tmp/cgview" --help
grep -q '^Usage: cgview ' "$tmp/out" || fail "cgview --help: wrong usage"
run_compare_err 2 "$tmp/cgview" <<'EOF2'
cgview: missing FILE
Try 'cgview --help' for more information.
EOF2
sample=$(ls "$SAMPLES"/cachegrind/*.out "$SAMPLES"/callgrind/*.out \
    2>/dev/null | head -1)
if [ -n "$sample" ]; then
    expect_status 0 "$PROFHUB" summary "$sample"
    cp "$tmp/out" "$tmp/summary.out"
    expect_status 0 "$tmp/cgview" "$sample"
    cmp -s "$tmp/out" "$tmp/summary.out" \
        || fail "cgview FILE differs from profhub summary FILE"
fi

finish
