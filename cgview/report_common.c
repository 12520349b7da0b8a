/* report_common.c -- what every view of the summary report shares: an
 * event's numbers, one function object as data, percentages, and fitting
 * names into the report's width (--width, $COLUMNS, the terminal; no cut in a pipe). */
#include "config.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cgview/report.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

ph_part *ph_report_part(const ph_report *r)
{
    if (r->topts.part == PH_ALL_PARTS)
        return NULL;
    return ph_part_at(r->p, (size_t)r->topts.part);
}

int ph_report_is_ratio(const ph_report *r, const ph_event *ev)
{
    return (ev->flags & PH_EV_DERIVED) && ev->formula &&
           strchr(ph_str_get(r->p, ev->formula), '/') != NULL;
}

double ph_report_percent(const ph_report *r, const ph_event *ev, double v)
{
    double total;

    if (ph_report_is_ratio(r, ev))
        return NAN;
    total = ph_event_eval(r->p, ev, r->table->totals);
    return total != 0 ? 100.0 * v / total : NAN;
}

size_t ph_report_width = 80;

int ph_report_set_width(const char *arg)
{
    const char *cols = getenv("COLUMNS");
    struct winsize ws;
    char *end;
    unsigned long v;

    if (!arg && cols && *cols)
        arg = cols;
    if (arg) {
        v = strtoul(arg, &end, 10);
        if (end == arg || *end || v < 40)
            return -1;
        ph_report_width = v > PH_REPORT_MAXW ? PH_REPORT_MAXW : v;
        return 0;
    }
    if (!isatty(STDOUT_FILENO))
        ph_report_width = PH_REPORT_MAXW;
    else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        ph_report_width = ws.ws_col;
    else
        ph_report_width = 80;
    return 0;
}

/* s with what a terminal would act on made visible: control bytes (ESC
 * starts an escape sequence) and bytes that are no UTF-8 as \xNN.
 * malloc'ed. */
static void fit(char *buf, size_t size, const char *s, size_t width);

static char *visible(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    char *d = ph_xmalloc(n * 4 + 1), *o = d;

    while (i < n) {
        size_t k = u[i] < 0x20 || u[i] == 0x7f ? 0
                                                : ph_utf8_seq(u + i, n - i);
        if (k == 0) {
            o += sprintf(o, "\\x%02x", u[i]);
            i++;
        } else {
            memcpy(o, s + i, k);
            o += k;
            i += k;
        }
    }
    *o = '\0';
    return d;
}

/* Whether s is printable ASCII: shown as it is. */
static int plain(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u >= 0x20 && *u < 0x7f)
        u++;
    return *u == '\0';
}

const char *ph_report_fit(char *buf, size_t size, const char *s,
                          size_t width)
{
    char *v;

    if (plain(s)) {
        fit(buf, size, s, width);
        return buf;
    }
    v = visible(s);
    fit(buf, size, v, width);
    free(v);
    return buf;
}

size_t ph_report_shown_len(const char *s)
{
    char *v;
    size_t n;

    if (plain(s))
        return strlen(s);
    v = visible(s);
    n = strlen(v);
    free(v);
    return n;
}

static void fit(char *buf, size_t size, const char *s, size_t width)
{
    size_t n = strlen(s), head, tail;

    if (width + 1 > size)
        width = size - 1;
    if (n <= width) {
        memcpy(buf, s, n + 1);
        return;
    }
    if (width < 5) {
        memcpy(buf, s, width);
        buf[width] = '\0';
        return;
    }
    /* Keep more of the start (namespace, class) than of the end. */
    head = (width - 3) * 3 / 5;
    tail = width - 3 - head;
    memcpy(buf, s, head);
    memcpy(buf + head, "...", 3);
    memcpy(buf + head + 3, s + n - tail, tail + 1);
    return;
}

const char *ph_report_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

int ph_report_file_known(const char *name)
{
    return name && name[0] && strcmp(name, "???") != 0;
}

int ph_report_event_shown(const ph_event *e)
{
    return !(e->flags & PH_EV_NONADDITIVE);
}

/* ------------------------------------------------------------------ */
/* Numbers and self costs                                              */

