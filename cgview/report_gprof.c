/* report_gprof.c -- "summary --gprof": the call graph as GNU gprof -q
 * prints it, from analysis/gprof_prop.c's numbers: entries numbered [N]
 * by decreasing self + children time, each with its parents (or
 * <spontaneous>), its own line (calls as "external+recursive") and its
 * children, cycles as "<cycle N as a whole>" with their members, then the
 * index by name.  Times are in the event's shown unit (seconds for gmon).
 * With --callers/--callees/--butterfly FN only FN's entries are printed
 * (gprof -q FN); FN may be "<cycle N>".
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gprof.h"
#include "cgview/report.h"

typedef struct item {
    const ph_gprof_fn *fn;     /* NULL for a cycle */
    const ph_gprof_cycle *cy;
    const char *name;
    const char *key;           /* the symbol's own (mangled) name, which
                                  gprof sorts by */
    double total;              /* self + children */
    uint64_t calls;
    int shown;                 /* gprof prints its entry (else it only
                                  has a number, as a parent or child) */
} item;

typedef struct graph {
    ph_report *r;
    ph_gprof *g;
    item *items;               /* in index order */
    size_t n;
    size_t *index_of_fn;       /* func id - 1 -> index (0: none) */
    size_t *index_of_cycle;    /* cycle number - 1 -> index */
    /* arc numbers by caller ([0]) and by callee ([1]), each function's
     * from by[k][first[k][id - 1]] to by[k][first[k][id]] */
    size_t *first[2], *by[2];
    double factor;             /* shown unit per event unit */
    int dec;                   /* decimals of times */
    double print_time;
} graph;

/* One arc as gprof sorts and prints it: self arcs carry only a count. */
typedef struct garc {
    const ph_func *other;
    uint64_t count;
    double time, child_time;
    int self, within;          /* self call; call inside one cycle */
    size_t seq;                /* first call record; self arcs: none */
} garc;

/* ------------------------------------------------------------------ */
/* Order                                                               */

static int cmp_total(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    if (!x->fn != !y->fn)      /* a cycle before its members */
        return x->fn ? 1 : -1;
    if (x->key[0] == '_' && y->key[0] != '_')
        return 1;
    if (x->key[0] != '_' && y->key[0] == '_')
        return -1;
    if (x->calls != y->calls)
        return x->calls > y->calls ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* gprof's arc_compare: self arcs least, then calls inside a cycle (by
 * count), then the rest by time + child time, then count. */
static int cmp_arc(const garc *x, const garc *y)
{
    if (x->self != y->self)
        return x->self ? -1 : 1;
    if (x->within != y->within)
        return x->within ? -1 : 1;
    if (!x->within) {
        double tx = x->time + x->child_time, ty = y->time + y->child_time;
        if (tx != ty)
            return tx < ty ? -1 : 1;
    }
    return x->count < y->count ? -1 : x->count > y->count;
}

/* Equal arcs: in the order of their call records (gprof's lists, built
 * newest first from glibc's table, come out that way). */
