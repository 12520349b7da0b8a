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
#include "ir/jobs.h"

/* Limits of the approximated tree: beyond them a branch is cut and its
 * functions' self costs go to the nodes kept (still exact per function). */
#define APPROX_MAX_NODES 200000
#define APPROX_MAX_DEPTH 200

static const char approx_reason[] =
    "call stacks built from flat costs: a callee's cost is split among its "
    "callers in proportion to their calls (gprof's rule)";

/* A node's share of a line's cost of its function (the approximation's
 * split_self): the line's total * frac rounded toward zero, plus what the
 * rounding left over dealt out one unit at a time from the first node on
 * (settle): the shares add up to the total exactly. */
struct ph_stk_share {
    double frac;                /* the node's weight / its function's */
    const int64_t *left;        /* per event: the total less the rounded
                                   shares */
    uint32_t rank, n;           /* the node's place among the n nodes */
};

/* The stacks under construction: growable arrays behind the const view. */
typedef struct build {
    ph_stacks *s;
    ph_stk_node *nodes;
    uint64_t *ext_ids;          /* beside nodes, when a node has one */
    size_t nodecap;
    ph_stk_sample *samples;
    size_t samplecap;
    ph_stk_share *shares;
    size_t sharecap;
} build;

/* Room for `more` nodes or samples beyond those made: called with the
 * bound of a pass before it, so that the arrays are not copied as they
 * grow (the pages of room never used are never touched). */
static void reserve_nodes(build *b, size_t more)
{
    size_t need = b->s->nnodes + more;
    if (need <= b->nodecap)
        return;
    b->nodecap = need;
    b->nodes = ph_xrealloc(b->nodes, b->nodecap * sizeof *b->nodes);
    b->s->nodes = b->nodes;
    if (b->ext_ids) {
        b->ext_ids = ph_xrealloc(b->ext_ids,
                                 b->nodecap * sizeof *b->ext_ids);
        b->s->ext_ids = b->ext_ids;
    }
}

static void reserve_samples(build *b, size_t more)
{
    size_t need = b->s->nsamples + more;
    if (need <= b->samplecap)
        return;
    b->samplecap = need;
    b->samples = ph_xrealloc(b->samples, b->samplecap * sizeof *b->samples);
    b->s->samples = b->samples;
}

/* Node i about to be written, filled in order (ph_map_ahead). */
static void map_node_ahead(build *b, size_t i)
{
    ph_map_ahead(b->nodes, sizeof *b->nodes, i, b->nodecap);
    if (b->ext_ids)
        ph_map_ahead(b->ext_ids, sizeof *b->ext_ids, i, b->nodecap);
}

static uint32_t push_node(build *b, const ph_stk_node *n)
{
    ph_stacks *s = b->s;
    if (s->nnodes == b->nodecap)
        reserve_nodes(b, s->nnodes ? s->nnodes : 1024);
    map_node_ahead(b, s->nnodes);
    b->nodes[s->nnodes] = *n;
    if (b->ext_ids)
        b->ext_ids[s->nnodes] = 0;
    return (uint32_t)s->nnodes++;
}

static void push_sample(build *b, uint32_t node, const void *values,
                        uint32_t share, const ph_sample *src)
{
    ph_stacks *s = b->s;
    if (s->nsamples == b->samplecap)
        reserve_samples(b, s->nsamples ? s->nsamples : 1024);
    ph_map_ahead(b->samples, sizeof *b->samples, s->nsamples, b->samplecap);
    b->samples[s->nsamples++] = (ph_stk_sample){node, share, values, src};
}

/* Costs in blocks that never move, so that the samples can point into
 * them: the approximation's per-line costs, packed (ph_costs_put), and
 * what their shares among a function's nodes left over, grow as they are
 * found. */
#define COST_BLOCK 65536           /* bytes of the first block */
/* Blocks double up to this size. */
#define COST_BLOCK_BYTES ((size_t)4 << 20)

typedef struct cost_blocks {
    unsigned char **block;
    size_t nblocks;
    size_t room;                   /* bytes left in the last block */
    unsigned char *next;           /* the first of them */
    size_t grow;                   /* bytes of the last block made */
} cost_blocks;

