/* pprof_stacks.c -- stacks for the tree-shaped exporters: the context tree
 * mirrored, or one approximated from flat costs and call records with
 * gprof's proportional rule (self costs kept exactly); and which events an
 * additive format may carry.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/pprof_stacks.h"

/* Limits of the approximated tree: beyond them a branch is cut and its
 * functions' self costs go to the nodes kept (still exact per function). */
#define APPROX_MAX_NODES 200000
#define APPROX_MAX_DEPTH 200

static void mirror_tree(ph_profile *p, ph_stacks *s)
{
    size_t w = s->width;
    s->nnodes = ph_node_count(p);
    s->nodes = ph_xcalloc(s->nnodes + 1, sizeof *s->nodes);
    for (size_t i = 0; i < s->nnodes; i++) {
        const ph_node *n = ph_node_at(p, i);
        ph_stk_node *o = &s->nodes[i];
        o->parent = n->parent ? n->parent->id : 0;
        o->flags = n->flags;
        o->func = n->func;
        o->obj = n->object;
        o->addr = n->addr;
        o->line = n->line;
        o->ext_id = n->ext_id;
        if (!o->func)
            o->func = ph_func_get(p, ph_str_intern0(p, "<root>"), NULL, NULL);
    }
    s->nsamples = ph_sample_count(p);
    s->samples = ph_xcalloc(s->nsamples + 1, sizeof *s->samples);
    s->pool = ph_xcalloc(s->nsamples * w + 1, sizeof *s->pool);
    for (size_t i = 0; i < s->nsamples; i++) {
        const ph_sample *smp = ph_sample_at(p, i);
        int64_t *c = s->pool + i * w;
        for (size_t k = 0; k < w; k++)
            c[k] = ph_sample_value(smp, k);
        s->samples[i].node = smp->node->id - 1;
        s->samples[i].cost = c;
        s->samples[i].src = smp;
    }
}

/* ------------------------------------------------------------------ */
/* Approximation from flat data                                       */

typedef struct edge {
    uint32_t caller, callee;   /* function index (id - 1) */
    double w;
} edge;

typedef struct approx {
    ph_profile *p;
    ph_stacks *s;
    size_t nf;
    edge *edges;               /* sorted by caller */
    size_t nedges;
    size_t *first_out;         /* per caller: first edge index */
    double *win;               /* per callee: sum of caller weights */
    uint32_t *ncallers;
    uint8_t *on_stack;
    double *weight;            /* per node */
    size_t cap;
} approx;

static int cmp_edge(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->caller != y->caller)
        return x->caller < y->caller ? -1 : 1;
    return x->callee < y->callee ? -1 : x->callee > y->callee;
}

static void collect_edges(approx *a)
{
    size_t nc = ph_call_count(a->p);
    int by_cost = 0;
    ph_call_iter it;
    const ph_call *c;
    for (c = ph_calls_all(&it, a->p); c && !by_cost; c = ph_call_next(&it))
        by_cost = ph_call_incl(c, 0) != 0;
    a->edges = ph_xcalloc(nc + 1, sizeof *a->edges);
    for (c = ph_calls_all(&it, a->p); c; c = ph_call_next(&it)) {
        if (!c->caller || !c->callee || c->caller == c->callee)
            continue;
        edge *e = &a->edges[a->nedges++];
        e->caller = c->caller->id - 1;
        e->callee = c->callee->id - 1;
        e->w = by_cost ? fabs((double)ph_call_incl(c, 0)) : (double)c->count;
    }
    qsort(a->edges, a->nedges, sizeof *a->edges, cmp_edge);
    size_t m = 0;                        /* merge equal pairs */
    for (size_t i = 0; i < a->nedges; i++) {
        if (m && a->edges[m - 1].caller == a->edges[i].caller &&
            a->edges[m - 1].callee == a->edges[i].callee)
            a->edges[m - 1].w += a->edges[i].w;
        else
            a->edges[m++] = a->edges[i];
    }
    a->nedges = m;
    a->first_out = ph_xcalloc(a->nf + 2, sizeof *a->first_out);
    a->win = ph_xcalloc(a->nf + 1, sizeof *a->win);
    a->ncallers = ph_xcalloc(a->nf + 1, sizeof *a->ncallers);
    for (size_t i = 0; i < m; i++) {
        a->first_out[a->edges[i].caller + 1]++;
        a->win[a->edges[i].callee] += a->edges[i].w;
        a->ncallers[a->edges[i].callee]++;
    }
    for (size_t f = 0; f < a->nf; f++)
        a->first_out[f + 1] += a->first_out[f];
}

static uint32_t add_node(approx *a, uint32_t parent, size_t f, double w)
{
    ph_stacks *s = a->s;
    if (s->nnodes == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 1024;
        s->nodes = ph_xrealloc(s->nodes, a->cap * sizeof *s->nodes);
        a->weight = ph_xrealloc(a->weight, a->cap * sizeof *a->weight);
    }
    ph_stk_node *n = &s->nodes[s->nnodes];
    memset(n, 0, sizeof *n);
    n->parent = parent;
    n->func = ph_func_at(a->p, f);
    n->obj = n->func->object;
    n->line = n->func->line;
    a->weight[s->nnodes] = w;
    return (uint32_t)s->nnodes++;
}

