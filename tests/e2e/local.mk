# tests/e2e/local.mk -- shell scripts over real samples; exit 77 = skipped.
E2E_TESTS =
TESTS += $(E2E_TESTS)
EXTRA_DIST += tests/e2e/lib.sh $(E2E_TESTS)
TESTS_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	PROFHUB='$(abs_top_builddir)/profhub'; export top_srcdir top_builddir PROFHUB;
