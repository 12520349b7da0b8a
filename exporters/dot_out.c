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
#include "exporters/out_events.h"

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

/* Edges from the flat view's records: the profile's calls and the
 * context tree's arcs under the view's one recursion rule.  Records from
 * a tree count samples, not calls: no count is written for them. */
static void view_edges(const ph_profile *p, const ph_event *ev, graph *g)
{
    const ph_flat *v = ph_flat_of(p);
    size_t w = ph_event_nreal(p);
    int64_t *val = ph_xcalloc(w + 1, sizeof *val);
    for (size_t f = 0; f < ph_func_count(p); f++) {
        ph_flat_calls it;
        const ph_call *c = ph_flat_calls_out(&it, v, p, ph_func_at(p, f));
        for (; c; c = ph_flat_calls_next(&it)) {
            if (c->caller == c->callee)
                continue;
            for (size_t k = 0; k < w; k++)
                val[k] = ph_call_incl(c, k);
            int counted = !ph_flat_is_tree(v, c);
            add_edge(g, c->caller->id - 1, c->callee->id - 1,
                     (double)ph_out_value(p, ev, val),
                     counted ? c->count : 0, counted);
        }
    }
    free(val);
}

static double option_pct(ph_output *out, const char *key, double dflt)
{
    const char *s = ph_output_option(out, key);
    double v = dflt;     /* an empty value parses as nothing: the default */
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

int ph_dot_write(const ph_profile *p, ph_output *out)
{
    size_t ne, nf = ph_func_count(p);
    ph_event **evs = ph_out_events(p, out, &ne);
    int pick = ph_out_pick(p, out, evs, ne);
    if (pick < 0) {
        free(evs);
        return ph_output_error_set(out, "the profile has no additive event");
    }
    const ph_event *ev = evs[pick];
    double node_thr = option_pct(out, "node_threshold", 0.5) / 100.0;
    double edge_thr = option_pct(out, "edge_threshold", 0.1) / 100.0;
    double total = (double)ph_out_value(p, ev, ph_totals(p, PH_ALL_PARTS));
    double base = fabs(total) > 0 ? fabs(total) : 1;
    graph g = {0};
    view_edges(p, ev, &g);
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
        const ph_func *f = ph_func_at(p, i);
        double incl = (double)ph_out_value(p, ev,
                                              ph_func_incl(p, f, PH_ALL_PARTS));
        double self = (double)ph_out_value(p, ev,
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