static void expand(approx *a, uint32_t node, size_t f, double w, int depth)
{
    if (depth >= APPROX_MAX_DEPTH)
        return;
    a->on_stack[f] = 1;
    for (size_t i = a->first_out[f]; i < a->first_out[f + 1]; i++) {
        const edge *e = &a->edges[i];
        if (a->on_stack[e->callee] || a->s->nnodes >= APPROX_MAX_NODES)
            continue;
        double share = a->win[e->callee] > 0 ? e->w / a->win[e->callee]
                                             : 1.0 / a->ncallers[e->callee];
        double cw = w * share;
        if (cw < 1e-7)
            continue;
        uint32_t child = add_node(a, node + 1, e->callee, cw);
        expand(a, child, e->callee, cw, depth + 1);
    }
    a->on_stack[f] = 0;
}

/* Split each function's self cost over its nodes by weight, exactly. */
static void split_self(approx *a)
{
    ph_stacks *s = a->s;
    size_t w = s->width, nn = s->nnodes;
    size_t *head = ph_xmalloc((a->nf + 1) * sizeof *head);
    size_t *next = ph_xmalloc((nn + 1) * sizeof *next);
    double *sumw = ph_xcalloc(a->nf + 1, sizeof *sumw);
    for (size_t f = 0; f < a->nf; f++)
        head[f] = SIZE_MAX;
    /* Chain nodes per function, heaviest first (insertion keeps the
     * order of creation; remainders go to the first nodes). */
    for (size_t i = nn; i-- > 0;) {
        size_t f = s->nodes[i].func->id - 1;
        next[i] = head[f];
        head[f] = i;
        sumw[f] += a->weight[i];
    }
    s->pool = ph_xcalloc(nn * w + 1, sizeof *s->pool);
    for (size_t f = 0; f < a->nf; f++) {
        const int64_t *self = ph_func_self(a->p, ph_func_at(a->p, f),
                                           PH_ALL_PARTS);
        for (size_t k = 0; k < w; k++) {
            int64_t total = self[k], given = 0;
            if (total == 0 || head[f] == SIZE_MAX)
                continue;
            for (size_t i = head[f]; i != SIZE_MAX; i = next[i]) {
                int64_t v = (int64_t)((double)total * (a->weight[i] /
                                                       sumw[f]));
                s->pool[i * w + k] = v;
                given += v;
            }
            int64_t step = total > given ? 1 : -1;
            for (size_t i = head[f]; given != total; ) {
                s->pool[i * w + k] += step;
                given += step;
                i = next[i] == SIZE_MAX ? head[f] : next[i];
            }
        }
    }
    s->samples = ph_xcalloc(nn + 1, sizeof *s->samples);
    for (size_t i = 0; i < nn; i++) {
        int nz = 0;
        for (size_t k = 0; k < w && !nz; k++)
            nz = s->pool[i * w + k] != 0;
        if (!nz)
            continue;
        ph_stk_sample *o = &s->samples[s->nsamples++];
        o->node = (uint32_t)i;
        o->cost = s->pool + i * w;
    }
    free(head);
    free(next);
    free(sumw);
}

static void approximate(ph_profile *p, ph_stacks *s)
{
    approx a;
    memset(&a, 0, sizeof a);
    a.p = p;
    a.s = s;
    a.nf = ph_func_count(p);
    collect_edges(&a);
    a.on_stack = ph_xcalloc(a.nf + 1, 1);
    for (size_t f = 0; f < a.nf; f++) {
        if (a.ncallers[f])
            continue;
        uint32_t root = add_node(&a, 0, f, 1.0);
        expand(&a, root, f, 1.0, 0);
    }
    /* Functions never reached (cycles without an entry, cut branches)
     * with a self cost become roots of their own. */
    uint8_t *seen = ph_xcalloc(a.nf + 1, 1);
    for (size_t i = 0; i < s->nnodes; i++)
        seen[s->nodes[i].func->id - 1] = 1;
    for (size_t f = 0; f < a.nf; f++) {
        if (seen[f])
            continue;
        const int64_t *self = ph_func_self(p, ph_func_at(p, f), PH_ALL_PARTS);
        for (size_t k = 0; k < s->width; k++)
            if (self[k]) {
                add_node(&a, 0, f, 1.0);
                break;
            }
    }
    free(seen);
    split_self(&a);
    free(a.edges);
    free(a.first_out);
    free(a.win);
    free(a.ncallers);
    free(a.on_stack);
    free(a.weight);
}

