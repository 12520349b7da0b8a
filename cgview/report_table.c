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

/* Column widths of the text table, from the values it shows. */
typedef struct columns {
    size_t incl, incl_pc, self, self_pc, cum, calls;
    int show_incl, show_calls, show_pc, show_cum;
} columns;

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

static void widen(size_t *w, const char *s)
{
    if (strlen(s) > *w)
        *w = strlen(s);
}

static columns measure(const ph_report *r)
{
    const ph_table *t = r->table;
    columns c = { 9, 5, 4, 5, 10, 5, 0, 0, 0, 0 };
    char buf[80];
    double cum = 0;

    c.show_pc = !ph_report_is_ratio(r, r->ev);
    c.show_cum = t->gprof_lines;   /* gprof's flat profile has it */
    /* an empty table still has its columns */
    for (size_t i = 0; i < t->count && !c.show_incl; i++)
        c.show_incl = t->entries[i].has_incl;
    for (size_t i = 0; i < r->shown; i++) {
        const ph_entry *e = &t->entries[i];
        double vi = ph_entry_value(t, e, r->ev, 1);
        double vs = ph_report_self(r, e);
        if (e->has_incl) {
            c.show_incl = 1;
            widen(&c.incl, ph_report_number(r, r->ev, vi, buf));
            widen(&c.incl_pc, format_pc(buf, ph_report_percent(r, r->ev,
                                                               vi)));
        }
        widen(&c.self, ph_report_number(r, r->ev, vs, buf));
        widen(&c.self_pc, format_pc(buf, ph_report_percent(r, r->ev, vs)));
        cum += vs;
        widen(&c.cum, ph_report_number(r, r->ev, cum, buf));
        if (e->calls || e->self_calls) {
            c.show_calls = 1;
            widen(&c.calls, format_calls(buf, e));
        }
    }
    return c;
}

/* Where the entry comes from, short: the file's or object's last part. */
static const char *entry_where(const ph_report *r, const ph_entry *e)
{
    if (r->topts.group != PH_GROUP_FUNCTION || e->is_cycle ||
        r->topts.lines)
        return "";
    if (e->file && e->file[0] && strcmp(e->file, "???") != 0)
        return ph_report_base(e->file);
    if (e->object && e->object[0])
        return ph_report_base(e->object);
    return "";
}

