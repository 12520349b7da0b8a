/* numbers.c -- overflow-checked integer parsing by hand (never atoi or
 * strtoull: those need a NUL-terminated string, skip spaces and accept
 * what profile formats do not).  Decimal, or hex after "0x"/"0X"; and
 * finite decimal fractions for the command line's thresholds and rules. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

#define PH_PARSE_OVERFLOW ((size_t)-1)

static int hex_digit(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;   /* fold to lower case */
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static size_t parse_hex(const char *s, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    size_t i = 0;
    int d;

    while (i < len && (d = hex_digit((unsigned char)s[i])) >= 0) {
        if (x >> 60)
            return PH_PARSE_OVERFLOW;
        x = (x << 4) | (uint64_t)d;
        i++;
    }
    *v = x;
    return i;
}

static size_t parse_dec(const char *s, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    size_t i = 0;
    /* 19 digits always fit in 64 bits: no check needed for them. */
    size_t fast = len < 19 ? len : 19;

    while (i < fast && (unsigned char)(s[i] - '0') < 10) {
        x = x * 10 + (uint64_t)(s[i] - '0');
        i++;
    }
    while (i < len && (unsigned char)(s[i] - '0') < 10) {
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return PH_PARSE_OVERFLOW;
        x = x * 10 + d;
        i++;
    }
    *v = x;
    return i;
}

size_t ph_parse_u64(const char *s, size_t len, uint64_t *v)
{
    if (len == 0 || (unsigned char)(s[0] - '0') >= 10)
        return 0;
    if (s[0] == '0' && len > 2 && (s[1] | 0x20) == 'x' &&
        hex_digit((unsigned char)s[2]) >= 0) {
        size_t n = parse_hex(s + 2, len - 2, v);
        return n == PH_PARSE_OVERFLOW ? n : n + 2;
    }
    return parse_dec(s, len, v);
}

size_t ph_parse_i64(const char *s, size_t len, int64_t *v)
{
    size_t sign = 0, n;
    int neg = 0;
    uint64_t u;

    if (len > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        sign = 1;
    }
    n = ph_parse_u64(s + sign, len - sign, &u);
    if (n == 0 || n == PH_PARSE_OVERFLOW)
        return n;
    if (neg) {
        if (u > (uint64_t)INT64_MAX + 1)
            return PH_PARSE_OVERFLOW;
        *v = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
    } else {
        if (u > (uint64_t)INT64_MAX)
            return PH_PARSE_OVERFLOW;
        *v = (int64_t)u;
    }
    return n + sign;
}

static size_t count_digits(const char *s, size_t len, size_t i)
{
    size_t j = i;
    while (j < len && (unsigned char)(s[j] - '0') < 10)
        j++;
    return j - i;
}

size_t ph_parse_decimal(const char *s, size_t len, double *v)
{
    size_t i = 0, whole, frac = 0;
    char buf[128];

    if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
    whole = count_digits(s, len, i);
    i += whole;
    if (i < len && s[i] == '.') {
        frac = count_digits(s, len, i + 1);
        if (frac > 0 || whole > 0)
            i += 1 + frac;
    }
    if (whole == 0 && frac == 0)
        return 0;
    if (i < len && (s[i] | 0x20) == 'e') {
        size_t j = i + 1, exp;
        if (j < len && (s[j] == '+' || s[j] == '-'))
            j++;
        exp = count_digits(s, len, j);
        if (exp > 0)
            i = j + exp;
    }
    /* The syntax is checked above; strtod only converts a bounded copy. */
    if (i >= sizeof buf)
        return 0;
    memcpy(buf, s, i);
    buf[i] = '\0';
    double x = strtod(buf, NULL);
    if (!isfinite(x))
        return 0;
    *v = x;
    return i;
}
