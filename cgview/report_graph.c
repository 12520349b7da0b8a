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
/* The arcs of a block, once for every format                          */

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
        ph_report_file_known(ph_str_get(p, f->file->name)))
        return ph_report_base(ph_str_get(p, f->file->name));
    if (f->object && f->object->name)
        return ph_report_base(ph_str_get(p, f->object->name));
    return "";
}

/* An arc's row: text shows the report's event (inclusive, percent),
 * the calls, "<" or ">" and the name with where it lives; the data
 * formats every event, and CSV the function and the direction first. */
typedef struct arc_cols {
    size_t incl_text, pc, calls_text, mark, label;       /* text */
    size_t function, direction, name, file, object, calls, incl, recursive;
} arc_cols;

static void declare_arcs(const ph_report *r, ph_grid *g, arc_cols *c)
{
    c->incl_text = ph_grid_add_col(g, &(ph_grid_col){ .head = "inclusive",
                                                     .width = 9 });
    c->pc = ph_grid_add_col(g, &(ph_grid_col){ .head = "%", .sep = " ",
                                              .width = 6,
                                              .flags = PH_GRID_FIXED });
    c->calls_text = ph_grid_add_col(g, &(ph_grid_col){
        .head = "calls", .sep = " ", .width = 10, .flags = PH_GRID_FIXED });
    c->mark = ph_grid_add_col(g, &(ph_grid_col){ .head = "", .width = 1,
                                                .flags = PH_GRID_FIXED });
    c->label = ph_grid_add_col(g, &(ph_grid_col){ .head = "", .sep = " ",
                                                 .width = 12,
                                                 .flags = PH_GRID_FILL });
    c->function = ph_grid_add_col(g, &(ph_grid_col){ .csv = "function" });
    c->direction = ph_grid_add_col(g, &(ph_grid_col){ .csv = "direction",
                                                     .csv_pos = 1 });
    c->name = ph_grid_add_col(g, &(ph_grid_col){ .key = "name", .csv = "name",
                                                .csv_pos = 2 });
    c->file = ph_grid_add_col(g, &(ph_grid_col){ .key = "file", .csv = "file",
                                                .csv_pos = 3 });
    c->object = ph_grid_add_col(g, &(ph_grid_col){ .key = "object" });
    c->calls = ph_grid_add_col(g, &(ph_grid_col){ .key = "calls",
                                                 .csv = "calls",
                                                 .csv_pos = 4 });
    c->incl = ph_report_cost_cols(r, g,
                                  &(ph_grid_col){ .group = "inclusive",
                                                  .csv = "", .csv_pos = 5 },
                                  NULL);
    c->recursive = ph_grid_add_col(g, &(ph_grid_col){ .key = "recursive" });
}

/* A recursive arc has calls and no cost of its own (gprof leaves its
 * time columns blank): the cost is in the arcs into the cycle. */
static void arc_row(const ph_report *r, ph_grid *g, const arc_cols *c,
                    const block *b, const ph_arc *a, int callee)
{
    const ph_profile *p = r->p;
    const ph_func *f = a->func;
    double v = ph_event_eval(p, r->ev, a->incl);
    char num[40], name[1024];

    ph_grid_row(g);
    ph_grid_str(g, c->function, ph_entry_name(r->table, &b->entry));
    ph_grid_str(g, c->direction, callee ? "callee" : "caller");
    ph_grid_str(g, c->name, ph_str_get(p, f->name));
    ph_grid_str(g, c->file, f->file && f->file->name
                                ? ph_str_get(p, f->file->name) : NULL);
    ph_grid_str(g, c->object, f->object && f->object->name
                                  ? ph_str_get(p, f->object->name) : NULL);
    ph_grid_uint(g, c->calls, a->count);
    ph_report_cost_cells(r, g, c->incl, a->incl);
    ph_grid_bool(g, c->recursive, a->recursive);

    ph_grid_text(g, c->incl_text,
                 a->recursive ? "" : ph_report_number(r, r->ev, v, num));
    ph_grid_text(g, c->pc, a->recursive ? "" : format_pc(r, v, num));
    ph_grid_text(g, c->calls_text, ph_cli_commas(num, (int64_t)a->count));
    ph_grid_text(g, c->mark, callee ? ">  " : "<");
    snprintf(name, sizeof name, "%s%s", ph_str_get(p, f->name),
             a->recursive && b->entry.cycle ? "" :
             a->recursive                   ? " (recursive)" : "");
    if (a->recursive && b->entry.cycle)
        snprintf(name + strlen(name), sizeof name - strlen(name),
                 " <cycle %u>", b->entry.cycle);
    ph_grid_text(g, c->label, name);
    ph_grid_note(g, c->label, where_of(p, f));
}

