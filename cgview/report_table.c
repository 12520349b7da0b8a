/* report_table.c -- the default summary view: the header, then the top
 * entries of the cost table (functions, files, objects or classes) with
 * inclusive and self cost of one event, percentages and calls; as text
 * that fits 80 columns, or as JSON, YAML or CSV with every event. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/report.h"
#include "cgview/summary_filter.h"

static const char *format_pc(char *buf, double pc)
{
    if (isnan(pc))
        return "-";
    snprintf(buf, 16, "%.1f%%", pc);
    return buf;
}

static const char *format_calls(char *buf, const ph_entry *e)
{
    char a[32], b[32];
    if (e->self_calls)
        snprintf(buf, 72, "%s+%s", ph_cli_commas(a, (int64_t)e->calls),
                 ph_cli_commas(b, (int64_t)e->self_calls));
    else
        ph_cli_commas(buf, (int64_t)e->calls);
    return buf;
}

/* Where the entry comes from, short: the file's or object's last part. */
static const char *entry_where(const ph_report *r, const ph_entry *e)
{
    if (r->topts.group != PH_GROUP_FUNCTION || e->is_cycle ||
        r->topts.lines)
        return "";
    if (ph_report_file_known(e->file))
        return ph_report_base(e->file);
    if (e->object && e->object[0])
        return ph_report_base(e->object);
    return "";
}

static void print_cycles(const ph_report *r, FILE *out)
{
    const ph_cycles *cy = r->table->cycles;
    uint32_t k, n = cy ? ph_cycles_count(cy) : 0;
    char fit[PH_REPORT_MAXW + 1];

    if (!n)
        return;
    fprintf(out, "\ncycles (strongly connected callers and callees):\n");
    for (k = 1; k <= n; k++) {
        size_t cnt, col, i;
        ph_func *const *m = ph_cycles_members(cy, k, &cnt);
        col = (size_t)fprintf(out, "  <cycle %u>:", k);
        for (i = 0; i < cnt; i++) {
            const char *nm = ph_report_fit(fit, sizeof fit,
                                           ph_str_get(r->p, m[i]->name), 60);
            if (col + 1 + strlen(nm) > PH_REPORT_WIDTH) {
                fputs("\n             ", out);
                col = 13;
            }
            col += (size_t)fprintf(out, " %s", nm);
        }
        fputc('\n', out);
    }
}

static const char *group_name(ph_group g)
{
    static const char *const names[] = { "functions", "files", "objects",
                                         "classes", "files" };
    return names[g];
}

/* The text columns of the table (one event: inclusive and self with
 * percentages, calls, the name); ~0 for a column not shown. */
typedef struct text_cols {
    size_t incl, incl_pc, self, self_pc, cum, calls, name;
    double cum_sum;     /* the cumulative column's running sum */
} text_cols;

static text_cols declare_text(const ph_report *r, ph_grid *g)
{
    static const char *const heads[] = { "function", "file", "object",
                                         "class", "function file" };
    const ph_table *t = r->table;
    text_cols c = { ~(size_t)0, ~(size_t)0, 0, ~(size_t)0, ~(size_t)0,
                    ~(size_t)0, 0, 0 };
    int show_incl = 0, show_calls = 0, show_pc = !ph_report_is_ratio(r, r->ev);

    /* an empty table still has its columns */
    for (size_t i = 0; i < t->count && !show_incl; i++)
        show_incl = t->entries[i].has_incl;
    for (size_t i = 0; i < r->shown && !show_calls; i++)
        show_calls = t->entries[i].calls || t->entries[i].self_calls;
    if (show_incl) {
        c.incl = ph_grid_add_col(g, &(ph_grid_col){ .head = "inclusive",
                                                .width = 9 });
        if (show_pc)
            c.incl_pc = ph_grid_add_col(g, &(ph_grid_col){ .head = "%",
                                                       .sep = " ",
                                                       .width = 5 });
    }
    c.self = ph_grid_add_col(g, &(ph_grid_col){ .head = "self", .width = 4 });
    if (show_pc)
        c.self_pc = ph_grid_add_col(g, &(ph_grid_col){ .head = "%", .sep = " ",
                                                   .width = 5 });
    if (t->gprof_lines)     /* gprof's flat profile has it */
        c.cum = ph_grid_add_col(g, &(ph_grid_col){ .head = "cumulative",
                                               .width = 10 });
    if (show_calls)
        c.calls = ph_grid_add_col(g, &(ph_grid_col){ .head = "calls",
                                                 .width = 5 });
    c.name = ph_grid_add_col(g, &(ph_grid_col){ .head = heads[r->topts.group],
                                            .width = 12,
                                            .flags = PH_GRID_FILL });
    return c;
}

