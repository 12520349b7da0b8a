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

typedef struct node {
    const ph_func *f;
    double self, child;       /* ticks */
    uint64_t ncalls, self_calls;
    size_t *kids;             /* arc indices, gprof's children order */
    size_t nkids;
    uint32_t cyc;             /* cycle index + 1 */
    /* Tarjan */
    long index, low;
    int on_stack, used;
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

/* gprof's own histogram credits kept by the gmon importer, if any:
 * "ID:CREDIT:TICKS ...".  They are used only while every listed function
 * still has the ticks it had when read (a merged or edited profile falls
 * back to whole ticks); functions without a credit get no time, as in
 * gprof (its symbol ranges reach the next symbol). */
static int load_credits(ph_profile *p, node *nodes, size_t n)
{
    const char *s = ph_meta_get(p, PH_GPROF_CREDIT_KEY);
    double *credit;
    int ok = 1;

    if (!s)
        return 0;
    credit = ph_xcalloc(n ? n : 1, sizeof *credit);
    while (*s && ok) {
        char *end;
        unsigned long id = strtoul(s, &end, 10);
        double v, ticks;
        if (end == s || *end != ':')
            ok = 0;
        v = ok ? strtod(end + 1, &end) : 0;
        if (ok && *end != ':')
            ok = 0;
        ticks = ok ? strtod(end + 1, &end) : 0;
        if (ok && (id < 1 || id > n || nodes[id - 1].self != ticks))
            ok = 0;
        if (ok)
            credit[id - 1] = v;
        s = end;
        while (*s == ' ')
            s++;
    }
    if (ok)
        for (size_t i = 0; i < n; i++)
            nodes[i].self = credit[i];
    free(credit);
    return ok;
}

static double self_of(ph_profile *p, const ph_func *f, const ph_event *ev,
                      int part)
{
    const int64_t *v = ph_func_self(p, f, part);
    if (ev->slot >= 0)
        return (double)v[ev->slot];
    return ph_event_eval(p, ev, v);
}

/* Calls of the selected part(s), summed per (caller, callee). */
static rawarc *collect_arcs(ph_profile *p, int part, size_t *n_out)
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
    qsort(r, n, sizeof *r, cmp_raw);
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

/* ------------------------------------------------------------------ */
/* Cycles: Tarjan's strongly connected components, iteratively          */

typedef struct walk {
    node *nodes;
    const rawarc *arcs;
    size_t *stack, sp;        /* Tarjan stack */
    size_t *order;            /* components in completion order */
    size_t norder;
    size_t *comp_start;       /* start of each component in order[] */
    size_t ncomp;
    long counter;
} walk;

typedef struct frame {
    size_t v, next;
} frame;

static void strongconnect(walk *w, size_t root, frame *fs)
{
    size_t fp = 0;
    node *nd = w->nodes;

    fs[fp++] = (frame){root, 0};
    nd[root].index = nd[root].low = w->counter++;
    w->stack[w->sp++] = root;
    nd[root].on_stack = 1;
    while (fp > 0) {
        frame *fr = &fs[fp - 1];
        node *v = &nd[fr->v];
        if (fr->next < v->nkids) {
            size_t k = w->arcs[v->kids[fr->next++]].to;
            if (nd[k].index < 0) {
                nd[k].index = nd[k].low = w->counter++;
                w->stack[w->sp++] = k;
                nd[k].on_stack = 1;
                fs[fp++] = (frame){k, 0};
            } else if (nd[k].on_stack && nd[k].index < v->low) {
                v->low = nd[k].index;
            }
            continue;
        }
        if (v->low == v->index) {
            w->comp_start[w->ncomp++] = w->norder;
            size_t x;
            do {
                x = w->stack[--w->sp];
                nd[x].on_stack = 0;
                w->order[w->norder++] = x;
            } while (x != fr->v);
        }
        size_t done = fr->v;
        fp--;
        if (fp > 0 && nd[done].low < nd[fs[fp - 1].v].low)
            nd[fs[fp - 1].v].low = nd[done].low;
    }
}

static int cmp_addr(const void *x, const void *y, void *ctx)
{
    const node *nd = ctx;
    const ph_func *a = nd[*(const size_t *)x].f, *b = nd[*(const size_t *)y].f;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
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

/* ------------------------------------------------------------------ */

ph_gprof *ph_gprof_compute(ph_profile *p, const ph_event *ev, int part)
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
        nd[i].index = -1;
        if (ev)
            nd[i].self = self_of(p, nd[i].f, ev, part);
    }
    if (ev && strcmp(ph_str_get(p, ev->name), "cpu_time") == 0)
        load_credits(p, nd, n);
    arcs = collect_arcs(p, part, &narcs);

    /* calls, self calls; children lists in gprof's order (an arc is
     * prepended to its parent's list on first sight) */
    kidbuf = ph_xmalloc((narcs ? narcs : 1) * sizeof *kidbuf);
    {
        size_t *order = ph_xmalloc((narcs ? narcs : 1) * sizeof *order);
        for (size_t i = 0; i < narcs; i++)
            order[i] = i;
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
        for (size_t i = 0; i < n; i++) {
            node *v = &nd[i];
            for (size_t a = 1; a < v->nkids; a++)
                for (size_t b = a; b > 0 && arcs[v->kids[b - 1]].first <
                                                arcs[v->kids[b]].first; b--) {
                    size_t t = v->kids[b];
                    v->kids[b] = v->kids[b - 1];
                    v->kids[b - 1] = t;
                }
        }
        free(order);
    }

    /* strongly connected components, roots in address order */
    walk w;
    memset(&w, 0, sizeof w);
    w.nodes = nd;
    w.arcs = arcs;
    w.stack = ph_xmalloc((n ? n : 1) * sizeof *w.stack);
    w.order = ph_xmalloc((n ? n : 1) * sizeof *w.order);
    w.comp_start = ph_xmalloc((n + 1) * sizeof *w.comp_start);
    roots = ph_xmalloc((n ? n : 1) * sizeof *roots);
    for (size_t i = 0; i < n; i++)
        roots[i] = i;
    qsort_r(roots, n, sizeof *roots, cmp_addr, nd);
    {
        frame *fs = ph_xmalloc((n ? n : 1) * sizeof *fs);
        for (size_t i = 0; i < n; i++)
            if (nd[roots[i]].index < 0)
                strongconnect(&w, roots[i], fs);
        free(fs);
    }
    w.comp_start[w.ncomp] = w.norder;

    /* cycles: components of two or more, numbered by head address */
    size_t ncy = 0;
    cyc *cy = ph_xcalloc(n ? n : 1, sizeof *cy);
    for (size_t c = 0; c < w.ncomp; c++) {
        size_t s = w.comp_start[c], e = w.comp_start[c + 1];
        if (e - s < 2)
            continue;
        size_t head = w.order[s];
        for (size_t k = s; k < e; k++)     /* the first one visited */
            if (nd[w.order[k]].index < nd[head].index)
                head = w.order[k];
        cy[ncy].head = head;
        for (size_t k = s; k < e; k++)
            nd[w.order[k]].cyc = (uint32_t)ncy + 1;
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
    for (size_t k = 0; k < w.norder; k++)
        propagate(nd, cy, arcs, atime, actime, w.order[k]);

    /* results, in seconds */
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
    }
    if (narcs > 0)
        ph_profile_set_approx(p, "gprof: a callee's time is split among its "
                                 "callers in proportion to call counts");

    free(atime);
    free(actime);
    free(cy);
    free(roots);
    free(w.stack);
    free(w.order);
    free(w.comp_start);
    free(kidbuf);
    free(arcs);
    free(nd);
    return g;
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
