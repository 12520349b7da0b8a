/* numbers_test.c -- ph_parse_u64 / ph_parse_i64: decimal and hex, where a
 * number stops, and overflow exactly at the 64-bit limits. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdint.h>
#include <string.h>

#include "ir/io.h"
#include "suites.h"

#define OVERFLOW ((size_t)-1)

static size_t u64(const char *s, uint64_t *v)
{
    *v = 12345;   /* must be overwritten on success */
    return ph_parse_u64(s, strlen(s), v);
}

static size_t i64(const char *s, int64_t *v)
{
    *v = 12345;
    return ph_parse_i64(s, strlen(s), v);
}

static void test_u64_decimal(void)
{
    uint64_t v;

    CU_ASSERT_EQUAL(u64("0", &v), 1);
    CU_ASSERT_EQUAL(v, 0);
    CU_ASSERT_EQUAL(u64("42", &v), 2);
    CU_ASSERT_EQUAL(v, 42);
    CU_ASSERT_EQUAL(u64("123 456", &v), 3);
    CU_ASSERT_EQUAL(v, 123);
    CU_ASSERT_EQUAL(u64("12abc", &v), 2);
    CU_ASSERT_EQUAL(v, 12);
    CU_ASSERT_EQUAL(u64("0000000000000000000000007", &v), 25);
    CU_ASSERT_EQUAL(v, 7);
    /* Length bounds the scan: no NUL needed. */
    CU_ASSERT_EQUAL(ph_parse_u64("98765", 3, &v), 3);
    CU_ASSERT_EQUAL(v, 987);
}

static void test_u64_not_a_number(void)
{
    uint64_t v;

    CU_ASSERT_EQUAL(u64("", &v), 0);
    CU_ASSERT_EQUAL(u64("x1", &v), 0);
    CU_ASSERT_EQUAL(u64(" 1", &v), 0);
    CU_ASSERT_EQUAL(u64("-1", &v), 0);
    CU_ASSERT_EQUAL(u64("+1", &v), 0);
}

static void test_u64_hex(void)
{
    uint64_t v;

    CU_ASSERT_EQUAL(u64("0x1a3", &v), 5);
    CU_ASSERT_EQUAL(v, 0x1a3);
    CU_ASSERT_EQUAL(u64("0XFF", &v), 4);
    CU_ASSERT_EQUAL(v, 255);
    CU_ASSERT_EQUAL(u64("0x4005d0 rest", &v), 8);
    CU_ASSERT_EQUAL(v, 0x4005d0);
    /* "0x" without a digit is the number 0 followed by "x". */
    CU_ASSERT_EQUAL(u64("0x", &v), 1);
    CU_ASSERT_EQUAL(v, 0);
    CU_ASSERT_EQUAL(u64("0xg", &v), 1);
    CU_ASSERT_EQUAL(u64("0xffffffffffffffff", &v), 18);
    CU_ASSERT_EQUAL(v, UINT64_MAX);
    CU_ASSERT_EQUAL(u64("0x00000000000000000001", &v), 22);
    CU_ASSERT_EQUAL(v, 1);
}

static void test_u64_overflow(void)
{
    uint64_t v;

    CU_ASSERT_EQUAL(u64("18446744073709551615", &v), 20);
    CU_ASSERT_EQUAL(v, UINT64_MAX);
    CU_ASSERT_EQUAL(u64("18446744073709551616", &v), OVERFLOW);
    CU_ASSERT_EQUAL(u64("99999999999999999999", &v), OVERFLOW);
    CU_ASSERT_EQUAL(u64("184467440737095516150", &v), OVERFLOW);
    CU_ASSERT_EQUAL(u64("0x10000000000000000", &v), OVERFLOW);
}

static void test_i64(void)
{
    int64_t v;

    CU_ASSERT_EQUAL(i64("-5", &v), 2);
    CU_ASSERT_EQUAL(v, -5);
    CU_ASSERT_EQUAL(i64("+7,", &v), 2);
    CU_ASSERT_EQUAL(v, 7);
    CU_ASSERT_EQUAL(i64("-0x10", &v), 5);
    CU_ASSERT_EQUAL(v, -16);
    CU_ASSERT_EQUAL(i64("-", &v), 0);
    CU_ASSERT_EQUAL(i64("+", &v), 0);
    CU_ASSERT_EQUAL(i64("--1", &v), 0);
    CU_ASSERT_EQUAL(i64("9223372036854775807", &v), 19);
    CU_ASSERT_EQUAL(v, INT64_MAX);
    CU_ASSERT_EQUAL(i64("9223372036854775808", &v), OVERFLOW);
    CU_ASSERT_EQUAL(i64("-9223372036854775808", &v), 20);
    CU_ASSERT_EQUAL(v, INT64_MIN);
    CU_ASSERT_EQUAL(i64("-9223372036854775809", &v), OVERFLOW);
    CU_ASSERT_EQUAL(i64("-18446744073709551616", &v), OVERFLOW);
}

static size_t dec(const char *s, double *v)
{
    *v = 12345;
    return ph_parse_decimal(s, strlen(s), v);
}

/* Thresholds and --fail-if bounds: finite decimals only.  strtod also takes
 * "nan", "inf" and hex, which made a gate that can never fire (issue 15). */
static void test_decimal(void)
{
    double v;

    CU_ASSERT_EQUAL(dec("5", &v), 1);
    CU_ASSERT_EQUAL(v, 5);
    CU_ASSERT_EQUAL(dec("+2.5%", &v), 4);
    CU_ASSERT_EQUAL(v, 2.5);
    CU_ASSERT_EQUAL(dec("-.25", &v), 4);
    CU_ASSERT_EQUAL(v, -0.25);
    CU_ASSERT_EQUAL(dec("1e3x", &v), 3);
    CU_ASSERT_EQUAL(v, 1000);
    CU_ASSERT_EQUAL(dec("1e", &v), 1);     /* an "e" without digits stops */
    CU_ASSERT_EQUAL(dec("3.", &v), 2);
    CU_ASSERT_EQUAL(v, 3);
    CU_ASSERT_EQUAL(ph_parse_decimal("12345", 2, &v), 2);
    CU_ASSERT_EQUAL(v, 12);
    const char *bad[] = { "", ".", "+", "-", "nan", "+nan", "NaN", "inf",
                          "-Infinity", "0x10", " 1", "1e999", "-1e400" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t n = dec(bad[i], &v);
        /* "0x10" reads as "0" followed by garbage, never as 16 */
        if (strcmp(bad[i], "0x10") == 0) {
            CU_ASSERT(n == 1 && v == 0);
        } else {
            CU_ASSERT_EQUAL(n, 0);
        }
    }
}

void ph_test_register_numbers(void)
{
    CU_pSuite s = CU_add_suite("numbers", NULL, NULL);

    CU_add_test(s, "u64 decimal", test_u64_decimal);
    CU_add_test(s, "u64 not a number", test_u64_not_a_number);
    CU_add_test(s, "u64 hex", test_u64_hex);
    CU_add_test(s, "u64 overflow", test_u64_overflow);
    CU_add_test(s, "i64 signs and limits", test_i64);
    CU_add_test(s, "finite decimals only", test_decimal);
}
