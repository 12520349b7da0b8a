/* aggregate.c -- lazy, cached aggregates: totals, per-function self and
 * inclusive costs and call counts, per part selection.  Each cache is
 * filled for every function at once, in O(rows + calls + nodes), the first
 * time one value is asked for, and dropped when the profile changes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"
#include "jobs.h"

/* One selection's caches.  A cache is valid while gen equals the profile's
 * generation; every add function bumps the generation (one increment), so
 * adding data stays cheap and the work happens on the next question. */
struct ph_agg {
    uint64_t gen;
    size_t width, nfunc;
    int have_self, have_incl, have_calls;
    int64_t *totals;        /* width */
    int64_t *self;          /* nfunc x width */
    int64_t *tree_self;     /* nfunc x width: the samples' share of self */
    int64_t *incl;          /* nfunc x width */
    uint64_t *calls, *self_calls;   /* nfunc */
    int64_t *zero;          /* width zeros, for unknown functions */
};

void ph_profile_invalidate(ph_profile *p)
{
    p->generation++;
}

static void clear_agg(ph_agg *a)
{
    free(a->totals);
    free(a->self);
    free(a->tree_self);
    free(a->incl);
    free(a->calls);
    free(a->self_calls);
    free(a->zero);
    memset(a, 0, sizeof *a);
}

void ph_agg_free(ph_profile *p)
{
    size_t i;
    for (i = 0; i < p->nagg; i++) {
        if (p->agg[i]) {
            clear_agg(p->agg[i]);
            free(p->agg[i]);
        }
    }
    free(p->agg);
    p->agg = NULL;
    p->nagg = 0;
    free(p->part_totals);
    p->part_totals = NULL;
}

/* Allocation of n vectors of width w, zeroed (at least one value). */
static int64_t *alloc_vectors(size_t n, size_t w)
{
    if (w && n > SIZE_MAX / sizeof(int64_t) / w)
        ph_oom();
    return ph_xcalloc(n * w, sizeof(int64_t));
}

/* The cache for a selection, reset when stale.  Selection index: 0 = all
 * parts, i + 1 = part i, nparts + 1 = an unknown part (reads zeros). */
static ph_agg *get_agg(ph_profile *p, int part, int *sel)
{
    size_t nparts = p->parts.n, k;
    ph_agg *a;
    if (part == PH_ALL_PARTS)
        k = 0;
    else if (part >= 0 && (size_t)part < nparts)
        k = (size_t)part + 1;
    else
        k = nparts + 1;
    *sel = (k == 0) ? PH_ALL_PARTS : (k <= nparts ? part : -2);
    if (k >= p->nagg) {
        void *arr = p->agg;
        ph_array_reserve(&arr, &p->nagg, k + 1, sizeof *p->agg);
        p->agg = arr;
    }
    if (!p->agg[k])
        p->agg[k] = ph_xcalloc(1, sizeof *p->agg[k]);
    a = p->agg[k];
    if (a->gen != p->generation || a->width != p->reals.n ||
        a->nfunc != p->funcs.n || !a->zero) {
        clear_agg(a);
        a->gen = p->generation;
        a->width = p->reals.n;
        a->nfunc = p->funcs.n;
        a->zero = alloc_vectors(1, a->width);
    }
    return a;
}

static int part_selected(int sel, const ph_part *part)
{
    return sel == PH_ALL_PARTS || (sel >= 0 && part &&
                                   part->index == (uint32_t)sel);
}

static void add_vector(int64_t *acc, const int64_t *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        acc[i] = ph_add_sat(acc[i], v[i]);
}

/* Non-additive events read 0 in every aggregate. */
static void clear_nonadditive(const ph_profile *p, int64_t *v, size_t n,
                              size_t width)
{
    size_t s, i;
    for (s = 0; s < width; s++) {
        const ph_event *ev = p->reals.v[s];
        if (ev->flags & PH_EV_NONADDITIVE)
            for (i = 0; i < n; i++)
                v[i * width + s] = 0;
    }
}

/* The rows' sums of half the functions: runs of ROWS_RUN functions, every
 * other run from run `first`, so that the two halves weigh about the same
 * and share no cache line but at a run's ends. */
#define ROWS_RUN 64

