/* report_graph.c -- around one function: its callers (--callers), its
 * callees (--callees), both (--butterfly, like cgview -b and pprof -peek),
 * and the same for every function of the table (--tree, like
 * callgrind_annotate --tree=both).  Each arc has the calls and the
 * inclusive cost of the calls along it. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/report.h"

typedef struct block {
    ph_entry entry;          /* the function itself */
    ph_arcs *callers, *callees;
} block;

/* The table entry of f, or one made from the profile's aggregates when
 * the table left f out (filtered, or no cost). */
static void entry_of(ph_report *r, const ph_func *f, block *b)
{
    const ph_table *t = r->table;
    ph_profile *p = r->p;
    const int64_t *incl = NULL;

    for (size_t i = 0; i < t->count; i++) {
        if (t->entries[i].func == f) {
            b->entry = t->entries[i];
            return;
        }
    }
    memset(&b->entry, 0, sizeof b->entry);
    b->entry.name = ph_str_get(p, f->name);
    b->entry.file = f->file ? ph_str_get(p, f->file->name) : "";
    b->entry.object = f->object ? ph_str_get(p, f->object->name) : "";
    b->entry.func = f;
    b->entry.has_incl = 1;
    b->entry.self = ph_func_self(p, f, r->topts.part);
    if (t->cycles && (b->entry.cycle = ph_cycles_of(t->cycles, f)) != 0)
        incl = ph_cycles_member_incl(t->cycles, f);
    b->entry.incl = incl ? incl : ph_func_incl(p, f, r->topts.part);
    b->entry.calls = ph_func_calls(p, f, r->topts.part);
    b->entry.self_calls = ph_func_self_calls(p, f, r->topts.part);
}

/* Sort arcs by |inclusive value of the event|, descending. */
static const ph_report *sort_report;

static int cmp_arcs(const void *a, const void *b)
{
    const ph_arc *x = a, *y = b;
    const ph_profile *p = sort_report->p;
    double vx = fabs(ph_event_eval(p, sort_report->ev, x->incl));
    double vy = fabs(ph_event_eval(p, sort_report->ev, y->incl));
    if (vx != vy)
        return vx < vy ? 1 : -1;
    return x->func->id < y->func->id ? -1 : x->func->id > y->func->id;
}

static void fill_block(ph_report *r, const ph_func *f, block *b)
{
    memset(b, 0, sizeof *b);
    entry_of(r, f, b);
    sort_report = r;
    if (r->view != PH_VIEW_CALLEES) {
        b->callers = ph_callers(r->p, f, r->topts.part);
        if (b->callers->count)
            ph_qsort(b->callers->arcs, b->callers->count,
                  sizeof *b->callers->arcs, cmp_arcs);
    }
    if (r->view != PH_VIEW_CALLERS) {
        b->callees = ph_callees(r->p, f, r->topts.part);
        if (b->callees->count)
            ph_qsort(b->callees->arcs, b->callees->count,
                  sizeof *b->callees->arcs, cmp_arcs);
    }
}