/* Room for n bytes, 8-byte aligned; what is used of it is given to
 * cost_keep. */
static unsigned char *cost_room(cost_blocks *c, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (n > c->room) {
        size_t bytes = c->grow ? 2 * c->grow : COST_BLOCK;
        c->grow = bytes = bytes < COST_BLOCK_BYTES ? bytes : COST_BLOCK_BYTES;
        if (bytes < n)
            bytes = n;             /* a block of its own */
        c->block = ph_xrealloc(c->block, (c->nblocks + 1) * sizeof *c->block);
        c->next = c->block[c->nblocks++] = ph_xmalloc(bytes);
        c->room = bytes;
    }
    unsigned char *block = c->block[c->nblocks - 1];
    size_t at = (size_t)(c->next - block);
    ph_map_ahead_bytes(block, at, n, at + c->room);
    return c->next;
}

static void cost_keep(cost_blocks *c, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    c->next += n;
    c->room -= n;
}

/* A vector of width values. */
static int64_t *cost_alloc(cost_blocks *c, size_t width)
{
    if (width > SIZE_MAX / sizeof(int64_t) - 1)
        ph_oom();
    size_t bytes = width * sizeof(int64_t);
    int64_t *v = (int64_t *)cost_room(c, bytes);
    cost_keep(c, bytes);
    return v;
}

/* cost packed, with room behind it to read it back with a bound
 * (ph_stk_cost): the room asked for is the most it could take. */
static const unsigned char *cost_pack(cost_blocks *c, const int64_t *cost,
                                      size_t width)
{
    unsigned char *d = cost_room(c, ph_costs_room_max(width));
    cost_keep(c, (size_t)(ph_costs_put(d, cost, width) - d));
    return d;
}

static void cost_blocks_free(cost_blocks *c)
{
    for (size_t i = 0; i < c->nblocks; i++)
        free(c->block[i]);
    free(c->block);
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
    reserve_nodes(b, nn);
    reserve_samples(b, ph_sample_count(p));
    for (size_t i = 0; i < nn && !b->ext_ids; i++)
        if (ph_node_ext_id(p, ph_node_at(p, i)))
            b->s->ext_ids = b->ext_ids =
                ph_xmalloc(b->nodecap * sizeof *b->ext_ids);
    for (size_t i = 0; i < nn; i++) {
        const ph_node *n = ph_node_at(p, i);
        const ph_frame *fr = ph_node_frame(p, n);
        uint32_t up = n->parent ? map[n->parent - 1] : 0;
        if (!fr->func) {
            map[i] = up;
            continue;
        }
        ph_stk_node o = {
            .parent = up, .flags = fr->flags, .func = fr->func,
            .obj = fr->object, .addr = fr->addr, .line = fr->line,
        };
        map[i] = push_node(b, &o) + 1;
        if (b->ext_ids)
            b->ext_ids[map[i] - 1] = ph_node_ext_id(p, n);
    }
    for (size_t i = 0; i < ph_sample_count(p); i++) {
        const ph_sample *smp = ph_sample_at(p, i);
        uint32_t at = smp->node ? map[ph_node_id(p, smp->node) - 1] : 0;
        if (!at) {
            b->s->lost++;
            continue;
        }
        int64_t *c = pool + i * w;
        for (size_t k = 0; k < w; k++)
            c[k] = ph_sample_value(smp, k);
        push_sample(b, at - 1, c, 0, smp);
    }
    free(map);
}

/* ------------------------------------------------------------------ */
/* Approximation from flat data                                       */

typedef struct edge {
    uint32_t caller, callee;   /* function index (id - 1) */
    uint32_t line;             /* call site line of the pair's first call */
    double w;
} edge;