/* Entry i's text cells: numbers as the report shows them, the name with
 * " <cycle N>" for members (or its inlining) and where it lives. */
static void text_row(const ph_report *r, ph_grid *g, text_cols *c,
                     const ph_entry *e)
{
    const ph_table *t = r->table;
    double vi = ph_entry_value(t, e, r->ev, 1);
    double vs = ph_report_self(r, e);
    char buf[80], name[1024];

    if (c->incl != ~(size_t)0)
        ph_grid_text(g, c->incl, e->has_incl
                                     ? ph_report_number(r, r->ev, vi, buf)
                                     : "-");
    if (c->incl_pc != ~(size_t)0)
        ph_grid_text(g, c->incl_pc,
                     e->has_incl
                         ? format_pc(buf, ph_report_percent(r, r->ev, vi))
                         : "");
    ph_grid_text(g, c->self, ph_report_number(r, r->ev, vs, buf));
    if (c->self_pc != ~(size_t)0)
        ph_grid_text(g, c->self_pc,
                     format_pc(buf, ph_report_percent(r, r->ev, vs)));
    if (c->cum != ~(size_t)0) {
        c->cum_sum += vs;
        ph_grid_text(g, c->cum, ph_report_number(r, r->ev, c->cum_sum, buf));
    }
    if (c->calls != ~(size_t)0)
        ph_grid_text(g, c->calls, format_calls(buf, e));
    if (e->cycle && !e->is_cycle)
        snprintf(name, sizeof name, "%s <cycle %u>",
                 ph_entry_name(r->table, e), e->cycle);
    else
        snprintf(name, sizeof name, "%s%s", ph_entry_name(r->table, e),
                 e->inlined == PH_INLINE_ALL    ? " (inline)"
                 : e->inlined == PH_INLINE_SOME ? " (partial-inline)"
                                                : "");
    ph_grid_text(g, c->name, name);
    ph_grid_note(g, c->name, entry_where(r, e));
}

static void print_text(const ph_report *r, const ph_grid *g)
{
    const char *evname = ph_str_get(r->p, r->ev->name);
    static const char *const by[] = { "self", "inclusive", "calls" };

    if (r->vf)
        ph_view_filter_print(r->vf, r, stdout);
    printf("\n%s by %s%s%s (%zu of %zu", group_name(r->topts.group),
           by[r->sort], r->sort == PH_SORT_CALLS ? "" : " ",
           r->sort == PH_SORT_CALLS ? "" : evname, r->shown, r->listed);
    if (r->threshold > 0)
        printf(", threshold %g%%", r->threshold);
    printf("):\n");
    ph_grid_print_text(g, stdout);
    if (r->topts.group == PH_GROUP_FUNCTION)
        print_cycles(r, stdout);
}

/* The rows once: the function object of the data formats (and CSV) and,
 * for text, the one event's columns; then the format asked for. */
int ph_report_table(ph_report *r)
{
    int text = r->fmt == PH_REPORT_TEXT;
    ph_grid *g;
    ph_entry_cols ec;
    text_cols tc;
    ph_emit *e;
    int rc = PH_EXIT_OK;

    if (text) {
        ph_report_print_head(r, stdout);
        if (!r->ev)
            return PH_EXIT_OK;
    }
    /* text shows one event: its own columns, not every event's */
    g = ph_grid_new(0);
    if (text)
        tc = declare_text(r, g);
    else
        ph_report_entry_cols(r, g, &ec);
    for (size_t i = 0; i < r->shown; i++) {
        if (text) {
            ph_grid_row(g);
            text_row(r, g, &tc, &r->table->entries[i]);
        } else {
            ph_report_entry_row(r, g, &ec, &r->table->entries[i]);
        }
    }
    if (text) {
        print_text(r, g);
    } else if (r->fmt == PH_REPORT_CSV) {
        ph_grid_print_csv(g, stdout);
    } else {
        e = ph_emit_new(stdout, r->fmt);
        ph_emit_map(e, 0);
        ph_report_emit_head(r, e);
        ph_emit_key(e, "functions");
        ph_grid_emit(g, e);
        ph_emit_end(e);
        rc = ph_emit_free(e) < 0 ? PH_EXIT_BAD : PH_EXIT_OK;
    }
    ph_grid_free(g);
    return rc;
}
