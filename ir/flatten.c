/* flatten.c -- turn the context tree into the flat shape, exactly: each
 * sample becomes a self row at its frame, and each (caller frame position,
 * callee function) edge becomes a call record with the inclusive cost of
 * the subtrees below it, not counting a callee already on the stack.
 */
#include "config.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"

/* A call record being summed: one per (caller, site, callee) and part. */
typedef struct edge {
    ph_func *caller, *callee;
    uint64_t addr;
    uint32_t line;
    uint64_t target_addr;
    uint32_t target_line;
    uint64_t count;
    int64_t incl[];
} edge;

static uint64_t hash_edge(uint64_t seed, const ph_func *caller,
                          uint64_t addr, uint32_t line, const ph_func *callee)
{
    uint64_t h = ph_hash_mix(seed, caller->id);
    h = ph_hash_mix(h, addr);
    h = ph_hash_mix(h, line);
    return ph_hash_mix(h, callee->id);
}

/* Find or make the edge of caller frame n to callee function c->func. */
static edge *get_edge(ph_htab *t, ph_vec *order, uint64_t seed,
                      const ph_node *n, const ph_node *c, size_t w)
{
    uint64_t h = hash_edge(seed, n->func, n->addr, n->line, c->func);
    edge *e;
    size_t i;
    for (i = h & t->mask; t->v[i]; i = (i + 1) & t->mask) {
        e = t->v[i];
        if (t->h[i] == h && e->caller == n->func && e->callee == c->func &&
            e->addr == n->addr && e->line == n->line)
            return e;
    }
    e = ph_xcalloc(1, sizeof *e + w * sizeof(int64_t));
    e->caller = n->func;
    e->callee = c->func;
    e->addr = n->addr;
    e->line = n->line;
    e->target_addr = c->addr;
    e->target_line = c->line;
    ph_htab_insert(t, h, e);
    ph_vec_push(order, e);
    return e;
}

/* Call records of one part. */
static void flatten_part(ph_profile *p, ph_part *part, size_t w)
{
    size_t nn = p->nodes.n, i, any = 0;
    int64_t *sub;
    uint64_t *cnt;
    uint32_t *on;
    ph_htab t;
    ph_vec order = { 0 };
    ph_node *n;
    if (nn && w > SIZE_MAX / sizeof *sub / nn)
        ph_oom();
    sub = ph_xcalloc(nn * w, sizeof *sub);
    cnt = ph_xcalloc(nn, sizeof *cnt);
    on = ph_xcalloc(p->funcs.n, sizeof *on);
    for (i = 0; i < p->samples.n; i++) {
        const ph_sample *s = p->samples.v[i];
        size_t k, m = s->width < w ? s->width : w;
        if (s->part != part || !s->node)
            continue;
        for (k = 0; k < m; k++)
            sub[(s->node->id - 1) * w + k] =
                ph_add_sat(sub[(s->node->id - 1) * w + k], s->cost[k]);
        cnt[s->node->id - 1]++;
        any = 1;
    }
    if (!any)
        goto done;
    for (i = nn; i-- > 0;) {
        const ph_node *c = p->nodes.v[i];
        size_t k, up;
        if (!c->parent)
            continue;
        up = c->parent->id - 1;
        cnt[up] += cnt[i];
        for (k = 0; k < w; k++)
            sub[up * w + k] = ph_add_sat(sub[up * w + k], sub[i * w + k]);
    }
    ph_htab_init(&t, 64);
    n = p->root_first;
    while (n) {
        const ph_node *up = n->parent;
        if (up && up->func && n->func && cnt[n->id - 1]) {
            edge *e = get_edge(&t, &order, p->seed, up, n, w);
            e->count += cnt[n->id - 1];
            if (on[n->func->id - 1] == 0) {
                size_t k;
                for (k = 0; k < w; k++)
                    e->incl[k] = ph_add_sat(e->incl[k],
                                             sub[(n->id - 1) * w + k]);
            }
        }
        if (n->func)
            on[n->func->id - 1]++;
        if (n->child) {
            n = n->child;
            continue;
        }
        while (n) {
            if (n->func)
                on[n->func->id - 1]--;
            if (n->sibling) {
                n = n->sibling;
                break;
            }
            n = n->parent;
        }
    }
    for (i = 0; i < order.n; i++) {
        edge *e = order.v[i];
        ph_call_add(p, e->caller, part, e->addr, e->line, NULL, e->callee,
                    e->target_addr, e->target_line, e->count, e->incl, w);
        free(e);
    }
    ph_vec_free(&order);
    ph_htab_free(&t);
done:
    free(on);
    free(cnt);
    free(sub);
}

void ph_profile_flatten(ph_profile *p)
{
    size_t w = p->reals.n, i;
    if (p->nodes.n == 0 || p->nrows > 0 || p->flattened)
        return;
    for (i = 0; i < p->samples.n; i++) {
        const ph_sample *s = p->samples.v[i];
        if (s->node && s->node->func)
            ph_row_add(p, s->node->func, s->part, s->node->addr,
                       s->node->line, NULL, s->cost,
                       s->width < w ? s->width : w);
    }
    {
        /* only parts that hold samples: each pass is O(nodes) */
        unsigned char *used = ph_xcalloc(p->parts.n, 1);
        for (i = 0; i < p->samples.n; i++)
            used[((const ph_sample *)p->samples.v[i])->part->index] = 1;
        for (i = 0; i < p->parts.n; i++)
            if (used[i])
                flatten_part(p, p->parts.v[i], w);
        free(used);
    }
    /* The rows and calls now hold the tree's costs: aggregates must not
     * count the samples a second time. */
    p->flattened = 1;
    ph_profile_invalidate(p);
}
