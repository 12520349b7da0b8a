#!/bin/sh
# record_plugins.sh -- what PROFHUB_PLUGIN_PATH may hold: a FIFO named
# like a plugin, a .so without our entry symbol (its constructor must never
# run) and plugins with garbage descriptors (tests/e2e/src/bad_plugin.c)
# are each refused with their path by "profhub collectors" and "profhub
# record", which neither hang nor crash nor leave an output file; the
# built-in collectors are still listed.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"
need_program timeout

dir=$tmp/plugins
mkdir "$dir" || exit 99
bad="noentry null abi name count params long code"
for b in $bad; do
    up=$(echo "$b" | tr a-z A-Z)
    gcc -shared -fPIC -O1 -I"$top_srcdir" -DBAD_$up -DNAME="\"$b\"" \
        -o "$dir/$b.so" "$top_srcdir/tests/e2e/src/bad_plugin.c" || {
        echo "ERROR: cannot build the $b plugin"; exit 99; }
done
mkfifo "$dir/fifo.so" || exit 99
cd "$tmp" || exit 99
PROFHUB_PLUGIN_PATH=$dir
PH_TEST_MARK=$tmp/constructor-ran
export PROFHUB_PLUGIN_PATH PH_TEST_MARK

expect_status 1 timeout 60 "$PROFHUB" collectors
grep -q '^pcsamp$' "$tmp/out" || fail "collectors: pcsamp no longer listed"
for b in $bad fifo; do
    grep -q "$dir/$b.so" "$tmp/err" || fail "collectors: $b.so not named"
done
grep -q "fifo.so: not a regular file" "$tmp/err" ||
    fail "collectors: the FIFO is not refused as such"
grep -q "noentry.so: no ph_collector_entry" "$tmp/err" ||
    fail "collectors: noentry.so is not refused for its symbol table"
echo "collectors said:"; sed "s#$tmp#TMP#g" "$tmp/err"

for b in $bad fifo; do
    expect_status 2 timeout 60 "$PROFHUB" record -c "$b" -o "$b.phx" -- true
    grep -q "$dir/$b.so" "$tmp/err" ||
        fail "record -c $b: the path is not named: $(cat "$tmp/err")"
    [ ! -e "$b.phx" ] || fail "record -c $b left $b.phx"
done
[ ! -e "$PH_TEST_MARK" ] || fail "the constructor of noentry.so ran"
finish
