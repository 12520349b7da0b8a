/* profile_diff.c -- what changed between two profiles: rows matched by
 * function identity (or file, object, line, call path) across any two
 * formats, with the events both sides have, derived events evaluated on
 * each side's sums. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"
#include "ir/hash.h"
#include "ir/jobs.h"

/* One side's contribution before matching: its names as handles in the
 * diff's string pool (d->strings), where each distinct name is kept once
 * for both sides, and the parts of its match key. */
typedef struct item {
    ph_str name, file, object;
    ph_str key[3];          /* name [, file [, object key]] by the rule */
    const int64_t *self;    /* a table entry's values, or NULL: its own
                             * in the side's vals */
} item;

typedef struct side {
    ph_profile *p;
    ph_profile *pool;       /* the diff's strings */
    item *items;
    int64_t *vals;          /* w values of each item of its own */
    size_t n, cap;
    size_t w;
    const char *program;    /* main program's object path, or NULL */
    ph_table_opts topts;    /* by file or object: its table */
    ph_table *table;
    uint32_t *funcs;        /* by function: the indexes of those listed */
    size_t nfuncs;
} side;

/* Room for n items in all, with values of their own or not. */
static void reserve_items(side *s, size_t n, int own_values)
{
    if (n <= s->cap)
        return;
    s->cap = n;
    s->items = ph_xrealloc(s->items, s->cap * sizeof *s->items);
    if (own_values)
        s->vals = ph_xrealloc(s->vals,
                              (s->cap * s->w + 1) * sizeof *s->vals);
}

/* A new item with values of its own, zeroed, at *v until the next
 * add_item. */
static item *add_item(side *s, int64_t **v)
{
    if (s->n == s->cap)
        reserve_items(s, s->cap ? s->cap * 2 : 256, 1);
    ph_map_ahead(s->items, sizeof *s->items, s->n, s->cap);
    ph_map_ahead(s->vals, s->w * sizeof *s->vals, s->n, s->cap);
    item *it = &s->items[s->n];
    memset(it, 0, sizeof *it);
    *v = s->vals + s->n * s->w;
    memset(*v, 0, s->w * sizeof **v);
    s->n++;
    return it;
}

/* A new item whose values are a table entry's (the table lives as long
 * as the side). */
static item *add_entry_item(side *s, const int64_t *self)
{
    ph_map_ahead(s->items, sizeof *s->items, s->n, s->cap);
    item *it = &s->items[s->n++];   /* reserved for every entry */
    memset(it, 0, sizeof *it);
    it->self = self;
    return it;
}

