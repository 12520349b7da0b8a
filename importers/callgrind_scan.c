/* importers/callgrind_scan.c -- the token layer of the callgrind reader:
 * line views over the input bytes (LF or CRLF, a NUL byte ends the data),
 * compressed names "(id) name", token lengths for messages, and the content
 * sniffer.  No allocation; the IR is built in callgrind_in.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "importers/callgrind_priv.h"
#include "importers/importers.h"
#include "ir/costs_pack.h"

/* The data ends at its first NUL byte.  Each line is searched for one
 * when the scanner reaches it, while its bytes are in the cache; the
 * cost lines that ph_cg_cost_tokens reads need no search (a NUL byte
 * stops it), and they are most of the bytes. */
static void check_nul(ph_cgscan *sc, const char *upto)
{
    size_t n = (size_t)(upto - sc->clean);
    const char *nul = n ? memchr(sc->clean, 0, n) : NULL;

    if (nul) {
        sc->end = nul;
        sc->clean = nul;
    } else {
        sc->clean = upto;
    }
}

void ph_cgscan_init(ph_cgscan *sc, const unsigned char *data, size_t len)
{
    const char *d = (const char *)data;

    sc->p = d;
    sc->end = len && d[0] ? d + len : d;
    sc->clean = d;
    sc->s = sc->e = d;
    sc->lineno = 0;
}

int ph_cgscan_next(ph_cgscan *sc)
{
    const char *s = sc->p, *nl;

    if (s >= sc->end)
        return 0;
    nl = memchr(s, '\n', (size_t)(sc->end - s));
    if ((nl ? nl : sc->end) >= sc->clean) {
        check_nul(sc, nl ? nl + 1 : sc->end);
        if (s >= sc->end)
            return 0;       /* the data ended where this line starts */
        if (nl && nl >= sc->end)
            nl = NULL;      /* a NUL byte ended the data inside this line */
    }
    if (nl) {
        sc->p = nl + 1;
    } else {
        nl = sc->end;
        sc->p = sc->end;
    }
    if (nl > s && nl[-1] == '\r')
        nl--;
    sc->s = s;
    sc->e = nl;
    sc->lineno++;
    return 1;
}

/* Four one-digit tokens, each followed by one blank (the last one by a
 * blank or, with nl, a '\n'), in the 8 bytes at q: their values into v,
 * and 1; 0 when the bytes are not such (or the machine is not
 * little-endian, where the masks would need reversing). */
static inline int four_digits(const char *q, uint64_t *v, int nl)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w, even, seps;
    memcpy(&w, q, sizeof w);
    even = w & UINT64_C(0x00ff00ff00ff00ff);
    seps = w ^ even;
    if ((seps != UINT64_C(0x2000200020002000) &&
         !(nl && seps == UINT64_C(0x0a00200020002000))) ||
        (even & UINT64_C(0x00f000f000f000f0)) != UINT64_C(0x0030003000300030) ||
        (((even & UINT64_C(0x000f000f000f000f)) + UINT64_C(0x0006000600060006)) &
         UINT64_C(0x0010001000100010)))
        return 0;
    v[0] = w & 0xf;
    v[1] = w >> 16 & 0xf;
    v[2] = w >> 32 & 0xf;
    v[3] = w >> 48 & 0xf;
    return 1;
#else
    (void)q;
    (void)v;
    (void)nl;
    return 0;
#endif
}

/* The decimal digits at q (before lim) read into *x, wrapping; their end. */
static inline const char *decimal(const char *q, const char *lim,
                                  uint64_t *x)
{
    uint64_t v = 0;
    for (; q < lim && (unsigned char)(*q - '0') < 10; q++)
        v = v * 10 + (uint64_t)(*q - '0');
    *x = v;
    return q;
}

/* After a token that ends at *pq: its blanks skipped; 1 at the line's end
 * ("\n" or "\r\n": *e at it, *next after it), 0 at the next token, -1 when
 * the line has no end before lim or the token ends at no blank. */
static inline int token_gap(const char **pq, const char *lim, const char **e,
                            const char **next)
{
    const char *q = *pq, *d0 = q;

    while (q < lim && ph_cg_isspace(*q))
        q++;
    *pq = q;
    if (q == lim)
        return -1;
    if (*q == '\n' || (*q == '\r' && lim - q > 1 && q[1] == '\n')) {
        *e = q;
        *next = q + (*q == '\r' ? 2 : 1);
        return 1;
    }
    return q == d0 ? -1 : 0;
}

/* The token at *pq (not one of the fast paths' digits) read into *x and
 * *kind, *pq moved past it: 0, or -1 when it is no plain token. */
