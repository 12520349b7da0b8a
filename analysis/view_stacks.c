/* view_stacks.c -- the stack view of a profile, for writers and reports
 * that need call stacks (pprof, drcctprof, folded, speedscope, pictures):
 * the context tree mirrored exactly, plus a tree approximated from the flat
 * costs and call records by gprof's rule when the profile has flat data.
 * A profile holding both shapes (a merge of callgrind and pprof data) gives
 * both.  The view is built beside the profile, never in it, and cached.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"

/* Limits of the approximated tree: beyond them a branch is cut and its
 * functions' self costs go to the nodes kept (still exact per function). */
#define APPROX_MAX_NODES 200000
#define APPROX_MAX_DEPTH 200

static const char approx_reason[] =
    "call stacks built from flat costs: a callee's cost is split among its "
    "callers in proportion to their calls (gprof's rule)";

/* The stacks under construction: growable arrays behind the const view. */
typedef struct build {
    ph_stacks *s;
    ph_stk_node *nodes;
    size_t nodecap;
    ph_stk_sample *samples;
    size_t samplecap;
} build;

static uint32_t push_node(build *b, const ph_stk_node *n)
{
    ph_stacks *s = b->s;
    if (s->nnodes == b->nodecap) {
        b->nodecap = b->nodecap ? 2 * b->nodecap : 1024;
        b->nodes = ph_xrealloc(b->nodes, b->nodecap * sizeof *b->nodes);
        s->nodes = b->nodes;
    }
    b->nodes[s->nnodes] = *n;
    return (uint32_t)s->nnodes++;
}

static void push_sample(build *b, uint32_t node, const int64_t *cost,
                        const ph_sample *src)
{
    ph_stacks *s = b->s;
    if (s->nsamples == b->samplecap) {
        b->samplecap = b->samplecap ? 2 * b->samplecap : 1024;
        b->samples = ph_xrealloc(b->samples,
                                 b->samplecap * sizeof *b->samples);
        s->samples = b->samples;
    }
    b->samples[s->nsamples++] = (ph_stk_sample){node, cost, src};
}

/* ------------------------------------------------------------------ */
/* The context tree, exactly                                          */

/* A frame without a function (a synthetic root made by hand) is left out:
 * its children hang on its nearest ancestor with a function, and its own
 * samples go to that ancestor, or are counted as lost at the top. */
static void mirror_tree(const ph_profile *p, build *b, int64_t *pool)
{
    size_t w = b->s->width, nn = ph_node_count(p);
    uint32_t *map = ph_xcalloc(nn + 1, sizeof *map);   /* id -> index + 1 */
    for (size_t i = 0; i < nn; i++) {
        const ph_node *n = ph_node_at(p, i);
        uint32_t up = n->parent ? map[n->parent->id - 1] : 0;
        if (!n->func) {
            map[i] = up;
            continue;
        }
        ph_stk_node o = {
            .parent = up, .flags = n->flags, .func = n->func,
            .obj = n->object, .addr = n->addr, .line = n->line,
            .ext_id = n->ext_id,
        };
        map[i] = push_node(b, &o) + 1;
    }
    for (size_t i = 0; i < ph_sample_count(p); i++) {
        const ph_sample *smp = ph_sample_at(p, i);
        uint32_t at = smp->node ? map[smp->node->id - 1] : 0;
        if (!at) {
            b->s->lost++;
            continue;
        }
        int64_t *c = pool + i * w;
        for (size_t k = 0; k < w; k++)
            c[k] = ph_sample_value(smp, k);
        push_sample(b, at - 1, c, smp);
    }
    free(map);
}

/* ------------------------------------------------------------------ */
/* Approximation from flat data                                       */

typedef struct edge {
    uint32_t caller, callee;   /* function index (id - 1) */
    double w;
} edge;

