/* dot_out.c -- write the call graph as Graphviz dot, the picture gprof2dot
 * is used for: one box per function (inclusive and self share of one
 * event), one arrow per caller -> callee pair (inclusive cost through it,
 * call count when known), coloured from blue (cold) to red (hot) and
 * thickened by cost.  Options: -O event=NAME, -O node_threshold=PCT
 * (default 0.5) and -O edge_threshold=PCT (default 0.1) of the total.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/exporters.h"
#include "exporters/pprof_stacks.h"

PH_DECLARE_EXPORTER(dot);

typedef struct dedge {
    uint32_t from, to;      /* function index */
    double cost;
    uint64_t calls;
    int has_calls;
} dedge;

typedef struct graph {
    dedge *e;
    size_t n, cap;
} graph;

static void add_edge(graph *g, uint32_t from, uint32_t to, double cost,
                     uint64_t calls, int has_calls)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->e = ph_xrealloc(g->e, g->cap * sizeof *g->e);
    }
    dedge *d = &g->e[g->n++];
    d->from = from;
    d->to = to;
    d->cost = cost;
    d->calls = calls;
    d->has_calls = has_calls;
}

static int cmp_dedge(const void *a, const void *b)
{
    const dedge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->to < y->to ? -1 : x->to > y->to;
}

static void merge_edges(graph *g)
{
    size_t m = 0;
    ph_qsort(g->e, g->n, sizeof *g->e, cmp_dedge);
    for (size_t i = 0; i < g->n; i++) {
        if (m && g->e[m - 1].from == g->e[i].from &&
            g->e[m - 1].to == g->e[i].to) {
            g->e[m - 1].cost += g->e[i].cost;
            g->e[m - 1].calls += g->e[i].calls;
            g->e[m - 1].has_calls |= g->e[i].has_calls;
        } else {
            g->e[m++] = g->e[i];
        }
    }
    g->n = m;
}

/* How many times a (caller, callee) function pair occurs on the path from
 * the root to the node being visited. */
typedef struct pair_count {
    uint64_t key;           /* caller id << 32 | callee id; 0 = empty */
    uint32_t count;
} pair_count;

static uint32_t *pair_slot(pair_count *t, size_t mask, uint64_t key)
{
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & mask;
    while (t[h].key && t[h].key != key)
        h = (h + 1) & mask;
    t[h].key = key;
    return &t[h].count;
}

static uint64_t node_pair(const ph_stacks *st, uint32_t id)
{
    const ph_stk_node *nd = &st->nodes[id - 1];
    return (uint64_t)st->nodes[nd->parent - 1].func->id << 32 | nd->func->id;
}

/* repeat[i] is set when node i's pair (parent's function -> its function)
 * already occurs above it on its stack.  One depth-first walk that counts
 * the pairs on the current path: walking up from every node instead was
 * quadratic (23 s for one 100,000-deep folded stack). */
static unsigned char *mark_repeats(const ph_stacks *st)
{
    size_t n = st->nnodes, cap = 16;
    unsigned char *repeat = ph_xcalloc(n + 1, 1);
    /* Children of id v (node index + 1, 0 = root) are kid[first[v] ..
     * first[v + 1]); next[v] walks them during the search. */
    uint32_t *first = ph_xcalloc(n + 2, sizeof *first);
    uint32_t *next = ph_xmalloc((n + 2) * sizeof *next);
    uint32_t *kid = ph_xmalloc((n + 1) * sizeof *kid);
    uint32_t *path = ph_xmalloc((n + 1) * sizeof *path);

    for (size_t i = 0; i < n; i++)
        first[st->nodes[i].parent + 1]++;
    for (size_t v = 1; v < n + 2; v++)
        first[v] += first[v - 1];
    memcpy(next, first, (n + 2) * sizeof *next);
    for (size_t i = 0; i < n; i++)
        kid[next[st->nodes[i].parent]++] = (uint32_t)i + 1;
    memcpy(next, first, (n + 2) * sizeof *next);
    while (cap < 2 * n)
        cap *= 2;
    pair_count *seen = ph_xcalloc(cap, sizeof *seen);

    size_t depth = 0;
    path[depth++] = 0;
    while (depth) {
        uint32_t v = path[depth - 1];
        if (next[v] < first[v + 1]) {
            uint32_t c = kid[next[v]++];
            if (st->nodes[c - 1].parent) {
                uint32_t *k = pair_slot(seen, cap - 1, node_pair(st, c));
                repeat[c - 1] = *k > 0;
                (*k)++;
            }
            path[depth++] = c;
        } else {
            depth--;
            if (v && st->nodes[v - 1].parent)
                (*pair_slot(seen, cap - 1, node_pair(st, v)))--;
        }
    }
    free(seen);
    free(path);
    free(kid);
    free(next);
    free(first);
    return repeat;
}