/* The rows' self cost of one function per line, sorted by line. */
typedef struct line_cost {
    uint32_t line;
    const unsigned char *cost; /* width values packed, in approx.costs */
} line_cost;

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
    /* An instance is one node of a function made by the expansion; its
     * variants are the same frame at other lines (call sites of its
     * callees, lines of its self cost), beside it under the same parent. */
    double *weight;            /* per approximated node; 0 for variants */
    uint32_t *instance;        /* per approximated node: its instance */
    uint32_t *next_variant;    /* per approximated node: chain, 0 = end */
    size_t wcap;
    uint8_t *has_self;         /* per function: its rows' sum is not 0 */
    line_cost *line_cost;      /* per function, its lines: */
    size_t *line_first;        /* line_cost[line_first[f] .. [f + 1]) */
    cost_blocks *costs;        /* the lines' costs, what their shares left */
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
    for (c = ph_calls_all(&it, a->p); c && a->nedges < nc;
         c = ph_call_next(&it)) {
        if (!c->caller || !c->callee || c->caller == c->callee)
            continue;
        ph_map_ahead(a->edges, sizeof *a->edges, a->nedges, nc + 1);
        edge *e = &a->edges[a->nedges++];
        e->caller = c->caller->id - 1;
        e->callee = c->callee->id - 1;
        e->line = c->line;
        e->w = by_cost ? fabs((double)ph_call_incl(c, 0)) : (double)c->count;
    }
    ph_qsort(a->edges, a->nedges, sizeof *a->edges, cmp_edge);
    size_t m = 0;                        /* merge equal pairs */
    for (size_t i = 0; i < a->nedges; i++) {
        if (m && a->edges[m - 1].caller == a->edges[i].caller &&
            a->edges[m - 1].callee == a->edges[i].callee)
            a->edges[m - 1].w += a->edges[i].w;
        else
            a->edges[m++] = a->edges[i];
    }
    a->nedges = m;
    /* counted at random: read before written */
    a->first_out = ph_xcalloc_written(a->nf + 2, sizeof *a->first_out);
    a->win = ph_xcalloc_written(a->nf + 1, sizeof *a->win);
    a->ncallers = ph_xcalloc_written(a->nf + 1, sizeof *a->ncallers);
    for (size_t i = 0; i < m; i++) {
        a->first_out[a->edges[i].caller + 1]++;
        a->win[a->edges[i].callee] += a->edges[i].w;
        a->ncallers[a->edges[i].callee]++;
    }
    for (size_t f = 0; f < a->nf; f++)
        a->first_out[f + 1] += a->first_out[f];
}

/* Room for `more` approximated nodes (reserve_nodes). */
static void reserve_approx(approx *a, size_t more)
{
    size_t need = a->b->s->nnodes - a->first + more;
    reserve_nodes(a->b, more);
    if (need <= a->wcap)
        return;
    a->wcap = need;
    a->weight = ph_xrealloc(a->weight, a->wcap * sizeof *a->weight);
    a->instance = ph_xrealloc(a->instance, a->wcap * sizeof *a->instance);
    a->next_variant = ph_xrealloc(a->next_variant,
                                  a->wcap * sizeof *a->next_variant);
}

static uint32_t push_approx(approx *a, const ph_stk_node *n, double w,
                            uint32_t instance)
{
    size_t k = a->b->s->nnodes - a->first;
    if (k == a->wcap)
        reserve_approx(a, k ? k : 1024);
    uint32_t i = push_node(a->b, n);
    ph_map_ahead(a->weight, sizeof *a->weight, k, a->wcap);
    ph_map_ahead(a->instance, sizeof *a->instance, k, a->wcap);
    ph_map_ahead(a->next_variant, sizeof *a->next_variant, k, a->wcap);
    a->weight[k] = w;
    a->instance[k] = instance == UINT32_MAX ? (uint32_t)k : instance;
    a->next_variant[k] = 0;
    return i;
}

static uint32_t add_node(approx *a, uint32_t parent, size_t f, double w)
{
    const ph_func *fn = ph_func_at(a->p, f);
    ph_stk_node n = {
        .parent = parent, .func = fn, .obj = fn->object, .line = fn->line,
    };
    return push_approx(a, &n, w, UINT32_MAX);
}

/* The node of instance `node` (absolute index) at line made already:
 * itself when the line is unknown or its own, or a variant; UINT32_MAX
 * when there is none. */
