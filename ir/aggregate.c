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

/* The getters take a const profile: the caches they fill are not the
 * profile's data (ir.h, "Caches beside a loaded profile"). */
static ph_profile *cache_side(const ph_profile *p)
{
    return (ph_profile *)p;
}

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

/* Where the sums of every function go: k values a function, those of the
 * real events of slots (NULL: every event, k = w, in slot order).  The
 * cache of a selection holds every event; a report of one event asks for
 * the few it reads (ph_func_sums_of). */
typedef struct sums {
    size_t w, k, nfunc;
    const size_t *slots;
    int64_t *self;          /* nfunc x k */
    int64_t *tree_self;     /* nfunc x k: the samples' share of self */
    int64_t *incl;          /* nfunc x k */
} sums;

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
    return ph_xcalloc_written(n * w, sizeof(int64_t));   /* sums */
}

/* The samples' share of n functions' self costs, w values each: NULL in
 * a profile without samples (alloc_vectors writes its zeros). */
static int64_t *alloc_tree_self(const ph_profile *p, size_t n, size_t w)
{
    return p->samples.n ? alloc_vectors(n, w) : NULL;
}

/* Selection index of part: 0 = all parts, i + 1 = part i, nparts + 1 = an
 * unknown part (reads zeros); *sel is what the sums select by. */
static size_t selection_of(const ph_profile *p, int part, int *sel)
{
    size_t nparts = p->parts.n, k;
    if (part == PH_ALL_PARTS)
        k = 0;
    else if (part >= 0 && (size_t)part < nparts)
        k = (size_t)part + 1;
    else
        k = nparts + 1;
    *sel = (k == 0) ? PH_ALL_PARTS : (k <= nparts ? part : -2);
    return k;
}