/* Edges of tree data: each node adds its subtree to (parent function ->
 * its function), unless that pair already occurs above it on the stack. */
static void tree_edges(ph_profile *p, const ph_event *ev, graph *g)
{
    ph_stacks st;
    ph_stacks_build(p, NULL, "dot", &st);
    unsigned char *repeat = mark_repeats(&st);
    double *incl = ph_xcalloc(st.nnodes + 1, sizeof *incl);
    for (size_t i = 0; i < st.nsamples; i++)
        incl[st.samples[i].node] += (double)ph_stacks_value(p, ev,
                                                         st.samples[i].cost);
    for (size_t i = st.nnodes; i-- > 0;)
        if (st.nodes[i].parent)
            incl[st.nodes[i].parent - 1] += incl[i];
    for (size_t i = 0; i < st.nnodes; i++) {
        uint32_t par = st.nodes[i].parent;
        if (!par)
            continue;
        const ph_func *from = st.nodes[par - 1].func, *to = st.nodes[i].func;
        if (from == to)
            continue;
        if (!repeat[i])
            add_edge(g, from->id - 1, to->id - 1, incl[i], 0, 0);
    }
    free(repeat);
    free(incl);
    ph_stacks_free(&st);
}

static void flat_edges(ph_profile *p, const ph_event *ev, graph *g)
{
    size_t w = ph_event_nreal(p);
    int64_t *v = ph_xcalloc(w + 1, sizeof *v);
    for (size_t i = 0; i < ph_call_count(p); i++) {
        const ph_call *c = ph_call_at(p, i);
        if (!c->caller || !c->callee || c->caller == c->callee)
            continue;
        for (size_t k = 0; k < w; k++)
            v[k] = ph_call_incl(c, k);
        add_edge(g, c->caller->id - 1, c->callee->id - 1,
                 (double)ph_stacks_value(p, ev, v), c->count, 1);
    }
    free(v);
}

static double option_pct(ph_output *out, const char *key, double dflt)
{
    const char *s = ph_output_option(out, key);
    double v;
    if (!s)
        return dflt;
    size_t len = strlen(s);
    return ph_parse_decimal(s, len, &v) == len && v >= 0 ? v : dflt;
}

/* gprof2dot-like temperature: hue from blue (cold) to red (hot). */
static void color_of(double frac, char buf[8])
{
    double f = frac < 0 ? 0 : frac > 1 ? 1 : sqrt(frac);
    double h = (1.0 - f) * (2.0 / 3.0), s = 0.7 + 0.25 * f, l = 0.45;
    double c = (1 - fabs(2 * l - 1)) * s, hp = h * 6;
    double x = c * (1 - fabs(fmod(hp, 2) - 1)), r = 0, gg = 0, b = 0;
    if (hp < 1) { r = c; gg = x; }
    else if (hp < 2) { r = x; gg = c; }
    else if (hp < 3) { gg = c; b = x; }
    else if (hp < 4) { gg = x; b = c; }
    else if (hp < 5) { r = x; b = c; }
    else { r = c; b = x; }
    double m = l - c / 2;
    snprintf(buf, 8, "#%02x%02x%02x", (int)lround((r + m) * 255),
             (int)lround((gg + m) * 255), (int)lround((b + m) * 255));
}

static void put_label_text(ph_output *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            ph_output_write(out, "\\", 1);
        if (*s == '\n')
            ph_output_puts(out, "\\n");
        else
            ph_output_write(out, s, 1);
    }
}

