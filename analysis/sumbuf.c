/* sumbuf.c -- records with fixed-width integer keys and value vectors,
 * sorted by key with equal keys summed: how merge compacts rows, calls,
 * jumps and samples that several inputs gave for one place.  Keys hold ids,
 * never pointers, so the order (and the output) is the same on every run.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"

void ph_sumbuf_init(ph_sumbuf *b, size_t nkey, size_t width)
{
    memset(b, 0, sizeof *b);
    b->nkey = nkey;
    b->width = width;
}

void ph_sumbuf_free(ph_sumbuf *b)
{
    free(b->keys);
    free(b->vals);
    free(b->order);
    memset(b, 0, sizeof *b);
}

int64_t *ph_sumbuf_push(ph_sumbuf *b, const uint64_t *key)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->keys = ph_xrealloc(b->keys, b->cap * b->nkey * sizeof *b->keys);
        b->vals = ph_xrealloc(b->vals, b->cap * b->width * sizeof *b->vals);
    }
    memcpy(b->keys + b->n * b->nkey, key, b->nkey * sizeof *key);
    int64_t *v = b->vals + b->n * b->width;
    memset(v, 0, b->width * sizeof *v);
    b->n++;
    return v;
}

/* Whether record x's key comes before record y's; of equal keys, the
 * one that came first. */
static inline int key_before(const ph_sumbuf *s, size_t x, size_t y)
{
    const uint64_t *a = s->keys + x * s->nkey, *b = s->keys + y * s->nkey;
    for (size_t k = 0; k < s->nkey; k++)
        if (a[k] != b[k])
            return a[k] < b[k];
    return x < y;
}

/* Runs this long are sorted by insertion before they are merged. */
#define SORT_RUN 16

/* b->order (the records' indices) in key order: runs sorted by insertion,
 * then merged in pairs.  glibc's qsort_r called its compare through a
 * pointer at every step: a fifth of merging many files went there. */
static void sort_order(ph_sumbuf *b)
{
    size_t n = b->n, *src = b->order, *dst, *tmp;
    for (size_t lo = 0; lo < n; lo += SORT_RUN) {
        size_t hi = lo + SORT_RUN < n ? lo + SORT_RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            size_t x = src[i], j = i;
            for (; j > lo && key_before(b, x, src[j - 1]); j--)
                src[j] = src[j - 1];
            src[j] = x;
        }
    }
    if (n <= SORT_RUN)
        return;
    dst = tmp = ph_xmalloc(n * sizeof *tmp);
    for (size_t w = SORT_RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n;
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = key_before(b, src[j], src[i]) ? src[j++]
                                                         : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        size_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != b->order)
        memcpy(b->order, src, n * sizeof *src);
    free(tmp);
}

/* Record indices by the input index of their first key (all distinct). */
static int cmp_first(const void *a, const void *b, void *ctx)
{
    const size_t *first = ctx;
    size_t x = first[*(const size_t *)a], y = first[*(const size_t *)b];
    return x < y ? -1 : x > y;
}

/* The n folded records of keys and vals written back to b in the order
 * their keys first came (first[i]: record i's first input index). */
static void to_first_seen(ph_sumbuf *b, const uint64_t *keys,
                          const int64_t *vals, const size_t *first, size_t n)
{
    size_t *by = ph_xmalloc((n + 1) * sizeof *by);
    for (size_t i = 0; i < n; i++)
        by[i] = i;
    qsort_r(by, n, sizeof *by, cmp_first, (void *)first);
    for (size_t i = 0; i < n; i++) {
        size_t j = by[i];
        memcpy(b->keys + i * b->nkey, keys + j * b->nkey,
               b->nkey * sizeof *keys);
        memcpy(b->vals + i * b->width, vals + j * b->width,
               b->width * sizeof *vals);
    }
    free(by);
}

size_t ph_sumbuf_fold(ph_sumbuf *b)
{
    b->order = ph_xrealloc(b->order, (b->n + 1) * sizeof *b->order);
    for (size_t i = 0; i < b->n; i++)
        b->order[i] = i;
    sort_order(b);
    /* Write the folded records in place, in key order, through a copy. */
    uint64_t *keys = ph_xmalloc((b->n * b->nkey + 1) * sizeof *keys);
    int64_t *vals = ph_xmalloc((b->n * b->width + 1) * sizeof *vals);
    size_t out = 0;
    for (size_t i = 0; i < b->n; i++) {
        const uint64_t *k = b->keys + b->order[i] * b->nkey;
        const int64_t *v = b->vals + b->order[i] * b->width;
        int64_t *acc;
        if (out && memcmp(keys + (out - 1) * b->nkey, k,
                          b->nkey * sizeof *k) == 0) {
            acc = vals + (out - 1) * b->width;
        } else {
            memcpy(keys + out * b->nkey, k, b->nkey * sizeof *k);
            acc = vals + out * b->width;
            memset(acc, 0, b->width * sizeof *acc);
            /* the first of equal keys, which keep their order */
            b->order[out] = b->order[i];
            out++;
        }
        for (size_t w = 0; w < b->width; w++)
            acc[w] = ph_cost_add(acc[w], v[w]);
    }
    if (b->first_seen) {
        to_first_seen(b, keys, vals, b->order, out);
        free(keys);
        free(vals);
    } else {
        free(b->keys);
        free(b->vals);
        b->keys = keys;
        b->vals = vals;
    }
    b->n = out;
    b->cap = b->n;
    return out;
}

void ph_sumbuf_reset(ph_sumbuf *b, size_t nkey, size_t width)
{
    if (nkey != b->nkey || width != b->width) {
        int first_seen = b->first_seen;
        ph_sumbuf_free(b);
        ph_sumbuf_init(b, nkey, width);
        b->first_seen = first_seen;
    }
    b->n = 0;
}
