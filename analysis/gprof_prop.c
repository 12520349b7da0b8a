/* gprof_prop.c -- gprof's call-graph arithmetic (GNU gprof cg_arcs.c, as
 * described in ../shared/formats/gprof.md section 6): self-recursive arcs
 * become self_calls, strongly connected components become "<cycle N>"
 * (numbered by their head's address, the head being the member a
 * depth-first walk from the lowest addresses reaches first), and time flows
 * from callees to callers in reverse topological order with
 * share = count / callee calls.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/gprof.h"
#include "analysis_priv.h"

typedef struct node {
    const ph_func *f;
    double self, child;       /* ticks */
    uint64_t ncalls, self_calls;
    size_t *kids;             /* arc indices, gprof's children order */
    size_t nkids;
    uint32_t cyc;             /* cycle index + 1 */
    uint32_t visit;           /* order the component search met it */
    int used;
} node;

struct ph_gprof {
    ph_gprof_fn *fns;
    size_t nfns;
    size_t *by_id;            /* func id -> fns index + 1 */
    size_t nids;
    ph_gprof_cycle *cycles;
    size_t ncycles;
    ph_gprof_arc *arcs;
    size_t narcs;
    double total;
    const char *approx;
};

typedef struct rawarc {
    uint32_t from, to;        /* func ids - 1 */
    uint64_t count;
    size_t first;             /* order of first appearance */
} rawarc;

static int cmp_raw(const void *x, const void *y)
{
    const rawarc *a = x, *b = y;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    if (a->to != b->to)
        return a->to < b->to ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */

/* gprof's own histogram credits kept by the gmon importer, if any, for
 * event ev; functions without a credit get no time, as in gprof (its
 * symbol ranges reach the next symbol). */
static void load_credits(const ph_profile *p, const ph_event *ev,
                         node *nodes, size_t n)
{
    if (!ph_has_credits(p, ev))
        return;
    for (size_t i = 0; i < n; i++)
        nodes[i].self = ph_func_credit(p, nodes[i].f);
}

static double self_of(const ph_profile *p, const ph_func *f, const ph_event *ev,
                      int part)
{
    const int64_t *v = ph_func_self(p, f, part);
    if (ev->slot >= 0)
        return (double)v[ev->slot];
    return ph_event_eval(p, ev, v);
}

/* Calls of the selected part(s), summed per (caller, callee). */
static rawarc *collect_arcs(const ph_profile *p, int part, size_t *n_out)
{
    size_t nc = ph_call_count(p), n = 0, seq = 0;
    rawarc *r = ph_xmalloc((nc ? nc : 1) * sizeof *r);
    ph_call_iter it;

    for (const ph_call *c = ph_calls_all(&it, p); c;
         c = ph_call_next(&it), seq++) {
        if (part != PH_ALL_PARTS && (!c->part || (int)c->part->index != part))
            continue;
        r[n++] = (rawarc){c->caller->id - 1, c->callee->id - 1, c->count, seq};
    }
    ph_qsort(r, n, sizeof *r, cmp_raw);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && r[m - 1].from == r[i].from && r[m - 1].to == r[i].to)
            r[m - 1].count += r[i].count;
        else
            r[m++] = r[i];
    }
    *n_out = m;
    return r;
}

