/* view_flat.c -- the flat view of a profile, for writers and reports that
 * need self costs at positions and call records (callgrind, cachegrind,
 * dot, callers/callees): the profile's own rows and calls, plus the context
 * tree turned into the flat shape, exactly.  Built beside the profile,
 * never in it, and cached.
 *
 * The one recursion rule for arcs of a tree: each sample becomes a self
 * row at its frame; each (caller frame position, callee function) edge
 * becomes a call record whose inclusive cost is the cost of the subtrees
 * below it, except where the callee is already on the stack above (its
 * cost is then in an outer record already), so an arc never exceeds the
 * callee's inclusive cost.  The count of such a record is the number of
 * samples below it: sampled data has no call counts.
 *
 * The same rule for the profile's own records (flat data, which has no
 * stacks): a record from a function to itself, or to a function in one
 * cycle with it (strongly connected over every part), is recursive: its
 * calls count, its cost is already inside the record that entered the
 * cycle (gprof shows such arcs with counts only).  ph_flat_recursive says
 * which; the records keep their costs for writers.
 *
 * Call records without an inclusive cost (gprof's arcs carry counts only)
 * get the cost gprof's call graph gives them: the callee's self and
 * children time propagated to each caller in proportion to calls, shared
 * among a pair's records by their counts.  The view holds such records as
 * copies; the profile keeps its own.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gprof.h"
#include "analysis_priv.h"
#include "ir/jobs.h"

/* One row from the tree: a sample at a frame of its function. */
typedef struct tree_row {
    const ph_part *part;
    uint64_t addr;
    uint32_t line;
    uint32_t width;           /* the sample's values (the rest are 0) */
    const int64_t *cost;
} tree_row;

struct ph_flat {
    size_t width;
    /* rows from the tree, grouped by function: rows[first[f] .. first[f+1]) */
    tree_row *rows;
    size_t *first, nrows;
    /* call records from the tree, linked per caller and per callee */
    ph_call *calls;
    size_t ncalls;
    int64_t *incl;            /* ncalls x width */
    /* every record of the view (copies first, then the tree's), listed
     * per caller and per callee: out[out_first[f] .. out_first[f + 1]) */
    size_t *out_first, *out, *in_first, *in;
    /* the profile's records with gprof's costs, when they had none; the
     * lists above then hold these copies first */
    ph_call *copies;
    size_t ncopies;
    int64_t *copy_incl;       /* ncopies x width */
    /* each function's cycle (from 1) among the profile's records, else
     * 0 (ph_call_cycles); made on first use */
    uint32_t *cycle_of;
};

/* ------------------------------------------------------------------ */
/* Rows                                                               */

/* What the rows' pass over the samples tells the calls: the parts that
 * have samples, and the nodes that have a sample of any part. */
typedef struct sample_scan {
    unsigned char *used;    /* per part */
    size_t nused;
    unsigned char *has;     /* per node */
} sample_scan;

/* The rows' first pass: each sample's frame (returned: its node is a
 * cache miss, looked up once), the rows per function (v->first) and the
 * scan. */
static const ph_frame **tree_rows_scan(const ph_profile *p, ph_flat *v,
                                       sample_scan *scan)
{
    size_t nf = ph_func_count(p), ns = ph_sample_count(p);
    const ph_frame **frame = ph_xmalloc_written((ns + 1) * sizeof *frame);
    v->first = ph_xcalloc(nf + 2, sizeof *v->first);
    scan->used = ph_xcalloc(ph_part_count(p) + 1, 1);
    scan->has = ph_xcalloc(ph_node_count(p) + 1, 1);
    for (size_t i = 0; i < ns; i++) {
        const ph_sample *s = ph_sample_at(p, i);
        const ph_frame *fr = s->node ? ph_node_frame(p, s->node) : NULL;
        scan->nused += !scan->used[s->part->index];
        scan->used[s->part->index] = 1;
        if (s->node)
            scan->has[ph_node_id(p, s->node) - 1] = 1;
        frame[i] = fr && fr->func ? fr : NULL;
        if (frame[i])
            v->first[fr->func->id]++;
    }
    for (size_t f = 1; f <= nf; f++)
        v->first[f] += v->first[f - 1];
    v->nrows = v->first[nf];
    return frame;
}

