/* cycles.c -- strongly connected components of the flat call graph
 * (ph_scc, self calls ignored) and gprof's inclusive rule for
 * cycle members, so that inclusive cost never exceeds the total. */
#include "config.h"

#include <stdlib.h>

#include "analysis_priv.h"

struct ph_cycles {
    const ph_profile *p;
    size_t nfunc, w;
    uint32_t ncycles;
    uint32_t *cycle_of;      /* by function id - 1; 0 = none */
    ph_func **members;       /* grouped by cycle, in function id order */
    size_t *first;           /* ncycles + 1 offsets into members */
    int64_t *member_incl;    /* w values per member, in members order */
    int64_t *self;           /* ncycles * w */
    int64_t *incl;           /* ncycles * w */
    uint64_t *calls;         /* ncycles */
    uint64_t *inner;         /* ncycles: calls between members */
};

/* The call graph of the selected part(s) without self calls, in the
 * compressed form ph_scc reads, with each arc's count: one pass over the
 * calls, which come in caller order. */
typedef struct call_graph {
    size_t *first;           /* n + 1 offsets into to and count */
    uint32_t *to;            /* callee index */
    uint64_t *count;
} call_graph;

static void graph_of(const ph_profile *p, int part, size_t n, call_graph *g)
{
    size_t m = 0, cap = ph_call_count(p) + 1, v = 0;
    g->first = ph_xmalloc_written((n + 1) * sizeof *g->first);   /* all set */
    g->to = ph_xmalloc(cap * sizeof *g->to);
    g->count = ph_xmalloc(cap * sizeof *g->count);
    ph_call_iter it;
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it)) {
        if (c->callee == c->caller || !ph_part_selected(c->part, part))
            continue;
        for (size_t caller = c->caller->id - 1; v <= caller; v++)
            g->first[v] = m;
        ph_map_ahead(g->to, sizeof *g->to, m, cap);
        ph_map_ahead(g->count, sizeof *g->count, m, cap);
        g->to[m] = c->callee->id - 1;
        g->count[m++] = c->count;
    }
    for (; v <= n; v++)
        g->first[v] = m;
}

static void graph_free(call_graph *g)
{
    free(g->first);
    free(g->to);
    free(g->count);
}

static uint32_t *find_components(const call_graph *g, size_t n,
                                 uint32_t *ncomp_sizes_out)
{
    uint32_t *comp = ph_xcalloc(n + 1, sizeof *comp);
    size_t ncomp = ph_scc(n, g->first, g->to, NULL, comp, NULL, NULL);
    uint32_t *size = ph_xcalloc(ncomp + 1, sizeof *size);
    for (size_t i = 0; i < n; i++)
        size[++comp[i]]++;     /* components from 1 */
    /* Keep only components of two or more; renumber by first member id. */
    uint32_t *renum = ph_xcalloc(ncomp + 1, sizeof *renum);
    uint32_t ncycles = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = comp[i];
        if (size[c] < 2) {
            comp[i] = 0;
            continue;
        }
        if (!renum[c])
            renum[c] = ++ncycles;
        comp[i] = renum[c];
    }
    free(renum);
    free(size);
    *ncomp_sizes_out = ncycles;
    return comp;
}

uint32_t *ph_call_cycles(const ph_profile *p, int part)
{
    size_t n = ph_func_count(p);
    uint32_t ncycles;
    call_graph g = {0};
    graph_of(p, part, n, &g);
    uint32_t *comp = find_components(&g, n, &ncycles);
    graph_free(&g);
    return comp;
}

