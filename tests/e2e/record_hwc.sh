#!/bin/sh
# record_hwc.sh -- hwc on a machine whose PAPI reports no hardware
# counters: profhub refuses before running the program, names the cause,
# exits 2 and writes nothing.  Also: bad collector and parameter names,
# and a plugin that fails to load is named with the reason.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

cd "$tmp" || exit 99

if command -v papi_avail >/dev/null 2>&1 &&
   papi_avail 2>/dev/null | grep -q '^Number Hardware Counters : 0$'; then
    run_compare_err 2 "$PROFHUB" record -c hwc -o h.phx -- touch ran <<'EOT'
profhub: hwc: PAPI reports no hardware counters on this machine (PAPI_num_cmp_hwctrs(0) = 0)
EOT
    [ -e ran ] && fail "hwc ran the program"
    [ -e h.phx ] && fail "hwc left an output file"
    ls h.phx.rec-* >/dev/null 2>&1 && fail "hwc left an experiment"
else
    echo "hwc: this machine has counters; refusal not tested"
fi

run_compare_err 2 "$PROFHUB" record -c pcsamp -p speed=3 -- true <<'EOT'
profhub record: pcsamp has no parameter "speed" (see profhub collectors)
Try 'profhub record --help' for more information.
EOT
run_compare_err 2 "$PROFHUB" record -c pcsamp -p rate=0 -- true <<'EOT'
profhub: pcsamp: rate must be a number of Hz from 1 to 100000, got "0"
EOT

mkdir plugins
echo "not an ELF file" >plugins/broken.so
PROFHUB_PLUGIN_PATH=$tmp/plugins expect_status 1 "$PROFHUB" collectors
grep -q "^profhub: warning: $tmp/plugins/broken.so: not an ELF file; skipped" "$tmp/err" ||
    fail "the broken plugin is not named with a reason: $(cat "$tmp/err")"
grep -q "^pcsamp$" "$tmp/out" || fail "profhub collectors does not list pcsamp"
cp plugins/broken.so plugins/nosuch.so
PROFHUB_PLUGIN_PATH=$tmp/plugins expect_status 2 "$PROFHUB" record -c nosuch -- true
grep -q "collector \"nosuch\" did not load: .*nosuch.so" "$tmp/err" ||
    fail "record does not name the failing plugin: $(cat "$tmp/err")"
finish
