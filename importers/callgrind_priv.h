/* callgrind_priv.h -- the callgrind line scanner (callgrind_scan.c) shared
 * with the IR builder (callgrind_in.c).  Private to importers/callgrind_*.
 * Lines are views into the input bytes; numbers are parsed by hand here,
 * inline, because the cost lines are the hot loop of the reader. */
#ifndef PH_CALLGRIND_PRIV_H
#define PH_CALLGRIND_PRIV_H

#include <stddef.h>
#include <stdint.h>

/* Line scanner over the whole input.  s..e is the current line without its
 * "\n" or "\r\n"; lineno is 1-based. */
typedef struct ph_cgscan {
    const char *p;       /* next unread byte */
    const char *end;     /* end of data (first NUL byte, or the size) */
    const char *s, *e;   /* current line */
    uint64_t lineno;
} ph_cgscan;

void ph_cgscan_init(ph_cgscan *sc, const unsigned char *data, size_t len);
/* Next line; 0 at the end of the data. */
int ph_cgscan_next(ph_cgscan *sc);

/* Results of the number helpers below. */
enum {
    PH_CGN_OK = 0,
    PH_CGN_NOTNUM,       /* not a number (or trailing garbage) */
    PH_CGN_RANGE,        /* does not fit in 64 bits */
    PH_CGN_NEGATIVE,     /* a relative position below 0 */
};

static inline int ph_cg_isspace(char c)
{
    return c == ' ' || c == '\t';
}

static inline const char *ph_cg_skipws(const char *q, const char *e)
{
    while (q < e && ph_cg_isspace(*q))
        q++;
    return q;
}

/* Unsigned number at *pq (decimal or 0x hex), ended by a blank or the end
 * of the line.  Advances *pq past it. */
static inline int ph_cg_u64(const char **pq, const char *e, uint64_t *v)
{
    const char *q = *pq;
    uint64_t x = 0;

    if (q >= e || (unsigned char)(*q - '0') >= 10)
        return PH_CGN_NOTNUM;
    if (q[0] == '0' && e - q > 2 && (q[1] | 0x20) == 'x') {
        const char *h = q + 2, *start = h;
        for (; h < e; h++) {
            unsigned c = (unsigned char)*h, d;
            if (c - '0' < 10)
                d = c - '0';
            else if ((c | 0x20) - 'a' < 6)
                d = (c | 0x20) - 'a' + 10;
            else
                break;
            if (x >> 60)
                return PH_CGN_RANGE;
            x = (x << 4) | d;
        }
        if (h == start)
            return PH_CGN_NOTNUM;
        q = h;
    } else {
        const char *d0 = q;
        while (q < e && (unsigned char)(*q - '0') < 10) {
            unsigned d = (unsigned)(*q - '0');
            if (q - d0 >= 19 && x > (UINT64_MAX - d) / 10)
                return PH_CGN_RANGE;
            x = x * 10 + d;
            q++;
        }
    }
    if (q < e && !ph_cg_isspace(*q))
        return PH_CGN_NOTNUM;
    *v = x;
    *pq = q;
    return PH_CGN_OK;
}

/* Signed cost: optional '-' or '+', then a number that fits in int64. */
static inline int ph_cg_i64(const char **pq, const char *e, int64_t *v)
{
    const char *q = *pq;
    int neg = 0, r;
    uint64_t u;

    if (q < e && (*q == '-' || *q == '+')) {
        neg = *q == '-';
        q++;
    }
    r = ph_cg_u64(&q, e, &u);
    if (r != PH_CGN_OK)
        return r;
    if (neg ? u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX)
        return PH_CGN_RANGE;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    *pq = q;
    return PH_CGN_OK;
}

/* One subposition: "*" (same as last), "+N" / "-N" (relative to last) or
 * an absolute number; KCachegrind's ranges "A+len", "A-B", "A:B" are read
 * as their start A. */
static inline int ph_cg_subpos(const char **pq, const char *e,
                               uint64_t last, uint64_t *out)
{
    const char *q = *pq;
    uint64_t v;
    int r;
    char c = *q;

    if (c == '*') {
        q++;
        if (q < e && !ph_cg_isspace(*q))
            return PH_CGN_NOTNUM;
        *out = last;
        *pq = q;
        return PH_CGN_OK;
    }
    if (c == '+' || c == '-') {
        q++;
        r = ph_cg_u64(&q, e, &v);
        if (r != PH_CGN_OK)
            return r;
        if (c == '+') {
            if (v > UINT64_MAX - last)
                return PH_CGN_RANGE;
            *out = last + v;
        } else {
            if (v > last)
                return PH_CGN_NEGATIVE;
            *out = last - v;
        }
        *pq = q;
        return PH_CGN_OK;
    }
    {
        /* Absolute, maybe a KCachegrind range: parse up to the separator. */
        const char *t = q;
        while (t < e && !ph_cg_isspace(*t) && (t == q || (*t != '+' &&
               *t != '-' && *t != ':')))
            t++;
        r = ph_cg_u64(&q, t, &v);
        if (r != PH_CGN_OK)
            return r;
        if (q < e && !ph_cg_isspace(*q)) {
            uint64_t end;
            q++;
            r = ph_cg_u64(&q, e, &end);
            if (r != PH_CGN_OK)
                return r;
        }
        *out = v;
        *pq = q;
        return PH_CGN_OK;
    }
}

/* A position spec value: "(ID) name", "(ID)" or "name".  Sets *compressed
 * and *id (ids start at 0) and the name view (len 0 when only the id is
 * given).
 * Returns 0, or -1 when "(" + digit is not closed by ")" or the id is not a
 * number; *errcol then gets the 0-based offset of the problem. */
int ph_cg_name(const char *s, const char *e, int *compressed, uint64_t *id,
               const char **name, size_t *len, size_t *errcol);

/* Length of the token at q (up to a blank), capped for messages. */
int ph_cg_toklen(const char *q, const char *e);

#endif /* PH_CALLGRIND_PRIV_H */
