# tests/pkg/local.mk -- the installed library's contract (LIBRARY.md),
# --version and the Debian package (issue 16).
PKG_TESTS = tests/pkg/exports.sh tests/pkg/example.sh
TESTS += $(PKG_TESTS)
EXTRA_DIST += $(PKG_TESTS) LIBRARY.md
