/* alloc.c -- malloc that never returns NULL (ph_oom on failure), a qsort
 * safe on empty arrays, saturating sums of costs, the growable pointer vector and the open-addressing table used across ir/.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "ir_priv.h"

void ph_oom(void)
{
    static const char msg[] = "profhub: out of memory\n";
    /* write(2), not stdio: we may be out of memory for stdio buffers. */
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    /* An output's temporary file must not outlive the process (STYLE:
     * no partial output); the commit path may be what ran out. */
    ph_output_cleanup();
    exit(1);
}

void *ph_xmalloc(size_t n)
{
    void *q = malloc(n ? n : 1);
    if (!q)
        ph_oom();
    return q;
}

void *ph_xcalloc(size_t n, size_t size)
{
    void *q = calloc(n ? n : 1, size ? size : 1);
    if (!q)
        ph_oom();
    return q;
}

void *ph_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        ph_oom();
    return q;
}

int ph_cost_overflow_flag;

int64_t ph_cost_add(int64_t a, int64_t b)
{
    return ph_add_sat(a, b);
}

int ph_cost_overflowed(void)
{
    return ph_cost_overflow_flag;
}

void ph_qsort(void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}

/* ------------------------------------------------------------------ */
/* Vectors                                                             */

void ph_vec_grow(ph_vec *x)
{
    size_t cap = x->cap ? x->cap * 2 : 16;
    if (cap < x->cap || cap > SIZE_MAX / sizeof *x->v)
        ph_oom();
    x->v = ph_xrealloc(x->v, cap * sizeof *x->v);
    x->cap = cap;
}

void ph_vec_free(ph_vec *x)
{
    free(x->v);
    x->v = NULL;
    x->n = x->cap = 0;
}

void ph_array_reserve(void **arr, size_t *cap, size_t need, size_t elsz)
{
    size_t c = *cap;
    if (need <= c)
        return;
    if (c < 16)
        c = 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            ph_oom();
        c *= 2;
    }
    if (c > SIZE_MAX / elsz)
        ph_oom();
    *arr = ph_xrealloc(*arr, c * elsz);
    memset((char *)*arr + *cap * elsz, 0, (c - *cap) * elsz);
    *cap = c;
}

/* ------------------------------------------------------------------ */
/* Hash table                                                          */

void ph_htab_init(ph_htab *t, size_t cap)
{
    size_t c = 16;
    while (c < cap)
        c *= 2;
    t->h = ph_xmalloc(c * sizeof *t->h);
    t->v = ph_xcalloc(c, sizeof *t->v);
    t->mask = c - 1;
    t->n = 0;
}

void ph_htab_free(ph_htab *t)
{
    free(t->h);
    free(t->v);
    t->h = NULL;
    t->v = NULL;
    t->mask = 0;
    t->n = 0;
}

/* Double the capacity and put every item back by its stored hash. */
static void grow_htab(ph_htab *t)
{
    size_t oldcap = t->mask + 1, i;
    uint64_t *oh = t->h;
    void **ov = t->v;
    if (oldcap > SIZE_MAX / 2 / sizeof *t->h)
        ph_oom();
    ph_htab_init(t, oldcap * 2);
    for (i = 0; i < oldcap; i++) {
        if (ov[i]) {
            size_t j = oh[i] & t->mask;
            while (t->v[j])
                j = (j + 1) & t->mask;
            t->h[j] = oh[i];
            t->v[j] = ov[i];
            t->n++;
        }
    }
    free(oh);
    free(ov);
}

void ph_htab_insert(ph_htab *t, uint64_t h, void *item)
{
    size_t i;
    if (!t->v)
        ph_htab_init(t, 16);
    if ((t->n + 1) * 2 > t->mask + 1)
        grow_htab(t);
    i = h & t->mask;
    while (t->v[i])
        i = (i + 1) & t->mask;
    t->h[i] = h;
    t->v[i] = item;
    t->n++;
}