ph_cycles *ph_cycles_find(const ph_profile *p, int part)
{
    ph_cycles *c = ph_xcalloc(1, sizeof *c);
    c->p = p;
    c->nfunc = ph_func_count(p);
    c->w = ph_event_nreal(p);
    size_t n = c->nfunc, w = c->w;
    call_graph g = {0};
    if (n) {
        graph_of(p, part, n, &g);
        c->cycle_of = find_components(&g, n, &c->ncycles);
    }

    uint32_t nc = c->ncycles;
    c->first = ph_xcalloc(nc + 2, sizeof *c->first);
    for (size_t i = 0; i < n; i++)
        if (c->cycle_of[i])
            c->first[c->cycle_of[i] + 1]++;
    for (uint32_t k = 1; k <= nc + 1; k++)
        c->first[k] += c->first[k - 1];
    c->members = ph_xmalloc((c->first[nc + 1] + 1) * sizeof *c->members);
    size_t *fill = ph_xcalloc(nc + 1, sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        uint32_t k = c->cycle_of[i];
        if (k)
            c->members[c->first[k] + fill[k]++] = ph_func_at(p, i);
    }
    free(fill);

    /* one vector per member, not per function: members are few, and
     * spread over a table of every function they would touch its pages */
    c->member_incl = ph_xcalloc(c->first[nc + 1] * w + 1,
                                sizeof *c->member_incl);
    c->self = ph_xcalloc(nc * w + 1, sizeof *c->self);
    c->incl = ph_xcalloc(nc * w + 1, sizeof *c->incl);
    c->calls = ph_xcalloc(nc + 1, sizeof *c->calls);
    c->inner = ph_xcalloc(nc + 1, sizeof *c->inner);
    /* the members' own sums, not every function's (a table of one event
     * asks for no other) */
    int64_t *self = ph_xmalloc((w + 1) * sizeof *self);
    for (size_t m = 0; m < c->first[nc + 1]; m++) {
        const ph_func *f = c->members[m];
        uint32_t k = c->cycle_of[f->id - 1];
        memset(self, 0, w * sizeof *self);
        ph_func_self_add(p, f, part, self);
        int64_t *mi = c->member_incl + m * w;
        ph_vec_add(mi, self, w);
        ph_vec_add(c->self + (k - 1) * w, self, w);
        ph_vec_add(c->incl + (k - 1) * w, self, w);
        ph_call_iter it;
        for (const ph_call *e = ph_calls_out(&it, p, f); e;
             e = ph_call_next(&it)) {
            if (!ph_part_selected(e->part, part) || e->callee == f ||
                c->cycle_of[e->callee->id - 1] == k)
                continue;
            ph_vec_add_call(mi, e, w);
            ph_vec_add_call(c->incl + (k - 1) * w, e, w);
        }
    }
    free(self);
    /* the calls into each cycle from outside it and between its members
     * (self calls are not in the graph: they count as neither) */
    for (size_t v = 0; nc && v < n; v++)
        for (size_t e = g.first[v]; e < g.first[v + 1]; e++) {
            uint32_t k = c->cycle_of[g.to[e]];
            if (!k)
                continue;
            if (c->cycle_of[v] != k)
                c->calls[k - 1] += g.count[e];
            else
                c->inner[k - 1] += g.count[e];
        }
    if (n)
        graph_free(&g);
    return c;
}

void ph_cycles_free(ph_cycles *c)
{
    if (!c)
        return;
    free(c->cycle_of);
    free(c->members);
    free(c->first);
    free(c->member_incl);
    free(c->self);
    free(c->incl);
    free(c->calls);
    free(c->inner);
    free(c);
}

uint32_t ph_cycles_count(const ph_cycles *c)
{
    return c->ncycles;
}

uint32_t ph_cycles_of(const ph_cycles *c, const ph_func *f)
{
    if (!f || f->id == 0 || f->id > c->nfunc)
        return 0;
    return c->cycle_of[f->id - 1];
}

ph_func *const *ph_cycles_members(const ph_cycles *c, uint32_t n,
                                  size_t *count)
{
    if (n == 0 || n > c->ncycles) {
        *count = 0;
        return NULL;
    }
    *count = c->first[n + 1] - c->first[n];
    return c->members + c->first[n];
}

const int64_t *ph_cycles_member_incl(const ph_cycles *c, const ph_func *f)
{
    uint32_t k = ph_cycles_of(c, f);
    if (!k)
        return NULL;
    /* a cycle's members are in function id order */
    size_t lo = c->first[k], hi = c->first[k + 1];
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->members[mid]->id <= f->id)
            lo = mid;
        else
            hi = mid;
    }
    return c->member_incl + lo * c->w;
}

const int64_t *ph_cycles_self(const ph_cycles *c, uint32_t n)
{
    return (n && n <= c->ncycles) ? c->self + (n - 1) * c->w : NULL;
}

const int64_t *ph_cycles_incl(const ph_cycles *c, uint32_t n)
{
    return (n && n <= c->ncycles) ? c->incl + (n - 1) * c->w : NULL;
}

uint64_t ph_cycles_calls(const ph_cycles *c, uint32_t n)
{
    return (n && n <= c->ncycles) ? c->calls[n - 1] : 0;
}

uint64_t ph_cycles_inner_calls(const ph_cycles *c, uint32_t n)
{
    return (n && n <= c->ncycles) ? c->inner[n - 1] : 0;
}