static inline int token_value(const char **pq, const char *lim, uint64_t *x,
                              uint8_t *kind)
{
    const char *q = *pq, *d0;
    char c = *q;
    uint64_t v = 0;
    uint8_t k = PH_CGTOK_ABS;

    if (c == '*') {
        k = PH_CGTOK_SAME;
        q++;
    } else {
        if (c == '+' || c == '-') {
            k = c == '+' ? PH_CGTOK_PLUS : PH_CGTOK_MINUS;
            if (++q == lim)
                return -1;
            c = *q;
        }
        if (c == '0' && lim - q > 2 && (q[1] | 0x20) == 'x') {
            for (q += 2, d0 = q; q < lim; q++) {
                unsigned h = (unsigned char)*q;
                if (h - '0' < 10)
                    v = v << 4 | (h - '0');
                else if ((h | 0x20) - 'a' < 6)
                    v = v << 4 | ((h | 0x20) - 'a' + 10);
                else
                    break;
            }
            if (q == d0 || q - d0 > 16)
                return -1;
        } else {
            d0 = q;
            q = decimal(q, lim, &v);
            if (q == d0 || q - d0 > 19)   /* 19 digits cannot overflow */
                return -1;
        }
    }
    *pq = q;
    *x = v;
    *kind = k;
    return 0;
}

unsigned ph_cg_cost_tokens(const char *q, const char *lim, unsigned max,
                           uint64_t *val, uint8_t *kind, const char **e,
                           const char **next)
{
    unsigned n = 0;

    for (;;) {
        uint64_t x;
        uint8_t k;
        char c = *q;

        if (n == max)
            return PH_CGTOK_NONE;
        /* the commonest tokens (a cachegrind line's zeros): one digit,
         * one blank, four at a time, then one, before the next token's
         * digit */
        if (lim - q > 8 && max - n >= 4 &&
            (unsigned char)(q[8] - '0') < 10 && four_digits(q, val + n, 0)) {
            memset(kind + n, PH_CGTOK_ABS, 4);
            n += 4;
            q += 8;
            continue;
        }
        if ((unsigned char)(c - '0') < 10 && lim - q > 2 && q[1] == ' ' &&
            (unsigned char)(q[2] - '0') < 10) {
            val[n] = (uint64_t)(c - '0');
            kind[n++] = PH_CGTOK_ABS;
            q += 2;
            continue;
        }
        if (token_value(&q, lim, &x, &k) < 0)
            return PH_CGTOK_NONE;
        val[n] = x;
        kind[n] = k;
        n++;
        switch (token_gap(&q, lim, e, next)) {
        case 1:
            return n;
        case -1:
            return PH_CGTOK_NONE;
        }
    }
}

/* One count of a line packed (costs_pack.h) and added to sum[col], or
 * taken out of it again (undo: pack_line). */
static inline void pack_count(ph_costs_packer *pk, uint64_t *sum,
                              unsigned *col, int undo, uint64_t x)
{
    if (undo)
        sum[(*col)++] -= x;
    else
        sum[(*col)++] += x;
    ph_costs_pack_count(pk, x);     /* at most 18 digits */
}

/* The counts of a line from q, just after its first tokens, to its end:
 * packed into pk and added to sum (taken out with undo), *col of them;
 * *big when one has 15 digits or more.  0, or -1 for anything but at
 * most PH_CGPACK_MAX decimal counts of at most 18 digits. */
static inline __attribute__((always_inline)) int
pack_counts(const char *q, const char *lim, ph_costs_packer *pkp,
            uint64_t *sum, int undo, unsigned *colp, int *bigp,
            const char **e, const char **next)
{
    ph_costs_packer pk = *pkp;
    unsigned col = 0;
    uint64_t x;
    const char *d0;
    int big = 0, gap;

    while ((gap = token_gap(&q, lim, e, next)) == 0) {
        if (col == PH_CGPACK_MAX)
            return -1;
        uint64_t v[4];
        if (lim - q >= 8 && col + 4 <= PH_CGPACK_MAX &&
            four_digits(q, v, 1)) {
            /* written out: gcc kept a loop of four calls a loop, 6%
             * slower */
            pack_count(&pk, sum, &col, undo, v[0]);
            pack_count(&pk, sum, &col, undo, v[1]);
            pack_count(&pk, sum, &col, undo, v[2]);
            pack_count(&pk, sum, &col, undo, v[3]);
            q += 7;     /* before the last blank: the loop skips it */
            continue;
        }
        if ((unsigned char)(*q - '0') < 10 && lim - q > 1 &&
            (unsigned char)(q[1] - '0') >= 10) {             /* one digit */
            pack_count(&pk, sum, &col, undo, (uint64_t)(*q++ - '0'));
            continue;
        }
        d0 = q;
        q = decimal(q, lim, &x);
        if (q == d0 || q - d0 > 18)     /* 18 digits: at most INT64_MAX */
            return -1;
        big |= q - d0 > 14;             /* 10^14 < 2^48 */
        pack_count(&pk, sum, &col, undo, x);
    }
    *pkp = pk;
    *colp = col;
    *bigp = big;
    return gap < 0 ? -1 : 0;
}

