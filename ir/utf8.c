/* utf8.c -- names are bytes in the IR; text formats that must be UTF-8
 * (JSON, YAML, speedscope) ask here how long the valid sequence at a
 * position is, and replace what is not valid (U+FFFD). */
#include "config.h"

#include <string.h>

#include "io.h"

size_t ph_utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len, i;
    unsigned cp;

    if (n == 0)
        return 0;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;       /* continuation byte, overlong lead, 0xf5.. */
    }
    if (n < len)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    /* overlong forms, surrogates and beyond U+10FFFF */
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return len;
}

char *ph_utf8_fix(const char *s, size_t n, size_t *bad)
{
    const unsigned char *u = (const unsigned char *)s;
    char *d = ph_xmalloc(n * 3 + 1), *o = d;
    size_t i = 0;

    while (i < n) {
        size_t k = ph_utf8_seq(u + i, n - i);
        if (k == 0 || u[i] == 0) {
            memcpy(o, "\xef\xbf\xbd", 3);   /* U+FFFD */
            o += 3;
            i++;
            if (bad)
                ++*bad;
            continue;
        }
        memcpy(o, s + i, k);
        o += k;
        i += k;
    }
    *o = '\0';
    return d;
}