typedef struct approx {
    const ph_profile *p;
    build *b;
    size_t nf;
    size_t first;              /* index of the first approximated node */
    edge *edges;               /* sorted by caller */
    size_t nedges;
    size_t *first_out;         /* per caller: first edge index */
    double *win;               /* per callee: sum of caller weights */
    uint32_t *ncallers;
    uint8_t *on_stack;
    double *weight;            /* per approximated node */
    size_t wcap;
    int64_t *self;             /* nf x width: the rows' self cost */
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
    for (size_t i = 0; i < nc && !by_cost; i++)
        by_cost = ph_call_incl(ph_call_at(a->p, i), 0) != 0;
    a->edges = ph_xcalloc(nc + 1, sizeof *a->edges);
    for (size_t i = 0; i < nc; i++) {
        const ph_call *c = ph_call_at(a->p, i);
        if (!c->caller || !c->callee || c->caller == c->callee)
            continue;
        edge *e = &a->edges[a->nedges++];
        e->caller = c->caller->id - 1;
        e->callee = c->callee->id - 1;
        e->w = by_cost ? fabs((double)ph_call_incl(c, 0)) : (double)c->count;
    }
    if (a->nedges)
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
    const ph_func *fn = ph_func_at(a->p, f);
    ph_stk_node n = {
        .parent = parent, .func = fn, .obj = fn->object, .line = fn->line,
    };
    uint32_t i = push_node(a->b, &n);
    size_t k = i - a->first;
    if (k == a->wcap) {
        a->wcap = a->wcap ? 2 * a->wcap : 1024;
        a->weight = ph_xrealloc(a->weight, a->wcap * sizeof *a->weight);
    }
    a->weight[k] = w;
    return i;
}