int ph_dot_write(ph_profile *p, ph_output *out, char *err, size_t errsize)
{
    size_t ne, nf = ph_func_count(p);
    ph_event **evs = ph_stacks_events(p, out, "dot", &ne);
    const char *fmt = ph_profile_format(p);
    int pick = ph_stacks_pick(p, out, evs, ne, fmt && !strcmp(fmt, "pprof"));
    if (pick < 0) {
        snprintf(err, errsize, "the profile has no additive event");
        free(evs);
        return -1;
    }
    const ph_event *ev = evs[pick];
    double node_thr = option_pct(out, "node_threshold", 0.5) / 100.0;
    double edge_thr = option_pct(out, "edge_threshold", 0.1) / 100.0;
    double total = (double)ph_stacks_value(p, ev, ph_totals(p, PH_ALL_PARTS));
    double base = fabs(total) > 0 ? fabs(total) : 1;
    graph g = {0};
    if (ph_sample_count(p))
        tree_edges(p, ev, &g);
    if (ph_call_count(p))
        flat_edges(p, ev, &g);
    merge_edges(&g);
    uint8_t *shown = ph_xcalloc(nf + 1, 1);
    size_t hidden = 0, hidden_edges = 0;
    ph_output_puts(out, "digraph profhub {\n  graph [fontname=\"Arial\", "
                   "nodesep=0.125, ranksep=0.25];\n  node [fontname=\"Arial\""
                   ", shape=box, style=filled, fontcolor=white, width=0, "
                   "height=0];\n  edge [fontname=\"Arial\"];\n  label=\"");
    put_label_text(out, ph_str_get(p, ev->name));
    ph_output_printf(out, " total %.0f\";\n", total);
    for (size_t i = 0; i < nf; i++) {
        ph_func *f = ph_func_at(p, i);
        double incl = (double)ph_stacks_value(p, ev,
                                              ph_func_incl(p, f, PH_ALL_PARTS));
        double self = (double)ph_stacks_value(p, ev,
                                              ph_func_self(p, f, PH_ALL_PARTS));
        if (fabs(incl) < node_thr * base && fabs(self) < node_thr * base) {
            hidden += incl != 0 || self != 0;
            continue;
        }
        shown[i] = 1;
        char col[8];
        color_of(fabs(incl) / base, col);
        ph_output_printf(out, "  f%zu [color=\"%s\", label=\"", i, col);
        put_label_text(out, ph_str_get(p, f->name));
        ph_output_printf(out, "\\n%.2f%%\\n(%.2f%%)\"];\n",
                         100.0 * incl / base, 100.0 * self / base);
    }
    for (size_t i = 0; i < g.n; i++) {
        const dedge *d = &g.e[i];
        if (!shown[d->from] || !shown[d->to] ||
            fabs(d->cost) < edge_thr * base) {
            hidden_edges += d->cost != 0;
            continue;
        }
        char col[8];
        double frac = fabs(d->cost) / base;
        color_of(frac, col);
        ph_output_printf(out, "  f%u -> f%u [color=\"%s\", penwidth=%.2f, "
                         "label=\"%.2f%%", d->from, d->to, col,
                         1.0 + 7.0 * (frac > 1 ? 1 : frac),
                         100.0 * d->cost / base);
        if (d->has_calls)
            ph_output_printf(out, "\\n%llu calls",
                             (unsigned long long)d->calls);
        ph_output_puts(out, "\"];\n");
    }
    ph_output_puts(out, "}\n");
    if (hidden)
        ph_output_drop(out, "threshold", hidden, "functions below "
                       "the node threshold (-O node_threshold=PCT)");
    if (hidden_edges)
        ph_output_drop(out, "edge-threshold", hidden_edges, "calls "
                       "below the edge threshold or to hidden functions "
                       "(-O edge_threshold=PCT)");
    if (ne > 1)
        ph_output_drop(out, "events", ne - 1, "other events (one "
                       "event per graph; -O event=NAME picks it)");
    free(g.e);
    free(shown);
    free(evs);
    return 0;
}