static uint32_t variant_at(const approx *a, uint32_t node, uint32_t line)
{
    const ph_stk_node *nodes = a->b->s->nodes;
    if (!line || nodes[node].line == line)
        return node;
    uint32_t k = node - (uint32_t)a->first;
    for (uint32_t v = a->next_variant[k]; v; v = a->next_variant[v])
        if (nodes[a->first + v].line == line)
            return (uint32_t)a->first + v;
    return UINT32_MAX;
}

/* The node of instance `node` at line, a variant made on first use. */
static uint32_t at_line(approx *a, uint32_t node, uint32_t line)
{
    uint32_t i = variant_at(a, node, line);
    if (i != UINT32_MAX)
        return i;
    uint32_t k = node - (uint32_t)a->first;
    ph_stk_node n = a->b->s->nodes[node];
    n.line = line;
    i = push_approx(a, &n, 0, k);
    a->next_variant[i - a->first] = a->next_variant[k];
    a->next_variant[k] = i - (uint32_t)a->first;
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
        uint32_t site = at_line(a, node, e->line);
        uint32_t child = add_node(a, site + 1, e->callee, cw);
        expand(a, child, e->callee, cw, depth + 1);
    }
    a->on_stack[f] = 0;
}

/* Beyond this many (node, line) leaves a function's lines are not split
 * any more: its self cost stays at its nodes. */
#define APPROX_MAX_LEAVES 1000000

/* total * frac (frac in [0, 1]) rounded toward zero, never further from
 * zero than total: a cost near INT64_MAX is no double's exact value, and
 * its product must not leave int64's range. */
static int64_t share_of(int64_t total, double frac)
{
    double x = (double)total * frac;

    if (!(frac > 0))
        return 0;
    if (frac >= 1 || (total >= 0 ? x >= (double)total : x <= (double)total))
        return total;
    return (int64_t)x;
}

/* The share sh of total, whose rounded shares left `left` of it: the
 * difference (rounding, a few units a share) is dealt out one unit at a
 * time from the first share on, all whole rounds at once so that the work
 * does not grow with the size of the costs. */
static int64_t share_at(int64_t total, int64_t left, const ph_stk_share *sh)
{
    int64_t step = left > 0 ? 1 : -1;
    uint64_t units = left > 0 ? (uint64_t)left : 0 - (uint64_t)left;
    uint64_t rounds = units / sh->n, extra = units % sh->n;
    return share_of(total, sh->frac) +
           step * (int64_t)(rounds + (sh->rank < extra));
}

/* What the rounded shares of total by the n fractions frac[] leave of it.
 * The fractions add up to 1 give or take rounding, so the shares add up
 * to about total and the difference fits an int64. */
static int64_t left_of(int64_t total, const double *frac, size_t n)
{
    __int128 given = 0;
    for (size_t q = 0; q < n; q++)
        given += share_of(total, frac[q]);
    return (int64_t)((__int128)total - given);
}

/* An approximated sample's values are its line's total, packed; its
 * share is WHOLE when its function has one node. */
#define WHOLE UINT32_MAX

const int64_t *ph_stk_cost(const ph_stacks *s, size_t i, int64_t *buf)
{
    const ph_stk_sample *smp = &s->samples[i];
    if (!smp->share)
        return smp->values;
    const unsigned char *packed = smp->values;
    memset(buf, 0, s->width * sizeof *buf);
    ph_costs_get(packed, packed + ph_costs_room_max(s->width), buf, s->width);
    if (smp->share == WHOLE)
        return buf;
    const ph_stk_share *sh = &s->shares[smp->share - 1];
    for (size_t k = 0; k < s->width; k++)
        buf[k] = share_at(buf[k], sh->left[k], sh);
    return buf;
}

/* One half of split_self's work: the functions [f0, f1) write their
 * samples, shares and leaves into regions of the view's arrays kept for
 * them (from sample0, share0 and node0, as many as they may make), what
 * their shares leave over into costs.  Two halves run side by side. */
