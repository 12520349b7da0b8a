#!/bin/sh
# example.sh -- the example program of LIBRARY.md, compiled against the
# INSTALLED library with `pkg-config --cflags --libs profhub`: the library,
# headers and profhub.pc are installed into a temporary DESTDIR (so the
# installed headers must be self-contained), the program reads samples in
# several formats, and its totals must equal `profhub summary`'s; the pprof
# file it writes must read back with the same totals.
# With --installed it uses the system's libprofhub-dev instead (the Debian
# chroot test runs it that way).
. "$top_srcdir/tests/e2e/lib.sh"

need_program cc pkg-config python3

if [ "${1:-}" = --installed ]; then
    pc() { pkg-config "$@"; }
    run_env=
else
    dest=$tmp/dest
    (unset MAKEFLAGS MFLAGS; make -s -C "$top_builddir" DESTDIR="$dest" install-libLTLIBRARIES \
        install-pkgincludeHEADERS install-pkgconfigDATA) >"$tmp/install.log" 2>&1 ||
        { cat "$tmp/install.log"; echo "ERROR: make install failed"; exit 99; }
    pcfile=$(find "$dest" -name profhub.pc)
    [ -n "$pcfile" ] || { echo "ERROR: no profhub.pc installed"; exit 99; }
    # profhub.pc names the final prefix; the sysroot maps it into DESTDIR.
    pc() {
        PKG_CONFIG_PATH=$(dirname "$pcfile") PKG_CONFIG_SYSROOT_DIR=$dest \
            pkg-config "$@"
    }
    run_env="LD_LIBRARY_PATH=$(dirname "$(dirname "$pcfile")")"
fi

# Every installed header compiles on its own, from pkg-config's flags only.
if [ "${1:-}" = --installed ]; then
    hdrdir=$(pc --variable=includedir profhub)/profhub
else
    hdrdir=$(dirname "$(find "$dest" -name ir.h)")
fi
nh=0
for h in "$hdrdir"/*.h; do
    [ -f "$h" ] || continue
    nh=$((nh + 1))
    # shellcheck disable=SC2046
    printf '#include <%s>\n' "${h##*/}" |
        cc -std=c99 -Wall -Wextra -Werror -fsyntax-only -x c - \
            $(pc --cflags profhub) 2>"$tmp/cc.err" ||
        { fail "${h##*/} is not self-contained"; cat "$tmp/cc.err"; }
done
[ "$nh" -ge 3 ] || fail "only $nh headers installed in $hdrdir"

# The program exactly as LIBRARY.md shows it.
sed -n '/^```c$/,/^```$/p' "$top_srcdir/LIBRARY.md" | sed '1d;$d' >"$tmp/totals.c"
[ -s "$tmp/totals.c" ] || { echo "ERROR: no C example in LIBRARY.md"; exit 99; }
# A library built with --enable-sanitizers needs its runtime first in the
# program too (ASan refuses to start otherwise): the same flags then.
san=
ldd "$top_builddir/.libs/libprofhub.so" 2>/dev/null | grep -q libasan &&
    san="-fsanitize=address,undefined"
# No path of the build tree may leak in: only what pkg-config gives.
cd "$tmp" || exit 99
# shellcheck disable=SC2046,SC2086
if ! cc -std=c99 -Wall -Wextra -Werror $san -o totals totals.c \
        $(pc --cflags --libs profhub) 2>"$tmp/cc.err"; then
    cat "$tmp/cc.err"
    fail "the example does not build against the installed library"
    finish
fi
if [ -n "$run_env" ]; then
    env $run_env ldd ./totals | grep -q "libprofhub.so.0 => $dest/" ||
        fail "the example does not load the installed library"
fi

# Totals of the real events (no formula), as summary's JSON gives them.
summary_totals() {
    "$PROFHUB" summary --format json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for e in d["events"]:
    if e["formula"] is None:
        print(e["name"], d["totals"][e["name"]])'
}

for s in callgrind/chain.default.out callgrind/threads.default.out \
         cachegrind/chain.default.out pprof/gowork.cpu.pb.gz \
         pprof/gowork.heap.pb.gz; do
    testrun env $run_env ./totals "$SAMPLES/$s" out.pb.gz
    if [ "$status" != 0 ]; then
        fail "$s: exit $status"; show_output; continue
    fi
    summary_totals "$SAMPLES/$s" >want
    [ -s want ] || fail "$s: summary printed no totals"
    cmp -s want "$tmp/out" || {
        fail "$s: totals differ from profhub summary"; diff want "$tmp/out"; }
    # The pprof it wrote reads back with the same totals.
    [ "$(od -An -tx1 -N2 out.pb.gz | tr -d ' ')" = 1f8b ] ||
        fail "$s: out.pb.gz is not gzip"
    summary_totals out.pb.gz >back
    cmp -s want back || { fail "$s: pprof round trip"; diff want back; }
done

# A bad input: the library's message, exit 1, no output file.
rm -f out.pb.gz
printf 'events: Ir\nfn=a\nx 1\n' >bad.out
testrun env $run_env ./totals bad.out out.pb.gz
[ "$status" = 1 ] || fail "bad input: exit $status, want 1"
grep -q '^bad.out:[0-9]' "$tmp/err" || { fail "bad input: message"; show_output; }
[ ! -e out.pb.gz ] || fail "bad input left out.pb.gz"

finish