/* A side without arcs: a line of the text table only. */
static void none_row(ph_grid *g, const arc_cols *c, int callee,
                     const char *what)
{
    ph_grid_row(g);
    ph_grid_text_only(g);
    ph_grid_text(g, c->mark, callee ? ">" : "<");
    ph_grid_text(g, c->label, what);
}

/* The rows of b into g (emptied first): its callers, then its callees;
 * *ncallers: the rows before the first callee. */
static void arc_rows(const ph_report *r, ph_grid *g, const arc_cols *c,
                     const block *b, size_t *ncallers)
{
    ph_grid_clear(g);
    for (size_t i = 0; b->callers && i < b->callers->count; i++)
        arc_row(r, g, c, b, &b->callers->arcs[i], 0);
    if (b->callers && b->callers->count == 0)
        none_row(g, c, 0, ph_has_credits(r->p, r->ev) ? "<spontaneous>"
                                                      : "(no callers)");
    *ncallers = ph_grid_rows(g);
    for (size_t i = 0; b->callees && i < b->callees->count; i++)
        arc_row(r, g, c, b, &b->callees->arcs[i], 1);
    if (b->callees && b->callees->count == 0)
        none_row(g, c, 1, "(no callees)");
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static void print_block(ph_report *r, const block *b, const ph_grid *g,
                        FILE *out)
{
    const ph_entry *e = &b->entry;
    const ph_profile *p = r->p;
    char num[40], pc[16], fit[PH_REPORT_MAXW + 1], head[1200];
    double vi = ph_entry_value(r->table, e, r->ev, 1);
    double vs = ph_report_self(r, e);

    if (e->cycle)
        snprintf(head, sizeof head, "%s <cycle %u>",
                 ph_entry_name(r->table, e), e->cycle);
    else
        snprintf(head, sizeof head, "%s", ph_entry_name(r->table, e));
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
    ph_grid_print_text(g, out);
}

/* ------------------------------------------------------------------ */
/* Data                                                                */

static void emit_block(ph_report *r, ph_emit *em, const block *b,
                       const ph_grid *g, size_t ncallers)
{
    ph_emit_map(em, 0);
    ph_report_emit_entry(r, em, &b->entry);
    if (b->callers) {
        ph_emit_key(em, "callers");
        ph_grid_emit_rows(g, em, 0, ncallers, NULL, NULL);
    }
    if (b->callees) {
        ph_emit_key(em, "callees");
        ph_grid_emit_rows(g, em, ncallers, ph_grid_rows(g), NULL, NULL);
    }
    ph_emit_end(em);
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
    ph_grid *g;
    arc_cols c;

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
    g = ph_grid_new(0);
    declare_arcs(r, g, &c);
    em = ph_report_funcs_begin(r, g);
    for (i = 0; i < n; i++) {
        block b;
        size_t ncallers;
        fill_block(r, fs[i], &b);
        arc_rows(r, g, &c, &b, &ncallers);
        if (r->fmt == PH_REPORT_TEXT) {
            putchar('\n');
            print_block(r, &b, g, stdout);
        } else if (r->fmt == PH_REPORT_CSV) {
            ph_grid_print_csv_rows(g, stdout);
        } else {
            emit_block(r, em, &b, g, ncallers);
        }
        free_block(&b);
    }
    ph_grid_free(g);
    free(fs);
    return ph_report_funcs_end(em, PH_EXIT_OK);
}