typedef struct split_half {
    approx *a;
    const size_t *head, *next;  /* per function, its instances' chain */
    const size_t *nodes_of;     /* per function, its instances */
    const double *sumw;         /* per function, their weights' sum */
    size_t most;                /* the most instances of a function */
    size_t f0, f1;
    size_t leaves;              /* leaves split by line before f0 */
    size_t node0, nodes;        /* the region's first index, used */
    size_t sample0, samples;
    size_t share0, shares;
    cost_blocks *costs;
} split_half;

/* Whether a function's pairs of (node, line) are split over leaves,
 * given the leaves split before it: up to APPROX_MAX_LEAVES in all, in
 * function order. */
static int split_by_line(size_t leaves_before, size_t pairs)
{
    return leaves_before + pairs <= APPROX_MAX_LEAVES;
}

/* The node for the self cost of instance `node` at line: the variant
 * there when a call site made one, else a leaf of its own.  Each (node,
 * line) is asked for once, so a leaf is never looked up again: it is
 * left out of the variants' chains and arrays. */
static uint32_t leaf_at(split_half *h, uint32_t node, uint32_t line)
{
    uint32_t i = variant_at(h->a, node, line);
    if (i != UINT32_MAX)
        return i;
    build *b = h->a->b;
    size_t at = h->node0 + h->nodes++;
    map_node_ahead(b, at);
    b->nodes[at] = b->nodes[node];
    b->nodes[at].line = line;
    if (b->ext_ids)
        b->ext_ids[at] = 0;
    return (uint32_t)at;
}

/* An approximated sample: sh its share of total, NULL for the whole. */
static void push_share(split_half *h, uint32_t node,
                       const unsigned char *total, const ph_stk_share *sh)
{
    build *b = h->a->b;
    uint32_t share = WHOLE;
    if (sh) {
        ph_map_ahead(b->shares, sizeof *b->shares, h->share0 + h->shares,
                     b->sharecap);
        b->shares[h->share0 + h->shares++] = *sh;
        share = (uint32_t)(h->share0 + h->shares);
    }
    ph_map_ahead(b->samples, sizeof *b->samples, h->sample0 + h->samples,
                 b->samplecap);
    b->samples[h->sample0 + h->samples++] =
        (ph_stk_sample){node, share, total, NULL};
}

/* Split the self cost of h's functions over their nodes by weight,
 * exactly (the rounding remainders go one unit at a time to the first
 * nodes), and over the lines of their rows: the share of another line
 * than the node's goes to a leaf beside the node, so pprof keeps per-line
 * cost.  A function with one node keeps its lines' costs as they are. */
static void split_half_run(void *arg)
{
    split_half *h = arg;
    approx *a = h->a;
    size_t w = a->b->s->width, leaves = h->leaves;
    double *frac = ph_xmalloc(h->most * sizeof *frac);
    int64_t *cost = ph_xmalloc((w + 1) * sizeof *cost);
    int64_t *total = ph_xmalloc((w + 1) * sizeof *total);
    for (size_t f = h->f0; f < h->f1; f++) {
        size_t l0 = a->line_first[f], l1 = a->line_first[f + 1];
        size_t nodes = h->nodes_of[f], q = 0;
        if (!nodes || l0 == l1)
            continue;
        int by_line = split_by_line(leaves, nodes * (l1 - l0));
        leaves += by_line ? nodes * (l1 - l0) : 0;
        for (size_t i = h->head[f]; i != SIZE_MAX; i = h->next[i])
            frac[q++] = a->weight[i] / h->sumw[f];
        for (size_t l = l0; l < l1; l++) {
            const unsigned char *packed = a->line_cost[l].cost;
            ph_stk_share sh = { .n = (uint32_t)nodes };
            memset(total, 0, w * sizeof *total);
            ph_costs_get(packed, packed + ph_costs_room_max(w), total, w);
            if (nodes > 1) {
                /* this line's cost over the nodes, exactly per event */
                int64_t *left = cost_alloc(h->costs, w);
                for (size_t k = 0; k < w; k++)
                    left[k] = left_of(total[k], frac, nodes);
                sh.left = left;
            }
            for (size_t i = h->head[f]; i != SIZE_MAX;
                 i = h->next[i], sh.rank++) {
                sh.frac = frac[sh.rank];
                const int64_t *c = total;
                if (nodes > 1) {
                    for (size_t k = 0; k < w; k++)
                        cost[k] = share_at(total[k], sh.left[k], &sh);
                    c = cost;
                }
                if (ph_costs_zero(c, w))
                    continue;
                /* a line other than the node's goes to its variant there */
                uint32_t node = (uint32_t)(a->first + i);
                if (by_line)
                    node = leaf_at(h, node, a->line_cost[l].line);
                push_share(h, node, packed, nodes > 1 ? &sh : NULL);
            }
        }
    }
    free(frac);
    free(cost);
    free(total);
}

