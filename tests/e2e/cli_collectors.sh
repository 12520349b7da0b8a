#!/bin/sh
# cli_collectors.sh -- profhub collectors lists the built-in collectors even
# where no plugin file can be found (a copy of profhub far from its build
# tree, an empty plugin path): it once crashed there.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
grep -q '^#define PH_HAVE_COLLECTORS 1' "$top_builddir/config.h" 2>/dev/null ||
    skip "built with --disable-collectors"

mkdir "$tmp/bin" "$tmp/empty"
cp "$PROFHUB" "$tmp/bin/profhub"
PROFHUB_PLUGIN_PATH=$tmp/empty expect_status 0 "$tmp/bin/profhub" collectors
for c in pcsamp usertime hwc; do
    grep -q "^$c\$" "$tmp/out" || fail "collector $c not listed"
done
grep -q 'no plugin file found' "$tmp/out" || fail "no word that plugins are missing"
finish