const char *ph_report_number(const ph_report *r, const ph_event *ev,
                             double v, char *buf)
{
    int dec = 0;
    double f = ph_event_shown(r->p, ev, NULL, &dec);

    if (f == 1.0 || !isfinite(v))
        return ph_cli_number(buf, v, 1);
    snprintf(buf, 40, "%.*f", dec, v * f);
    return buf;
}

double ph_report_self(const ph_report *r, const ph_entry *e)
{
    const ph_table *t = r->table;
    double v = 0;
    size_t n = 0;

    if (e->credited || !r->ev || !ph_has_credits(r->p, r->ev) ||
        r->topts.group != PH_GROUP_FUNCTION || r->topts.lines)
        return ph_entry_value(t, e, r->ev, 0);
    if (e->func && !e->is_cycle)
        return ph_func_credit(r->p, e->func);
    if (e->is_cycle && t->cycles) {
        ph_func *const *m = ph_cycles_members(t->cycles, e->cycle, &n);
        for (size_t i = 0; i < n; i++)
            v += ph_func_credit(r->p, m[i]);
        return v;
    }
    return ph_entry_value(t, e, r->ev, 0);
}

/* ------------------------------------------------------------------ */
/* Entries                                                             */

void ph_report_emit_costs(ph_report *r, ph_emit *e, const int64_t *v)
{
    ph_profile *p = r->p;
    size_t i, n = ph_event_count(p);

    ph_emit_map(e, 1);
    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        if (!ph_report_event_shown(ev))
            continue;
        ph_emit_key(e, ph_str_get(p, ev->name));
        if (ev->flags & PH_EV_DERIVED)
            ph_emit_num(e, ph_event_eval(p, ev, v));
        else
            ph_emit_int(e, v[ev->slot]);
    }
    ph_emit_end(e);
}

/* The function row: name, file, object, self and inclusive of every
 * shown event, calls and cycle; CSV puts calls and cycle before the
 * costs and names the costs self_EV and incl_EV. */
size_t ph_report_cost_cols(const ph_report *r, ph_grid *g,
                           const ph_grid_col *group, const char *csv_prefix)
{
    const ph_profile *p = r->p;
    ph_grid_col c = *group;
    size_t first;

    /* the group's own cell: {} when no event is shown */
    c.key = NULL;
    c.csv = NULL;
    first = ph_grid_add_col(g, &c);
    c.flags &= ~(unsigned)PH_GRID_OPTIONAL;
    for (size_t k = 0; k < ph_event_count(p); k++) {
        const ph_event *ev = ph_event_at(p, k);
        char csv[256];
        if (!ph_report_event_shown(ev))
            continue;
        snprintf(csv, sizeof csv, "%s%s%s", csv_prefix ? csv_prefix : "",
                 csv_prefix ? "_" : "", ph_str_get(p, ev->name));
        c.key = ph_str_get(p, ev->name);
        c.csv = group->csv ? csv : NULL;
        ph_grid_add_col(g, &c);
    }
    return first;
}

void ph_report_entry_cols(const ph_report *r, ph_grid *g, ph_entry_cols *c)
{
    static const char *const what[] = { "self", "inclusive" };
    static const char *const prefix[] = { "self", "incl" };

    c->name = ph_grid_add_col(g, &(ph_grid_col){ .key = "name", .csv = "name",
                                             .csv_pos = 1 });
    c->file = ph_grid_add_col(g, &(ph_grid_col){ .key = "file", .csv = "file",
                                             .csv_pos = 2 });
    c->object = ph_grid_add_col(g, &(ph_grid_col){ .key = "object",
                                               .csv = "object",
                                               .csv_pos = 3 });
    for (int incl = 0; incl < 2; incl++)
        c->cost[incl] = ph_report_cost_cols(
            r, g,
            &(ph_grid_col){ .group = what[incl], .csv = "",
                            .csv_pos = 6 + incl },
            prefix[incl]);
    c->calls = ph_grid_add_col(g, &(ph_grid_col){ .key = "calls",
                                              .csv = "calls", .csv_pos = 4 });
    c->cycle = ph_grid_add_col(g, &(ph_grid_col){ .key = "cycle",
                                              .csv = "cycle", .csv_pos = 5 });
    c->line = c->address = c->credit = ~(size_t)0;
    if (!r->table || !r->table->gprof_lines)
        return;
    /* gprof -l's line symbols: where, and the exact time in ticks */
    c->line = ph_grid_add_col(g, &(ph_grid_col){ .key = "line", .csv = "line",
                                             .csv_pos = 8,
                                             .flags = PH_GRID_OPTIONAL });
    c->address = ph_grid_add_col(g, &(ph_grid_col){ .key = "address",
                                                .csv = "address",
                                                .csv_pos = 8,
                                                .flags = PH_GRID_OPTIONAL });
    c->credit = ph_grid_add_col(g, &(ph_grid_col){ .key = "self_credit",
                                               .csv = "self_credit",
                                               .csv_pos = 8,
                                               .flags = PH_GRID_OPTIONAL });
}