/* The second half's leaves, samples and shares moved down behind the
 * first's, the indices in its samples with them; its cost blocks given
 * to the first's. */
static void join_halves(build *b, const split_half *h0, const split_half *h1)
{
    size_t node_to = h0->node0 + h0->nodes;
    uint32_t node_gap = (uint32_t)(h1->node0 - node_to);
    uint32_t share_gap = (uint32_t)(h1->share0 - (h0->share0 + h0->shares));
    memmove(b->nodes + node_to, b->nodes + h1->node0,
            h1->nodes * sizeof *b->nodes);
    if (b->ext_ids)
        memmove(b->ext_ids + node_to, b->ext_ids + h1->node0,
                h1->nodes * sizeof *b->ext_ids);
    memmove(b->shares + h0->share0 + h0->shares, b->shares + h1->share0,
            h1->shares * sizeof *b->shares);
    ph_stk_sample *to = b->samples + h0->sample0 + h0->samples;
    for (size_t i = 0; i < h1->samples; i++) {
        ph_stk_sample smp = b->samples[h1->sample0 + i];
        if (smp.node >= h1->node0)
            smp.node -= node_gap;
        if (smp.share != WHOLE)
            smp.share -= share_gap;
        to[i] = smp;
    }
    cost_blocks *c = h0->costs, *from = h1->costs;
    c->block = ph_xrealloc(c->block, (c->nblocks + from->nblocks + 1) *
                                     sizeof *c->block);
    memcpy(c->block + c->nblocks, from->block,
           from->nblocks * sizeof *c->block);
    c->nblocks += from->nblocks;
    free(from->block);
}

/* Below this many (node, line) pairs split_self runs on one thread. */
#define SPLIT_PAIR_MIN 16384

/* Split each function's self cost over its nodes and lines
 * (split_half_run): with many pairs, the functions in two halves of about
 * as many pairs side by side, whose results are joined in the order one
 * thread makes them. */
