/* strtab.c -- interned strings: one handle (uint32) per distinct string of
 * a profile, 0 = none (""), text NUL-terminated in the arena, found through
 * an open-addressing table of handles with a seeded hash.  A compound
 * string (ir.h) keeps the handles of its parts; its text is made in the
 * arena when first asked for.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"

/* ------------------------------------------------------------------ */
/* Hash: 8 bytes a step, multiply-xorshift mixing, seeded per profile.   */

static inline uint64_t load64(const unsigned char *s)
{
    uint64_t v;
    memcpy(&v, s, 8);
    return v;
}

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

uint64_t ph_hash_bytes(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *s = data;
    uint64_t h = seed ^ (len * 0x9e3779b97f4a7c15ull);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        h ^= load64(s + i) * 0x87c37b91114253d5ull;
        h = (h << 31 | h >> 33) * 0x4cf5ad432745937full;
    }
    if (i < len) {
        uint64_t t = 0;
        memcpy(&t, s + i, len - i);
        h ^= t * 0x87c37b91114253d5ull;
        h = (h << 31 | h >> 33) * 0x4cf5ad432745937full;
    }
    return mix64(h);
}

/* ------------------------------------------------------------------ */
/* Table                                                               */

void ph_strtab_init(ph_profile *p)
{
    p->capstrs = 256;
    p->strs = ph_xmalloc(p->capstrs * sizeof *p->strs);
    p->strs[0] = (ph_strent){ "", NULL, 0, 0 };
    p->nstrs = 1;
    p->strmask = 511;
    p->strslots = ph_xcalloc_written(p->strmask + 1, sizeof *p->strslots);
}

void ph_strtab_free(ph_profile *p)
{
    free(p->strs);
    free(p->strslots);
    free(p->part_cache);
    p->part_cache = NULL;
    p->strs = NULL;
    p->strslots = NULL;
    p->nstrs = p->capstrs = 0;
}

/* A slot holds the string's hash beside its handle, so that a probe
 * compares hashes without reading the string's entry (a cache miss per
 * probe in a big table) and growing never reads the entries. */
static inline uint64_t slot_of(uint32_t hash, size_t handle)
{
    return (uint64_t)hash << 32 | (uint32_t)handle;
}

/* Whether n strings fit a table of cap slots: at most half full, so that
 * a probe ends soon. */
static int slots_fit(size_t n, size_t cap)
{
    return n * 2 <= cap;
}

/* A table of cap slots (a power of two), every handle put back. */
static void resize_slots(ph_profile *p, size_t cap)
{
    size_t i;
    uint64_t *slots;
    if (cap > SIZE_MAX / sizeof *slots)
        ph_oom();
    slots = ph_xcalloc_written(cap, sizeof *slots);
    for (i = 0; i <= p->strmask; i++) {
        uint64_t v = p->strslots[i];
        size_t j;
        if (!v)
            continue;
        for (j = (v >> 32) & (cap - 1); slots[j]; j = (j + 1) & (cap - 1))
            ;
        slots[j] = v;
    }
    free(p->strslots);
    p->strslots = slots;
    p->strmask = cap - 1;
}

/* The pieces of a string's text in order: a plain string's text, or a
 * compound's parts and separators. */
typedef struct pieces {
    const ph_profile *p;
    const ph_strent *e;
    uint32_t k;
} pieces;

static int next_piece(pieces *it, const char **s, size_t *n)
{
    const ph_strent *e = it->e;
    if (e->s || e->nparts == 0) {   /* text of its own */
        if (it->k++)
            return 0;
        *s = e->s ? e->s : "";
        *n = e->len;
        return 1;
    }
    if (it->k >= 2 * e->nparts - 1)
        return 0;
    if (it->k & 1) {
        static const char join[] = { PH_STR_JOIN, '\0' };
        *s = join;
        *n = 1;
    } else {
        const ph_strent *part = &it->p->strs[e->parts[it->k / 2]];
        *s = part->s;
        *n = part->len;
    }
    it->k++;
    return 1;
}

/* Whether e's text is s (len bytes), compound or not. */
static int same_text(const ph_profile *p, const ph_strent *e, const char *s,
                     size_t len)
{
    pieces it = { p, e, 0 };
    const char *t;
    size_t n, at = 0;
    if (e->len != len)
        return 0;
    if (e->s)   /* most lookups */
        return memcmp(e->s, s, len) == 0;
    while (next_piece(&it, &t, &n)) {
        if (memcmp(s + at, t, n) != 0)
            return 0;
        at += n;
    }
    return 1;
}

