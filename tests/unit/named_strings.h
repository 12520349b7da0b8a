/* named_strings.h -- what the pprof and DrCCTProf writers' string-table
 * tests share: a flat profile with a function that has neither rows nor
 * calls, and the mark of a string index some field names. */
#ifndef PH_TEST_NAMED_STRINGS_H
#define PH_TEST_NAMED_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* The name the writers must leave out: a symbol without rows or calls. */
#define PH_TEST_UNUSED "unused_symbol"

/* main (5 Ir) calls a (7 Ir); PH_TEST_UNUSED is only a symbol. */
ph_profile *ph_test_flat_with_unused(void);

/* named[i] = 1 for a string index i of a table of n strings (0, the empty
 * string, and indexes out of range are left). */
void ph_test_mark(unsigned char *named, size_t n, int64_t i);

/* Asserts that table[0] is "", that every other string is marked in
 * named and that none is PH_TEST_UNUSED. */
void ph_test_check_named(const unsigned char *named, char *const *table,
                         size_t n);

#endif