static void split_self(approx *a)
{
    ph_stacks *s = a->b->s;
    size_t nn = s->nnodes - a->first;
    /* head written whole, the sums read before written */
    size_t *head = ph_xmalloc_written((a->nf + 1) * sizeof *head);
    size_t *next = ph_xmalloc((nn + 1) * sizeof *next);
    size_t *nodes_of = ph_xcalloc_written(a->nf + 1, sizeof *nodes_of);
    double *sumw = ph_xcalloc_written(a->nf + 1, sizeof *sumw);
    for (size_t f = 0; f < a->nf; f++)
        head[f] = SIZE_MAX;
    for (size_t i = nn; i-- > 0;) {
        size_t f = s->nodes[a->first + i].func->id - 1;
        if (a->instance[i] != i)
            continue;              /* a variant: its instance holds the weight */
        next[i] = head[f];
        head[f] = i;
        sumw[f] += a->weight[i];
        nodes_of[f]++;
    }
    /* room for a sample per (node, line), a share per sample of a
     * function with several nodes, and a leaf per pair split by line */
    size_t pairs = 0, shared = 0, leaves = 0, most = 1;
    for (size_t f = 0; f < a->nf; f++) {
        size_t n = nodes_of[f] * (a->line_first[f + 1] - a->line_first[f]);
        pairs += n;
        shared += nodes_of[f] > 1 ? n : 0;
        leaves += split_by_line(leaves, n) ? n : 0;
        most = nodes_of[f] > most ? nodes_of[f] : most;
    }
    reserve_samples(a->b, pairs);
    reserve_nodes(a->b, leaves);
    a->b->sharecap = shared + 1;
    a->b->shares = ph_xmalloc(a->b->sharecap * sizeof *a->b->shares);
    s->shares = a->b->shares;
    split_half h0 = {
        .a = a, .head = head, .next = next, .nodes_of = nodes_of,
        .sumw = sumw, .most = most, .f0 = 0, .f1 = a->nf,
        .node0 = s->nnodes, .sample0 = s->nsamples, .costs = a->costs,
    };
    split_half h1 = h0;
    cost_blocks costs1;
    memset(&costs1, 0, sizeof costs1);
    h1.f0 = h1.f1;                 /* none, unless there are two halves */
    if (pairs >= SPLIT_PAIR_MIN && ph_jobs() > 1) {
        /* the first half's functions and the room they may take */
        size_t mid, pairs0 = 0, shared0 = 0, leaves0 = 0;
        for (mid = 0; mid < a->nf && 2 * pairs0 < pairs; mid++) {
            size_t n = nodes_of[mid] *
                       (a->line_first[mid + 1] - a->line_first[mid]);
            pairs0 += n;
            shared0 += nodes_of[mid] > 1 ? n : 0;
            leaves0 += split_by_line(leaves0, n) ? n : 0;
        }
        h0.f1 = h1.f0 = mid;
        h1.leaves = leaves0;
        h1.node0 = h0.node0 + leaves0;
        h1.sample0 = h0.sample0 + pairs0;
        h1.share0 = shared0;
        h1.costs = &costs1;
        ph_run_pair(split_half_run, &h1, &h0);
        join_halves(a->b, &h0, &h1);
    } else {
        split_half_run(&h0);
    }
    s->nnodes += h0.nodes + h1.nodes;
    s->nsamples += h0.samples + h1.samples;
    free(nodes_of);
    free(head);
    free(next);
    free(sumw);
}

typedef struct row_line {
    uint32_t line;
    size_t row;
} row_line;

static int cmp_row_line(const void *x, const void *y)
{
    const row_line *a = x, *b = y;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

/* The rows' self cost of every function (the samples' share is in the
 * mirrored tree already), in total and per line; returns whether any row
 * holds a cost. */
static int rows_self(const ph_profile *p, approx *a, size_t w)
{
    int any = 0;
    size_t cap = 0, n = 0, tcap = 0;
    row_line *order = NULL;
    int64_t *tcost = NULL;
    int64_t *self = ph_xmalloc((w + 1) * sizeof *self);
    int64_t *sum = ph_xmalloc((w + 1) * sizeof *sum);
    a->line_first = ph_xcalloc(a->nf + 2, sizeof *a->line_first);
    for (size_t f = 0; f < a->nf; f++) {
        ph_row_iter it;
        ph_row r;
        size_t t = 0;
        a->line_first[f] = n;
        memset(self, 0, w * sizeof *self);
        ph_row_iter_init(&it, p, ph_func_at(p, f), NULL);
        while (ph_row_next_line(&it, &r)) {
            if (t == tcap) {
                tcap = tcap ? 2 * tcap : 64;
                order = ph_xrealloc(order, tcap * sizeof *order);
                tcost = ph_xrealloc(tcost, (tcap * w + 1) * sizeof *tcost);
            }
            order[t] = (row_line){r.line, t};
            memcpy(tcost + t * w, r.cost, w * sizeof *tcost);
            for (size_t k = 0; k < w; k++)
                self[k] = ph_cost_add(self[k], r.cost[k]);
            t++;
            any = 1;
        }
        for (size_t k = 0; k < w && !a->has_self[f]; k++)
            a->has_self[f] = self[k] != 0;
        /* one entry per line: rows sorted by line, equal lines merged */
        ph_qsort(order, t, sizeof *order, cmp_row_line);
        for (size_t x = 0; x < t; x++) {
            if (x == 0 || order[x].line != order[x - 1].line)
                memset(sum, 0, w * sizeof *sum);
            for (size_t k = 0; k < w; k++)
                sum[k] = ph_cost_add(sum[k], tcost[order[x].row * w + k]);
            if (x + 1 < t && order[x + 1].line == order[x].line)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                a->line_cost = ph_xrealloc(a->line_cost,
                                           cap * sizeof *a->line_cost);
            }
            ph_map_ahead(a->line_cost, sizeof *a->line_cost, n, cap);
            a->line_cost[n++] = (line_cost){order[x].line,
                                            cost_pack(a->costs, sum, w)};
        }
    }
    a->line_first[a->nf] = n;
    free(tcost);
    free(order);
    free(self);
    free(sum);
    return any;
}