static void free_block(block *b)
{
    ph_arcs_free(b->callers);
    ph_arcs_free(b->callees);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static const char *format_pc(const ph_report *r, double v, char *buf)
{
    double pc = ph_report_percent(r, r->ev, v);
    if (isnan(pc))
        return "";
    snprintf(buf, 16, "%.1f%%", pc);
    return buf;
}

static const char *where_of(const ph_profile *p, const ph_func *f)
{
    if (f->file && f->file->name &&
        strcmp(ph_str_get(p, f->file->name), "???") != 0)
        return ph_report_base(ph_str_get(p, f->file->name));
    if (f->object && f->object->name)
        return ph_report_base(ph_str_get(p, f->object->name));
    return "";
}

static void print_arc_line(const ph_report *r, const ph_arc *a, char mark,
                           uint32_t cycle, size_t wv, FILE *out)
{
    char num[40], pc[16], calls[32], name[1024], fit[PH_REPORT_MAXW + 1];
    const char *where = where_of(r->p, a->func);
    double v = ph_event_eval(r->p, r->ev, a->incl);
    size_t used, room;

    /* A recursive arc has calls and no cost of its own (gprof leaves
     * its time columns blank): the cost is in the arcs into the cycle. */
    fprintf(out, "%*s %6s %10s  %c %s", (int)wv,
            a->recursive ? "" : ph_report_number(r, r->ev, v, num),
            a->recursive ? "" : format_pc(r, v, pc),
            ph_cli_commas(calls, (int64_t)a->count),
            mark, mark == '>' ? "  " : "");
    used = wv + 1 + 6 + 1 + 10 + 2 + 2 + (mark == '>' ? 2 : 0);
    room = used < PH_REPORT_WIDTH - 12 ? PH_REPORT_WIDTH - used : 12;
    if (a->recursive && cycle)
        snprintf(name, sizeof name, "%s <cycle %u>",
                 ph_str_get(r->p, a->func->name), cycle);
    else if (a->recursive)
        snprintf(name, sizeof name, "%s (recursive)",
                 ph_str_get(r->p, a->func->name));
    else
        snprintf(name, sizeof name, "%s", ph_str_get(r->p, a->func->name));
    if (where[0] && strlen(name) + 2 + strlen(where) <= room)
        fprintf(out, "%s  %s\n", name, where);
    else
        fprintf(out, "%s\n", ph_report_fit(fit, sizeof fit, name, room));
}

static void print_block(ph_report *r, const block *b, FILE *out)
{
    const ph_entry *e = &b->entry;
    const ph_profile *p = r->p;
    char num[40], pc[16], fit[PH_REPORT_MAXW + 1], head[1200];
    size_t i, wv = 9;
    double vi = ph_entry_value(r->table, e, r->ev, 1);
    double vs = ph_report_self(r, e);

    for (int side = 0; side < 2; side++) {
        const ph_arcs *a = side ? b->callees : b->callers;
        for (i = 0; a && i < a->count; i++) {
            size_t l = strlen(ph_report_number(
                r, r->ev, ph_event_eval(p, r->ev, a->arcs[i].incl), num));
            if (l > wv)
                wv = l;
        }
    }
    if (e->cycle)
        snprintf(head, sizeof head, "%s <cycle %u>", e->name, e->cycle);
    else
        snprintf(head, sizeof head, "%s", e->name);
    fprintf(out, "%s", ph_report_fit(fit, sizeof fit, head,
                                     PH_REPORT_WIDTH));
    if (where_of(p, e->func)[0] &&
        strlen(fit) + 3 + strlen(where_of(p, e->func)) <= PH_REPORT_WIDTH)
        fprintf(out, "  (%s)", where_of(p, e->func));
    fputc('\n', out);
    {
        char line[256], a[40], c[40];
        size_t l = 0;
        l += (size_t)snprintf(line + l, sizeof line - l, "  inclusive %s",
                              ph_report_number(r, r->ev, vi, num));
        if (format_pc(r, vi, pc)[0])
            l += (size_t)snprintf(line + l, sizeof line - l, " (%s)", pc);
        l += (size_t)snprintf(line + l, sizeof line - l, ", self %s",
                              ph_report_number(r, r->ev, vs, num));
        if (format_pc(r, vs, pc)[0])
            l += (size_t)snprintf(line + l, sizeof line - l, " (%s)", pc);
        if (ph_call_count(r->p) && !ph_node_count(r->p)) {
            l += (size_t)snprintf(line + l, sizeof line - l, ", calls %s",
                                  ph_cli_commas(a, (int64_t)e->calls));
            if (e->self_calls) {
                ph_cli_commas(c, (int64_t)e->self_calls);
                l += (size_t)snprintf(line + l, sizeof line - l,
                                      " (+%s recursive)", c);
            }
        }
        fprintf(out, "%s\n", ph_report_fit(fit, sizeof fit, line,
                                           PH_REPORT_WIDTH));
    }
    fprintf(out, "%*s %6s %10s\n", (int)wv, "inclusive", "%", "calls");
    for (i = 0; b->callers && i < b->callers->count; i++)
        print_arc_line(r, &b->callers->arcs[i], '<', e->cycle, wv, out);
    if (b->callers && b->callers->count == 0)
        fprintf(out, "%*s  < %s\n", (int)(wv + 18), "",
                ph_has_credits(p, r->ev) ? "<spontaneous>" : "(no callers)");
    for (i = 0; b->callees && i < b->callees->count; i++)
        print_arc_line(r, &b->callees->arcs[i], '>', e->cycle, wv, out);
    if (b->callees && b->callees->count == 0)
        fprintf(out, "%*s  > (no callees)\n", (int)(wv + 18), "");
}

/* ------------------------------------------------------------------ */
/* Data                                                                */

static void emit_arcs(ph_report *r, ph_emit *em, const char *key,
                      const ph_arcs *a)
{
    ph_profile *p = r->p;

    if (!a)
        return;
    ph_emit_key(em, key);
    ph_emit_list(em, 0);
    for (size_t i = 0; i < a->count; i++) {
        const ph_func *f = a->arcs[i].func;
        ph_emit_map(em, 0);
        ph_emit_key(em, "name");
        ph_emit_str(em, ph_str_get(p, f->name));
        ph_emit_key(em, "file");
        ph_emit_str(em, f->file && f->file->name
                            ? ph_str_get(p, f->file->name) : NULL);
        ph_emit_key(em, "object");
        ph_emit_str(em, f->object && f->object->name
                            ? ph_str_get(p, f->object->name) : NULL);
        ph_emit_key(em, "calls");
        ph_emit_uint(em, a->arcs[i].count);
        ph_emit_key(em, "inclusive");
        ph_report_emit_costs(r, em, a->arcs[i].incl);
        ph_emit_key(em, "recursive");
        ph_emit_bool(em, a->arcs[i].recursive);
        ph_emit_end(em);
    }
    ph_emit_end(em);
}

static void emit_block(ph_report *r, ph_emit *em, const block *b)
{
    ph_emit_map(em, 0);
    ph_report_emit_entry(r, em, &b->entry);
    emit_arcs(r, em, "callers", b->callers);
    emit_arcs(r, em, "callees", b->callees);
    ph_emit_end(em);
}

static void csv_block(ph_report *r, const block *b)
{
    ph_profile *p = r->p;
    size_t n = ph_event_count(p);

    for (int side = 0; side < 2; side++) {
        const ph_arcs *a = side ? b->callees : b->callers;
        for (size_t i = 0; a && i < a->count; i++) {
            const ph_func *f = a->arcs[i].func;
            ph_csv_str(stdout, b->entry.name, 1);
            ph_csv_str(stdout, side ? "callee" : "caller", 0);
            ph_csv_str(stdout, ph_str_get(p, f->name), 0);
            ph_csv_str(stdout, f->file ? ph_str_get(p, f->file->name) : "",
                       0);
            ph_csv_num(stdout, (double)a->arcs[i].count, 0);
            for (size_t k = 0; k < n; k++) {
                const ph_event *ev = ph_event_at(p, k);
                if (!(ev->flags & PH_EV_NONADDITIVE))
                    ph_csv_num(stdout, ph_event_eval(p, ev, a->arcs[i].incl),
                               0);
            }
            putchar('\n');
        }
    }
}

/* ------------------------------------------------------------------ */
/* The view                                                            */

/* Whether the table found cycles, so "<cycle N>" can name one. */
static int cycles_known(const ph_report *r)
{
    return r->table && r->table->cycles &&
           ph_cycles_count(r->table->cycles) > 0;
}

/* The functions the view is about: FN's matches, or the table's. */
static size_t chosen_functions(ph_report *r, const ph_func ***out)
{
    size_t n = 0;

    if (r->view != PH_VIEW_TREE)
        return ph_funcs_matching(r->p, r->fn, out);
    *out = ph_xmalloc((r->shown + 1) * sizeof **out);
    for (size_t i = 0; i < r->shown; i++)
        if (r->table->entries[i].func)
            (*out)[n++] = r->table->entries[i].func;
    return n;
}

int ph_report_graph(ph_report *r)
{
    const ph_func **fs = NULL;
    size_t i, n;
    ph_emit *em = NULL;

    if (!r->ev) {
        ph_cli_file_error(r->path, "the profile has no events");
        return PH_EXIT_BAD;
    }
    if (r->view == PH_VIEW_TREE && r->topts.group != PH_GROUP_FUNCTION) {
        ph_cli_error("--tree: only with --group function");
        return PH_EXIT_USAGE;
    }
    n = chosen_functions(r, &fs);
    if (n == 0 && r->fn && strncmp(r->fn, "<cycle ", 7) == 0 &&
        r->fmt == PH_REPORT_TEXT && cycles_known(r)) {
        free(fs);               /* a cycle as a whole: gprof's entry */
        return ph_report_gprof(r);
    }
    if (n == 0 && r->view != PH_VIEW_TREE) {
        ph_cli_file_error(r->path, "no function matches \"%s\"", r->fn);
        free(fs);
        return PH_EXIT_BAD;
    }
    em = ph_report_funcs_begin(r, "function,direction,name,file,calls");
    for (i = 0; i < n; i++) {
        block b;
        fill_block(r, fs[i], &b);
        if (r->fmt == PH_REPORT_TEXT) {
            putchar('\n');
            print_block(r, &b, stdout);
        } else if (r->fmt == PH_REPORT_CSV) {
            csv_block(r, &b);
        } else {
            emit_block(r, em, &b);
        }
        free_block(&b);
    }
    free(fs);
    return ph_report_funcs_end(em, PH_EXIT_OK);
}