/* The rows' second pass: the rows of each function, in the order of the
 * samples. */
static void tree_rows_fill(const ph_profile *p, ph_flat *v,
                           const ph_frame **frame)
{
    size_t nf = ph_func_count(p), ns = ph_sample_count(p);
    /* every row is written once below: no zeros first */
    v->rows = ph_xmalloc_written((v->nrows + 1) * sizeof *v->rows);
    size_t *fill = ph_xcalloc(nf + 1, sizeof *fill);
    for (size_t i = 0; i < ns; i++) {
        const ph_sample *s = ph_sample_at(p, i);
        const ph_frame *fr = frame[i];
        if (!fr)
            continue;
        size_t f = fr->func->id - 1;
        v->rows[v->first[f] + fill[f]++] =
            (tree_row){s->part, fr->addr, fr->line, s->width, s->cost};
    }
    free(fill);
}

void ph_flat_rows_init(ph_flat_iter *it, const ph_flat *v,
                       const ph_profile *p, const ph_func *f,
                       const ph_part *part)
{
    memset(it, 0, sizeof *it);
    ph_row_iter_init(&it->rows, p, f, part);
    it->v = v;
    it->f = f;
    it->part = part;
    it->next = v->first[f->id - 1];
    it->end = v->first[f->id];
}