/* The slot of s (hash h) in the table: its handle there, or the empty
 * slot where it goes. */
static size_t find_slot(const ph_profile *p, const char *s, size_t len,
                        uint32_t h)
{
    size_t i;
    for (i = h & p->strmask; p->strslots[i]; i = (i + 1) & p->strmask) {
        uint64_t v = p->strslots[i];
        if ((uint32_t)(v >> 32) == h &&
            same_text(p, &p->strs[(uint32_t)v], s, len))
            break;
    }
    return i;
}

/* A new entry in slot i (hash h): the text s, or the parts of a compound
 * string (s NULL). */
static ph_str add_entry(ph_profile *p, size_t i, uint32_t h, const char *s,
                        size_t len, const ph_str *parts, uint32_t nparts)
{
    ph_strent *e;
    if (p->nstrs >= UINT32_MAX)
        ph_oom();
    if (p->nstrs == p->capstrs) {
        p->capstrs *= 2;
        p->strs = ph_xrealloc(p->strs, p->capstrs * sizeof *p->strs);
    }
    ph_map_ahead(p->strs, sizeof *p->strs, p->nstrs, p->capstrs);
    e = &p->strs[p->nstrs];
    e->s = s;
    e->parts = parts;
    e->len = (uint32_t)len;
    e->nparts = nparts;
    p->strslots[i] = slot_of(h, p->nstrs);
    p->nstrs++;
    if (!slots_fit(p->nstrs, p->strmask + 1))
        resize_slots(p, 2 * (p->strmask + 1));
    return (ph_str)(p->nstrs - 1);
}

/* Long enough, with parts, and no NUL (ph_str_cmp compares it as
 * strcmp would). */
static int is_compound(const char *s, size_t len)
{
    return len >= PH_STR_COMPOUND_MIN && memchr(s, PH_STR_JOIN, len) &&
           !memchr(s, '\0', len);
}

/* A compound string's text split at its separators, a part at a time. */
typedef struct part_iter {
    const char *at, *end;   /* at NULL: past the last part */
} part_iter;

static int next_part(part_iter *it, const char **s, size_t *len)
{
    const char *q;
    if (!it->at)
        return 0;
    q = memchr(it->at, PH_STR_JOIN, (size_t)(it->end - it->at));
    *s = it->at;
    *len = (size_t)((q ? q : it->end) - it->at);
    it->at = q ? q + 1 : NULL;
    return 1;
}

/* The parts of compound strings repeat (--separate-callers=16 over cc1:
 * 2.4 million parts of 153,000 names, 7,800 distinct): a direct-mapped
 * cache by hash finds a part again without probing the table of every
 * string, whose slots, entries and texts are three cache misses. */
#define PART_CACHE 4096

struct ph_part_slot {
    const char *text;       /* NULL: empty */
    uint32_t len;
    ph_str handle;
};

static ph_str intern_hashed(ph_profile *p, const char *s, size_t len,
                           uint32_t h, const ph_str_hashes *hs);

static uint32_t hash_of(const ph_profile *p, const char *s, size_t len)
{
    return (uint32_t)ph_hash_bytes(s, len, p->seed);
}

/* A compound string's hash is made of its parts' hashes, not read from
 * its text: a string another profile holds as parts (ph_str_map) is
 * found and kept without making its text. */
static uint64_t parts_hash_start(const ph_profile *p)
{
    return p->seed ^ 0x5851f42d4c957f2dull;
}

static uint64_t parts_hash_add(uint64_t h, uint32_t part)
{
    h ^= part;
    return (h << 29 | h >> 35) * 0x9e3779b97f4a7c15ull;
}

static uint32_t parts_hash_end(uint64_t h, uint32_t nparts)
{
    return (uint32_t)mix64(h ^ nparts);
}

static ph_str intern_part(ph_profile *p, const char *s, size_t len,
                          uint32_t h)
{
    if (!p->part_cache)
        p->part_cache = ph_xcalloc(PART_CACHE, sizeof *p->part_cache);
    struct ph_part_slot *c = &p->part_cache[h & (PART_CACHE - 1)];
    if (c->text && c->len == len && memcmp(c->text, s, len) == 0)
        return c->handle;
    ph_str part = intern_hashed(p, s, len, h, NULL);
    *c = (struct ph_part_slot){ ph_str_get(p, part), (uint32_t)len, part };
    return part;
}

