/* idmap_test.c -- CUnit suite for ir/idmap.c: keys found after the map
 * grows far past the size it was made for, duplicates refused, absent
 * keys, keys that differ only in their high half (--annotate's
 * (file, line) keys), dense keys held directly until a sparse one. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdint.h>

#include "ir/idmap.h"
#include "suites.h"

static void test_grows(void)
{
    ph_idmap m;
    const uint32_t n = 100000;

    ph_idmap_init(&m, 4);
    for (uint32_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(ph_idmap_put(&m, (uint64_t)i * 7919, i), 0);
    CU_ASSERT(m.mask + 1 >= 2 * (size_t)n);
    for (uint32_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(ph_idmap_get(&m, (uint64_t)i * 7919), (int64_t)i);
    CU_ASSERT_EQUAL(ph_idmap_get(&m, 5), -1);
    CU_ASSERT_EQUAL(ph_idmap_put(&m, 7919, 3), -1);
    CU_ASSERT_EQUAL(ph_idmap_get(&m, 7919), 1);
    ph_idmap_free(&m);
}

static void test_high_half(void)
{
    ph_idmap m;

    ph_idmap_init(&m, 0);
    for (uint32_t f = 1; f <= 300; f++)
        for (uint32_t line = 0; line < 3; line++)
            CU_ASSERT_EQUAL(ph_idmap_put(&m, (uint64_t)f << 32 | line,
                                         f * 3 + line), 0);
    for (uint32_t f = 1; f <= 300; f++)
        for (uint32_t line = 0; line < 3; line++)
            CU_ASSERT_EQUAL(ph_idmap_get(&m, (uint64_t)f << 32 | line),
                            (int64_t)(f * 3 + line));
    CU_ASSERT_EQUAL(ph_idmap_get(&m, (uint64_t)301 << 32), -1);
    CU_ASSERT_EQUAL(m.count, 900);
    ph_idmap_free(&m);
}

/* Keys numbered from 0 up index the values directly, past the size the
 * map was made for; a key far beyond them turns the map into a hashed
 * one, which keeps them all. */
static void test_dense_then_sparse(void)
{
    ph_idmap m;
    const uint32_t n = 50000;

    ph_idmap_init(&m, 10);
    for (uint32_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(ph_idmap_put(&m, i, n - i), 0);
    CU_ASSERT_PTR_NULL(m.keys);                  /* still direct */
    CU_ASSERT(m.mask + 1 < 4 * (size_t)n);
    CU_ASSERT_EQUAL(ph_idmap_put(&m, 17, 1), -1);
    CU_ASSERT_EQUAL(ph_idmap_get(&m, n), -1);
    CU_ASSERT_EQUAL(ph_idmap_get(&m, (uint64_t)1 << 40), -1);
    CU_ASSERT_EQUAL(ph_idmap_put(&m, (uint64_t)1 << 40, 7), 0);
    CU_ASSERT_PTR_NOT_NULL(m.keys);              /* hashed now */
    for (uint32_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(ph_idmap_get(&m, i), (int64_t)(n - i));
    CU_ASSERT_EQUAL(ph_idmap_get(&m, (uint64_t)1 << 40), 7);
    CU_ASSERT_EQUAL(ph_idmap_put(&m, 17, 1), -1);
    CU_ASSERT_EQUAL(m.count, (size_t)n + 1);
    ph_idmap_free(&m);
}

void ph_test_register_idmap(void)
{
    CU_pSuite s = CU_add_suite("idmap", NULL, NULL);
    CU_add_test(s, "grows past its first size", test_grows);
    CU_add_test(s, "keys differing in the high half", test_high_half);
    CU_add_test(s, "dense keys, then a sparse one", test_dense_then_sparse);
}