int ph_flat_rows_next(ph_flat_iter *it, ph_row *out)
{
    if (!it->in_tree) {
        if (ph_row_next(&it->rows, out))
            return 1;
        it->in_tree = 1;
    }
    while (it->next < it->end) {
        const tree_row *r = &it->v->rows[it->next++];
        if (it->part && r->part != it->part)
            continue;
        out->addr = r->addr;
        out->line = r->line;
        out->file = it->f->file;
        out->cost = r->cost;
        if (r->width < it->v->width) {
            /* a sample keeps no trailing zeros (ph_sample_add): the row
             * iterator's buffer, done with, takes the whole vector */
            int64_t *c = it->rows.wide ? it->rows.wide : it->rows.buf;
            memcpy(c, r->cost, r->width * sizeof *c);
            memset(c + r->width, 0, (it->v->width - r->width) * sizeof *c);
            out->cost = c;
        }
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Calls                                                              */

/* Edges of one part being summed, found by (caller, site, callee). */
typedef struct edge_tab {
    size_t *slot;             /* index + 1 into the view's calls */
    size_t mask;
} edge_tab;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

static size_t edge_hash(const ph_func *caller, uint64_t addr, uint32_t line,
                        const ph_func *callee)
{
    return (size_t)mix(mix(mix(mix(0, caller->id), addr), line), callee->id);
}

typedef struct calls_build {
    ph_flat *v;
    size_t cap;
    edge_tab t;
    size_t incl_seen;         /* records whose incl has been asked for */
} calls_build;

static void tab_grow(calls_build *b)
{
    size_t cap = b->t.mask ? 2 * (b->t.mask + 1) : 256;
    size_t *slot = ph_xcalloc_written(cap, sizeof *slot);
    for (size_t i = 0; b->t.mask && i <= b->t.mask; i++) {
        if (!b->t.slot[i])
            continue;
        const ph_call *c = &b->v->calls[b->t.slot[i] - 1];
        size_t j = edge_hash(c->caller, c->addr, c->line, c->callee) &
                   (cap - 1);
        while (slot[j])
            j = (j + 1) & (cap - 1);
        slot[j] = b->t.slot[i];
    }
    free(b->t.slot);
    b->t.slot = slot;
    b->t.mask = cap - 1;
}

/* The record of caller frame n to the function of its child c in part. */
static ph_call *get_call(calls_build *b, const ph_frame *n, const ph_frame *c,
                         ph_part *part, size_t first_of_part)
{
    ph_flat *v = b->v;
    if ((v->ncalls - first_of_part + 1) * 2 > b->t.mask)
        tab_grow(b);
    size_t j = edge_hash(n->func, n->addr, n->line, c->func) & b->t.mask;
    for (; b->t.slot[j]; j = (j + 1) & b->t.mask) {
        ph_call *e = &v->calls[b->t.slot[j] - 1];
        if (e->caller == n->func && e->callee == c->func &&
            e->addr == n->addr && e->line == n->line)
            return e;
    }
    if (v->ncalls == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        v->calls = ph_xrealloc(v->calls, b->cap * sizeof *v->calls);
    }
    ph_map_ahead(v->calls, sizeof *v->calls, v->ncalls, b->cap);
    ph_call *e = &v->calls[v->ncalls++];
    memset(e, 0, sizeof *e);
    e->caller = n->func;
    e->callee = c->func;
    e->part = part;
    e->addr = n->addr;
    e->line = n->line;
    e->target_addr = c->addr;
    e->target_line = c->line;
    e->width = (uint32_t)v->width;
    e->incl = NULL;               /* pointed into v->incl at the end */
    b->t.slot[j] = v->ncalls;
    return e;
}

/* The pool of inclusive costs grows with the records; indices stay. */
static int64_t *incl_of(calls_build *b, size_t index, size_t *icap)
{
    ph_flat *v = b->v;
    size_t w = v->width;
    if (index >= *icap) {
        size_t old = *icap;
        *icap = *icap ? 2 * *icap : 256;
        while (*icap <= index)
            *icap *= 2;
        v->incl = ph_xrecalloc(v->incl, old * w * sizeof *v->incl,
                               (*icap * w + 1) * sizeof *v->incl);
    }
    if (index >= b->incl_seen) {    /* a new record: made in order */
        b->incl_seen = index + 1;
        ph_map_ahead(v->incl, w * sizeof *v->incl, index, *icap);
    }
    return v->incl + index * w;
}

/* Per node: whether a sample of part lies in its subtree.  With one part
 * of samples, the nodes that have a sample are those of the part. */
static unsigned char *live_nodes(const ph_profile *p, int part,
                                 const sample_scan *scan)
{
    size_t nn = ph_node_count(p);
    unsigned char *live = ph_xmalloc(nn + 1);
    if (scan->nused == 1) {
        memcpy(live, scan->has, nn + 1);
    } else {
        memset(live, 0, nn + 1);
        for (size_t i = 0; i < ph_sample_count(p); i++) {
            const ph_sample *s = ph_sample_at(p, i);
            if (s->node && ph_part_selected(s->part, part))
                live[ph_node_id(p, s->node) - 1] = 1;
        }
    }
    for (size_t i = nn; i-- > 0;) {   /* parents come before children */
        uint32_t up = ph_node_at(p, i)->parent;
        if (live[i] && up)
            live[up - 1] = 1;
    }
    return live;
}

/* A node on the walk's path: its subtree's cost (in a parallel array) and
 * sample count so far, and the record its edge from its parent adds them
 * to when the walk leaves it. */
typedef struct path_ent {
    const ph_node *n;
    const ph_frame *fr;
    size_t rec;         /* record index + 1; 0 none */
    int add_incl;       /* the outermost frame of its function */
    uint64_t cnt;
} path_ent;

/* The tree's calls of one part: an edge from a node with a function to a
 * child with a function is a call; its count is the number of samples
 * below the child and its inclusive cost their cost, counted once per
 * stack when the callee recurses.  One depth-first walk adds the costs up
 * along the path as it leaves each node (no vector per node). */
static void tree_calls_part(const ph_profile *p, calls_build *b,
                            ph_part *part, size_t *icap,
                            const sample_scan *scan)
{
    size_t w = b->v->width, nn = ph_node_count(p), depth = 0, cap = 0;
    unsigned char *live = live_nodes(p, (int)part->index, scan);
    unsigned char *additive = ph_xmalloc(w + 1);
    uint32_t *on = ph_xcalloc(ph_func_count(p) + 1, sizeof *on);
    path_ent *path = NULL;
    int64_t *psum = NULL;
    size_t first = b->v->ncalls;
    for (size_t k = 0; k < w; k++)
        additive[k] = !(ph_event_real(p, k)->flags & PH_EV_NONADDITIVE);
    free(b->t.slot);
    b->t.slot = NULL;
    b->t.mask = 0;
    tab_grow(b);
    /* Depth-first from each root along the links: on[f] counts f's
     * frames on the path above the current node. */
    for (uint32_t root = nn ? 1 : 0; root;
         root = ph_node_at(p, root - 1)->sibling) {
        uint32_t id = root;
        if (!live[root - 1])
            continue;
        while (id) {
            const ph_node *n = ph_node_at(p, id - 1);
            const ph_frame *fr = ph_node_frame(p, n);
            if (depth == cap) {
                cap = cap ? 2 * cap : 64;
                path = ph_xrealloc(path, cap * sizeof *path);
                psum = ph_xrealloc(psum, cap * (w + 1) * sizeof *psum);
            }
            path_ent *pe = &path[depth];
            int64_t *sum = psum + depth * w;
            *pe = (path_ent){n, fr, 0, 0, 0};
            memset(sum, 0, w * sizeof *sum);
            for (const ph_sample *s = ph_node_samples(p, n); s; s = s->next) {
                if (!ph_part_selected(s->part, (int)part->index))
                    continue;
                for (size_t k = 0; k < w; k++)
                    if (additive[k])
                        sum[k] = ph_cost_add_fast(sum[k],
                                                  ph_sample_value(s, k));
                pe->cnt++;
            }
            if (depth && fr->func && live[id - 1]) {
                const ph_frame *ufr = path[depth - 1].fr;  /* the parent's */
                if (ufr->func) {
                    ph_call *e = get_call(b, ufr, fr, part, first);
                    pe->rec = (size_t)(e - b->v->calls) + 1;
                    (void)incl_of(b, pe->rec - 1, icap);
                    pe->add_incl = on[fr->func->id - 1] == 0;
                }
            }
            if (fr->func)
                on[fr->func->id - 1]++;
            depth++;
            uint32_t c = n->child;
            while (c && !live[c - 1])
                c = ph_node_at(p, c - 1)->sibling;
            if (c) {
                id = c;
                continue;
            }
            while (id) {
                depth--;
                pe = &path[depth];
                n = pe->n;
                fr = pe->fr;
                if (fr->func)
                    on[fr->func->id - 1]--;
                sum = psum + depth * w;
                if (pe->rec) {
                    b->v->calls[pe->rec - 1].count += pe->cnt;
                    if (pe->add_incl)
                        ph_vec_add(incl_of(b, pe->rec - 1, icap), sum, w);
                }
                if (depth) {
                    ph_vec_add(sum - w, sum, w);
                    path[depth - 1].cnt += pe->cnt;
                }
                id = id == root ? 0 : n->sibling;
                while (id && !live[id - 1])
                    id = ph_node_at(p, id - 1)->sibling;
                if (id)
                    break;
                id = depth ? n->parent : 0;
            }
        }
    }
    free(psum);
    free(path);
    free(on);
    free(additive);
    free(live);
}

/* Record k of the view: copies first, then the tree's. */
static ph_call *record(const ph_flat *v, size_t k)
{
    return k < v->ncopies ? &v->copies[k] : &v->calls[k - v->ncopies];
}

/* Index lists of the view's records per caller and per callee, in the
 * order the records were made. */
static void link_calls(const ph_profile *p, ph_flat *v)
{
    size_t nf = ph_func_count(p), n = v->ncopies + v->ncalls;
    v->out_first = ph_xcalloc(nf + 2, sizeof *v->out_first);
    v->in_first = ph_xcalloc(nf + 2, sizeof *v->in_first);
    v->out = ph_xmalloc_written((n + 1) * sizeof *v->out);
    v->in = ph_xmalloc_written((n + 1) * sizeof *v->in);
    for (size_t k = 0; k < v->ncalls; k++)
        v->calls[k].incl = v->incl + k * v->width;
    for (size_t k = 0; k < n; k++) {
        v->out_first[record(v, k)->caller->id]++;
        v->in_first[record(v, k)->callee->id]++;
    }
    for (size_t f = 1; f <= nf; f++) {
        v->out_first[f] += v->out_first[f - 1];
        v->in_first[f] += v->in_first[f - 1];
    }
    size_t *fo = ph_xcalloc(nf + 1, sizeof *fo), *fi = ph_xcalloc(nf + 1,
                                                                 sizeof *fi);
    for (size_t k = 0; k < n; k++) {
        size_t from = record(v, k)->caller->id - 1;
        size_t to = record(v, k)->callee->id - 1;
        v->out[v->out_first[from] + fo[from]++] = k;
        v->in[v->in_first[to] + fi[to]++] = k;
    }
    free(fo);
    free(fi);
}

static void tree_calls(const ph_profile *p, ph_flat *v,
                       const sample_scan *scan)
{
    calls_build b = { .v = v };
    size_t icap = 0, np = ph_part_count(p);
    for (size_t i = 0; i < np; i++)
        if (scan->used[i])  /* each pass is O(nodes): only parts with data */
            tree_calls_part(p, &b, ph_part_at(p, i), &icap, scan);
    free(b.t.slot);
    link_calls(p, v);
}

int ph_flat_from_tree(const ph_flat *v)
{
    return v->ncalls > 0 || v->nrows > 0;
}

int ph_flat_is_tree(const ph_flat *v, const ph_call *c)
{
    return v->ncalls && c >= v->calls && c < v->calls + v->ncalls;
}

/* The profile's own records come first, unless the view holds copies of
 * them (with gprof's costs); then the view's records. */
static const ph_call *start(ph_flat_calls *it, const ph_flat *v,
                            const ph_profile *p, const ph_func *f, int in)
{
    memset(it, 0, sizeof *it);
    it->v = v;
    it->f = f;
    it->in = in;
    it->p = p;
    it->ir_state = v->ncopies ? 2 : 0;
    it->k = in ? v->in_first[f->id - 1] : v->out_first[f->id - 1];
    it->end = in ? v->in_first[f->id] : v->out_first[f->id];
    return ph_flat_calls_next(it);
}

const ph_call *ph_flat_calls_out(ph_flat_calls *it, const ph_flat *v,
                                 const ph_profile *p, const ph_func *f)
{
    return start(it, v, p, f, 0);
}

const ph_call *ph_flat_calls_in(ph_flat_calls *it, const ph_flat *v,
                                const ph_profile *p, const ph_func *f)
{
    return start(it, v, p, f, 1);
}

const ph_call *ph_flat_calls_next(ph_flat_calls *it)
{
    if (it->ir_state < 2) {
        const ph_call *c = it->ir_state == 0
            ? (it->in ? ph_calls_in(&it->ir, it->p, it->f)
                      : ph_calls_out(&it->ir, it->p, it->f))
            : ph_call_next(&it->ir);
        it->ir_state = c ? 1 : 2;
        if (c)
            return c;
    }
    if (it->k < it->end) {
        size_t k = it->in ? it->v->in[it->k++] : it->v->out[it->k++];
        return record(it->v, k);
    }
    return NULL;
}

int ph_flat_recursive(const ph_flat *v, const ph_profile *p,
                      const ph_call *c)
{
    if (c->caller == c->callee)
        return 1;
    if (ph_flat_is_tree(v, c))
        return 0;      /* tree records follow the stacks already */
    if (!v->cycle_of)  /* the view's one lazily made part */
        ((ph_flat *)v)->cycle_of = ph_call_cycles(p, PH_ALL_PARTS);
    uint32_t k = v->cycle_of[c->caller->id - 1];
    return k && k == v->cycle_of[c->callee->id - 1];
}

/* ------------------------------------------------------------------ */
/* gprof's costs for records that have none                           */

static int records_lack_costs(const ph_profile *p)
{
    ph_call_iter it;
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it))
        if (!c->incl)
            return 1;
    return 0;
}