/* A new compound string in slot i (hash h) of its parts. */
static ph_str add_compound(ph_profile *p, size_t i, uint32_t h, size_t len,
                           const ph_str *parts, uint32_t n)
{
    ph_str *kept = ph_arena_alloc_raw(&p->arena, n * sizeof *kept,
                                      sizeof *kept);
    memcpy(kept, parts, n * sizeof *kept);
    return add_entry(p, i, h, NULL, len, kept, n);
}

/* A compound string's parts (plain: they have no separator), with their
 * hashes in hs when given. */
static ph_str intern_compound(ph_profile *p, const char *s, size_t len,
                              uint32_t h, const ph_str_hashes *hs)
{
    part_iter it = { s, s + len };
    const char *part = s;
    size_t plen;
    uint32_t n = 0, k;
    if (hs)
        n = hs->nparts;
    else
        while (next_part(&it, &part, &plen))
            n++;
    ph_str *parts = ph_arena_alloc_raw(&p->arena, n * sizeof *parts,
                                       sizeof *parts);
    if (hs) {   /* the parts' places are known: no search */
        for (k = 0; k < n; k++, part += plen + 1) {
            plen = hs->part[k][0];
            parts[k] = intern_part(p, part, plen, hs->part[k][1]);
        }
    } else {
        it.at = s;
        for (k = 0; next_part(&it, &part, &plen); k++)
            parts[k] = intern_part(p, part, plen, hash_of(p, part, plen));
    }
    /* the parts may have grown the table: the slot again */
    return add_entry(p, find_slot(p, s, len, h), h, NULL, len, parts, n);
}

static ph_str intern_hashed(ph_profile *p, const char *s, size_t len,
                           uint32_t h, const ph_str_hashes *hs)
{
    size_t i;
    char *copy;
    if (len == 0)
        return 0;
    if (len > UINT32_MAX - 1)
        ph_oom();   /* a 4 GiB name: nothing sensible to do */
    i = find_slot(p, s, len, h);
    if (p->strslots[i])
        return (ph_str)(uint32_t)p->strslots[i];
    if (hs && hs->nparts)
        return intern_compound(p, s, len, h, hs);
    if (!hs && is_compound(s, len))
        return intern_compound(p, s, len, h, NULL);
    copy = ph_arena_alloc_raw(&p->arena, len + 1, 1);
    memcpy(copy, s, len);
    copy[len] = '\0';
    return add_entry(p, i, h, copy, len, NULL, 0);
}

void ph_str_reserve(ph_profile *p, size_t n)
{
    size_t cap = p->strmask + 1;
    if (n > UINT32_MAX - p->nstrs)
        ph_oom();
    if (p->nstrs + n > p->capstrs) {
        p->capstrs = p->nstrs + n;
        p->strs = ph_xrealloc(p->strs, p->capstrs * sizeof *p->strs);
    }
    while (!slots_fit(p->nstrs + n, cap))
        cap *= 2;
    if (cap > p->strmask + 1)
        resize_slots(p, cap);
}

ph_str ph_str_intern(ph_profile *p, const char *s, size_t len)
{
    ph_str_hashes hs;
    uint32_t parts[PH_STR_HASHED_PARTS][2];
    int all = ph_str_hash_text(p, s, len, &hs, parts) == 0;
    /* past PH_STR_HASHED_PARTS parts, found again as interned */
    return intern_hashed(p, s, len, hs.whole, all ? &hs : NULL);
}

int ph_str_hash_text(const ph_profile *p, const char *s, size_t len,
                     ph_str_hashes *h, uint32_t (*out)[2])
{
    part_iter it = { s, s + len };
    const char *part;
    size_t plen;
    uint32_t n = 0;
    uint64_t whole;
    h->nparts = 0;
    h->part = out;
    if (!is_compound(s, len)) {
        h->whole = hash_of(p, s, len);
        return len > UINT32_MAX - 1 ? -1 : 0;
    }
    /* the whole's hash over every part, the parts' while there is room */
    whole = parts_hash_start(p);
    for (; next_part(&it, &part, &plen); n++) {
        uint32_t ph = hash_of(p, part, plen);
        if (n < PH_STR_HASHED_PARTS) {
            out[n][0] = (uint32_t)plen;
            out[n][1] = ph;
        }
        whole = parts_hash_add(whole, ph);
    }
    h->whole = parts_hash_end(whole, n);
    if (n > PH_STR_HASHED_PARTS || len > UINT32_MAX - 1)
        return -1;
    h->nparts = n;
    return 0;
}

