/* strtab.c -- interned strings: one handle (uint32) per distinct string of
 * a profile, 0 = none (""), text NUL-terminated in the arena, found through
 * an open-addressing table of handles with a seeded hash.
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
    p->strs[0].s = "";
    p->strs[0].len = 0;
    p->nstrs = 1;
    p->strmask = 511;
    p->strslots = ph_xcalloc(p->strmask + 1, sizeof *p->strslots);
}

void ph_strtab_free(ph_profile *p)
{
    free(p->strs);
    free(p->strslots);
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

static void grow_slots(ph_profile *p)
{
    size_t cap = (p->strmask + 1) * 2, i;
    uint64_t *slots;
    if (cap > SIZE_MAX / 2 / sizeof *slots)
        ph_oom();
    slots = ph_xcalloc(cap, sizeof *slots);
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

/* The slot of s (hash h) in the table: its handle there, or the empty
 * slot where it goes. */
static size_t find_slot(const ph_profile *p, const char *s, size_t len,
                        uint32_t h)
{
    size_t i;
    for (i = h & p->strmask; p->strslots[i]; i = (i + 1) & p->strmask) {
        uint64_t v = p->strslots[i];
        const ph_strent *e;
        if ((uint32_t)(v >> 32) != h)
            continue;
        e = &p->strs[(uint32_t)v];
        if (e->len == len && memcmp(e->s, s, len) == 0)
            break;
    }
    return i;
}

ph_str ph_str_intern(ph_profile *p, const char *s, size_t len)
{
    uint32_t h;
    size_t i;
    char *copy;
    ph_strent *e;
    if (len == 0)
        return 0;
    if (len > UINT32_MAX - 1)
        ph_oom();   /* a 4 GiB name: nothing sensible to do */
    h = (uint32_t)ph_hash_bytes(s, len, p->seed);
    i = find_slot(p, s, len, h);
    if (p->strslots[i])
        return (ph_str)(uint32_t)p->strslots[i];
    if (p->nstrs >= UINT32_MAX)
        ph_oom();
    if (p->nstrs == p->capstrs) {
        p->capstrs *= 2;
        p->strs = ph_xrealloc(p->strs, p->capstrs * sizeof *p->strs);
    }
    copy = ph_arena_alloc_raw(&p->arena, len + 1, 1);
    memcpy(copy, s, len);
    copy[len] = '\0';
    e = &p->strs[p->nstrs];
    e->s = copy;
    e->len = (uint32_t)len;
    p->strslots[i] = slot_of(h, p->nstrs);
    p->nstrs++;
    if (p->nstrs * 2 > p->strmask + 1)
        grow_slots(p);
    return (ph_str)(p->nstrs - 1);
}

ph_str ph_str_lookup(const ph_profile *p, const char *s, size_t len)
{
    if (len == 0)
        return 0;
    size_t i = find_slot(p, s, len, (uint32_t)ph_hash_bytes(s, len, p->seed));
    return (ph_str)(uint32_t)p->strslots[i];
}

ph_str ph_str_intern0(ph_profile *p, const char *s)
{
    return s ? ph_str_intern(p, s, strlen(s)) : 0;
}

const char *ph_str_get(const ph_profile *p, ph_str s)
{
    if (s >= p->nstrs)
        return "";
    return p->strs[s].s;
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