static void approx_free(approx *a)
{
    free(a->edges);
    free(a->first_out);
    free(a->win);
    free(a->ncallers);
    free(a->on_stack);
    free(a->weight);
    free(a->instance);
    free(a->next_variant);
    free(a->has_self);
    free(a->line_cost);
    free(a->line_first);
}

/* The rows' lines (rows_self) or the call edges (collect_edges) of an
 * approximation: they read different parts of the profile and write
 * different fields of it. */
typedef struct rows_or_edges {
    approx *a;
    int rows;
    int any;                    /* rows_self's answer */
} rows_or_edges;

static void rows_or_edges_run(void *arg)
{
    rows_or_edges *j = arg;
    if (j->rows)
        j->any = rows_self(j->a->p, j->a, j->a->b->s->width);
    else
        collect_edges(j->a);
}

/* The approximated tree, its costs in *costs. */
static void approximate(const ph_profile *p, build *b, cost_blocks *costs)
{
    approx a;
    memset(&a, 0, sizeof a);
    a.p = p;
    a.b = b;
    a.nf = ph_func_count(p);
    a.first = b->s->nnodes;
    a.costs = costs;
    a.has_self = ph_xcalloc(a.nf + 1, 1);
    rows_or_edges rows = { &a, 1, 0 }, edges = { &a, 0, 0 };
    /* side by side when the rows' iterators take none of the profile's
     * scratch (which the calls' may) */
    if (ph_event_nreal(p) <= PH_ROW_INLINE && ph_call_count(p)) {
        ph_run_pair(rows_or_edges_run, &edges, &rows);
    } else {
        rows_or_edges_run(&rows);
        if (rows.any || ph_call_count(p))
            rows_or_edges_run(&edges);
    }
    if (!rows.any && ph_call_count(p) == 0) {
        approx_free(&a);
        return;
    }
    b->s->approx = approx_reason;
    a.on_stack = ph_xcalloc(a.nf + 1, 1);
    for (size_t f = 0; f < a.nf; f++) {
        if (a.ncallers[f])
            continue;
        /* a root: called by nobody; only worth a node with data */
        if (a.first_out[f + 1] == a.first_out[f] && !a.has_self[f])
            continue;
        uint32_t root = add_node(&a, 0, f, 1.0);
        expand(&a, root, f, 1.0, 0);
    }
    /* Functions never reached (cycles without an entry, cut branches)
     * with a self cost become roots of their own. */
    uint8_t *seen = ph_xcalloc(a.nf + 1, 1);
    for (size_t i = a.first; i < b->s->nnodes; i++)
        seen[b->s->nodes[i].func->id - 1] = 1;
    for (size_t f = 0; f < a.nf; f++)
        if (!seen[f] && a.has_self[f])
            add_node(&a, 0, f, 1.0);
    free(seen);
    split_self(&a);
    approx_free(&a);
}

/* ------------------------------------------------------------------ */
/* The cached view                                                    */

typedef struct stacks_view {
    ph_stacks s;
    int64_t *tree_pool;
    cost_blocks approx_costs;
} stacks_view;

static void free_view(void *data)
{
    stacks_view *v = data;
    free((void *)v->s.nodes);
    free((void *)v->s.samples);
    free((void *)v->s.shares);
    free((void *)v->s.ext_ids);
    free(v->tree_pool);
    cost_blocks_free(&v->approx_costs);
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
    approximate(p, &b, &v->approx_costs);
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