ph_str ph_str_intern_hashed(ph_profile *p, const char *s, size_t len,
                            const ph_str_hashes *h)
{
    return intern_hashed(p, s, len, h->whole, h);
}

ph_str ph_str_lookup(const ph_profile *p, const char *s, size_t len)
{
    if (len == 0)
        return 0;
    ph_str_hashes hs;
    uint32_t parts[PH_STR_HASHED_PARTS][2];
    ph_str_hash_text(p, s, len, &hs, parts);   /* the whole's, at least */
    size_t i = find_slot(p, s, len, hs.whole);
    return (ph_str)(uint32_t)p->strslots[i];
}

/* ------------------------------------------------------------------ */
/* One profile's strings in another                                   */

struct ph_str_map {
    ph_profile *to;
    const ph_profile *from;
    uint32_t (*got)[2];     /* per handle of from: to's handle (0: not
                             * yet), its hash there */
    ph_str *parts;          /* a compound's parts in to */
    size_t capparts;
};

ph_str_map *ph_str_map_new(ph_profile *to, const ph_profile *from)
{
    ph_str_map *m = ph_xcalloc(1, sizeof *m);
    m->to = to;
    m->from = from;
    m->got = ph_xcalloc(from->nstrs + 1, sizeof *m->got);
    m->got[0][1] = hash_of(to, "", 0);   /* an empty part's */
    return m;
}

void ph_str_map_free(ph_str_map *m)
{
    if (!m)
        return;
    free(m->got);
    free(m->parts);
    free(m);
}

/* The slot of the compound string of parts (hash h, len bytes of text). */
static size_t find_parts_slot(const ph_profile *p, const ph_str *parts,
                              uint32_t n, size_t len, uint32_t h)
{
    size_t i;
    for (i = h & p->strmask; p->strslots[i]; i = (i + 1) & p->strmask) {
        uint64_t v = p->strslots[i];
        const ph_strent *e = &p->strs[(uint32_t)v];
        /* a text splits into parts one way: equal parts, equal texts */
        if ((uint32_t)(v >> 32) == h && e->nparts == n && e->len == len &&
            memcmp(e->parts, parts, n * sizeof *parts) == 0)
            break;
    }
    return i;
}

ph_str ph_str_map_get(ph_str_map *m, ph_str s)
{
    const ph_strent *e;
    ph_profile *to = m->to;
    if (s == 0 || s >= m->from->nstrs)
        return 0;
    if (m->got[s][0])
        return m->got[s][0];
    e = &m->from->strs[s];
    if (e->nparts == 0) {   /* plain: its text */
        const ph_str_hashes plain = { hash_of(to, e->s, e->len), 0, NULL };
        m->got[s][0] = intern_hashed(to, e->s, e->len, plain.whole, &plain);
        m->got[s][1] = plain.whole;
        return m->got[s][0];
    }
    if (m->capparts < e->nparts) {
        m->capparts = e->nparts;
        free(m->parts);
        m->parts = ph_xmalloc(m->capparts * sizeof *m->parts);
    }
    uint64_t h = parts_hash_start(to);
    for (uint32_t k = 0; k < e->nparts; k++) {
        m->parts[k] = ph_str_map_get(m, e->parts[k]);
        h = parts_hash_add(h, m->got[e->parts[k]][1]);
    }
    uint32_t hh = parts_hash_end(h, e->nparts);
    size_t i = find_parts_slot(to, m->parts, e->nparts, e->len, hh);
    m->got[s][0] = to->strslots[i]
        ? (ph_str)(uint32_t)to->strslots[i]
        : add_compound(to, i, hh, e->len, m->parts, e->nparts);
    m->got[s][1] = hh;
    return m->got[s][0];
}

ph_str ph_str_intern0(ph_profile *p, const char *s)
{
    return s ? ph_str_intern(p, s, strlen(s)) : 0;
}