static int newer(const garc *x, const garc *y)
{
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_arc_up(const void *a, const void *b)
{
    int c = cmp_arc(a, b);
    return c ? c : newer(a, b);
}

static int cmp_arc_down(const void *a, const void *b)
{
    int c = cmp_arc(b, a);
    return c ? c : newer(a, b);
}

/* gprof's cmp_member: more self + children time first, then more calls
 * (from outside and recursive); members alike keep their order (its
 * insertion sort leaves them so), here the cycle's address order. */
typedef struct member {
    const ph_gprof_fn *fn;
    size_t pos;
} member;

static int cmp_member(const void *a, const void *b)
{
    const member *x = a, *y = b;
    double tx = x->fn->self + x->fn->children;
    double ty = y->fn->self + y->fn->children;
    uint64_t cx = x->fn->calls + x->fn->self_calls;
    uint64_t cy = y->fn->calls + y->fn->self_calls;
    if (tx != ty)
        return tx < ty ? 1 : -1;
    if (cx != cy)
        return cx < cy ? 1 : -1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

static int printed(const ph_gprof_fn *f)
{
    return f->calls || f->self_calls || f->self != 0 || f->children != 0;
}

static void build(graph *gr)
{
    const ph_gprof *g = gr->g;
    ph_profile *p = gr->r->p;
    size_t nf = ph_gprof_count(g), nc = ph_gprof_ncycles(g);

    /* gprof numbers every symbol, printed or not: a caller it leaves out
     * (main when no tick reached it) is still "main [N]" in its callees'
     * entries */
    gr->items = ph_xcalloc(nf + nc + 1, sizeof *gr->items);
    for (size_t i = 0; i < nf; i++) {
        const ph_gprof_fn *f = ph_gprof_at(g, i);
        const char *name = ph_str_get(p, f->func->name);
        gr->items[gr->n++] = (item){
            f, NULL, name,
            f->func->mangled ? ph_str_get(p, f->func->mangled) : name,
            f->self + f->children, f->calls, printed(f) };
    }
    for (size_t i = 0; i < nc; i++) {
        const ph_gprof_cycle *c = ph_gprof_cycle_at(g, i);
        gr->items[gr->n++] = (item){ NULL, c, "", "", c->self + c->children,
                                     c->calls, 1 };
    }
    ph_qsort(gr->items, gr->n, sizeof *gr->items, cmp_total);
    gr->index_of_fn = ph_xcalloc(ph_func_count(p) + 1, sizeof(size_t));
    gr->index_of_cycle = ph_xcalloc(nc + 1, sizeof(size_t));
    for (size_t i = 0; i < gr->n; i++) {
        if (gr->items[i].fn)
            gr->index_of_fn[gr->items[i].fn->func->id - 1] = i + 1;
        else
            gr->index_of_cycle[gr->items[i].cy->number - 1] = i + 1;
    }
}

/* The arcs of each function as caller and as callee, in arc order (one
 * pass: a report of every function reads each arc twice, not once per
 * function). */
static void index_arcs(graph *gr)
{
    size_t nf = ph_func_count(gr->r->p), na = ph_gprof_narcs(gr->g);
    for (int k = 0; k < 2; k++) {
        size_t *first = ph_xcalloc(nf + 2, sizeof *first);
        size_t *by = ph_xmalloc((na + 1) * sizeof *by);
        for (size_t i = 0; i < na; i++) {
            const ph_gprof_arc *a = ph_gprof_arc_at(gr->g, i);
            first[(k ? a->callee : a->caller)->id + 1]++;
        }
        for (size_t f = 1; f <= nf; f++)
            first[f + 1] += first[f];
        for (size_t i = 0; i < na; i++) {
            const ph_gprof_arc *a = ph_gprof_arc_at(gr->g, i);
            by[first[(k ? a->callee : a->caller)->id]++] = i;
        }
        /* first[id] now ends function id's arcs, first[id - 1] starts
         * them (first[0] is 0: ids start at 1) */
        gr->first[k] = first;
        gr->by[k] = by;
    }
}

static void graph_free(graph *gr)
{
    ph_gprof_free(gr->g);
    free(gr->items);
    free(gr->index_of_fn);
    free(gr->index_of_cycle);
    for (int k = 0; k < 2; k++) {
        free(gr->first[k]);
        free(gr->by[k]);
    }
}

static const ph_gprof_cycle *cycle_numbered(const ph_gprof *g, uint32_t n)
{
    for (size_t i = 0; i < ph_gprof_ncycles(g); i++)
        if (ph_gprof_cycle_at(g, i)->number == n)
            return ph_gprof_cycle_at(g, i);
    return NULL;
}

static uint32_t cycle_of(const ph_gprof *g, const ph_func *f)
{
    const ph_gprof_fn *e = ph_gprof_find(g, f);
    return e ? e->cycle : 0;
}

/* Calls into f as gprof divides an arc's count by: those of f's cycle
 * when f is in one, else f's own. */
static uint64_t head_calls(const ph_gprof *g, const ph_func *f)
{
    const ph_gprof_fn *e = ph_gprof_find(g, f);
    const ph_gprof_cycle *c = e && e->cycle ? cycle_numbered(g, e->cycle)
                                            : NULL;
    return c ? c->calls : e ? e->calls : 0;
}

/* The arcs into (parents) or out of f, with its self arc. */
static garc *arcs_of(const graph *gr, const ph_gprof_fn *f, int parents,
                     size_t *n)
{
    const ph_gprof *g = gr->g;
    size_t id = f->func->id, k = 0;
    const size_t *first = gr->first[parents != 0], *by = gr->by[parents != 0];
    garc *v = ph_xmalloc((first[id] - first[id - 1] + 1) * sizeof *v);
    uint32_t cyc = f->cycle;

    for (size_t j = first[id - 1]; j < first[id]; j++) {
        const ph_gprof_arc *a = ph_gprof_arc_at(g, by[j]);
        const ph_func *other = parents ? a->caller : a->callee;
        v[k++] = (garc){ other, a->count, a->time, a->child_time, 0,
                         cyc && cycle_of(g, other) == cyc, a->seq };
    }
    if (f->self_calls)
        v[k++] = (garc){ f->func, f->self_calls, 0, 0, 1, 0, 0 };
    ph_qsort(v, k, sizeof *v, parents ? cmp_arc_up : cmp_arc_down);
    *n = k;
    return v;
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */

static void print_name(const graph *gr, const ph_func *f, FILE *out)
{
    uint32_t cyc = cycle_of(gr->g, f);
    size_t idx = gr->index_of_fn[f->id - 1];

    fputs(ph_str_get(gr->r->p, f->name), out);
    if (cyc)
        fprintf(out, " <cycle %u>", cyc);
    if (idx)
        fprintf(out, " [%zu]", idx);
    fputc('\n', out);
}

static void print_time(const graph *gr, double v, FILE *out)
{
    fprintf(out, " %7.*f", gr->dec, v * gr->factor);
}

static void print_calls(uint64_t calls, uint64_t self_calls, FILE *out)
{
    fprintf(out, " %7llu", (unsigned long long)calls);
    if (self_calls)
        fprintf(out, "+%-7llu ", (unsigned long long)self_calls);
    else
        fprintf(out, " %7s ", "");
}

static void print_arcs(const graph *gr, const ph_gprof_fn *f, int parents,
                       FILE *out)
{
    size_t n;
    garc *v = arcs_of(gr, f, parents, &n);

    if (parents && n == 0)
        fprintf(out, "%6s %5s %7s %7s %7s %7s     <spontaneous>\n", "", "",
                "", "", "", "");
    for (size_t i = 0; i < n; i++) {
        const garc *a = &v[i];
        if (a->self || a->within) {
            fprintf(out, "%6s %5s %7s %7s %7llu %7s     ", "", "", "", "",
                    (unsigned long long)a->count, "");
        } else {
            uint64_t denom = head_calls(gr->g, parents ? f->func : a->other);
            fprintf(out, "%6s %5s", "", "");
            print_time(gr, a->time, out);
            print_time(gr, a->child_time, out);
            fprintf(out, " %7llu/%-7llu     ", (unsigned long long)a->count,
                    (unsigned long long)denom);
        }
        print_name(gr, a->other, out);
    }
    free(v);
}

static void print_fn_entry(const graph *gr, size_t i, FILE *out)
{
    const ph_gprof_fn *f = gr->items[i].fn;
    char idx[32];

    print_arcs(gr, f, 1, out);
    snprintf(idx, sizeof idx, "[%zu]", i + 1);
    fprintf(out, "%-6s %5.1f", idx, f->percent);
    print_time(gr, f->self, out);
    print_time(gr, f->children, out);
    if (f->calls + f->self_calls)
        print_calls(f->calls, f->self_calls, out);
    else
        fprintf(out, " %7s %7s ", "", "");
    print_name(gr, f->func, out);
    print_arcs(gr, f, 0, out);
}

static void print_cycle_entry(const graph *gr, size_t i, FILE *out)
{
    const ph_gprof_cycle *c = gr->items[i].cy;
    member *m = ph_xmalloc((c->nmembers + 1) * sizeof *m);
    size_t nm = 0;
    char idx[32];

    snprintf(idx, sizeof idx, "[%zu]", i + 1);
    fprintf(out, "%-6s %5.1f", idx, c->percent);
    print_time(gr, c->self, out);
    print_time(gr, c->children, out);
    print_calls(c->calls, c->self_calls, out);
    fprintf(out, "<cycle %u as a whole> [%zu]\n", c->number, i + 1);
    for (size_t k = 0; k < c->nmembers; k++) {
        const ph_gprof_fn *f = ph_gprof_find(gr->g, c->members[k]);
        if (f)
            m[nm++] = (member){ f, k };
    }
    ph_qsort(m, nm, sizeof *m, cmp_member);
    for (size_t k = 0; k < nm; k++) {
        const ph_gprof_fn *f = m[k].fn;
        fprintf(out, "%6s %5s", "", "");
        print_time(gr, f->self, out);
        print_time(gr, f->children, out);
        print_calls(f->calls, f->self_calls, out);
        fprintf(out, "    ");
        print_name(gr, f->func, out);
    }
    free(m);
}

static int cmp_index_name(const void *a, const void *b)
{
    const item *x = *(item *const *)a, *y = *(item *const *)b;
    if (!x->fn != !y->fn)
        return x->fn ? -1 : 1;
    if (!x->fn)
        return x->cy->number < y->cy->number ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void print_index(const graph *gr, FILE *out)
{
    item **v = ph_xmalloc((gr->n + 1) * sizeof *v);
    size_t rows, cols = 3, n = 0;

    for (size_t i = 0; i < gr->n; i++)
        if (gr->items[i].shown)
            v[n++] = &gr->items[i];
    ph_qsort(v, n, sizeof *v, cmp_index_name);
    fprintf(out, "\nIndex by function name\n\n");
    rows = (n + cols - 1) / cols;
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < cols && c * rows + r < n; c++) {
            const item *it = v[c * rows + r];
            size_t idx = (size_t)(it - gr->items) + 1;
            char name[64], cell[96];
            if (it->fn)
                snprintf(name, sizeof name, "%s", it->name);
            else
                snprintf(name, sizeof name, "<cycle %u>", it->cy->number);
            snprintf(cell, sizeof cell, "[%zu] %s", idx, name);
            fprintf(out, "%6s%-26s", "", cell);
        }
        fputc('\n', out);
    }
    free(v);
}

/* Entries FN names: a function, or "<cycle N>". */
static int chosen(const graph *gr, size_t i)
{
    const char *fn = gr->r->fn;
    const item *it = &gr->items[i];
    unsigned n;
    char tail;

    if (!it->shown)
        return 0;
    if (!fn)
        return 1;
    if (sscanf(fn, "<cycle %u%c", &n, &tail) == 2 && tail == '>')
        return !it->fn && it->cy->number == n;
    return it->fn && strcmp(it->name, fn) == 0;
}

int ph_report_gprof(ph_report *r)
{
    graph gr;
    size_t shown = 0;
    FILE *out = stdout;

    if (!r->ev) {
        ph_cli_file_error(r->path, "the profile has no events");
        return PH_EXIT_BAD;
    }
    memset(&gr, 0, sizeof gr);
    gr.r = r;
    gr.g = ph_gprof_compute(r->p, r->ev, r->topts.part);
    {
        /* ph_gprof's times are already scaled to the event's unit */
        double s = r->ev->scale != 0 ? r->ev->scale : 1.0;
        gr.factor = ph_event_shown(r->p, r->ev, NULL, &gr.dec) == 1.0
                        ? 1.0 / s : 1.0;
    }
    gr.print_time = ph_gprof_total(gr.g);
    build(&gr);
    index_arcs(&gr);
    for (size_t i = 0; i < gr.n; i++)
        shown += chosen(&gr, i);
    if (shown == 0) {
        ph_cli_file_error(r->path, "no function matches \"%s\"", r->fn);
        graph_free(&gr);
        return PH_EXIT_BAD;
    }
    ph_report_print_head(r, out);
    fprintf(out, "\ncall graph (gprof -q): %.2f%% of %.*f per sample, %s\n\n",
            gr.print_time > 0 ? 100.0 * (r->ev->scale ? r->ev->scale : 1) /
                                    gr.print_time : 0.0,
            gr.dec, gr.print_time * gr.factor,
            "times as gprof propagates them");
    fprintf(out, "index %% time    self  children    called     name\n");
    for (size_t i = 0; i < gr.n; i++) {
        if (!chosen(&gr, i))
            continue;
        if (gr.items[i].fn)
            print_fn_entry(&gr, i, out);
        else
            print_cycle_entry(&gr, i, out);
        fprintf(out, "-----------------------------------------------\n");
    }
    if (!r->fn)
        print_index(&gr, out);
    graph_free(&gr);
    return PH_EXIT_OK;
}