/* The cache for a selection, reset when stale. */
static ph_agg *get_agg(ph_profile *p, int part, int *sel)
{
    size_t k = selection_of(p, part, sel);
    ph_agg *a;
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

/* The sums of a cache: every event. */
static sums sums_of_agg(const ph_agg *a)
{
    sums s = { a->width, a->width, a->nfunc, NULL, a->self, a->tree_self,
               a->incl };
    return s;
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

/* Add the first n values of a vector of every event to the k of s. */
static void add_kept(const sums *s, int64_t *acc, const int64_t *v, size_t n)
{
    if (!s->slots) {
        add_vector(acc, v, n < s->w ? n : s->w);
        return;
    }
    for (size_t j = 0; j < s->k; j++)
        if (s->slots[j] < n)
            acc[j] = ph_add_sat(acc[j], v[s->slots[j]]);
}

/* Non-additive events read 0 in every aggregate: n vectors of the k
 * events of slots (NULL: every event, k of them). */
static void clear_nonadditive(const ph_profile *p, int64_t *v, size_t n,
                              size_t k, const size_t *slots)
{
    size_t j, i;
    for (j = 0; j < k; j++) {
        const ph_event *ev = p->reals.v[slots ? slots[j] : j];
        if (ev->flags & PH_EV_NONADDITIVE)
            for (i = 0; i < n; i++)
                v[i * k + j] = 0;
    }
}

/* The rows' sums of half the functions: runs of ROWS_RUN functions, every
 * other run from run `first`, so that the two halves weigh about the same
 * and share no cache line but at a run's ends. */
#define ROWS_RUN 64

typedef struct rows_half {
    const ph_profile *p;
    const sums *s;
    int sel;
    size_t first;
    /* with a few events kept: the half's totals of every event, and the
     * sums of their magnitudes (saturated) */
    int64_t *tot;
    uint64_t *mag;
} rows_half;

static void add_magnitudes(uint64_t *mag, const int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t m = v[i] < 0 ? -(uint64_t)v[i] : (uint64_t)v[i];
        mag[i] = mag[i] + m < m ? UINT64_MAX : mag[i] + m;
    }
}

static void sum_rows_half(void *arg)
{
    const rows_half *h = arg;
    const sums *s = h->s;
    size_t w = s->w, nf = s->nfunc;
    /* a function's rows give every event: kept whole, or the few */
    int64_t *all = s->slots ? alloc_vectors(1, w) : NULL;
    for (size_t r = h->first * ROWS_RUN; r < nf; r += 2 * ROWS_RUN)
        for (size_t i = r; i < r + ROWS_RUN && i < nf; i++) {
            const ph_func *f = h->p->funcs.v[i];
            if (!all) {
                ph_rows_sum(h->p, f, h->sel, s->self + i * w);
                continue;
            }
            memset(all, 0, w * sizeof *all);
            ph_rows_sum(h->p, f, h->sel, all);
            add_kept(s, s->self + i * s->k, all, w);
            add_vector(h->tot, all, w);
            add_magnitudes(h->mag, all, w);
        }
    free(all);
}

/* Below this many rows a second thread costs more than it saves. */
#define ROWS_PAIR_MIN 100000

/* The rows' totals of the functions, as added in function order: the two
 * halves' totals when no partial sum in any order can saturate (their
 * magnitudes add up to at most INT64_MAX), else a pass in that order. */
static void rows_totals(const ph_profile *p, const sums *s, int sel,
                        const rows_half *half, int64_t *totals)
{
    size_t w = s->w, i;
    for (i = 0; i < w; i++) {
        uint64_t m = half[0].mag[i] + half[1].mag[i];
        if (m < half[0].mag[i] || m > INT64_MAX)
            break;
    }
    if (i == w) {
        add_vector(totals, half[0].tot, w);
        add_vector(totals, half[1].tot, w);
        return;
    }
    int64_t *all = alloc_vectors(1, w);
    for (i = 0; i < s->nfunc; i++) {
        memset(all, 0, w * sizeof *all);
        ph_rows_sum(p, p->funcs.v[i], sel, all);
        add_vector(totals, all, w);
    }
    free(all);
}

/* Self costs: rows (two halves side by side), then samples; totals (w
 * values, or NULL) of both.  The totals add the functions' sums in
 * function order, so saturated sums come out the same whatever the
 * threads. */
static void sum_self(ph_profile *p, const sums *s, int sel, int64_t *totals)
{
    size_t i, w = s->w;
    ph_tree_settle(p);
    if (sel == -2)
        return;
    if (p->nrows) {
        int64_t *tot = s->slots ? alloc_vectors(2, w) : NULL;
        uint64_t *mag = s->slots ? ph_xcalloc(2 * w + 1, sizeof *mag) : NULL;
        rows_half half[2] = { { p, s, sel, 0, tot, mag },
                              { p, s, sel, 1, tot ? tot + w : NULL,
                                mag ? mag + w : NULL } };
        if (p->nrows >= ROWS_PAIR_MIN) {
            ph_run_pair(sum_rows_half, &half[0], &half[1]);
        } else {
            sum_rows_half(&half[0]);
            sum_rows_half(&half[1]);
        }
        if (totals && s->slots)
            rows_totals(p, s, sel, half, totals);
        for (i = 0; totals && !s->slots && i < s->nfunc; i++)
            add_vector(totals, s->self + i * w, w);
        free(tot);
        free(mag);
    }
    for (i = 0; i < p->samples.n; i++) {
        const ph_sample *smp = p->samples.v[i];
        if (!part_selected(sel, smp->part))
            continue;
        if (totals)
            add_vector(totals, smp->cost, smp->width < w ? smp->width : w);
        const ph_func *fn = smp->node ? ph_node_func(p, smp->node) : NULL;
        if (fn) {
            size_t f = fn->id - 1;
            add_kept(s, s->self + f * s->k, smp->cost, smp->width);
            add_kept(s, s->tree_self + f * s->k, smp->cost, smp->width);
        }
    }
}

/* The totals of a selection, made once by whichever pass comes first. */
static int64_t *new_totals(ph_agg *a)
{
    if (a->totals)
        return NULL;
    return a->totals = alloc_vectors(1, a->width);
}

static void fill_self(ph_profile *p, ph_agg *a, int sel)
{
    int64_t *totals = new_totals(a);
    a->self = alloc_vectors(a->nfunc, a->width);
    a->tree_self = alloc_tree_self(p, a->nfunc, a->width);
    a->have_self = 1;
    sums s = sums_of_agg(a);
    sum_self(p, &s, sel, totals);
    if (totals)
        clear_nonadditive(p, totals, 1, a->width, NULL);
    clear_nonadditive(p, a->self, a->nfunc, a->width, NULL);
    if (a->tree_self)
        clear_nonadditive(p, a->tree_self, a->nfunc, a->width, NULL);
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
 * go to counts in the same pass when it is not NULL (a table asks for
 * both). */
static void add_flat_incl(ph_profile *p, const sums *s, int sel,
                          ph_agg *counts)
{
    size_t w = s->w, k = s->k, nf = s->nfunc, i, j;
    unsigned char *has_in = ph_xcalloc(nf ? nf : 1, 1);
    int64_t *out = alloc_vectors(1, w), *out_kept = alloc_vectors(1, k);
    ph_call_iter it;
    if (counts)
        alloc_calls(counts);
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it)) {
        if (counts)
            count_call(counts, c, sel);
        if (!counts_incl(c, sel))
            continue;
        has_in[c->callee->id - 1] = 1;
        add_kept(s, s->incl + (c->callee->id - 1) * k, c->incl, c->width);
    }
    for (i = 0; i < nf; i++) {
        int64_t *incl = s->incl + i * k;
        if (has_in[i])
            continue;
        memset(out, 0, w * sizeof *out);
        for (const ph_call *c = ph_calls_out(&it, p, p->funcs.v[i]); c;
             c = ph_call_next(&it))
            if (counts_incl(c, sel))
                add_vector(out, c->incl, c->width < w ? c->width : w);
        memset(out_kept, 0, k * sizeof *out_kept);
        add_kept(s, out_kept, out, w);
        for (j = 0; j < k; j++) {
            /* self minus the samples' share: the rows' self cost */
            int64_t tree = s->tree_self ? s->tree_self[i * k + j] : 0;
            int64_t flat = (int64_t)((uint64_t)s->self[i * k + j] -
                                     (uint64_t)tree);
            incl[j] = ph_add_sat(flat, out_kept[j]);
        }
    }
    free(out_kept);
    free(out);
    free(has_in);
}