/* pack_line's parse, with the counts added to sum, or taken out (undo)
 * up to where a first parse failed. */
static inline __attribute__((always_inline)) unsigned char *
pack_parse(const char *q, const char *lim, unsigned char *d, uint64_t *sum,
           int undo, const char **e, const char **next)
{
    ph_costs_packer pk;
    unsigned col = 0;
    uint64_t x;
    uint32_t first;
    const char *d0 = q;
    int big = 0;

    q = decimal(q, lim, &x);
    if (q == d0 || q - d0 > 10 || x > UINT32_MAX)
        return NULL;
    first = (uint32_t)x;
    ph_costs_pack_begin(&pk, d + PH_CGPACK_HEAD);
    if (pack_counts(q, lim, &pk, sum, undo, &col, &big, e, next) < 0)
        return NULL;
    unsigned char *end = ph_costs_pack_end(&pk);
    d[0] = (unsigned char)(col | (big ? PH_CGPACK_BIG : 0));
    d[1] = (unsigned char)(end - d - PH_CGPACK_HEAD);
    memcpy(d + 2, &first, sizeof first);
    return end;
}

unsigned char *ph_cg_pack_line(const char *q, const char *lim,
                               unsigned char *d, uint64_t *sum,
                               const char **e, const char **next)
{
    unsigned char *end = pack_parse(q, lim, d, sum, 0, e, next);

    if (!end)   /* the same parse again, to take its counts out of sum */
        pack_parse(q, lim, d, sum, 1, e, next);
    return end;
}

const char *ph_cg_row_positions(const char *q, const char *lim, unsigned np,
                                uint8_t *kind, uint64_t *val)
{
    const char *e, *next;

    for (unsigned i = 0; i < np; i++) {
        if (i && token_gap(&q, lim, &e, &next) != 0)
            return NULL;
        if (token_value(&q, lim, &val[i], &kind[i]) < 0)
            return NULL;
    }
    return q;
}

unsigned char *ph_cg_row_counts(const char *q, const char *lim,
                                unsigned char *d, uint64_t *sum, unsigned *n,
                                const char **e, const char **next)
{
    ph_costs_packer pk;
    int big;

    ph_costs_pack_begin(&pk, d);
    if (pack_counts(q, lim, &pk, sum, 0, n, &big, e, next) == 0)
        return ph_costs_pack_end(&pk);
    /* the same parse again, to take its counts out of sum */
    ph_costs_pack_begin(&pk, d);
    (void)pack_counts(q, lim, &pk, sum, 1, n, &big, e, next);
    return NULL;
}

int ph_cg_toklen(const char *q, const char *e)
{
    const char *t = q;

    while (t < e && !ph_cg_isspace(*t) && t - q < 40)
        t++;
    return (int)(t - q);
}

