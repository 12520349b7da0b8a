# tests/fuzz/local.mk -- libFuzzer targets (--enable-fuzzing).
if ENABLE_FUZZING
# cachegrind reader (same shape for every importer).
noinst_PROGRAMS += tests/fuzz/fuzz_cachegrind
tests_fuzz_fuzz_cachegrind_SOURCES = tests/fuzz/fuzz_cachegrind.c
tests_fuzz_fuzz_cachegrind_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_cachegrind_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_cachegrind_LDADD = libph.la $(PH_DEPLIBS)
# gmon reader (PH_FUZZ_GMON_EXE=prog also fuzzes the symbol mapping).
noinst_PROGRAMS += tests/fuzz/fuzz_gmon
tests_fuzz_fuzz_gmon_SOURCES = tests/fuzz/fuzz_gmon.c
tests_fuzz_fuzz_gmon_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_gmon_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_gmon_LDADD = libph.la $(PH_DEPLIBS)
# native experiment reader (profhub record's .phx files).
noinst_PROGRAMS += tests/fuzz/fuzz_native
tests_fuzz_fuzz_native_SOURCES = tests/fuzz/fuzz_native.c
tests_fuzz_fuzz_native_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_native_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_native_LDADD = libph.la $(PH_DEPLIBS)
endif