void ph_report_cost_cells(const ph_report *r, ph_grid *g, size_t col,
                          const int64_t *v)
{
    ph_grid_null(g, col++);
    for (size_t k = 0; k < ph_event_count(r->p); k++) {
        const ph_event *ev = ph_event_at(r->p, k);
        if (!ph_report_event_shown(ev))
            continue;
        if (ev->flags & PH_EV_DERIVED)
            ph_grid_num(g, col++, ph_event_eval(r->p, ev, v));
        else
            ph_grid_int(g, col++, v[ev->slot]);
    }
}

void ph_report_entry_row(const ph_report *r, ph_grid *g,
                         const ph_entry_cols *c, const ph_entry *en)
{
    ph_grid_row(g);
    ph_grid_str(g, c->name, ph_entry_name(r->table, en));
    ph_grid_str(g, c->file, en->file && en->file[0] ? en->file : NULL);
    ph_grid_str(g, c->object, en->object && en->object[0] ? en->object
                                                           : NULL);
    ph_report_cost_cells(r, g, c->cost[0], en->self);
    if (en->has_incl)
        ph_report_cost_cells(r, g, c->cost[1], en->incl);
    ph_grid_uint(g, c->calls, en->calls);
    if (en->cycle)
        ph_grid_uint(g, c->cycle, en->cycle);
    else
        ph_grid_null(g, c->cycle);
    if (en->credited && c->line != ~(size_t)0) {   /* gprof -l line symbol */
        ph_grid_uint(g, c->line, en->line);
        ph_grid_uint(g, c->address, en->addr);
        ph_grid_num(g, c->credit, en->credit);
    }
}

void ph_report_emit_entry(ph_report *r, ph_emit *e, const ph_entry *en)
{
    ph_grid *g = ph_grid_new(0);
    ph_entry_cols c;

    ph_report_entry_cols(r, g, &c);
    ph_report_entry_row(r, g, &c, en);
    ph_grid_emit_row(g, e, 0);
    ph_grid_free(g);
}

ph_emit *ph_report_funcs_begin(ph_report *r, const ph_grid *rows)
{
    ph_emit *em;

    if (r->fmt == PH_REPORT_TEXT) {
        ph_report_print_head(r, stdout);
        return NULL;
    }
    if (r->fmt == PH_REPORT_CSV) {
        ph_grid_print_csv_head(rows, stdout);
        return NULL;
    }
    em = ph_emit_new(stdout, r->fmt);
    ph_emit_map(em, 0);
    ph_report_emit_head(r, em);
    ph_emit_key(em, "functions");
    ph_emit_list(em, 0);
    return em;
}

int ph_report_funcs_end(ph_emit *em, int rc)
{
    if (!em)
        return rc;
    ph_emit_end(em);
    ph_emit_end(em);
    return ph_emit_free(em) < 0 ? PH_EXIT_BAD : rc;
}

FILE *ph_report_open_source(const ph_report *r, const char *name)
{
    char path[4096];
    FILE *f;

    if (r->source_dir) {
        snprintf(path, sizeof path, "%s/%s", r->source_dir, name);
        if ((f = fopen(path, "r")) != NULL)
            return f;
        snprintf(path, sizeof path, "%s/%s", r->source_dir,
                 ph_report_base(name));
        if ((f = fopen(path, "r")) != NULL)
            return f;
    }
    return fopen(name, "r");
}

size_t ph_report_matching(const ph_report *r, const ph_func ***fs)
{
    size_t n = ph_funcs_matching(r->p, r->fn, fs);
    if (n == 0) {
        ph_cli_file_error(r->path, "no function matches \"%s\"", r->fn);
        free(*fs);
        *fs = NULL;
    }
    return n;
}