typedef struct rows_half {
    const ph_profile *p;
    ph_agg *a;
    int sel;
    size_t first;
} rows_half;

static void sum_rows_half(void *arg)
{
    const rows_half *h = arg;
    size_t w = h->a->width, nf = h->a->nfunc;
    for (size_t r = h->first * ROWS_RUN; r < nf; r += 2 * ROWS_RUN)
        for (size_t i = r; i < r + ROWS_RUN && i < nf; i++)
            ph_rows_sum(h->p, h->p->funcs.v[i], h->sel, h->a->self + i * w);
}

/* Below this many rows a second thread costs more than it saves. */
#define ROWS_PAIR_MIN 100000

/* Totals and self costs: rows (two halves side by side), then samples.
 * The totals add the functions' sums in function order, so saturated
 * sums come out the same whatever the threads. */
static void fill_self(ph_profile *p, ph_agg *a, int sel)
{
    size_t w = a->width, i;
    a->totals = alloc_vectors(1, w);
    a->self = alloc_vectors(a->nfunc, w);
    a->tree_self = alloc_vectors(a->nfunc, w);
    a->have_self = 1;
    ph_tree_settle(p);
    if (sel == -2)
        return;
    if (p->nrows) {
        rows_half half[2] = { { p, a, sel, 0 }, { p, a, sel, 1 } };
        if (p->nrows >= ROWS_PAIR_MIN) {
            ph_run_pair(sum_rows_half, &half[0], &half[1]);
        } else {
            sum_rows_half(&half[0]);
            sum_rows_half(&half[1]);
        }
        for (i = 0; i < a->nfunc; i++)
            add_vector(a->totals, a->self + i * w, w);
    }
    for (i = 0; i < p->samples.n; i++) {
        const ph_sample *s = p->samples.v[i];
        size_t n = s->width < w ? s->width : w;
        if (!part_selected(sel, s->part))
            continue;
        add_vector(a->totals, s->cost, n);
        const ph_func *fn = s->node ? ph_node_func(p, s->node) : NULL;
        if (fn) {
            size_t f = fn->id - 1;
            add_vector(a->self + f * w, s->cost, n);
            add_vector(a->tree_self + f * w, s->cost, n);
        }
    }
    clear_nonadditive(p, a->totals, 1, w);
    clear_nonadditive(p, a->self, a->nfunc, w);
    clear_nonadditive(p, a->tree_self, a->nfunc, w);
}

static void alloc_calls(ph_agg *a)
{
    a->calls = ph_xcalloc(a->nfunc ? a->nfunc : 1, sizeof *a->calls);
    a->self_calls = ph_xcalloc(a->nfunc ? a->nfunc : 1,
                               sizeof *a->self_calls);
    a->have_calls = 1;
}

static void count_call(ph_agg *a, const ph_call *c, int sel)
{
    if (!part_selected(sel, c->part))
        return;
    if (c->caller == c->callee)
        a->self_calls[c->callee->id - 1] += c->count;
    else
        a->calls[c->callee->id - 1] += c->count;
}

static void fill_calls(ph_profile *p, ph_agg *a, int sel)
{
    alloc_calls(a);
    if (sel == -2)
        return;
    ph_call_iter it;
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it))
        count_call(a, c, sel);
}

/* Whether c carries inclusive cost between two functions of the
 * selection (a call's cost to itself is in the caller already). */
static int counts_incl(const ph_call *c, int sel)
{
    return c->incl && c->caller != c->callee && part_selected(sel, c->part);
}

/* Flat inclusive, KCachegrind's rule: the inclusive costs of the calls
 * into f from other functions when there are any (with known cost), else
 * f's own rows plus the calls f makes to other functions (found per such
 * f, the roots: few, so no second vector per function).  The call counts
 * are taken in the same pass when they are not there yet (a table asks
 * for both). */
