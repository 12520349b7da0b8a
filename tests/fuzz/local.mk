# tests/fuzz/local.mk -- libFuzzer targets (--enable-fuzzing): one driver,
# tests/fuzz/fuzz_format.c, compiled once per importer with the format's
# name in PH_FUZZ_FORMAT; fuzz_roundtrip.c (writers) and fuzz_formula.c
# (--define, config file, --fail-if).  How to run them: tests/fuzz/README.md.
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/run.sh tests/fuzz/seeds.sh \
	tests/e2e/fuzz_replay.sh
# Without --enable-fuzzing the same targets are built for make check with
# replay.c's main() (each file argument is one input) and
# tests/e2e/fuzz_replay.sh runs the seeds through them.
PH_FUZZ_TARGETS = tests/fuzz/fuzz_callgrind tests/fuzz/fuzz_cachegrind \
	tests/fuzz/fuzz_gmon tests/fuzz/fuzz_native tests/fuzz/fuzz_pprof \
	tests/fuzz/fuzz_drcctprof tests/fuzz/fuzz_folded \
	tests/fuzz/fuzz_roundtrip tests/fuzz/fuzz_formula
if ENABLE_FUZZING
PH_FUZZ_CCOPTS = $(AM_CFLAGS) -fsanitize=fuzzer
PH_FUZZ_LDOPTS = $(AM_LDFLAGS) -fsanitize=fuzzer
PH_FUZZ_LIBS = libph.la $(PH_DEPLIBS)
noinst_PROGRAMS += $(PH_FUZZ_TARGETS)
else
PH_FUZZ_CCOPTS = $(AM_CFLAGS)
PH_FUZZ_LDOPTS = $(AM_LDFLAGS)
PH_FUZZ_LIBS = tests/fuzz/libreplay.la libph.la $(PH_DEPLIBS)
check_LTLIBRARIES = tests/fuzz/libreplay.la
tests_fuzz_libreplay_la_SOURCES = tests/fuzz/replay.c
check_PROGRAMS += $(PH_FUZZ_TARGETS)
TESTS += tests/e2e/fuzz_replay.sh
endif

tests_fuzz_fuzz_callgrind_SOURCES = tests/fuzz/fuzz_format.c
tests_fuzz_fuzz_callgrind_CPPFLAGS = $(AM_CPPFLAGS) -DPH_FUZZ_FORMAT='"callgrind"'
tests_fuzz_fuzz_callgrind_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_callgrind_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_callgrind_LDADD = $(PH_FUZZ_LIBS)

tests_fuzz_fuzz_cachegrind_SOURCES = tests/fuzz/fuzz_format.c
tests_fuzz_fuzz_cachegrind_CPPFLAGS = $(AM_CPPFLAGS) -DPH_FUZZ_FORMAT='"cachegrind"'
tests_fuzz_fuzz_cachegrind_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_cachegrind_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_cachegrind_LDADD = $(PH_FUZZ_LIBS)

tests_fuzz_fuzz_gmon_SOURCES = tests/fuzz/fuzz_format.c
tests_fuzz_fuzz_gmon_CPPFLAGS = $(AM_CPPFLAGS) -DPH_FUZZ_FORMAT='"gmon"'
tests_fuzz_fuzz_gmon_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_gmon_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_gmon_LDADD = $(PH_FUZZ_LIBS)

tests_fuzz_fuzz_native_SOURCES = tests/fuzz/fuzz_format.c
tests_fuzz_fuzz_native_CPPFLAGS = $(AM_CPPFLAGS) -DPH_FUZZ_FORMAT='"native"'
tests_fuzz_fuzz_native_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_native_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_native_LDADD = $(PH_FUZZ_LIBS)

tests_fuzz_fuzz_pprof_SOURCES = tests/fuzz/fuzz_format.c
tests_fuzz_fuzz_pprof_CPPFLAGS = $(AM_CPPFLAGS) -DPH_FUZZ_FORMAT='"pprof"'
tests_fuzz_fuzz_pprof_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_pprof_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_pprof_LDADD = $(PH_FUZZ_LIBS)

tests_fuzz_fuzz_drcctprof_SOURCES = tests/fuzz/fuzz_format.c
tests_fuzz_fuzz_drcctprof_CPPFLAGS = $(AM_CPPFLAGS) -DPH_FUZZ_FORMAT='"drcctprof"'
tests_fuzz_fuzz_drcctprof_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_drcctprof_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_drcctprof_LDADD = $(PH_FUZZ_LIBS)

tests_fuzz_fuzz_folded_SOURCES = tests/fuzz/fuzz_format.c
tests_fuzz_fuzz_folded_CPPFLAGS = $(AM_CPPFLAGS) -DPH_FUZZ_FORMAT='"folded"'
tests_fuzz_fuzz_folded_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_folded_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_folded_LDADD = $(PH_FUZZ_LIBS)

# Writers: read anything, write every format that reads back, compare.
tests_fuzz_fuzz_roundtrip_SOURCES = tests/fuzz/fuzz_roundtrip.c
tests_fuzz_fuzz_roundtrip_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_roundtrip_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_roundtrip_LDADD = $(PH_FUZZ_LIBS)

# What users type: --define formulas, the config file, --fail-if rules.
tests_fuzz_fuzz_formula_SOURCES = tests/fuzz/fuzz_formula.c \
	cgview/fail_rule.c cgview/fail_rule.h
tests_fuzz_fuzz_formula_CFLAGS = $(PH_FUZZ_CCOPTS)
tests_fuzz_fuzz_formula_LDFLAGS = $(PH_FUZZ_LDOPTS)
tests_fuzz_fuzz_formula_LDADD = $(PH_FUZZ_LIBS)