/* Sum of counts per (caller, callee) pair, looked up by binary search in
 * arcs sorted by pair. */
typedef struct pair {
    uint32_t caller, callee;
    uint64_t count;
    double *units;            /* width: gprof's arc time in event units */
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->caller != y->caller)
        return x->caller < y->caller ? -1 : 1;
    return x->callee < y->callee ? -1 : x->callee > y->callee;
}

static pair *find_pair(pair *v, size_t n, uint32_t caller, uint32_t callee)
{
    pair key = { caller, callee, 0, NULL };
    return n ? bsearch(&key, v, n, sizeof *v, cmp_pair) : NULL;
}


/* Integer costs of n values x[0], x[stride], ... whose sum is the rounded
 * sum of the exact ones (the largest remainders get the leftover units),
 * so that a caller's calls add up to what gprof prints for its children. */
typedef struct leftover {
    double frac;
    size_t i;
} leftover;

static int cmp_remainder(const void *a, const void *b)
{
    const leftover *x = a, *y = b;
    if (x->frac != y->frac)
        return x->frac > y->frac ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static void round_run(const double *x, int64_t *out, size_t n, size_t stride)
{
    double sum = 0;
    int64_t got = 0;
    for (size_t i = 0; i < n; i++) {
        sum += x[i * stride];
        out[i * stride] = (int64_t)floor(x[i * stride]);
        got += out[i * stride];
    }
    int64_t left = llround(sum) - got;
    if (left <= 0)
        return;
    leftover *r = ph_xcalloc(n, sizeof *r);
    for (size_t i = 0; i < n; i++)
        r[i] = (leftover){x[i * stride] - (double)out[i * stride], i};
    ph_qsort(r, n, sizeof *r, cmp_remainder);
    for (size_t j = 0; j < n && left > 0; j++, left--)
        out[r[j].i * stride]++;
    free(r);
}

static void gprof_copies(const ph_profile *p, ph_flat *v)
{
    size_t nc = ph_call_count(p), w = v->width, np = 0;
    pair *pairs = ph_xcalloc(nc + 1, sizeof *pairs);
    ph_call_iter it;
    const ph_call *c;
    for (c = ph_calls_all(&it, p); c && np < nc; c = ph_call_next(&it))
        pairs[np++] = (pair){c->caller->id - 1, c->callee->id - 1, 0, NULL};
    ph_qsort(pairs, np, sizeof *pairs, cmp_pair);
    size_t m = 0;
    for (size_t i = 0; i < np; i++)
        if (!m || cmp_pair(&pairs[m - 1], &pairs[i]))
            pairs[m++] = pairs[i];
    np = m;
    double *units = ph_xcalloc(np * w + 1, sizeof *units);
    for (size_t i = 0; i < np; i++)
        pairs[i].units = units + i * w;
    for (c = ph_calls_all(&it, p); c; c = ph_call_next(&it))
        find_pair(pairs, np, c->caller->id - 1, c->callee->id - 1)->count +=
            c->count;
    for (size_t k = 0; k < w; k++) {
        const ph_event *ev = ph_event_real(p, k);
        if (ev->flags & PH_EV_NONADDITIVE)
            continue;
        double scale = ev->scale != 0 ? ev->scale : 1.0;
        ph_gprof *g = ph_gprof_compute(p, ev, PH_ALL_PARTS);
        for (size_t a = 0; a < ph_gprof_narcs(g); a++) {
            const ph_gprof_arc *arc = ph_gprof_arc_at(g, a);
            pair *pr = find_pair(pairs, np, arc->caller->id - 1,
                                 arc->callee->id - 1);
            if (pr)
                pr->units[k] = (arc->time + arc->child_time) / scale;
        }
        ph_gprof_free(g);
    }
    v->copies = ph_xcalloc(nc + 1, sizeof *v->copies);
    v->copy_incl = ph_xcalloc(nc * w + 1, sizeof *v->copy_incl);
    double *exact = ph_xcalloc(nc * w + 1, sizeof *exact);
    size_t i = 0;
    for (c = ph_calls_all(&it, p); c && i < nc; c = ph_call_next(&it), i++) {
        ph_call *cp = &v->copies[i];
        *cp = *c;
        const pair *pr = find_pair(pairs, np, cp->caller->id - 1,
                                   cp->callee->id - 1);
        cp->incl = v->copy_incl + i * w;
        cp->width = (uint32_t)w;
        if (cp->caller == cp->callee || !pr->count)
            continue;              /* recursion: inside the caller's cost */
        double share = (double)cp->count / (double)pr->count;
        for (size_t k = 0; k < w; k++)
            exact[i * w + k] = pr->units[k] * share;
    }
    v->ncopies = i;
    /* Calls come by caller: round each caller's calls together. */
    for (size_t a = 0, b; a < v->ncopies; a = b) {
        for (b = a + 1; b < v->ncopies &&
                        v->copies[b].caller == v->copies[a].caller; b++)
            ;
        for (size_t k = 0; k < w; k++)
            round_run(exact + a * w + k, v->copy_incl + a * w + k, b - a, w);
    }
    free(exact);
    free(units);
    free(pairs);
}

/* ------------------------------------------------------------------ */
/* The cached view                                                    */

static void free_view(void *data)
{
    ph_flat *v = data;
    free(v->rows);
    free(v->first);
    free(v->calls);
    free(v->incl);
    free(v->out_first);
    free(v->out);
    free(v->in_first);
    free(v->in);
    free(v->copies);
    free(v->copy_incl);
    free(v->cycle_of);
    free(v);
}

static const char flat_key[] = "flat";

/* Rows from which the rows' second pass runs beside the calls. */
#define PAIR_MIN_ROWS 16384

/* The rows' second pass or the calls: they read the profile and the scan
 * and write different fields of the view. */
typedef struct rows_or_calls {
    const ph_profile *p;
    ph_flat *v;
    const ph_frame **frame;     /* the rows' side: each sample's frame */
    const sample_scan *scan;    /* the calls' side */
} rows_or_calls;

static void rows_or_calls_run(void *arg)
{
    rows_or_calls *j = arg;
    if (j->frame) {
        tree_rows_fill(j->p, j->v, j->frame);
        return;
    }
    if (records_lack_costs(j->p))
        gprof_copies(j->p, j->v);
    tree_calls(j->p, j->v, j->scan);
}

const ph_flat *ph_flat_of(const ph_profile *p)
{
    ph_flat *v = ph_profile_cache(p, flat_key);
    if (v)
        return v;
    v = ph_xcalloc(1, sizeof *v);
    v->width = ph_event_nreal(p);
    sample_scan scan = {0};
    const ph_frame **frame = tree_rows_scan(p, v, &scan);
    rows_or_calls rows = { p, v, frame, NULL }, calls = { p, v, NULL, &scan };
    if (v->nrows >= PAIR_MIN_ROWS) {
        ph_run_pair(rows_or_calls_run, &rows, &calls);
    } else {
        rows_or_calls_run(&rows);
        rows_or_calls_run(&calls);
    }
    free(frame);
    free(scan.used);
    free(scan.has);
    ph_profile_cache_put(p, flat_key, v, free_view);
    return v;
}
