/* named_strings.c -- see named_strings.h. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "named_strings.h"

ph_profile *ph_test_flat_with_unused(void)
{
    ph_profile *p = ph_profile_new();
    ph_event_add(p, "Ir");
    ph_part *part = ph_part_add(p, PH_PART_WHOLE);
    ph_file *file = ph_file_get(p, ph_str_intern0(p, "m.c"));
    ph_func *fm = ph_func_get(p, ph_str_intern0(p, "main"), file, NULL);
    ph_func *fa = ph_func_get(p, ph_str_intern0(p, "a"), file, NULL);
    (void)ph_func_get(p, ph_str_intern0(p, PH_TEST_UNUSED), file, NULL);
    int64_t v5 = 5, v7 = 7;
    ph_row_add(p, fm, part, 0, 1, NULL, &v5, 1);
    ph_row_add(p, fa, part, 0, 2, NULL, &v7, 1);
    ph_call_add(p, fm, part, 0, 1, NULL, fa, 0, 0, 1, &v7, 1);
    return p;
}

void ph_test_mark(unsigned char *named, size_t n, int64_t i)
{
    if (i > 0 && (uint64_t)i < n)
        named[i] = 1;
}

void ph_test_check_named(const unsigned char *named, char *const *table,
                         size_t n)
{
    CU_ASSERT(n >= 1 && strcmp(table[0], "") == 0);
    for (size_t i = 1; i < n; i++) {
        if (!named[i])
            fprintf(stderr, "\nstring %zu \"%s\" named by nothing\n", i,
                    table[i]);
        CU_ASSERT(named[i]);
        CU_ASSERT(strcmp(table[i], PH_TEST_UNUSED) != 0);
    }
}