static void add_flat_incl(ph_profile *p, ph_agg *a, int sel)
{
    size_t w = a->width, nf = a->nfunc, i, s;
    unsigned char *has_in = ph_xcalloc(nf ? nf : 1, 1);
    int64_t *out = alloc_vectors(1, w);
    int counting = !a->have_calls;
    ph_call_iter it;
    if (counting)
        alloc_calls(a);
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it)) {
        if (counting)
            count_call(a, c, sel);
        if (!counts_incl(c, sel))
            continue;
        has_in[c->callee->id - 1] = 1;
        add_vector(a->incl + (c->callee->id - 1) * w, c->incl,
                   c->width < w ? c->width : w);
    }
    for (i = 0; i < nf; i++) {
        int64_t *incl = a->incl + i * w;
        if (has_in[i])
            continue;
        memset(out, 0, w * sizeof *out);
        for (const ph_call *c = ph_calls_out(&it, p, p->funcs.v[i]); c;
             c = ph_call_next(&it))
            if (counts_incl(c, sel))
                add_vector(out, c->incl, c->width < w ? c->width : w);
        for (s = 0; s < w; s++) {
            /* self minus the samples' share: the rows' self cost */
            int64_t flat = (int64_t)((uint64_t)a->self[i * w + s] -
                                     (uint64_t)a->tree_self[i * w + s]);
            incl[s] = ph_add_sat(flat, out[s]);
        }
    }
    free(out);
    free(has_in);
}

/* Tree inclusive: the cost of every stack through f, each stack once even
 * when f recurses.  A walk over the tree without a stack (parent links)
 * keeps per function the number of its frames on the current path; a
 * node's subtree cost is summed along the path as the walk leaves it (one
 * vector per level, not per node) and added to f when the node is f's
 * outermost frame. */
static void add_tree_incl(ph_profile *p, ph_agg *a, int sel)
{
    size_t w = a->width, nn = p->nnodes, i, depth = 0, cap = 0;
    unsigned char *live, *outer = NULL;
    int64_t *sum = NULL;
    uint32_t *on, id;
    if (nn == 0 || p->samples.n == 0)
        return;
    live = ph_xcalloc(nn + 1, 1);
    for (i = 0; i < p->samples.n; i++) {
        const ph_sample *s = p->samples.v[i];
        if (part_selected(sel, s->part) && s->node)
            live[ph_node_id(p, s->node) - 1] = 1;
    }
    for (i = nn; i-- > 0;) {
        uint32_t up = ph_node_by_id(p, (uint32_t)i + 1)->parent;
        if (live[i] && up)
            live[up - 1] = 1;
    }
    on = ph_xcalloc(a->nfunc ? a->nfunc : 1, sizeof *on);
    for (id = p->root_first; id; id = ph_node_by_id(p, id)->sibling) {
        uint32_t root = id, at = id;
        if (!live[root - 1])
            continue;
        while (at) {
            const ph_node *n = ph_node_by_id(p, at);
            const ph_func *f = ph_node_func(p, n);
            uint32_t c;
            if (depth == cap) {
                cap = cap ? 2 * cap : 64;
                sum = ph_xrealloc(sum, cap * (w + 1) * sizeof *sum);
                outer = ph_xrealloc(outer, cap);
            }
            memset(sum + depth * w, 0, w * sizeof *sum);
            for (const ph_sample *s = ph_node_samples(p, n); s; s = s->next)
                if (part_selected(sel, s->part))
                    add_vector(sum + depth * w, s->cost,
                               s->width < w ? s->width : w);
            outer[depth] = f && on[f->id - 1]++ == 0;
            depth++;
            for (c = n->child; c && !live[c - 1];
                 c = ph_node_by_id(p, c)->sibling)
                ;
            if (c) {
                at = c;
                continue;
            }
            while (at) {
                n = ph_node_by_id(p, at);
                f = ph_node_func(p, n);
                depth--;
                if (f) {
                    on[f->id - 1]--;
                    if (outer[depth])
                        add_vector(a->incl + (f->id - 1) * w,
                                   sum + depth * w, w);
                }
                if (depth)
                    add_vector(sum + (depth - 1) * w, sum + depth * w, w);
                at = at == root ? 0 : n->sibling;
                while (at && !live[at - 1])
                    at = ph_node_by_id(p, at)->sibling;
                if (at)
                    break;
                at = depth ? n->parent : 0;
            }
        }
    }
    free(on);
    free(outer);
    free(sum);
    free(live);
}