/* Tree inclusive: the cost of every stack through f, each stack once even
 * when f recurses.  A walk over the tree without a stack (parent links)
 * keeps per function the number of its frames on the current path; a
 * node's subtree cost is summed along the path as the walk leaves it (one
 * vector per level, not per node) and added to f when the node is f's
 * outermost frame. */
static void add_tree_incl(ph_profile *p, const sums *s, int sel)
{
    size_t w = s->w, nn = p->nnodes, i, depth = 0, cap = 0;
    unsigned char *live, *outer = NULL;
    int64_t *sum = NULL;
    uint32_t *on, id;
    if (nn == 0 || p->samples.n == 0)
        return;
    live = ph_xcalloc(nn + 1, 1);
    for (i = 0; i < p->samples.n; i++) {
        const ph_sample *smp = p->samples.v[i];
        if (part_selected(sel, smp->part) && smp->node)
            live[ph_node_id(p, smp->node) - 1] = 1;
    }
    for (i = nn; i-- > 0;) {
        uint32_t up = ph_node_by_id(p, (uint32_t)i + 1)->parent;
        if (live[i] && up)
            live[up - 1] = 1;
    }
    on = ph_xcalloc(s->nfunc ? s->nfunc : 1, sizeof *on);
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
            for (const ph_sample *smp = ph_node_samples(p, n); smp;
                 smp = smp->next)
                if (part_selected(sel, smp->part))
                    add_vector(sum + depth * w, smp->cost,
                               smp->width < w ? smp->width : w);
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
                        add_kept(s, s->incl + (f->id - 1) * s->k,
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

/* Inclusive costs into s, whose self costs are in. */
static void sum_incl(ph_profile *p, const sums *s, int sel, ph_agg *counts)
{
    if (sel == -2)
        return;
    add_flat_incl(p, s, sel, counts);
    add_tree_incl(p, s, sel);
}

static void fill_incl(ph_profile *p, ph_agg *a, int sel)
{
    if (!a->have_self)
        fill_self(p, a, sel);
    a->incl = alloc_vectors(a->nfunc, a->width);
    a->have_incl = 1;
    sums s = sums_of_agg(a);
    sum_incl(p, &s, sel, a->have_calls ? NULL : a);
    clear_nonadditive(p, a->incl, a->nfunc, a->width, NULL);
}

/* One side of ph_func_sums_of's pass over the calls: that pass, or the
 * caller's work beside it. */
typedef struct incl_side {
    ph_profile *p;
    const sums *s;
    int sel;
    ph_agg *counts;
    void (*beside)(void *);
    void *arg;
} incl_side;

static void incl_side_run(void *x)
{
    incl_side *side = x;
    if (side->beside)
        side->beside(side->arg);
    else
        sum_incl(side->p, side->s, side->sel, side->counts);
}

void ph_func_sums_of(const ph_profile *cp, int part, const size_t *slots,
                     size_t k, int64_t *self, int64_t *incl,
                     void (*beside)(void *), void *arg)
{
    ph_profile *p = cache_side(cp);
    int sel;
    ph_agg *a = get_agg(p, part, &sel);
    int64_t *totals = new_totals(a);
    sums s = { p->reals.n, k, p->funcs.n, slots, self, NULL, incl };
    s.tree_self = alloc_tree_self(p, s.nfunc, k);
    memset(self, 0, s.nfunc * k * sizeof *self);
    memset(incl, 0, s.nfunc * k * sizeof *incl);
    /* the rows' pass gives the totals too (a report shows them all) */
    sum_self(p, &s, sel, totals);
    if (totals)
        clear_nonadditive(p, totals, 1, s.w, NULL);
    /* the call counts of the cache in the same pass (a table asks) */
    incl_side calls = {p, &s, sel, a->have_calls ? NULL : a, NULL, NULL};
    incl_side other = {p, &s, sel, NULL, beside, arg};
    if (beside)
        ph_run_pair(incl_side_run, &other, &calls);
    else
        incl_side_run(&calls);
    clear_nonadditive(p, self, s.nfunc, k, slots);
    clear_nonadditive(p, incl, s.nfunc, k, slots);
    free(s.tree_self);
}

/* ------------------------------------------------------------------ */
/* Public getters                                                      */

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
        clear_nonadditive(p, t, np, w, NULL);
    }
    return p->part_totals + k * w;
}

