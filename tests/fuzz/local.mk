# tests/fuzz/local.mk -- libFuzzer targets (--enable-fuzzing).
if ENABLE_FUZZING
# cachegrind reader (same shape for every importer).
noinst_PROGRAMS += tests/fuzz/fuzz_cachegrind
tests_fuzz_fuzz_cachegrind_SOURCES = tests/fuzz/fuzz_cachegrind.c
tests_fuzz_fuzz_cachegrind_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_cachegrind_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_cachegrind_LDADD = libph.la $(PH_DEPLIBS)
endif
