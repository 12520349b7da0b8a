#!/bin/sh
# callgrind_siblings.sh -- only regular files are a run's sibling files
# (issue 15 item 4): beside the threads of a --separate-threads=yes run, a
# FIFO named like a thread file used to hang profhub and a link to
# /dev/zero to read without end.  Now they are skipped with a warning and
# the summary equals that of the run alone.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program mkfifo timeout

mkdir "$tmp/run" "$tmp/odd"
cp "$SAMPLES"/callgrind/threads.sep.out* "$tmp/run/"
cp "$SAMPLES"/callgrind/threads.sep.out* "$tmp/odd/"
mkfifo "$tmp/odd/threads.sep.out-05"
ln -s /dev/zero "$tmp/odd/threads.sep.out-06"
mkdir "$tmp/odd/threads.sep.out.7"

expect_status 0 "$PROFHUB" summary --format csv "$tmp/run/threads.sep.out"
mv "$tmp/out" "$tmp/alone"
expect_status 0 timeout 20 "$PROFHUB" summary --format csv \
    "$tmp/odd/threads.sep.out"
cmp -s "$tmp/alone" "$tmp/out" ||
    fail "the summary changed with a FIFO, a device link and a folder beside"
grep -q "warning: .*skipped .*threads.sep.out.*: not a regular file" \
    "$tmp/err" || fail "no warning about the skipped files"
[ -s "$tmp/alone" ] || fail "empty summary"
finish
