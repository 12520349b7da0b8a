# tests/pkg/local.mk -- the installed library's contract (LIBRARY.md),
# --version and the Debian package (issue 16).  chroot_build.sh skips
# unless PH_CHROOT_BUILD=yes (root, network, a full package build).
PKG_TESTS = tests/pkg/exports.sh tests/pkg/example.sh tests/pkg/version.sh \
	tests/pkg/chroot_build.sh
TESTS += $(PKG_TESTS)
EXTRA_DIST += $(PKG_TESTS) LIBRARY.md
CLEANFILES += chroot_build.log
