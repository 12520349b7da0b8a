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
# callgrind reader.
noinst_PROGRAMS += tests/fuzz/fuzz_callgrind
tests_fuzz_fuzz_callgrind_SOURCES = tests/fuzz/fuzz_callgrind.c
tests_fuzz_fuzz_callgrind_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_callgrind_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_callgrind_LDADD = libph.la $(PH_DEPLIBS)
# pprof, drcctprof and folded readers (proto).
noinst_PROGRAMS += tests/fuzz/fuzz_pprof
tests_fuzz_fuzz_pprof_SOURCES = tests/fuzz/fuzz_pprof.c
tests_fuzz_fuzz_pprof_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_pprof_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_pprof_LDADD = libph.la $(PH_DEPLIBS)
noinst_PROGRAMS += tests/fuzz/fuzz_drcctprof
tests_fuzz_fuzz_drcctprof_SOURCES = tests/fuzz/fuzz_drcctprof.c
tests_fuzz_fuzz_drcctprof_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_drcctprof_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_drcctprof_LDADD = libph.la $(PH_DEPLIBS)
noinst_PROGRAMS += tests/fuzz/fuzz_folded
tests_fuzz_fuzz_folded_SOURCES = tests/fuzz/fuzz_folded.c
tests_fuzz_fuzz_folded_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_folded_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_folded_LDADD = libph.la $(PH_DEPLIBS)
endif
