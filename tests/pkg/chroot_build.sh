#!/bin/sh
# chroot_build.sh -- the Debian package from a clean Debian 12 chroot:
# debootstrap (buildd variant: essential packages and build-essential),
# then only the Build-Depends of debian/control (apt-get build-dep), then
# `dpkg-buildpackage -us -uc -b` as an ordinary user, with make check.
# A second, fresh chroot installs the three packages and runs profhub
# summary, cgview and profhub record on a bundled sample, and the example
# program of LIBRARY.md against the installed libprofhub-dev.
#
# Slow (network, a full build with its tests) and root only: it runs when
# PH_CHROOT_BUILD=yes, otherwise it skips (exit 77), so CI may leave it out.
#   PH_CHROOT_BUILD=yes make check TESTS=tests/pkg/chroot_build.sh
# PH_CHROOT_MIRROR (default http://deb.debian.org/debian) and
# PH_CHROOT_BASE (a folder to keep the debootstrapped base in between
# runs) and PH_CHROOT_TARBALL (a make dist tarball to build) are optional.  The .deb files are left in $PH_CHROOT_OUT if set.
. "$top_srcdir/tests/e2e/lib.sh"

[ "${PH_CHROOT_BUILD:-}" = yes ] || skip "set PH_CHROOT_BUILD=yes to build in a Debian 12 chroot"
[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot, mount)"
need_program debootstrap chroot mount

mirror=${PH_CHROOT_MIRROR:-http://deb.debian.org/debian}
base=${PH_CHROOT_BASE:-$tmp/base}
mounted=
cleanup_chroots() {
    for m in $mounted; do umount "$m" 2>/dev/null; done
    cleanup
}
trap cleanup_chroots EXIT

# inside ROOT CMD...: run CMD as root inside the chroot ROOT, /proc mounted.
inside() {
    r=$1; shift
    if ! mountpoint -q "$r/proc"; then
        mount -t proc proc "$r/proc" && mounted="$r/proc $mounted"
    fi
    chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}

if [ ! -x "$base/usr/bin/apt-get" ]; then
    echo "debootstrap bookworm from $mirror"
    debootstrap --variant=buildd bookworm "$base" "$mirror" >"$tmp/debootstrap.log" 2>&1 ||
        { tail -20 "$tmp/debootstrap.log"; echo "ERROR: debootstrap failed"; exit 99; }
fi

# The source: the tarball of make dist, as `make deb` uses it (or the
# one PH_CHROOT_TARBALL names).
if [ -n "${PH_CHROOT_TARBALL:-}" ]; then
    tarball=$PH_CHROOT_TARBALL
else
    (unset MAKEFLAGS MFLAGS; make -s -C "$top_builddir" dist-gzip) >"$tmp/dist.log" 2>&1 ||
        { cat "$tmp/dist.log"; echo "ERROR: make dist failed"; exit 99; }
    tarball=$(ls -t "$top_builddir"/profhub-*.tar.gz | head -1)
fi
src=$(basename "$tarball" .tar.gz)

# --- build chroot: base + Build-Depends only -------------------------
build=$tmp/build
cp -a "$base" "$build"
inside "$build" useradd -m builder
tar -C "$build/home/builder" -xzf "$tarball"
inside "$build" chown -R builder: /home/builder
inside "$build" apt-get update -qq
echo "installing the Build-Depends"
inside "$build" apt-get build-dep -y -qq --no-install-recommends \
    "/home/builder/$src" >"$tmp/builddep.log" 2>&1 ||
    { tail -20 "$tmp/builddep.log"; fail "apt-get build-dep failed"; finish; }
echo "dpkg-buildpackage -us -uc -b (with make check)"
inside "$build" chroot --userspec=builder:builder / env HOME=/home/builder \
    sh -c "cd /home/builder/$src && dpkg-buildpackage -us -uc -b" \
    >"$tmp/build.log" 2>&1
rc=$?
grep -E '^(# [A-Z]+:|(PASS|SKIP|FAIL|XFAIL|ERROR): )' "$tmp/build.log"
if [ "$rc" != 0 ]; then
    # The whole log (with each failed test's output, VERBOSE=1) is kept.
    cp "$tmp/build.log" "$top_builddir/chroot_build.log" &&
        echo "the build's log: $top_builddir/chroot_build.log"
    tail -60 "$tmp/build.log"
    fail "dpkg-buildpackage failed in the clean chroot (exit $rc)"
    finish
fi
debs=$(ls "$build"/home/builder/*.deb)
echo "$debs" | sed 's|.*/|built: |'
[ "$(echo "$debs" | wc -l)" -ge 3 ] || fail "fewer than 3 packages"
if [ -n "${PH_CHROOT_OUT:-}" ]; then
    mkdir -p "$PH_CHROOT_OUT" && cp $debs "$PH_CHROOT_OUT"
fi

# --- run chroot: fresh base + the packages ----------------------------
run=$tmp/run
cp -a "$base" "$run"
mkdir "$run/debs"
cp $debs "$run/debs"
inside "$run" apt-get update -qq
echo "installing the packages in a fresh chroot"
inside "$run" sh -c 'apt-get install -y -qq --no-install-recommends /debs/*.deb pkg-config python3' \
    >"$tmp/install.log" 2>&1 ||
    { tail -20 "$tmp/install.log"; fail "installing the packages failed"; finish; }
tar -C "$run" -xzf "$tarball"
s=/$src/samples/callgrind/chain.default.out

testrun inside "$run" profhub summary --top 5 "$s"
[ "$status" = 0 ] && grep -q hot_loop "$tmp/out" || { fail "profhub summary"; show_output; }
testrun inside "$run" cgview --top 5 "$s"
[ "$status" = 0 ] && grep -q hot_loop "$tmp/out" || { fail "cgview"; show_output; }
testrun inside "$run" sh -c "cd /tmp && gcc -g -O1 -o chain /$src/samples/src/chain.c &&
    profhub record -c pcsamp -p rate=1000 -o chain.phx -- ./chain 200 && profhub summary --top 5 chain.phx"
[ "$status" = 0 ] && grep -q hot_loop "$tmp/out" || { fail "profhub record"; show_output; }
testrun inside "$run" env top_srcdir=/$src top_builddir=/tmp PROFHUB=/usr/bin/profhub \
    sh "/$src/tests/pkg/example.sh" --installed
[ "$status" = 0 ] || { fail "example against the installed libprofhub-dev"; show_output; }
cat "$tmp/out"

finish
