/* profile.c -- the profile handle: creation and the one free, the arena
 * entry point, approximation and format notes, metadata and parts.
 */
#include "config.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir_priv.h"

/* A different hash seed per profile (jq): collisions crafted against one
 * seed do not carry over.  Handles do not depend on the seed. */
static uint64_t make_seed(const ph_profile *p)
{
    static uint64_t counter;
    uint64_t s = (uint64_t)(uintptr_t)p ^ ((uint64_t)time(NULL) << 20);
    s = ph_hash_mix(s, __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
    return s;
}

ph_profile *ph_profile_new(void)
{
    ph_profile *p = ph_xcalloc(1, sizeof *p);
    ph_arena_init(&p->arena);
    ph_arena_init(&p->row_arena);
    ph_arena_init(&p->rec_arena);
    p->seed = make_seed(p);
    ph_strtab_init(p);
    ph_htab_init(&p->objmap, 16);
    ph_htab_init(&p->filemap, 64);
    ph_htab_init(&p->funcmap, 256);
    return p;
}

static void free_caches(ph_profile *p);

void ph_profile_free(ph_profile *p)
{
    if (!p)
        return;
    free_caches(p);
    ph_agg_free(p);
    ph_credits_free(p);
    ph_tree_free(p);
    ph_calls_free(p);
    ph_rows_free(p);
    ph_symbols_free(p);
    ph_events_free(p);
    ph_vec_free(&p->parts);
    ph_vec_free(&p->meta);
    ph_strtab_free(p);
    ph_arena_free(&p->arena);
    ph_arena_free(&p->row_arena);
    ph_arena_free(&p->rec_arena);
    free(p);
}

void ph_profile_trim(ph_profile *p)
{
    ph_arena_trim(&p->arena);
    ph_arena_trim(&p->row_arena);
    ph_arena_trim(&p->rec_arena);
}

void *ph_profile_alloc(ph_profile *p, size_t n)
{
    return ph_arena_alloc(&p->arena, n, alignof(max_align_t));
}

/* Copy of a C string in the arena. */
static const char *dup_string(ph_profile *p, const char *s)
{
    size_t n = strlen(s);
    char *c = ph_arena_alloc_raw(&p->arena, n + 1, 1);
    memcpy(c, s, n + 1);
    return c;
}

void ph_profile_set_approx(ph_profile *p, const char *reason)
{
    if (!p->approx)
        p->approx = dup_string(p, reason ? reason : "approximated");
}

const char *ph_profile_approx(const ph_profile *p)
{
    return p->approx;
}

void ph_profile_set_format(ph_profile *p, const char *name)
{
    p->format = name ? dup_string(p, name) : NULL;
}

const char *ph_profile_format(const ph_profile *p)
{
    return p->format;
}

/* ------------------------------------------------------------------ */
/* Caches of derived data                                             */

struct ph_cache_ent {
    const void *key;
    void *data;
    ph_cache_free_fn free_fn;
    uint64_t gen;
};

static void drop_cache(struct ph_cache_ent *e)
{
    if (e->data && e->free_fn)
        e->free_fn(e->data);
    e->data = NULL;
}

static void free_caches(ph_profile *p)
{
    for (size_t i = 0; i < p->ncaches; i++)
        drop_cache(&p->caches[i]);
    free(p->caches);
    p->caches = NULL;
    p->ncaches = 0;
}

/* The cache table is not the profile's data: it changes through a const
 * handle (ir.h). */
static struct ph_cache_ent *cache_slot(const ph_profile *cp, const void *key,
                                       int make)
{
    ph_profile *p = (ph_profile *)cp;
    for (size_t i = 0; i < p->ncaches; i++)
        if (p->caches[i].key == key)
            return &p->caches[i];
    if (!make)
        return NULL;
    p->caches = ph_xrealloc(p->caches, (p->ncaches + 1) * sizeof *p->caches);
    struct ph_cache_ent *e = &p->caches[p->ncaches++];
    memset(e, 0, sizeof *e);
    e->key = key;
    return e;
}

void *ph_profile_cache(const ph_profile *p, const void *key)
{
    struct ph_cache_ent *e = cache_slot(p, key, 0);
    if (!e)
        return NULL;
    if (e->gen != p->generation)
        drop_cache(e);
    return e->data;
}

void ph_profile_cache_put(const ph_profile *p, const void *key, void *data,
                          ph_cache_free_fn free_fn)
{
    struct ph_cache_ent *e = cache_slot(p, key, 1);
    drop_cache(e);
    e->data = data;
    e->free_fn = free_fn;
    e->gen = p->generation;
}

/* ------------------------------------------------------------------ */
/* Default event                                                      */

void ph_profile_set_default_event(ph_profile *p, const ph_event *ev)
{
    p->default_event = ev;
}

ph_event *ph_default_event(const ph_profile *p)
{
    size_t n = ph_event_nreal(p);
    if (p->default_event)
        return (ph_event *)p->default_event;
    for (size_t i = 0; i < n; i++)
        if (!(ph_event_real(p, i)->flags & PH_EV_NONADDITIVE))
            return ph_event_real(p, i);
    return ph_event_count(p) ? ph_event_at(p, 0) : NULL;
}

/* ------------------------------------------------------------------ */
/* Metadata                                                            */

void ph_meta_add(ph_profile *p, const char *key, const char *value)
{
    ph_vec_push(&p->meta, (void *)ph_str_get(p, ph_str_intern0(p, key)));
    ph_vec_push(&p->meta,
                (void *)ph_str_get(p, ph_str_intern0(p, value ? value : "")));
}

const char *ph_meta_get(const ph_profile *p, const char *key)
{
    size_t i;
    for (i = 0; i + 1 < p->meta.n; i += 2)
        if (strcmp(p->meta.v[i], key) == 0)
            return p->meta.v[i + 1];
    return NULL;
}

size_t ph_meta_count(const ph_profile *p)
{
    return p->meta.n / 2;
}

void ph_meta_at(const ph_profile *p, size_t i, const char **key,
                const char **value)
{
    if (i >= p->meta.n / 2) {
        if (key)
            *key = NULL;
        if (value)
            *value = NULL;
        return;
    }
    if (key)
        *key = p->meta.v[2 * i];
    if (value)
        *value = p->meta.v[2 * i + 1];
}

/* ------------------------------------------------------------------ */
/* Parts                                                               */

ph_part *ph_part_add(ph_profile *p, ph_part_kind kind)
{
    ph_part *part = ph_profile_alloc(p, sizeof *part);
    part->index = (uint32_t)p->parts.n;
    part->kind = kind;
    part->number = -1;
    part->pid = -1;
    part->tid = -1;
    ph_vec_push(&p->parts, part);
    ph_profile_invalidate(p);
    return part;
}

size_t ph_part_count(const ph_profile *p)
{
    return p->parts.n;
}

ph_part *ph_part_at(const ph_profile *p, size_t i)
{
    return i < p->parts.n ? p->parts.v[i] : NULL;
}

ph_part *ph_profile_default_part(ph_profile *p)
{
    if (p->parts.n == 0)
        return ph_part_add(p, PH_PART_WHOLE);
    return p->parts.v[0];
}

/* Copy of v (n values) padded with zeros to width w (w >= n). */
static int64_t *copy_vector(ph_profile *p, const int64_t *v, size_t n,
                            size_t w)
{
    int64_t *c = ph_arena_alloc(&p->arena, (w ? w : 1) * sizeof *c,
                                alignof(int64_t));
    if (n)
        memcpy(c, v, n * sizeof *c);
    return c;
}

/* Summary and totals share one width: widen the other one when needed. */
static void set_part_vector(ph_profile *p, ph_part *part, int64_t **slot,
                            int64_t **other, const int64_t *v, size_t n)
{
    size_t w = n > part->file_width ? n : part->file_width;
    if (w > UINT32_MAX)
        w = n = UINT32_MAX;
    *slot = copy_vector(p, v, n, w);
    if (*other && w > part->file_width)
        *other = copy_vector(p, *other, part->file_width, w);
    part->file_width = (uint32_t)w;
}

void ph_part_set_summary(ph_profile *p, ph_part *part, const int64_t *v,
                         size_t n)
{
    set_part_vector(p, part, &part->file_summary, &part->file_totals, v, n);
}

void ph_part_set_totals(ph_profile *p, ph_part *part, const int64_t *v,
                        size_t n)
{
    set_part_vector(p, part, &part->file_totals, &part->file_summary, v, n);
}