static const int64_t *item_values(const side *s, size_t i)
{
    const item *it = &s->items[i];
    return it->self ? it->self : s->vals + i * s->w;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = ph_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

/* The path of a profile's main program (ph_main_object), or NULL. */
static const char *main_program(const ph_profile *p)
{
    const ph_object *ob = ph_main_object(p);
    return ob ? ph_str_get(p, ob->name) : NULL;
}

/* The object part of a match key and of the row (by the rule in o). */
static const char *object_key(const side *s, const ph_diff_opts *o,
                              const char *object)
{
    if (o->match == PH_MATCH_NAME_FILE_OBJECT)
        return object;
    if (s->program && strcmp(object, s->program) == 0)
        return "\x1e<program>";
    return ph_base_name(object);
}

/* The object a row shows: its whole path when matched by it, else its
 * base name. */
static const char *shown_object(const ph_diff_opts *o, const char *path)
{
    return o->match == PH_MATCH_NAME_FILE_OBJECT ? path : ph_base_name(path);
}

/* it's match key from its names (by the rule in o). */
static void set_key(side *s, item *it, const ph_diff_opts *o,
                    const char *okey)
{
    it->key[0] = it->name;
    switch (o->by == PH_BY_FUNCTION ? o->match : PH_MATCH_NAME) {
    case PH_MATCH_NAME:
        break;
    case PH_MATCH_NAME_FILE:
        it->key[1] = it->file;
        break;
    case PH_MATCH_PROGRAM:
    case PH_MATCH_NAME_FILE_OBJECT:
        it->key[1] = it->file;
        it->key[2] = ph_str_intern0(s->pool, okey);
        break;
    }
}

static void set_names(side *s, item *it, const ph_diff_opts *o,
                      const char *name, const char *file, const char *object,
                      const char *okey)
{
    char b1[4096], b2[4096];
    if (o->by == PH_BY_FILE)  /* the name is a file's */
        name = ph_rename_apply(o->rename_file, o->nrename_file, name, b1,
                               sizeof b1);
    else
        name = ph_rename_apply(o->rename_fn, o->nrename_fn, name, b1,
                               sizeof b1);
    file = ph_rename_apply(o->rename_file, o->nrename_file, file, b2,
                           sizeof b2);
    it->name = ph_str_intern0(s->pool, name);
    it->file = ph_str_intern0(s->pool, file);
    it->object = ph_str_intern0(s->pool, object);
    set_key(s, it, o, okey);
}

/* The functions of s that are rows, as a table of functions lists them,
 * with their self costs summed on the way (run for both sides at once:
 * the profiles are distinct, the pool is not touched). */
static void list_functions(void *arg)
{
    side *s = arg;
    const ph_profile *p = s->p;
    size_t nf = ph_func_count(p);
    s->funcs = ph_xmalloc((nf + 1) * sizeof *s->funcs);
    for (size_t i = 0; i < nf; i++) {
        const ph_func *f = ph_func_at(p, i);
        if (ph_table_lists_func(p, f, PH_ALL_PARTS,
                                ph_func_self(p, f, PH_ALL_PARTS), NULL,
                                ph_event_nreal(p)))
            s->funcs[s->nfuncs++] = (uint32_t)i;
    }
}

/* Builds s's table of files or objects (both sides at once, as above). */
static void build_table(void *arg)
{
    side *s = arg;
    s->table = ph_table_build(s->p, &s->topts);
}

/* The table's grouping of a diff by file or object; 0 for the others. */
static int table_group(const ph_diff_opts *o, ph_group *g)
{
    switch (o->by) {
    case PH_BY_FILE:
        *g = PH_GROUP_FILE;
        return 1;
    case PH_BY_OBJECT:
        *g = PH_GROUP_OBJECT;
        return 1;
    default:
        return 0;
    }
}

static void collect_functions(side *s, const ph_diff_opts *o)
{
    const ph_profile *p = s->p;
    char *text = NULL;   /* a name's, not kept by the profile: the pool
                          * keeps what the diff needs */
    size_t cap = 0;
    /* Without renames a function's names go to the pool as handles: a
     * compound one by its parts, its text never made. */
    ph_str_map *names = !o->nrename_fn && !o->nrename_file
                      ? ph_str_map_new(s->pool, p) : NULL;
    reserve_items(s, s->n + s->nfuncs, 0);
    for (size_t i = 0; i < s->nfuncs; i++) {
        const ph_func *f = ph_func_at(p, s->funcs[i]);
        const char *path = f->object ? ph_str_get(p, f->object->name) : "";
        const char *object = shown_object(o, path);
        item *it = add_entry_item(s, ph_func_self(p, f, PH_ALL_PARTS));
        if (names) {
            it->name = ph_str_map_get(names, f->name);
            it->file = f->file ? ph_str_map_get(names, f->file->name) : 0;
            it->object = ph_str_intern0(s->pool, object);
            set_key(s, it, o, object_key(s, o, path));
        } else {
            set_names(s, it, o, ph_str_text(p, f->name, &text, &cap),
                      f->file ? ph_str_get(p, f->file->name) : "", object,
                      object_key(s, o, path));
        }
    }
    free(text);
    ph_str_map_free(names);
}

/* Files or objects; objects are compared by base name: two builds live
 * in two folders. */
static void collect_table(side *s, const ph_diff_opts *o)
{
    ph_table *t = s->table;
    char *text = NULL;
    size_t cap = 0;
    reserve_items(s, s->n + t->count, 0);
    for (size_t i = 0; i < t->count; i++) {
        const ph_entry *e = &t->entries[i];
        const char *name = ph_entry_text(t, e, &text, &cap);
        item *it = add_entry_item(s, e->self);
        if (o->by == PH_BY_OBJECT)
            set_names(s, it, o, ph_base_name(name), "", "", "");
        else
            set_names(s, it, o, name, e->file, shown_object(o, e->object),
                      object_key(s, o, e->object));
    }
    free(text);
}

static void collect_lines(side *s, const ph_diff_opts *o)
{
    for (size_t i = 0; i < ph_func_count(s->p); i++) {
        const ph_func *f = ph_func_at(s->p, i);
        ph_row_iter it;
        ph_row r;
        ph_row_iter_init(&it, s->p, f, NULL);
        while (ph_row_next(&it, &r)) {
            char name[64];
            int64_t *v;
            snprintf(name, sizeof name, "%u", r.line);
            item *x = add_item(s, &v);
            set_names(s, x, o, name,
                      r.file ? ph_str_get(s->p, r.file->name) : "", "", "");
            x->key[1] = x->file;    /* a line of one file */
            memcpy(v, r.cost, s->w * sizeof *v);
        }
    }
}

static void collect_paths(side *s, const ph_diff_opts *o)
{
    ph_profile *p = s->p;
    size_t n = ph_node_count(p);
    char **path = ph_xcalloc(n + 1, sizeof *path);
    for (size_t i = 0; i < n; i++) {
        const ph_node *nd = ph_node_at(p, i);
        const ph_func *f = ph_node_func(p, nd);
        const ph_sample *first = ph_node_samples(p, nd);
        char b[4096];
        const char *fn = f ? ph_str_get(p, f->name) : "<root>";
        fn = ph_rename_apply(o->rename_fn, o->nrename_fn, fn, b, sizeof b);
        const char *up = nd->parent ? path[nd->parent - 1] : NULL;
        size_t len = (up ? strlen(up) + 1 : 0) + strlen(fn) + 1;
        path[i] = ph_xmalloc(len);
        snprintf(path[i], len, "%s%s%s", up ? up : "", up ? ";" : "", fn);
        if (!first)
            continue;
        int64_t *v;
        item *x = add_item(s, &v);
        x->name = x->key[0] = ph_str_intern0(s->pool, path[i]);
        for (const ph_sample *sm = first; sm; sm = sm->next)
            for (size_t k = 0; k < s->w; k++)
                if (!(ph_event_real(p, k)->flags & PH_EV_NONADDITIVE))
                    v[k] += ph_sample_value(sm, k);
    }
    for (size_t i = 0; i < n; i++)
        free(path[i]);
    free(path);
}

static void collect(side *s, const ph_diff_opts *o)
{
    s->w = ph_event_nreal(s->p);
    if (o->by == PH_BY_FUNCTION)
        collect_functions(s, o);
    else if (s->table)
        collect_table(s, o);
    else if (o->by == PH_BY_LINE)
        collect_lines(s, o);
    else
        collect_paths(s, o);
}

/* Open-addressing map from a match key (three string handles of the
 * pool) to a row: a slot holds its row's index + 1 (0: empty), a row's
 * key is its first item's (keys). */
typedef struct keymap {
    uint32_t *slots;
    const ph_str **keys;    /* a row's key */
    size_t cap;
} keymap;

/* Slot of key in m: 0 when the key is new. */
static uint32_t *keymap_slot(keymap *m, const ph_str key[3])
{
    uint64_t h = ph_hash64(ph_hash64(ph_hash64(key[0]) ^ key[1]) ^ key[2]);
    size_t i = h & (m->cap - 1);
    while (m->slots[i] &&
           memcmp(m->keys[m->slots[i] - 1], key, 3 * sizeof *key) != 0)
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

/* The row of each item of both sides (row_of[s][i]): rows in the order
 * their keys first appear, base first. */
static void match_rows(ph_diff *d, side *const sides[2], uint32_t *row_of[2])
{
    size_t items = sides[0]->n + sides[1]->n, cap = 0;
    if (items >= UINT32_MAX)
        ph_oom();
    keymap m = {.cap = 16};
    while (m.cap < 2 * items)
        m.cap *= 2;
    m.slots = ph_xcalloc_written(m.cap, sizeof *m.slots);
    m.keys = ph_xmalloc((items + 1) * sizeof *m.keys);
    for (int s = 0; s < 2; s++) {
        /* written whole */
        row_of[s] = ph_xmalloc_written((sides[s]->n + 1) *
                                       sizeof *row_of[s]);
        for (size_t i = 0; i < sides[s]->n; i++) {
            const item *it = &sides[s]->items[i];
            uint32_t *slot = keymap_slot(&m, it->key);
            if (!*slot) {
                if (d->count == cap) {
                    cap = cap ? cap * 2 : 256;
                    d->rows = ph_xrealloc(d->rows, cap * sizeof *d->rows);
                }
                ph_map_ahead(m.keys, sizeof *m.keys, d->count, items + 1);
                ph_map_ahead(d->rows, sizeof *d->rows, d->count, cap);
                m.keys[d->count] = it->key;
                ph_diff_row *r = &d->rows[d->count++];
                memset(r, 0, sizeof *r);
                r->name = it->name;
                r->file = it->file;
                r->object = it->object;
                *slot = (uint32_t)d->count;
            }
            row_of[s][i] = *slot - 1;
        }
    }
    free(m.slots);
    free(m.keys);
}

/* Side s's values of each row: its one item's there, borrowed (the side's
 * values live as long as the diff), the sum of its items in d->sums[s],
 * or zeros. */
static void side_values(ph_diff *d, const side *sv, int s,
                        const uint32_t *row_of)
{
    size_t w = sv->w, several = 0;
    unsigned char *items = ph_xcalloc(d->count + 1, 1);  /* 2: several */
    for (size_t i = 0; i < sv->n; i++) {
        unsigned char *k = &items[row_of[i]];
        if (*k < 2 && ++*k == 2)
            several++;
    }
    if (several && w > SIZE_MAX / sizeof(int64_t) / several)
        ph_oom();
    int64_t *sum = d->sums[s] = ph_xcalloc(several * w + 1, sizeof *sum);
    for (size_t r = 0; r < d->count; r++) {
        const int64_t **v = s ? &d->rows[r].nv : &d->rows[r].bv;
        *v = d->zeros;
        if (items[r] == 2) {
            *v = sum;
            sum += w;
        }
        if (items[r])
            d->rows[r].status |= s ? PH_DIFF_IN_NEW : PH_DIFF_IN_BASE;
    }
    for (size_t i = 0; i < sv->n; i++) {
        size_t r = row_of[i];
        const int64_t **v = s ? &d->rows[r].nv : &d->rows[r].bv;
        if (items[r] == 1)
            *v = item_values(sv, i);
        else
            ph_vec_add((int64_t *)*v, item_values(sv, i), w);
    }
    free(items);
}

/* What the rows do not borrow from s: its table and values go to the
 * diff (d->tables, d->item_values). */
static void free_side(ph_diff *d, side *s, int which)
{
    free(s->items);
    free(s->funcs);
    d->tables[which] = s->table;
    d->item_values[which] = s->vals;
}

static int builtin_wanted(const ph_diff *d, const char *name)
{
    for (size_t i = 0; i < d->opts.nbuiltins; i++)
        if (strcmp(d->opts.builtins[i], name) == 0)
            return 1;
    return 0;
}

/* Events both sides can show: real or derived on each side, by name; a
 * built-in one only when asked for. */
static void common_events(ph_diff *d)
{
    size_t n = ph_event_count(d->base);
    d->bev = ph_xcalloc(n + 1, sizeof *d->bev);
    d->nev = ph_xcalloc(n + 1, sizeof *d->nev);
    for (size_t i = 0; i < n; i++) {
        const ph_event *be = ph_event_at(d->base, i);
        const ph_event *ne =
            ph_event_find(d->newp, ph_str_get(d->base, be->name));
        if (!ne || (be->flags & PH_EV_NONADDITIVE))
            continue;
        if ((be->flags & PH_EV_BUILTIN) &&
            !builtin_wanted(d, ph_str_get(d->base, be->name)))
            continue;
        d->bev[d->nevents] = be;
        d->nev[d->nevents] = ne;
        d->nevents++;
    }
}

ph_diff *ph_diff_build(ph_profile *base, ph_profile *newp,
                       const ph_diff_opts *o)
{
    ph_diff *d = ph_xcalloc(1, sizeof *d);
    d->base = base;
    d->newp = newp;
    d->opts = *o;
    d->bw = ph_event_nreal(base);
    d->nw = ph_event_nreal(newp);
    d->strings = ph_profile_new();
    common_events(d);
    side b = {.p = base, .pool = d->strings}, n = {.p = newp,
                                                   .pool = d->strings};
    if (o->by == PH_BY_FUNCTION && o->match == PH_MATCH_PROGRAM) {
        b.program = main_program(base);
        n.program = main_program(newp);
        d->base_program = b.program ? xstrdup(b.program) : NULL;
        d->new_program = n.program ? xstrdup(n.program) : NULL;
    }
    ph_group g;
    if (o->by == PH_BY_FUNCTION) {
        ph_run_pair(list_functions, &b, &n);
    } else if (table_group(o, &g)) {   /* the two tables side by side */
        b.topts = n.topts = (ph_table_opts){.group = g,
                                            .part = PH_ALL_PARTS};
        ph_run_pair(build_table, &b, &n);
    }
    collect(&b, o);
    collect(&n, o);

    side *sides[2] = {&b, &n};
    uint32_t *row_of[2];
    match_rows(d, sides, row_of);
    d->zeros = ph_xcalloc((d->bw > d->nw ? d->bw : d->nw) + 1,
                          sizeof *d->zeros);
    for (int s = 0; s < 2; s++) {
        side_values(d, sides[s], s, row_of[s]);
        free(row_of[s]);
        free_side(d, sides[s], s);
    }

    /* Normalisation: NEW scaled to BASE's total, per event. */
    d->scale = ph_xmalloc((d->nevents + 1) * sizeof *d->scale);
    const int64_t *bt = ph_totals(base, PH_ALL_PARTS);
    const int64_t *nt = ph_totals(newp, PH_ALL_PARTS);
    for (size_t e = 0; e < d->nevents; e++) {
        double btot = ph_event_eval(base, d->bev[e], bt);
        double ntot = ph_event_eval(newp, d->nev[e], nt);
        d->scale[e] = (o->normalize && ntot != 0) ? btot / ntot : 1.0;
    }
    return d;
}

double ph_diff_base_value(const ph_diff *d, const ph_diff_row *r, size_t e)
{
    return ph_event_eval(d->base, d->bev[e], r->bv);
}

double ph_diff_new_value(const ph_diff *d, const ph_diff_row *r, size_t e)
{
    return ph_event_eval(d->newp, d->nev[e], r->nv) * d->scale[e];
}

double ph_diff_base_total(const ph_diff *d, size_t e)
{
    return ph_event_eval(d->base, d->bev[e], ph_totals(d->base, PH_ALL_PARTS));
}

double ph_diff_new_total(const ph_diff *d, size_t e)
{
    return ph_event_eval(d->newp, d->nev[e], ph_totals(d->newp, PH_ALL_PARTS)) *
           d->scale[e];
}

/* A row and its |delta| of the sort's event, worked out once a row and
 * not in each comparison (an event's value is a formula's). */
typedef struct sort_key {
    double delta;
    const ph_diff_row *row;
} sort_key;

static const ph_diff *sort_ctx;

/* |delta|, name, file, then the order of first appearance: a total order,
 * so that the rows shown do not depend on how they were chosen. */
static int cmp_rows(const void *a, const void *b)
{
    const sort_key *x = a, *y = b;
    if (x->delta != y->delta)
        return x->delta < y->delta ? 1 : -1;
    int c = ph_str_cmp(sort_ctx->strings, x->row->name, y->row->name);
    if (!c)
        c = ph_str_cmp(sort_ctx->strings, x->row->file, y->row->file);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

void ph_diff_sort(ph_diff *d, size_t e, size_t top)
{
    if (e >= d->nevents)
        return;
    sort_key *keys = ph_xmalloc_written((d->count + 1) * sizeof *keys);
    for (size_t i = 0; i < d->count; i++) {
        const ph_diff_row *r = &d->rows[i];
        double delta = ph_diff_new_value(d, r, e) -
                       ph_diff_base_value(d, r, e);
        keys[i] = (sort_key){ delta < 0 ? -delta : delta, r };
    }
    sort_ctx = d;
    ph_qsort_top(keys, d->count, sizeof *keys, top, cmp_rows);
    sort_ctx = NULL;
    ph_diff_row *rows = ph_xmalloc_written((d->count + 1) * sizeof *rows);
    for (size_t i = 0; i < d->count; i++)
        rows[i] = *keys[i].row;
    free(keys);
    free(d->rows);
    d->rows = rows;
}

const char *ph_diff_str(const ph_diff *d, ph_str s)
{
    return ph_str_get(d->strings, s);
}

size_t ph_diff_event_index(const ph_diff *d, const char *name)
{
    for (size_t e = 0; e < d->nevents; e++)
        if (strcmp(ph_str_get(d->base, d->bev[e]->name), name) == 0)
            return e;
    return (size_t)-1;
}

void ph_diff_free(ph_diff *d)
{
    if (!d)
        return;
    for (int s = 0; s < 2; s++) {
        ph_table_free(d->tables[s]);
        free(d->item_values[s]);
        free(d->sums[s]);
    }
    free(d->zeros);
    ph_profile_free(d->strings);
    free(d->rows);
    free(d->bev);
    free(d->nev);
    free(d->scale);
    free(d->base_program);
    free(d->new_program);
    free(d);
}