static void fill_incl(ph_profile *p, ph_agg *a, int sel)
{
    if (!a->have_self)
        fill_self(p, a, sel);
    a->incl = alloc_vectors(a->nfunc, a->width);
    a->have_incl = 1;
    if (sel == -2)
        return;
    add_flat_incl(p, a, sel);
    add_tree_incl(p, a, sel);
    clear_nonadditive(p, a->incl, a->nfunc, a->width);
}

/* ------------------------------------------------------------------ */
/* Public getters                                                      */

/* The getters take a const profile: the caches they fill are not the
 * profile's data (ir.h, "Caches beside a loaded profile"). */
static ph_profile *cache_side(const ph_profile *p)
{
    return (ph_profile *)p;
}

static int known_func(const ph_profile *p, const ph_func *f)
{
    return f && f->id >= 1 && f->id <= p->funcs.n && p->funcs.v[f->id - 1] == f;
}

/* Totals of every part, in one pass over rows and samples: a report that
 * shows each of many parts costs O(rows + parts), not O(rows x parts). */
static const int64_t *get_part_totals(ph_profile *p, size_t k)
{
    size_t w = p->reals.n, np = p->parts.n, i;
    if (!p->part_totals || p->part_totals_gen != p->generation) {
        int64_t *t;
        free(p->part_totals);
        if (w && np > SIZE_MAX / sizeof *t / w)
            ph_oom();
        t = p->part_totals = ph_xcalloc(np * w, sizeof *t);
        p->part_totals_gen = p->generation;
        ph_tree_settle(p);
        if (p->nrows)
            for (i = 0; i < p->funcs.n; i++)
                ph_rows_sum_parts(p, p->funcs.v[i], t);
        for (i = 0; i < p->samples.n; i++) {
            const ph_sample *s = p->samples.v[i];
            add_vector(t + s->part->index * w, s->cost,
                       s->width < w ? s->width : w);
        }
        clear_nonadditive(p, t, np, w);
    }
    return p->part_totals + k * w;
}

const int64_t *ph_totals(const ph_profile *cp, int part)
{
    ph_profile *p = cache_side(cp);
    int sel;
    ph_agg *a;
    if (part != PH_ALL_PARTS && part >= 0 && (size_t)part < p->parts.n)
        return get_part_totals(p, (size_t)part);
    a = get_agg(p, part, &sel);
    /* One part is the whole: its totals serve unless the per-function
     * sums, which hold the same totals, are there already (info asks for
     * both and needs no per-function sums: one pass over the rows). */
    if (!a->have_self && part == PH_ALL_PARTS && p->parts.n == 1)
        return get_part_totals(p, 0);
    if (!a->have_self)
        fill_self(p, a, sel);
    return a->totals;
}

const int64_t *ph_func_self(const ph_profile *cp, const ph_func *f, int part)
{
    ph_profile *p = cache_side(cp);
    int sel;
    ph_agg *a = get_agg(p, part, &sel);
    if (!known_func(p, f))
        return a->zero;
    if (!a->have_self)
        fill_self(p, a, sel);
    return a->self + (f->id - 1) * a->width;
}

const int64_t *ph_func_incl(const ph_profile *cp, const ph_func *f, int part)
{
    ph_profile *p = cache_side(cp);
    int sel;
    ph_agg *a = get_agg(p, part, &sel);
    if (!known_func(p, f))
        return a->zero;
    if (!a->have_incl)
        fill_incl(p, a, sel);
    return a->incl + (f->id - 1) * a->width;
}

uint64_t ph_func_calls(const ph_profile *cp, const ph_func *f, int part)
{
    ph_profile *p = cache_side(cp);
    int sel;
    ph_agg *a = get_agg(p, part, &sel);
    if (!known_func(p, f))
        return 0;
    if (!a->have_calls)
        fill_calls(p, a, sel);
    return a->calls[f->id - 1];
}

uint64_t ph_func_self_calls(const ph_profile *cp, const ph_func *f, int part)
{
    ph_profile *p = cache_side(cp);
    int sel;
    ph_agg *a = get_agg(p, part, &sel);
    if (!known_func(p, f))
        return 0;
    if (!a->have_calls)
        fill_calls(p, a, sel);
    return a->self_calls[f->id - 1];
}
