/* strtab_test.c -- CUnit suite for ir/strtab.c: interning, handle 0,
 * lengths, bytes with NULs, many strings (table growth, room made ahead),
 * compound strings, the metadata list of ir/profile.c.
 */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir_priv.h"   /* ph_str_lookup */
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

/* 50000 strings, with room made for them first (reserve) or not. */
static void many_strings(int reserve)
{
    ph_profile *p = ph_profile_new();
    static ph_str h[50000];
    char buf[32];
    int i;
    if (reserve) {
        ph_str_intern0(p, "fn_0");
        ph_str_reserve(p, 49999);
    }
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

static void test_many(void)
{
    many_strings(0);
    many_strings(1);
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

static int sign(int x)
{
    return (x > 0) - (x < 0);
}

/* Names of parts joined by ', long and short, with empty parts and the odd
 * NUL: interned once (with hashes worked out ahead or not), read back
 * whole (ph_str_get, ph_str_text), ordered as strcmp orders their texts
 * (ph_str_cmp), whether or not their text was made before. */
static void test_compound(void)
{
    enum { N = 3000 };
    static char text[N][260];
    static size_t len[N];
    static ph_str h[N];
    /* '!' sorts below the separator, 'a' above: a part that begins
     * another orders both ways */
    static const char alphabet[] = "ab'!'";
    ph_profile *p = ph_profile_new();
    uint64_t x = 88172645463325252ull;
    char *buf = NULL;
    size_t cap = 0, i, j, hashed = 0, too_many = 0;
    ph_str_hashes hashes;
    uint32_t parts[PH_STR_HASHED_PARTS][2];
    for (i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (i && x % 5 == 0) {   /* a text like an earlier one, longer */
            size_t k = (size_t)(x >> 8) % i;
            len[i] = len[k] + (x >> 20) % 3;
            memcpy(text[i], text[k], len[k]);
            memcpy(text[i] + len[k], "'ab", len[i] - len[k]);
        } else {
            len[i] = (size_t)(x >> 8) % 200;
            for (j = 0; j < len[i]; j++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                text[i][j] = x % 997 == 0 ? '\0' : alphabet[x % 5];
            }
        }
        text[i][len[i]] = '\0';
        /* half of them with hashes worked out ahead, as the callgrind
         * reader's look-ahead threads do (past PH_STR_HASHED_PARTS
         * parts, they are not) */
        if (i % 2 &&
            ph_str_hash_text(p, text[i], len[i], &hashes, parts) == 0) {
            h[i] = ph_str_intern_hashed(p, text[i], len[i], &hashes);
            hashed++;
        } else {
            h[i] = ph_str_intern(p, text[i], len[i]);
            if (i % 2)
                too_many++;
        }
    }
    CU_ASSERT(hashed > N / 4 && too_many > 0);
    for (i = 0; i < N; i++) {
        if (ph_str_hash_text(p, text[i], len[i], &hashes, parts) == 0)
            CU_ASSERT_EQUAL(ph_str_intern_hashed(p, text[i], len[i], &hashes),
                            h[i]);
    }
    for (i = 0; i < N; i++) {
        if (i % 2)   /* half of them made into text before comparing */
            CU_ASSERT_EQUAL(memcmp(ph_str_get(p, h[i]), text[i], len[i] + 1),
                            0);
        CU_ASSERT_EQUAL(ph_str_len(p, h[i]), len[i]);
        CU_ASSERT_EQUAL(ph_str_intern(p, text[i], len[i]), h[i]);
        CU_ASSERT_EQUAL(ph_str_lookup(p, text[i], len[i]), h[i]);
    }
    for (i = 0; i < N; i++) {
        const char *t = ph_str_text(p, h[i], &buf, &cap);
        CU_ASSERT_EQUAL(memcmp(t, text[i], len[i] + 1), 0);
        for (j = i % 7; j < N; j += 37)
            CU_ASSERT_EQUAL(sign(ph_str_cmp(p, h[i], h[j])),
                            sign(strcmp(text[i], text[j])));
    }
    for (i = 0; i < N; i++)
        CU_ASSERT_EQUAL(memcmp(ph_str_get(p, h[i]), text[i], len[i] + 1), 0);
    free(buf);
    ph_profile_free(p);
}

/* One profile's strings in another (ph_str_map): the same texts, found
 * again whether the other profile had them already (interned from their
 * text) or not, so that a compound one made from its parts is the one
 * its text finds. */
static void test_map(void)
{
    enum { N = 2000 };
    static char text[N][200];
    static size_t len[N];
    static ph_str from[N];
    static const char alphabet[] = "abc'";
    ph_profile *a = ph_profile_new(), *b = ph_profile_new();
    uint64_t x = 2463534242ull;
    size_t i, j, compound = 0;
    for (i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        len[i] = (size_t)(x >> 8) % 190;
        for (j = 0; j < len[i]; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            text[i][j] = alphabet[x % 4];
        }
        text[i][len[i]] = '\0';
        from[i] = ph_str_intern(a, text[i], len[i]);
        if (i % 3 == 0)   /* a third of them there already */
            ph_str_intern(b, text[i], len[i]);
        if (len[i] >= PH_STR_COMPOUND_MIN && memchr(text[i], '\'', len[i]))
            compound++;
    }
    CU_ASSERT(compound > N / 4);
    ph_str_map *m = ph_str_map_new(b, a);
    for (i = 0; i < N; i++) {
        ph_str got = ph_str_map_get(m, from[i]);
        CU_ASSERT_EQUAL(ph_str_map_get(m, from[i]), got);
        CU_ASSERT_EQUAL(ph_str_lookup(b, text[i], len[i]), got);
        CU_ASSERT_EQUAL(ph_str_intern(b, text[i], len[i]), got);
        CU_ASSERT_EQUAL(ph_str_len(b, got), len[i]);
        CU_ASSERT_EQUAL(strcmp(ph_str_get(b, got), text[i]), 0);
    }
    ph_str_map_free(m);
    ph_profile_free(a);
    ph_profile_free(b);
}

void ph_test_register_strtab(void)
{
    CU_pSuite s = CU_add_suite("strtab", NULL, NULL);
    CU_add_test(s, "intern and get", test_basic);
    CU_add_test(s, "embedded NUL bytes", test_embedded_nul);
    CU_add_test(s, "50000 strings", test_many);
    CU_add_test(s, "compound strings", test_compound);
    CU_add_test(s, "one profile's strings in another", test_map);
    CU_add_test(s, "metadata and notes", test_meta);
}
