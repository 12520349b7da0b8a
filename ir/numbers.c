/* numbers.c -- overflow-checked integer parsing by hand (never atoi or
 * strtoull: those need a NUL-terminated string, skip spaces and accept
 * what profile formats do not).  Decimal, or hex after "0x"/"0X". */
#include "config.h"

#include <stdint.h>

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