void ph_stacks_build(ph_profile *p, ph_output *out, const char *fmt,
                     ph_stacks *s)
{
    memset(s, 0, sizeof *s);
    s->width = ph_event_nreal(p);
    if (ph_sample_count(p) > 0) {
        mirror_tree(p, s);
        return;
    }
    approximate(p, s);
    s->approx = 1;
    ph_profile_set_approx(p, "call stacks built from flat costs: a callee's "
                          "cost is split among its callers in proportion "
                          "to their calls (gprof's rule)");
    (void)fmt;
    if (out)
        ph_output_drop(out, "approx", 1, "set of exact call stacks "
                       "(approximated from flat data: callee costs split "
                       "among callers in proportion to calls)");
    if (out && ph_part_count(p) > 1)
        ph_output_drop(out, "parts", ph_part_count(p), "parts (merged "
                       "into one: stacks are approximated over all parts)");
}

void ph_stacks_free(ph_stacks *s)
{
    free(s->nodes);
    free(s->samples);
    free(s->pool);
    memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------------ */
/* Events                                                             */

/* A formula is linear when no term multiplies or divides two names and
 * it has no parentheses (kept simple and on the safe side). */
static int formula_is_linear(const char *f)
{
    int names = 0;
    for (const char *s = f; *s; s++) {
        if (*s == '(' || *s == ')' || *s == '/')
            return 0;
        if (*s == '+' || *s == '-') {
            names = 0;
        } else if (isalpha((unsigned char)*s) || *s == '_') {
            if (++names > 1)
                return 0;
            while (isalnum((unsigned char)s[1]) || s[1] == '_' ||
                   s[1] == '.')
                s++;
        }
    }
    return 1;
}

ph_event **ph_stacks_events(ph_profile *p, ph_output *out, const char *fmt,
                            size_t *n)
{
    size_t ne = ph_event_count(p), k = 0, nonadd = 0, derived = 0;
    ph_event **evs = ph_xcalloc(ne + 1, sizeof *evs);
    for (size_t i = 0; i < ne; i++) {
        ph_event *ev = ph_event_at(p, i);
        if (ev->flags & PH_EV_BUILTIN)
            continue;
        if (ev->flags & PH_EV_NONADDITIVE) {
            nonadd++;
            continue;
        }
        if ((ev->flags & PH_EV_DERIVED) &&
            !formula_is_linear(ph_str_get(p, ev->formula))) {
            derived++;
            continue;
        }
        evs[k++] = ev;
    }
    (void)fmt;
    if (nonadd)
        ph_output_drop(out, "nonadditive", nonadd, "non-additive metrics "
                       "(ids, enums, strings; the format sums values)");
    if (derived)
        ph_output_drop(out, "derived", derived, "derived events with "
                       "non-linear formulas (the format holds only summable "
                       "values)");
    *n = k;
    return evs;
}

int64_t ph_stacks_value(ph_profile *p, const ph_event *ev,
                        const int64_t *cost)
{
    if (ev->slot >= 0)
        return cost[ev->slot];
    return (int64_t)llround(ph_event_eval(p, ev, cost));
}

int ph_stacks_pick(ph_profile *p, ph_output *out, ph_event **evs, size_t n,
                   int last)
{
    const char *want = out ? ph_output_option(out, "event") : NULL;
    if (!want)
        want = ph_meta_get(p, "default_sample_type");
    if (want)
        for (size_t i = 0; i < n; i++)
            if (!strcmp(ph_str_get(p, evs[i]->name), want))
                return (int)i;
    if (n == 0)
        return -1;
    return last ? (int)n - 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Units                                                              */

const char *ph_stacks_unit(ph_profile *p, const ph_event *ev, int64_t *factor,
                           int *exact)
{
    static const struct { const char *name; double ns; } times[] = {
        {"seconds", 1e9}, {"s", 1e9}, {"sec", 1e9},
        {"milliseconds", 1e6}, {"ms", 1e6},
        {"microseconds", 1e3}, {"us", 1e3},
        {"nanoseconds", 1}, {"ns", 1},
    };
    const char *unit = ph_str_get(p, ev->unit);
    double scale = ev->scale;
    *factor = 1;
    *exact = 1;
    if (scale == 1.0 || scale == 0.0)
        return unit;
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        if (strcmp(unit, times[i].name))
            continue;
        double f = scale * times[i].ns, r = floor(f + 0.5);
        if (r >= 1 && fabs(f - r) < 1e-6 * r && r < 9e18) {
            *factor = (int64_t)r;
            return "nanoseconds";
        }
    }
    double r = floor(scale + 0.5);
    if (r >= 1 && fabs(scale - r) < 1e-9 * r && r < 9e18) {
        *factor = (int64_t)r;
        return unit;
    }
    *exact = 0;
    return "count";
}

int64_t ph_stacks_scale(int64_t v, int64_t factor, int *overflow)
{
    int64_t r;
    if (factor == 1)
        return v;
    if (__builtin_mul_overflow(v, factor, &r)) {
        *overflow = 1;
        return v < 0 ? INT64_MIN : INT64_MAX;
    }
    return r;
}
