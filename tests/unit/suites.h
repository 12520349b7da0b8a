/* suites.h -- the list of CUnit suites, one PH_SUITE(module) line each;
 * module_test.c defines void ph_test_register_<module>(void).  Included
 * by run_unit.c (which redefines PH_SUITE) and by each suite (which gets
 * the declarations).  No include guard: it is included more than once. */
#ifndef PH_SUITE
#define PH_SUITE(m) void ph_test_register_##m(void);
#endif
PH_SUITE(arena)
PH_SUITE(idmap)
PH_SUITE(strtab)
PH_SUITE(events)
PH_SUITE(rows)
PH_SUITE(tree)
PH_SUITE(aggregate)
PH_SUITE(numbers)
PH_SUITE(input)
PH_SUITE(output)
PH_SUITE(sniff)
PH_SUITE(cachegrind)
PH_SUITE(callgrind)
PH_SUITE(pprof)
PH_SUITE(pb_decode)
PH_SUITE(drcctprof)
PH_SUITE(analysis)
PH_SUITE(native)
PH_SUITE(roundtrip)
PH_SUITE(cycles)
PH_SUITE(gmon)
#undef PH_SUITE