const int64_t *ph_totals(const ph_profile *cp, int part)
{
    ph_profile *p = cache_side(cp);
    int sel;
    ph_agg *a = get_agg(p, part, &sel);
    /* made with the per-function sums (every event's or a few), which
     * hold the same totals */
    if (a->totals)
        return a->totals;
    if (part != PH_ALL_PARTS && part >= 0 && (size_t)part < p->parts.n)
        return get_part_totals(p, (size_t)part);
    /* One part is the whole: its totals serve (info asks for both and
     * needs no per-function sums: one pass over the rows). */
    if (part == PH_ALL_PARTS && p->parts.n == 1)
        return get_part_totals(p, 0);
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

void ph_func_self_add(const ph_profile *cp, const ph_func *f, int part,
                      int64_t *acc)
{
    ph_profile *p = cache_side(cp);
    size_t w = p->reals.n;
    int sel;
    (void)selection_of(p, part, &sel);
    /* samples are found by a pass over them all: the cache's */
    if (p->samples.n || !known_func(p, f) || sel == -2) {
        add_vector(acc, ph_func_self(p, f, part), w);
        return;
    }
    int64_t *v = alloc_vectors(1, w);
    ph_rows_sum(p, f, sel, v);
    clear_nonadditive(p, v, 1, w, NULL);
    add_vector(acc, v, w);
    free(v);
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