/* Name (with " <cycle N>" for members) and where, in width columns. */
static void print_name(const ph_report *r, const ph_entry *e, size_t width,
                       FILE *out)
{
    char name[1024], fit[PH_REPORT_MAXW + 1];
    const char *where = entry_where(r, e);
    size_t nl, wl = strlen(where);

    if (e->cycle && !e->is_cycle)
        snprintf(name, sizeof name, "%s <cycle %u>", e->name, e->cycle);
    else
        snprintf(name, sizeof name, "%s%s", e->name,
                 e->inlined == PH_INLINE_ALL    ? " (inline)"
                 : e->inlined == PH_INLINE_SOME ? " (partial-inline)"
                                                : "");
    nl = strlen(name);
    if (wl && nl + 2 + wl > width) {
        where = "";   /* the name matters more than where it lives */
        wl = 0;
    }
    if (wl) {
        fputs(ph_report_fit(fit, sizeof fit, name, width - wl - 2), out);
        fprintf(out, "  %s", where);
    } else {
        fputs(ph_report_fit(fit, sizeof fit, name, width), out);
    }
    fputc('\n', out);
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

static int print_text(ph_report *r)
{
    const ph_table *t = r->table;
    columns c;
    size_t used, i;
    char buf[80], pc[16];
    const char *evname = r->ev ? ph_str_get(r->p, r->ev->name) : "";
    static const char *const by[] = { "self", "inclusive", "calls" };

    ph_report_print_head(r, stdout);
    if (!r->ev)
        return PH_EXIT_OK;
    c = measure(r);
    if (r->vf)
        ph_view_filter_print(r->vf, r, stdout);
    printf("\n%s by %s%s%s (%zu of %zu", group_name(r->topts.group),
           by[r->sort], r->sort == PH_SORT_CALLS ? "" : " ",
           r->sort == PH_SORT_CALLS ? "" : evname, r->shown, r->listed);
    if (r->threshold > 0)
        printf(", threshold %g%%", r->threshold);
    printf("):\n");
    used = 0;
    if (c.show_incl) {
        printf("%*s", (int)c.incl, "inclusive");
        if (c.show_pc)
            printf(" %*s", (int)c.incl_pc, "%");
        printf("  ");
        used += c.incl + 2 + (c.show_pc ? c.incl_pc + 1 : 0);
    }
    printf("%*s", (int)c.self, "self");
    used += c.self;
    if (c.show_pc) {
        printf(" %*s", (int)c.self_pc, "%");
        used += c.self_pc + 1;
    }
    if (c.show_cum) {
        printf("  %*s", (int)c.cum, "cumulative");
        used += c.cum + 2;
    }
    if (c.show_calls) {
        printf("  %*s", (int)c.calls, "calls");
        used += c.calls + 2;
    }
    printf("  %s\n", r->topts.group == PH_GROUP_FUNCTION ? "function"
                     : r->topts.group == PH_GROUP_FILE ? "file"
                     : r->topts.group == PH_GROUP_FUNC_FILE ? "function file"
                     : r->topts.group == PH_GROUP_OBJECT ? "object"
                                                         : "class");
    used += 2;
    double cum = 0;
    for (i = 0; i < r->shown; i++) {
        const ph_entry *e = &t->entries[i];
        double vi = ph_entry_value(t, e, r->ev, 1);
        double vs = ph_report_self(r, e);
        if (c.show_incl) {
            if (e->has_incl)
                printf("%*s", (int)c.incl, ph_report_number(r, r->ev, vi, buf));
            else
                printf("%*s", (int)c.incl, "-");
            if (c.show_pc)
                printf(" %*s", (int)c.incl_pc,
                       e->has_incl ? format_pc(pc, ph_report_percent(
                                                       r, r->ev, vi))
                                   : "");
            printf("  ");
        }
        printf("%*s", (int)c.self, ph_report_number(r, r->ev, vs, buf));
        if (c.show_pc)
            printf(" %*s", (int)c.self_pc,
                   format_pc(pc, ph_report_percent(r, r->ev, vs)));
        cum += vs;
        if (c.show_cum)
            printf("  %*s", (int)c.cum, ph_report_number(r, r->ev, cum, buf));
        if (c.show_calls)
            printf("  %*s", (int)c.calls, format_calls(buf, e));
        printf("  ");
        print_name(r, e, used < PH_REPORT_WIDTH - 12
                             ? PH_REPORT_WIDTH - used : 12, stdout);
    }
    if (r->topts.group == PH_GROUP_FUNCTION)
        print_cycles(r, stdout);
    return PH_EXIT_OK;
}

static void print_csv(ph_report *r)
{
    ph_profile *p = r->p;
    const ph_table *t = r->table;
    size_t i, k, n = ph_event_count(p);
    char col[256];

    fputs("name,file,object,calls,cycle", stdout);
    for (int incl = 0; incl < 2; incl++) {
        for (k = 0; k < n; k++) {
            const ph_event *ev = ph_event_at(p, k);
            if (ev->flags & PH_EV_NONADDITIVE)
                continue;
            snprintf(col, sizeof col, "%s_%s", incl ? "incl" : "self",
                     ph_str_get(p, ev->name));
            ph_csv_str(stdout, col, 0);
        }
    }
    putchar('\n');
    for (i = 0; i < r->shown; i++) {
        const ph_entry *e = &t->entries[i];
        ph_csv_str(stdout, e->name, 1);
        ph_csv_str(stdout, e->file, 0);
        ph_csv_str(stdout, e->object, 0);
        ph_csv_num(stdout, (double)e->calls, 0);
        if (e->cycle)
            ph_csv_num(stdout, e->cycle, 0);
        else
            ph_csv_str(stdout, "", 0);
        for (int incl = 0; incl < 2; incl++) {
            for (k = 0; k < n; k++) {
                const ph_event *ev = ph_event_at(p, k);
                if (ev->flags & PH_EV_NONADDITIVE)
                    continue;
                if (incl && !e->has_incl)
                    ph_csv_str(stdout, "", 0);
                else
                    ph_csv_num(stdout, ph_entry_value(t, e, ev, incl), 0);
            }
        }
        putchar('\n');
    }
}

int ph_report_table(ph_report *r)
{
    ph_emit *e;
    size_t i;

    if (r->fmt == PH_REPORT_TEXT)
        return print_text(r);
    if (r->fmt == PH_REPORT_CSV) {
        print_csv(r);
        return PH_EXIT_OK;
    }
    e = ph_emit_new(stdout, r->fmt);
    ph_emit_map(e, 0);
    ph_report_emit_head(r, e);
    ph_emit_key(e, "functions");
    ph_emit_list(e, 0);
    for (i = 0; i < r->shown; i++) {
        ph_emit_map(e, 0);
        ph_report_emit_entry(r, e, &r->table->entries[i]);
        ph_emit_end(e);
    }
    ph_emit_end(e);
    ph_emit_end(e);
    return ph_emit_free(e) < 0 ? PH_EXIT_BAD : PH_EXIT_OK;
}