static int cmp_addr(const void *x, const void *y, void *ctx)
{
    const node *nd = ctx;
    const ph_func *a = nd[*(const size_t *)x].f, *b = nd[*(const size_t *)y].f;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Children in gprof's order: the latest first appearance first (gprof
 * prepends an arc to its parent's list when it first sees it). */
static int cmp_kid(const void *x, const void *y, void *ctx)
{
    const rawarc *arcs = ctx;
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    if (arcs[a].first != arcs[b].first)
        return arcs[a].first > arcs[b].first ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* ------------------------------------------------------------------ */
/* Propagation (gprof's propagate_time)                                */

typedef struct cyc {
    double self, child;
    uint64_t ncalls, self_calls;
    size_t head;
} cyc;

static void propagate(node *nd, cyc *cy, rawarc *arcs, double *atime,
                      double *actime, size_t v)
{
    node *parent = &nd[v];
    for (size_t i = 0; i < parent->nkids; i++) {
        size_t ai = parent->kids[i];
        const rawarc *a = &arcs[ai];
        node *child = &nd[a->to];
        double cself, cchild;
        uint64_t ncalls;
        if (a->count == 0 || a->to == v)
            continue;
        if (child->cyc) {
            if (child->cyc == parent->cyc)
                continue;
            cyc *c = &cy[child->cyc - 1];
            cself = c->self;
            cchild = c->child;
            ncalls = c->ncalls;
        } else {
            cself = child->self;
            cchild = child->child;
            ncalls = child->ncalls;
        }
        if (ncalls == 0)
            continue;
        atime[ai] = cself * ((double)a->count / (double)ncalls);
        actime[ai] = cchild * ((double)a->count / (double)ncalls);
        double share = atime[ai] + actime[ai];
        parent->child += share;
        if (parent->cyc)
            cy[parent->cyc - 1].child += share;
    }
}

/* gprof's print_time, the total of the percentages: the self times
 * summed in the order of its propagate_flags, from the top of the
 * topological order down (order[] backwards, one component after
 * another), a cycle's members, which share one place in that order, by
 * falling address (its sort leaves them in address order, walked
 * backwards).  The same order gives the same last bits, so a tie such
 * as 6.25% prints on the same side with one decimal. */
static double print_ticks(const node *nd, const uint32_t *order,
                          const size_t *comp_start, size_t ncomp)
{
    size_t *members = NULL, cap = 0;
    double ticks = 0;

    for (size_t c = ncomp; c-- > 0;) {
        size_t s = comp_start[c], e = comp_start[c + 1];
        if (e - s > cap) {
            cap = e - s;
            members = ph_xrealloc(members, cap * sizeof *members);
        }
        for (size_t k = s; k < e; k++)
            members[k - s] = order[k];
        qsort_r(members, e - s, sizeof *members, cmp_addr, (void *)nd);
        for (size_t k = e - s; k-- > 0;)
            ticks += nd[members[k]].self;
    }
    free(members);
    return ticks;
}

/* ------------------------------------------------------------------ */

ph_gprof *ph_gprof_compute(const ph_profile *p, const ph_event *ev, int part)
{
    size_t n = ph_func_count(p), narcs = 0;
    node *nd = ph_xcalloc(n ? n : 1, sizeof *nd);
    rawarc *arcs;
    ph_gprof *g = ph_xcalloc(1, sizeof *g);
    double scale;
    size_t *kidbuf, *roots;

    if (!ev)
        ev = ph_event_nreal(p) ? ph_event_real(p, 0) : NULL;
    scale = ev && ev->scale != 0 ? ev->scale : 1.0;
    for (size_t i = 0; i < n; i++) {
        nd[i].f = ph_func_at(p, i);
        if (ev)
            nd[i].self = self_of(p, nd[i].f, ev, part);
    }
    if (ev)
        load_credits(p, ev, nd, n);
    arcs = collect_arcs(p, part, &narcs);

    /* calls, self calls; children lists in gprof's order (an arc is
     * prepended to its parent's list on first sight) */
    kidbuf = ph_xmalloc((narcs ? narcs : 1) * sizeof *kidbuf);
    {
        for (size_t i = 0; i < narcs; i++) {
            node *c = &nd[arcs[i].to];
            nd[arcs[i].from].nkids++;
            nd[arcs[i].from].used = nd[arcs[i].to].used = 1;
            if (arcs[i].from == arcs[i].to)
                c->self_calls += arcs[i].count;
            else
                c->ncalls += arcs[i].count;
        }
        size_t off = 0;
        for (size_t i = 0; i < n; i++) {
            nd[i].kids = kidbuf + off;
            off += nd[i].nkids;
            nd[i].nkids = 0;
        }
        /* arcs of one caller are contiguous and sorted by callee; gprof's
         * list runs in reverse order of first appearance */
        for (size_t i = 0; i < narcs; i++)
            nd[arcs[i].from].kids[nd[arcs[i].from].nkids++] = i;
        for (size_t i = 0; i < n; i++)
            qsort_r(nd[i].kids, nd[i].nkids, sizeof *nd[i].kids, cmp_kid,
                    arcs);
    }

    /* strongly connected components, roots in address order, successors
     * in gprof's children order */
    size_t *first = ph_xmalloc((n + 1) * sizeof *first);
    uint32_t *succ = ph_xmalloc((narcs + 1) * sizeof *succ);
    uint32_t *comp = ph_xmalloc((n + 1) * sizeof *comp);
    uint32_t *order = ph_xmalloc((n + 1) * sizeof *order);
    uint32_t *visit = ph_xmalloc((n + 1) * sizeof *visit);
    uint32_t *roots32 = ph_xmalloc((n + 1) * sizeof *roots32);
    size_t m = 0;
    for (size_t v = 0; v < n; v++) {
        first[v] = m;
        for (size_t k = 0; k < nd[v].nkids; k++)
            succ[m++] = arcs[nd[v].kids[k]].to;
    }
    first[n] = m;
    roots = ph_xmalloc((n ? n : 1) * sizeof *roots);
    for (size_t i = 0; i < n; i++)
        roots[i] = i;
    qsort_r(roots, n, sizeof *roots, cmp_addr, nd);
    for (size_t i = 0; i < n; i++)
        roots32[i] = (uint32_t)roots[i];
    size_t ncomp = ph_scc(n, first, succ, roots32, comp, order, visit);
    for (size_t i = 0; i < n; i++)
        nd[i].visit = visit[i];
    /* where each component starts in order[] */
    size_t *comp_start = ph_xmalloc((ncomp + 1) * sizeof *comp_start);
    for (size_t k = n; k-- > 0;)
        comp_start[comp[order[k]]] = k;
    comp_start[ncomp] = n;

    /* cycles: components of two or more, numbered by head address */
    size_t ncy = 0;
    cyc *cy = ph_xcalloc(n ? n : 1, sizeof *cy);
    for (size_t c = 0; c < ncomp; c++) {
        size_t s = comp_start[c], e = comp_start[c + 1];
        if (e - s < 2)
            continue;
        size_t head = order[s];
        for (size_t k = s; k < e; k++)     /* the first one visited */
            if (nd[order[k]].visit < nd[head].visit)
                head = order[k];
        cy[ncy].head = head;
        for (size_t k = s; k < e; k++)
            nd[order[k]].cyc = (uint32_t)ncy + 1;
        ncy++;
    }
    /* renumber by head address */
    {
        size_t *perm = ph_xmalloc((ncy ? ncy : 1) * sizeof *perm);
        uint32_t *newnum = ph_xmalloc((ncy ? ncy : 1) * sizeof *newnum);
        cyc *sorted = ph_xcalloc(ncy ? ncy : 1, sizeof *sorted);
        for (size_t i = 0; i < ncy; i++)
            perm[i] = cy[i].head;
        qsort_r(perm, ncy, sizeof *perm, cmp_addr, nd);
        for (size_t i = 0; i < ncy; i++) {
            newnum[nd[perm[i]].cyc - 1] = (uint32_t)i + 1;
            sorted[i].head = perm[i];
        }
        for (size_t i = 0; i < n; i++)
            if (nd[i].cyc)
                nd[i].cyc = newnum[nd[i].cyc - 1];
        memcpy(cy, sorted, ncy * sizeof *cy);
        free(sorted);
        free(newnum);
        free(perm);
    }
    for (size_t i = 0; i < n; i++)
        if (nd[i].cyc)
            cy[nd[i].cyc - 1].self += nd[i].self;
    for (size_t i = 0; i < narcs; i++) {
        const rawarc *a = &arcs[i];
        uint32_t cc = nd[a->to].cyc;
        if (!cc || a->from == a->to)
            continue;
        if (nd[a->from].cyc == cc)
            cy[cc - 1].self_calls += a->count;
        else
            cy[cc - 1].ncalls += a->count;
    }

    /* time flows up, callees' components first (Tarjan's order) */
    double *atime = ph_xcalloc(narcs ? narcs : 1, sizeof *atime);
    double *actime = ph_xcalloc(narcs ? narcs : 1, sizeof *actime);
    for (size_t k = 0; k < n; k++)
        propagate(nd, cy, arcs, atime, actime, order[k]);

    /* results, in seconds; percentages in ticks, as gprof's */
    double ticks = print_ticks(nd, order, comp_start, ncomp);
    g->nids = n;
    g->by_id = ph_xcalloc(n ? n : 1, sizeof *g->by_id);
    g->fns = ph_xcalloc(n ? n : 1, sizeof *g->fns);
    for (size_t i = 0; i < n; i++) {
        g->total += nd[i].self * scale;
        if (!nd[i].used && nd[i].self == 0)
            continue;
        ph_gprof_fn *o = &g->fns[g->nfns++];
        o->func = nd[i].f;
        o->self = nd[i].self * scale;
        o->children = nd[i].child * scale;
        o->calls = nd[i].ncalls;
        o->self_calls = nd[i].self_calls;
        o->cycle = nd[i].cyc;
        o->percent = ticks > 0 ? 100 * (nd[i].self + nd[i].child) / ticks : 0;
        g->by_id[nd[i].f->id - 1] = g->nfns;
    }
    g->ncycles = ncy;
    g->cycles = ph_xcalloc(ncy ? ncy : 1, sizeof *g->cycles);
    for (size_t c = 0; c < ncy; c++) {
        ph_gprof_cycle *o = &g->cycles[c];
        o->number = (uint32_t)c + 1;
        o->self = cy[c].self * scale;
        o->children = cy[c].child * scale;
        o->calls = cy[c].ncalls;
        o->self_calls = cy[c].self_calls;
        o->percent = ticks > 0 ? 100 * (cy[c].self + cy[c].child) / ticks : 0;
        o->members = ph_xmalloc(n * sizeof *o->members);
        for (size_t i = 0; i < n; i++)
            if (nd[roots[i]].cyc == c + 1)
                o->members[o->nmembers++] = nd[roots[i]].f;
    }
    g->arcs = ph_xcalloc(narcs ? narcs : 1, sizeof *g->arcs);
    for (size_t i = 0; i < narcs; i++) {
        if (arcs[i].from == arcs[i].to)
            continue;
        ph_gprof_arc *o = &g->arcs[g->narcs++];
        o->caller = nd[arcs[i].from].f;
        o->callee = nd[arcs[i].to].f;
        o->count = arcs[i].count;
        o->time = atime[i] * scale;
        o->child_time = actime[i] * scale;
        o->seq = arcs[i].first;
    }
    if (narcs > 0)
        g->approx = "gprof: a callee's time is split among its callers in "
                    "proportion to call counts";

    free(atime);
    free(actime);
    free(cy);
    free(roots);
    free(first);
    free(succ);
    free(comp);
    free(order);
    free(visit);
    free(roots32);
    free(comp_start);
    free(kidbuf);
    free(arcs);
    free(nd);
    return g;
}

const char *ph_gprof_approx(const ph_gprof *g)
{
    return g->approx;
}

void ph_gprof_free(ph_gprof *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->ncycles; i++)
        free(g->cycles[i].members);
    free(g->cycles);
    free(g->fns);
    free(g->by_id);
    free(g->arcs);
    free(g);
}

size_t ph_gprof_count(const ph_gprof *g) { return g->nfns; }
const ph_gprof_fn *ph_gprof_at(const ph_gprof *g, size_t i)
{
    return i < g->nfns ? &g->fns[i] : NULL;
}
const ph_gprof_fn *ph_gprof_find(const ph_gprof *g, const ph_func *f)
{
    if (!f || f->id == 0 || f->id > g->nids || !g->by_id[f->id - 1])
        return NULL;
    return &g->fns[g->by_id[f->id - 1] - 1];
}
size_t ph_gprof_ncycles(const ph_gprof *g) { return g->ncycles; }
const ph_gprof_cycle *ph_gprof_cycle_at(const ph_gprof *g, size_t i)
{
    return i < g->ncycles ? &g->cycles[i] : NULL;
}
size_t ph_gprof_narcs(const ph_gprof *g) { return g->narcs; }
const ph_gprof_arc *ph_gprof_arc_at(const ph_gprof *g, size_t i)
{
    return i < g->narcs ? &g->arcs[i] : NULL;
}
double ph_gprof_total(const ph_gprof *g) { return g->total; }