/* e's text into d (e->len + 1 bytes); a part at a time, not a piece: an
 * annotated file's call lines join a compound name each. */
static char *join_parts(const ph_profile *p, const ph_strent *e, char *d)
{
    size_t at = 0;
    if (e->s || e->nparts == 0) {   /* text of its own */
        memcpy(d, e->s ? e->s : "", e->len);
        d[e->len] = '\0';
        return d;
    }
    for (uint32_t k = 0; k < e->nparts; k++) {
        const ph_strent *part = &p->strs[e->parts[k]];
        if (k)
            d[at++] = PH_STR_JOIN;
        memcpy(d + at, part->s, part->len);
        at += part->len;
    }
    d[at] = '\0';
    return d;
}

const char *ph_str_get(const ph_profile *cp, ph_str s)
{
    ph_profile *p = (ph_profile *)cp;   /* the text is a cache (ir.h) */
    ph_strent *e;
    if (s >= p->nstrs)
        return "";
    e = &p->strs[s];
    if (!e->s)
        e->s = join_parts(p, e, ph_arena_alloc_raw(&p->arena, e->len + 1, 1));
    return e->s;
}

const char *ph_str_text(const ph_profile *p, ph_str s, char **buf,
                        size_t *cap)
{
    const ph_strent *e;
    if (s >= p->nstrs)
        return "";
    e = &p->strs[s];
    if (e->s)
        return e->s;
    if (*cap < (size_t)e->len + 1) {
        *cap = (size_t)e->len + 1;
        free(*buf);
        *buf = ph_xmalloc(*cap);
    }
    return join_parts(p, e, *buf);
}

/* Two compound strings, part by part: equal handles are equal texts, so
 * only the first parts that differ are read.  Where one of them is the
 * other's start, the texts differ at the byte after it: the separator, or
 * the end of the string (no part holds a NUL). */
static int cmp_compounds(const ph_profile *p, const ph_strent *x,
                         const ph_strent *y)
{
    uint32_t n = x->nparts < y->nparts ? x->nparts : y->nparts;
    for (uint32_t k = 0; k < n; k++) {
        if (x->parts[k] == y->parts[k])
            continue;
        const ph_strent *a = &p->strs[x->parts[k]], *b = &p->strs[y->parts[k]];
        uint32_t m = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->s, b->s, m);
        if (c)
            return c;
        unsigned char ca = a->len > m ? (unsigned char)a->s[m]
                           : k + 1 < x->nparts ? PH_STR_JOIN : 0;
        unsigned char cb = b->len > m ? (unsigned char)b->s[m]
                           : k + 1 < y->nparts ? PH_STR_JOIN : 0;
        return (ca > cb) - (ca < cb);
    }
    /* one's parts begin the other's: the shorter text ends first */
    return (x->nparts > y->nparts) - (x->nparts < y->nparts);
}

int ph_str_cmp(const ph_profile *p, ph_str a, ph_str b)
{
    static const ph_strent none = { "", NULL, 0, 0 };
    pieces x = { p, a < p->nstrs ? &p->strs[a] : &none, 0 };
    pieces y = { p, b < p->nstrs ? &p->strs[b] : &none, 0 };
    const char *sx = "", *sy = "";
    size_t nx = 0, ny = 0;
    if (a == b)
        return 0;
    if (x.e->s && y.e->s)
        return strcmp(x.e->s, y.e->s);
    if (x.e->nparts && y.e->nparts)
        return cmp_compounds(p, x.e, y.e);
    for (;;) {
        while (!nx && next_piece(&x, &sx, &nx))
            ;
        while (!ny && next_piece(&y, &sy, &ny))
            ;
        /* strcmp's answer: a compound has no NUL, so text after a NUL in
         * the other is past where strcmp stops */
        if (!nx || !ny)
            return nx ? (*sx ? 1 : 0) : ny ? (*sy ? -1 : 0) : 0;
        size_t m = nx < ny ? nx : ny;
        int c = memcmp(sx, sy, m);
        if (c)
            return c;
        sx += m;
        nx -= m;
        sy += m;
        ny -= m;
    }
}

size_t ph_str_len(const ph_profile *p, ph_str s)
{
    if (s >= p->nstrs)
        return 0;
    return p->strs[s].len;
}

uint32_t ph_str_count(const ph_profile *p)
{
    return (uint32_t)p->nstrs;
}