int ph_cg_name(const char *s, const char *e, int *compressed, uint64_t *id,
               const char **name, size_t *len, size_t *errcol)
{
    const char *q = ph_cg_skipws(s, e), *close;

    while (e > q && ph_cg_isspace(e[-1]))
        e--;
    *id = 0;
    *compressed = 0;
    if (e - q >= 2 && q[0] == '(' && (unsigned char)(q[1] - '0') < 10) {
        const char *num = q + 1;
        close = memchr(num, ')', (size_t)(e - num));
        if (!close) {
            *errcol = (size_t)(q - s);
            return -1;
        }
        if (ph_cg_u64(&num, close, id) != PH_CGN_OK || num != close) {
            *errcol = (size_t)(q + 1 - s);
            return ph_cg_u64(&num, close, id) == PH_CGN_RANGE ? -2 : -1;
        }
        if (*id > UINT32_MAX) {
            *errcol = (size_t)(q + 1 - s);
            return -2;
        }
        q = ph_cg_skipws(close + 1, e);
        *compressed = 1;
    }
    *name = q;
    *len = (size_t)(e - q);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Compressed-name id tables                                          */

/* The entry an id's slot holds, or a new one there (NULL: none and not
 * create). */
static ph_cgent *entry_at(ph_cgids *t, uint32_t *slot, int create)
{
    if (*slot)
        return &t->ents[*slot - 1];
    if (!create)
        return NULL;
    if (t->nents == UINT32_MAX)
        ph_oom();
    if (t->nents == t->capents) {
        t->capents = t->capents ? 2 * t->capents : 256;
        t->ents = ph_xrealloc(t->ents, t->capents * sizeof *t->ents);
    }
    ph_map_ahead(t->ents, sizeof *t->ents, t->nents, t->capents);
    *slot = (uint32_t)++t->nents;
    memset(&t->ents[t->nents - 1], 0, sizeof *t->ents);
    return &t->ents[t->nents - 1];
}

ph_cgent *ph_cg_find_id(ph_cgids *t, uint64_t id, int create)
{
    size_t i, mask;

    if (id < t->limit) {
        if (id >= t->ndense) {
            size_t n = t->ndense ? t->ndense : 256;
            if (!create)
                return NULL;
            while (n <= id)
                n *= 2;
            if (n > t->limit)
                n = t->limit;
            t->dense = ph_xrecalloc(t->dense, t->ndense * sizeof *t->dense,
                                    n * sizeof *t->dense);
            t->ndense = n;
        }
        return entry_at(t, &t->dense[id], create);
    }
    if (t->hcap == 0 || (create && 2 * (t->hused + 1) > t->hcap)) {
        size_t ncap = t->hcap ? 2 * t->hcap : 64, j;
        uint64_t *nk;
        uint32_t *nv;
        if (!create && t->hcap == 0)
            return NULL;
        nk = ph_xcalloc(ncap, sizeof *nk);
        nv = ph_xcalloc(ncap, sizeof *nv);
        for (j = 0; j < t->hcap; j++) {
            if (!t->hkey[j])
                continue;
            i = (size_t)(t->hkey[j] * 0x9E3779B97F4A7C15ull) & (ncap - 1);
            while (nk[i])
                i = (i + 1) & (ncap - 1);
            nk[i] = t->hkey[j];
            nv[i] = t->hval[j];
        }
        free(t->hkey);
        free(t->hval);
        t->hkey = nk;
        t->hval = nv;
        t->hcap = ncap;
    }
    mask = t->hcap - 1;
    i = (size_t)(id * 0x9E3779B97F4A7C15ull) & mask;
    while (t->hkey[i] && t->hkey[i] != id)
        i = (i + 1) & mask;
    if (!t->hkey[i]) {
        if (!create)
            return NULL;
        t->hkey[i] = id;
        t->hused++;
    }
    return entry_at(t, &t->hval[i], create);
}

void ph_cg_free_ids(ph_cgids *t)
{
    free(t->dense);
    free(t->hkey);
    free(t->hval);
    free(t->ents);
}

/* ------------------------------------------------------------------ */
/* Sniffing                                                           */

/* A line starting at l (within data) begins with word. */
static int starts_line(const unsigned char *l, const unsigned char *end,
                       const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - l) >= n && memcmp(l, word, n) == 0;
}

/* KCachegrind's rule, stricter on "events:" so that cachegrind files (which
 * also have "events:") go to their own reader: "# callgrind format" at the
 * start scores 100; otherwise a header with "events:" and a callgrind-only
 * line ("positions:", "fn=(ID", "ob=", "calls=", "creator: callgrind",
 * "part:", "thread:")
 * scores 80; "events:" alone scores 20. */
int ph_callgrind_sniff(const unsigned char *data, size_t len)
{
    const unsigned char *end = data + (len < 8192 ? len : 8192), *l;
    int events = 0, specific = 0;

    if (starts_line(data, end, "# callgrind format"))
        return 100;
    for (l = data; l < end;) {
        const unsigned char *nl = memchr(l, '\n', (size_t)(end - l));
        if (starts_line(l, end, "events:"))
            events = 1;
        else if (starts_line(l, end, "positions:") ||
                 starts_line(l, end, "calls=") ||
                 starts_line(l, end, "cfn=") ||
                 (starts_line(l, end, "fn=(") && l + 4 < end &&
                  l[4] >= '0' && l[4] <= '9') ||
                 starts_line(l, end, "ob=") ||
                 starts_line(l, end, "creator: callgrind") ||
                 starts_line(l, end, "part:") ||
                 starts_line(l, end, "thread:"))
            specific = 1;
        if (!nl)
            break;
        l = nl + 1;
    }
    if (events && specific)
        return 80;
    return events ? 20 : 0;
}
