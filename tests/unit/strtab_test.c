/* strtab_test.c -- CUnit suite for ir/strtab.c: interning, handle 0,
 * lengths, bytes with NULs, many strings (table growth), the metadata
 * list of ir/profile.c.
 */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "ir.h"
#include "suites.h"

static void test_basic(void)
{
    ph_profile *p = ph_profile_new();
    ph_str a = ph_str_intern0(p, "main");
    ph_str b = ph_str_intern(p, "mainly", 4);
    ph_str c = ph_str_intern0(p, "mainly");
    CU_ASSERT_NOT_EQUAL(a, 0);
    CU_ASSERT_EQUAL(a, b);
    CU_ASSERT_NOT_EQUAL(a, c);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, a), "main");
    CU_ASSERT_EQUAL(ph_str_len(p, c), 6);
    CU_ASSERT_EQUAL(ph_str_intern0(p, ""), 0);
    CU_ASSERT_EQUAL(ph_str_intern0(p, NULL), 0);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, 0), "");
    CU_ASSERT_EQUAL(ph_str_len(p, 0), 0);
    CU_ASSERT_EQUAL(ph_str_count(p), 3);   /* 0, main, mainly */
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, 99), "");  /* out of range */
    ph_profile_free(p);
}

static void test_embedded_nul(void)
{
    ph_profile *p = ph_profile_new();
    ph_str a = ph_str_intern(p, "a\0b", 3);
    ph_str b = ph_str_intern(p, "a\0c", 3);
    ph_str c = ph_str_intern(p, "a", 1);
    CU_ASSERT_NOT_EQUAL(a, b);
    CU_ASSERT_NOT_EQUAL(a, c);
    CU_ASSERT_EQUAL(ph_str_len(p, a), 3);
    CU_ASSERT_EQUAL(memcmp(ph_str_get(p, b), "a\0c", 4), 0);
    ph_profile_free(p);
}

static void test_many(void)
{
    ph_profile *p = ph_profile_new();
    static ph_str h[50000];
    char buf[32];
    int i;
    for (i = 0; i < 50000; i++) {
        snprintf(buf, sizeof buf, "fn_%d", i);
        h[i] = ph_str_intern0(p, buf);
        CU_ASSERT_EQUAL(h[i], (ph_str)(i + 1));
    }
    for (i = 0; i < 50000; i += 7) {
        snprintf(buf, sizeof buf, "fn_%d", i);
        CU_ASSERT_EQUAL(ph_str_intern0(p, buf), h[i]);
        CU_ASSERT_STRING_EQUAL(ph_str_get(p, h[i]), buf);
    }
    CU_ASSERT_EQUAL(ph_str_count(p), 50001);
    ph_profile_free(p);
}

static void test_meta(void)
{
    ph_profile *p = ph_profile_new();
    const char *k, *v;
    ph_meta_add(p, "cmd", "./demo input.txt");
    ph_meta_add(p, "desc", "I1 cache: 32768 B");
    ph_meta_add(p, "desc", "D1 cache: 32768 B");
    CU_ASSERT_EQUAL(ph_meta_count(p), 3);
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "desc"), "I1 cache: 32768 B");
    CU_ASSERT_PTR_NULL(ph_meta_get(p, "pid"));
    ph_meta_at(p, 2, &k, &v);
    CU_ASSERT_STRING_EQUAL(k, "desc");
    CU_ASSERT_STRING_EQUAL(v, "D1 cache: 32768 B");
    CU_ASSERT_PTR_NULL(ph_profile_approx(p));
    ph_profile_set_approx(p, "gprof proportional rule");
    ph_profile_set_approx(p, "second");
    CU_ASSERT_STRING_EQUAL(ph_profile_approx(p), "gprof proportional rule");
    CU_ASSERT_PTR_NULL(ph_profile_format(p));
    ph_profile_set_format(p, "callgrind");
    CU_ASSERT_STRING_EQUAL(ph_profile_format(p), "callgrind");
    ph_profile_free(p);
}

void ph_test_register_strtab(void)
{
    CU_pSuite s = CU_add_suite("strtab", NULL, NULL);
    CU_add_test(s, "intern and get", test_basic);
    CU_add_test(s, "embedded NUL bytes", test_embedded_nul);
    CU_add_test(s, "50000 strings", test_many);
    CU_add_test(s, "metadata and notes", test_meta);
}
