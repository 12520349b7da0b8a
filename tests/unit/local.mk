# tests/unit/local.mk -- one CUnit suite per module, one runner.
check_PROGRAMS += tests/unit/run_unit
tests_unit_run_unit_SOURCES = tests/unit/run_unit.c tests/unit/suites.h
tests_unit_run_unit_SOURCES += tests/unit/pprof_test.c tests/unit/drcctprof_test.c \
	tests/unit/pb_decode_test.c tests/unit/named_strings.c \
	tests/unit/named_strings.h tests/unit/test_files.c \
	tests/unit/test_files.h
tests_unit_run_unit_SOURCES += tests/unit/arena_test.c tests/unit/idmap_test.c \
	tests/unit/strtab_test.c tests/unit/events_test.c \
	tests/unit/rows_test.c tests/unit/tree_test.c tests/unit/aggregate_test.c
tests_unit_run_unit_SOURCES += tests/unit/numbers_test.c \
	tests/unit/input_test.c tests/unit/output_test.c tests/unit/sniff_test.c
tests_unit_run_unit_SOURCES += tests/unit/cachegrind_test.c
tests_unit_run_unit_SOURCES += tests/unit/callgrind_test.c
tests_unit_run_unit_SOURCES += tests/unit/analysis_test.c
tests_unit_run_unit_SOURCES += tests/unit/native_test.c
tests_unit_run_unit_SOURCES += tests/unit/roundtrip_test.c \
	tests/unit/cycles_test.c tests/unit/gmon_test.c
tests_unit_run_unit_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -DPH_STATIC_BUILD
tests_unit_run_unit_LDADD = libph.la $(CUNIT_LIBS)
TESTS += tests/unit/run_unit