static void expand(approx *a, uint32_t node, size_t f, double w, int depth)
{
    if (depth >= APPROX_MAX_DEPTH)
        return;
    a->on_stack[f] = 1;
    for (size_t i = a->first_out[f]; i < a->first_out[f + 1]; i++) {
        const edge *e = &a->edges[i];
        if (a->on_stack[e->callee] ||
            a->b->s->nnodes - a->first >= APPROX_MAX_NODES)
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

/* Split each function's self cost over its nodes by weight, exactly:
 * rounding remainders go one unit at a time to the first nodes. */
static void split_self(approx *a, int64_t **pool_out)
{
    ph_stacks *s = a->b->s;
    size_t w = s->width, nn = s->nnodes - a->first;
    size_t *head = ph_xmalloc((a->nf + 1) * sizeof *head);
    size_t *next = ph_xmalloc((nn + 1) * sizeof *next);
    double *sumw = ph_xcalloc(a->nf + 1, sizeof *sumw);
    for (size_t f = 0; f < a->nf; f++)
        head[f] = SIZE_MAX;
    for (size_t i = nn; i-- > 0;) {
        size_t f = s->nodes[a->first + i].func->id - 1;
        next[i] = head[f];
        head[f] = i;
        sumw[f] += a->weight[i];
    }
    int64_t *pool = ph_xcalloc(nn * w + 1, sizeof *pool);
    for (size_t f = 0; f < a->nf; f++) {
        const int64_t *self = a->self + f * w;
        for (size_t k = 0; k < w; k++) {
            int64_t total = self[k], given = 0;
            if (total == 0 || head[f] == SIZE_MAX)
                continue;
            for (size_t i = head[f]; i != SIZE_MAX; i = next[i]) {
                int64_t v = (int64_t)((double)total * (a->weight[i] /
                                                       sumw[f]));
                pool[i * w + k] = v;
                given += v;
            }
            int64_t step = total > given ? 1 : -1;
            for (size_t i = head[f]; given != total; ) {
                pool[i * w + k] += step;
                given += step;
                i = next[i] == SIZE_MAX ? head[f] : next[i];
            }
        }
    }
    for (size_t i = 0; i < nn; i++) {
        int nz = 0;
        for (size_t k = 0; k < w && !nz; k++)
            nz = pool[i * w + k] != 0;
        if (nz)
            push_sample(a->b, (uint32_t)(a->first + i), pool + i * w, NULL);
    }
    *pool_out = pool;
    free(head);
    free(next);
    free(sumw);
}

/* The rows' self cost of every function (the samples' share is in the
 * mirrored tree already); returns whether any row holds a cost. */
static int rows_self(const ph_profile *p, int64_t *self, size_t w)
{
    int any = 0;
    for (size_t f = 0; f < ph_func_count(p); f++) {
        ph_row_iter it;
        ph_row r;
        ph_row_iter_init(&it, p, ph_func_at(p, f), NULL);
        while (ph_row_next(&it, &r)) {
            for (size_t k = 0; k < w; k++)
                self[f * w + k] += r.cost[k];
            any = 1;
        }
    }
    return any;
}

static int64_t *approximate(const ph_profile *p, build *b)
{
    approx a;
    size_t w = b->s->width;
    memset(&a, 0, sizeof a);
    a.p = p;
    a.b = b;
    a.nf = ph_func_count(p);
    a.first = b->s->nnodes;
    a.self = ph_xcalloc(a.nf * w + 1, sizeof *a.self);
    if (!rows_self(p, a.self, w) && ph_call_count(p) == 0) {
        free(a.self);
        return NULL;
    }
    b->s->approx = approx_reason;
    collect_edges(&a);
    a.on_stack = ph_xcalloc(a.nf + 1, 1);
    for (size_t f = 0; f < a.nf; f++) {
        if (a.ncallers[f])
            continue;
        /* a root: called by nobody; only worth a node with data */
        int data = a.first_out[f + 1] > a.first_out[f];
        for (size_t k = 0; k < w && !data; k++)
            data = a.self[f * w + k] != 0;
        if (!data)
            continue;
        uint32_t root = add_node(&a, 0, f, 1.0);
        expand(&a, root, f, 1.0, 0);
    }
    /* Functions never reached (cycles without an entry, cut branches)
     * with a self cost become roots of their own. */
    uint8_t *seen = ph_xcalloc(a.nf + 1, 1);
    for (size_t i = a.first; i < b->s->nnodes; i++)
        seen[b->s->nodes[i].func->id - 1] = 1;
    for (size_t f = 0; f < a.nf; f++) {
        if (seen[f])
            continue;
        for (size_t k = 0; k < w; k++)
            if (a.self[f * w + k]) {
                add_node(&a, 0, f, 1.0);
                break;
            }
    }
    free(seen);
    int64_t *pool = NULL;
    split_self(&a, &pool);
    free(a.edges);
    free(a.first_out);
    free(a.win);
    free(a.ncallers);
    free(a.on_stack);
    free(a.weight);
    free(a.self);
    return pool;
}

/* ------------------------------------------------------------------ */
/* The cached view                                                    */

typedef struct stacks_view {
    ph_stacks s;
    int64_t *tree_pool;
    int64_t *approx_pool;
} stacks_view;

static void free_view(void *data)
{
    stacks_view *v = data;
    free((void *)v->s.nodes);
    free((void *)v->s.samples);
    free(v->tree_pool);
    free(v->approx_pool);
    free(v);
}

static const char stacks_key[] = "stacks";

const ph_stacks *ph_stacks_of(const ph_profile *p)
{
    stacks_view *v = ph_profile_cache(p, stacks_key);
    if (v)
        return &v->s;
    v = ph_xcalloc(1, sizeof *v);
    build b = { .s = &v->s };
    v->s.width = ph_event_nreal(p);
    v->tree_pool = ph_xcalloc(ph_sample_count(p) * v->s.width + 1,
                              sizeof *v->tree_pool);
    mirror_tree(p, &b, v->tree_pool);
    v->approx_pool = approximate(p, &b);
    if (v->s.approx) {
        /* parts of the flat data that the approximation merged */
        unsigned char *seen = ph_xcalloc(ph_part_count(p) + 1, 1);
        for (size_t f = 0; f < ph_func_count(p); f++) {
            const ph_func *fn = ph_func_at(p, f);
            for (size_t i = 0; i < ph_part_count(p); i++) {
                ph_row_iter it;
                ph_row r;
                if (seen[i])
                    continue;
                ph_row_iter_init(&it, p, fn, ph_part_at(p, i));
                if (ph_row_next(&it, &r)) {
                    seen[i] = 1;
                    v->s.approx_parts++;
                }
            }
        }
        free(seen);
    }
    ph_profile_cache_put(p, stacks_key, v, free_view);
    return &v->s;
}

void ph_stacks_warn(const ph_stacks *s, ph_output *out)
{
    if (s->approx)
        ph_output_drop(out, "approx", 1, "set of exact call stacks "
                       "(approximated from flat data: callee costs split "
                       "among callers in proportion to calls)");
    if (s->approx_parts > 1)
        ph_output_drop(out, "parts", s->approx_parts, "parts (merged "
                       "into one: stacks are approximated over all parts)");
    if (s->lost)
        ph_output_drop(out, "frameless", s->lost, "samples at a frame "
                       "without a function");
}
