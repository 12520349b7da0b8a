# lib.sh -- sourced by every tests/e2e/*.sh script (elfutils' test-subr.sh):
# paths from make check's TESTS_ENVIRONMENT (or guessed when a script runs
# by hand), a per-test temporary folder removed on exit, and helpers:
#   skip MSG              exit 77 (make check counts it as skipped)
#   need_program P...     skip unless every program P is installed
#   fail MSG              note a failure, keep going; finish exits 1
#   testrun CMD...        run CMD; stdout in $tmp/out, stderr in $tmp/err,
#                         exit status in $status
#   run_compare CMD...    run CMD, which must exit 0 and print on stdout
#                         exactly what this script gives on stdin (a here
#                         document)
#   run_compare_err N CMD...  CMD must exit N and print on stderr exactly
#                         the text on stdin (through err_filter, which a
#                         script may redefine)
#   expect_status N CMD...    CMD must exit N (output kept in $tmp)
#   filter_paths          sed filter: $tmp -> TMP, $top_srcdir -> SRC
#   csv_tsv FILE          FILE's CSV, parsed by python3's csv module, as
#                         tab-separated lines for awk -F'\t' and cut (a tab
#                         or newline inside a field becomes a space): names
#                         like "run(unsigned long, long)" keep their commas
#   csv_get FILE KEYCOL KEY COL   COL (a header name) of the first row
#                         whose KEYCOL is KEY, or nothing
#   finish                exit 0, or 1 when anything failed
# Exit statuses: 0 pass, 1 fail, 77 skip, 99 the test itself broke.

set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
: "${PROFHUB:=$top_builddir/profhub}"
case $PROFHUB in /*) ;; *) PROFHUB=$(pwd)/$PROFHUB ;; esac
export top_srcdir top_builddir PROFHUB
SAMPLES=$top_srcdir/samples
test_name=$(basename "$0" .sh)

[ -x "$PROFHUB" ] || { echo "ERROR: $PROFHUB is not built"; exit 99; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$test_name.XXXXXX") \
    || { echo "ERROR: cannot make a temporary folder"; exit 99; }
cleanup() {
    chmod -R u+rwx "$tmp" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 99' HUP INT TERM

failures=0
checks=0

skip() {
    echo "SKIP: $*"
    exit 77
}

need_program() {
    for p in "$@"; do
        command -v "$p" >/dev/null 2>&1 || skip "$p is not installed"
    done
}

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

testrun() {
    checks=$((checks + 1))
    "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
}

# Show what a command printed when a check on it failed.
show_output() {
    if [ -s "$tmp/out" ]; then
        echo "--- stdout:"; head -20 "$tmp/out"
    fi
    if [ -s "$tmp/err" ]; then
        echo "--- stderr:"; head -20 "$tmp/err"
    fi
}

expect_status() {
    want=$1
    shift
    testrun "$@"
    if [ "$status" != "$want" ]; then
        fail "$*: exit status $status, expected $want"
        show_output
        return 1
    fi
    return 0
}

run_compare() {
    cat >"$tmp/expected"
    expect_status 0 "$@" || return 1
    if ! cmp -s "$tmp/expected" "$tmp/out"; then
        fail "$*: stdout differs from the expected text"
        diff -u "$tmp/expected" "$tmp/out" | head -40
        return 1
    fi
    return 0
}

run_compare_err() {
    want=$1
    shift
    cat >"$tmp/expected"
    expect_status "$want" "$@" || return 1
    err_filter <"$tmp/err" >"$tmp/err.filtered"
    if ! cmp -s "$tmp/expected" "$tmp/err.filtered"; then
        fail "$*: stderr differs from the expected text"
        diff -u "$tmp/expected" "$tmp/err.filtered" | head -40
        return 1
    fi
    return 0
}

# What run_compare_err compares; a script may redefine it (for example to
# drop warnings the sample itself causes: grep -v ': warning: ').
err_filter() {
    cat
}

csv_tsv() {
    python3 -c '
import csv, sys
for row in csv.reader(open(sys.argv[1], newline="")):
    print("\t".join(f.replace("\t", " ").replace("\n", " ") for f in row))
' "$1"
}

csv_get() {
    python3 -c '
import csv, sys
for row in csv.DictReader(open(sys.argv[1], newline="")):
    if row.get(sys.argv[2]) == sys.argv[3] and sys.argv[4] in row:
        print(row[sys.argv[4]])
        break
' "$@"
}

filter_paths() {
    sed -e "s|$tmp|TMP|g" -e "s|$top_srcdir|SRC|g"
}

finish() {
    if [ "$failures" -gt 0 ]; then
        echo "$test_name: $failures of $checks checks failed"
        exit 1
    fi
    echo "$test_name: $checks checks passed"
    exit 0
}
