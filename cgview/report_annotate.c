/* report_annotate.c -- --annotate FN, as callgrind_annotate --auto=yes and
 * cg_annotate --auto=yes annotate sources: every source file FN's code
 * lies in, whole (the costs of every function's code in that file), each
 * costly line with --context lines around it (default 8), every event
 * with its percentage of the total, the calls made from a line merged per
 * callee ("=> callee (Nx)" with their inclusive cost), and costs at no
 * known line as "<counts for unidentified lines>".  Sources are looked up
 * as recorded, then under --source-dir; a missing file is a warning and
 * its costly lines are listed without text.  JSON/YAML/CSV list FN's own
 * lines with their calls, and the files annotated. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/annotate.h"

int ph_report_parse_context(const char *cmd, const char *arg, ph_report *r)
{
    uint64_t n;
    if (ph_cli_count(cmd, "--context", arg, &n) < 0)
        return -1;
    r->context = n > 100000 ? 100000 : (uint32_t)n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Source files                                                        */

typedef struct source {
    char **text;             /* line i at text[i - 1], whole */
    size_t n;
} source;

static int load_source(const ph_report *r, const char *name, source *s)
{
    FILE *f;
    char *buf = NULL;
    size_t cap = 0, bcap = 0;
    ssize_t l;

    memset(s, 0, sizeof *s);
    if (!ph_report_file_known(name) ||
        !(f = ph_report_open_source(r, name)))
        return -1;
    while ((l = getline(&buf, &bcap, f)) >= 0) {
        while (l && (buf[l - 1] == '\n' || buf[l - 1] == '\r'))
            buf[--l] = '\0';
        if (s->n == cap) {
            cap = cap ? cap * 2 : 256;
            s->text = ph_xrealloc(s->text, cap * sizeof *s->text);
        }
        s->text[s->n] = ph_xmalloc((size_t)l + 1);
        memcpy(s->text[s->n++], buf, (size_t)l + 1);
    }
    free(buf);
    fclose(f);
    return 0;
}

static void free_source(source *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->text[i]);
    free(s->text);
}

/* ------------------------------------------------------------------ */
/* Text cells                                                          */

/* The events shown: every additive one, or only r->ev when they do not
 * fit the width (a terminal; nothing is cut in a pipe). */
typedef struct columns {
    const ph_event **ev;
    size_t n;
    size_t *w;               /* width of each column */
    int pc;                  /* percentages shown */
    int cum;                 /* context trees: a cum column after each
                              * event, as pprof -list's flat and cum */
} columns;

/* "%*s (%5.2f%%)" of num in w and pc, without printf where pc is in
 * [0, 99.995) and its rounding to two places is plain (a whole file's
 * table has millions of cells); 0 when left to printf. */
static int right_with_percent(char *buf, size_t size, size_t w,
                              const char *num, double pc)
{
    double hundredths = pc * 100, whole = floor(hundredths);
    size_t n = strlen(num), pad = w > n ? w - n : 0;
    unsigned k;

    /* within 1e-6 of a half the product's own rounding may decide:
     * printf, which rounds the exact value */
    if (!(pc >= 0) || fabs(hundredths - whole - 0.5) < 1e-6 ||
        pad + n + 10 > size)
        return 0;
    k = (unsigned)whole + (hundredths - whole > 0.5);
    memset(buf, ' ', pad);
    memcpy(buf + pad, num, n);
    n += pad;
    memcpy(buf + n, " ( 0.00%)", 10);
    buf[n + 6] = (char)('0' + k % 10);
    buf[n + 5] = (char)('0' + k / 10 % 10);
    buf[n + 3] = (char)('0' + k / 100 % 10);
    if (k >= 1000)
        buf[n + 2] = (char)('0' + k / 1000);
    return 1;
}

/* One cost as callgrind_annotate prints it: the number right-aligned in
 * its column, then " (pp.pp%)"; "." and blanks for nothing. */
static void cell(const ph_report *r, const columns *c, size_t i,
                 const int64_t *v, char *buf, size_t size)
{
    char num[40];
    double x = v ? ph_event_eval(r->p, c->ev[i], v) : 0;
    double pc = ph_report_percent(r, c->ev[i], x);
    int with_pc = c->pc && pc == pc;      /* not NaN */
    if (x == 0) {
        /* "." at the column's right end, then the percentage's room: most
         * cells of a big file's table, so no snprintf */
        size_t w = c->w[i] ? c->w[i] : 1, n = w + (with_pc ? 9 : 0);
        if (n + 1 > size)
            n = w = size - 1;
        memset(buf, ' ', n);
        buf[w - 1] = '.';
        buf[n] = '\0';
        return;
    }
    ph_cli_number(num, x, 1);
    /* five characters where they fit, as the peers keep them */
    if (with_pc && pc > -9.995 && pc < 99.995) {
        if (!right_with_percent(buf, size, c->w[i], num, pc))
            snprintf(buf, size, "%*s (%5.2f%%)", (int)c->w[i], num, pc);
    } else if (with_pc) {
        snprintf(buf, size, "%*s (%5.1f%%)", (int)c->w[i], num, pc);
    } else {
        snprintf(buf, size, "%*s", (int)c->w[i], num);
    }
}

/* The events shown: the real ones (and the chosen one when derived), or
 * only the chosen one when they do not fit the width (a terminal; in a
 * pipe nothing is cut).  A column is as wide as its widest line cost. */
static void measure(const ph_report *r, const ph_lines *ls, columns *c)
{
    char num[40];
    size_t nr = ph_event_nreal(r->p);
    c->ev = ph_xmalloc((nr + 2) * sizeof *c->ev);
    c->w = ph_xcalloc(nr + 2, sizeof *c->w);
    c->cum = ph_node_count(r->p) > 0;
    for (int pass = c->cum; pass < 2; pass++) {
        size_t total = 0;
        int chosen = 0;
        c->n = 0;
        c->pc = 1;
        for (size_t k = 0; k < nr; k++) {
            const ph_event *ev = ph_event_real(r->p, k);
            if ((ev->flags & PH_EV_NONADDITIVE) || (pass && ev != r->ev))
                continue;
            chosen |= ev == r->ev;
            c->ev[c->n++] = ev;
        }
        if (!chosen)
            c->ev[c->n++] = r->ev;
        for (size_t i = 0; i < c->n; i++) {
            size_t w = 1;
            for (size_t j = 0; j < ls->n; j++) {
                double x = ph_event_eval(r->p, c->ev[i], ls->v[j].cost);
                size_t l = strlen(ph_cli_number(num, x, 1));
                if (l > w)
                    w = l;
                if (ls->v[j].cum) {
                    x = ph_event_eval(r->p, c->ev[i], ls->v[j].cum);
                    l = strlen(ph_cli_number(num, x, 1));
                    if (l > w)
                        w = l;
                }
            }
            c->w[i] = w;
            total += w + 10;
            size_t h = strlen(ph_str_get(r->p, c->ev[i]->name));
            if (h > w + 9)
                c->w[i] = h - 9;
        }
        /* room for 20 columns of source */
        if (total + 22 <= PH_REPORT_WIDTH)
            break;
    }
}

/* ------------------------------------------------------------------ */
/* The rows, once for every format                                     */

/* A line's row: the function (CSV), the file, the line, its self cost
 * in every event and, for context trees, its cumulative cost (data);
 * in the text table, the events that fit with their percentages (and
 * cum) and the source text.  The calls from a line are rows of a second
 * grid (data) and lines of the text table after the line's. */
typedef struct line_cols {
    size_t function, file, line, self, cum;
} line_cols;

typedef struct call_cols {
    size_t name, file, calls, incl;
} call_cols;

typedef struct line_rows {
    ph_grid *lines, *calls;
    line_cols lc;
    call_cols cc;
    int text;                /* the text table is built */
    FILE *out;               /* where its rows go, a block at a time */
    columns tc;              /* its events */
    size_t t_cost0, t_src;   /* its first cost column, the source's */
    size_t *call0;           /* entry i's calls: call0[i] .. call0[i+1] */
    size_t *entry, nentry;   /* lines' row -> entry (~0: text only) */
    char *callee;            /* a callee's name, not kept by the profile
                              * (a compound name, ir.h) */
    size_t callee_cap;
} line_rows;

static void declare_text(const ph_report *r, const ph_lines *ls,
                         line_rows *lr)
{
    ph_grid *g = lr->lines;

    measure(r, ls, &lr->tc);
    for (size_t i = 0; i < lr->tc.n; i++) {
        size_t c = ph_grid_add_col(g, &(ph_grid_col){
            .head = ph_str_get(r->p, lr->tc.ev[i]->name), .sep = " ",
            .width = (int)lr->tc.w[i] + 9,
            .flags = PH_GRID_FIXED | PH_GRID_LEFT });
        if (i == 0)
            lr->t_cost0 = c;
        if (lr->tc.cum)
            ph_grid_add_col(g, &(ph_grid_col){
                .head = "(cum)", .sep = " ", .width = (int)lr->tc.w[i] + 9,
                .flags = PH_GRID_FIXED | PH_GRID_LEFT });
    }
    lr->t_src = ph_grid_add_col(g, &(ph_grid_col){ .head = "",
                                                  .flags = PH_GRID_LEFT });
}

/* The rows of lines: with text_ls, the text table of those lines only,
 * printed to out a block of rows at a time (a whole file's table has a
 * row per line and call: with every event's data cells too, or all its
 * rows held until the end, annotating a big file cost more than reading
 * it); else the data rows. */
static void line_rows_new(const ph_report *r, const ph_lines *text_ls,
                          FILE *out, line_rows *lr)
{
    ph_grid *g;

    memset(lr, 0, sizeof *lr);
    g = lr->lines = ph_grid_new(0);
    lr->calls = ph_grid_new(1);
    lr->text = text_ls != NULL;
    if (lr->text) {
        lr->out = out;
        declare_text(r, text_ls, lr);
        return;
    }
    lr->lc.function = ph_grid_add_col(g, &(ph_grid_col){ .csv = "function" });
    lr->lc.file = ph_grid_add_col(g, &(ph_grid_col){
        .key = "file", .csv = "file", .csv_pos = 1 });
    lr->lc.line = ph_grid_add_col(g, &(ph_grid_col){
        .key = "line", .csv = "line", .csv_pos = 2 });
    lr->lc.self = ph_report_cost_cols(
        r, g, &(ph_grid_col){ .group = "self", .csv = "", .csv_pos = 3 },
        NULL);
    lr->lc.cum = ph_report_cost_cols(
        r, g, &(ph_grid_col){ .group = "cumulative",
                              .flags = PH_GRID_OPTIONAL }, NULL);
    g = lr->calls;
    lr->cc.name = ph_grid_add_col(g, &(ph_grid_col){ .key = "name" });
    lr->cc.file = ph_grid_add_col(g, &(ph_grid_col){ .key = "file" });
    lr->cc.calls = ph_grid_add_col(g, &(ph_grid_col){ .key = "calls" });
    lr->cc.incl = ph_report_cost_cols(
        r, g, &(ph_grid_col){ .group = "inclusive" }, NULL);
}

static void line_rows_free(line_rows *lr)
{
    ph_grid_free(lr->lines);
    ph_grid_free(lr->calls);
    free(lr->call0);
    free(lr->entry);
    free(lr->callee);
    free(lr->tc.ev);
    free(lr->tc.w);
}

/* Empty the rows, with room for the entries of ls. */
static void line_rows_clear(line_rows *lr, const ph_lines *ls)
{
    ph_grid_clear(lr->lines);
    ph_grid_clear(lr->calls);
    lr->call0 = ph_xrealloc(lr->call0, (ls->n + 1) * sizeof *lr->call0);
    for (size_t i = 0; i <= ls->n; i++)
        lr->call0[i] = 0;
}

static const char *file_name(const ph_report *r, const ph_file *f)
{
    return f && f->name ? ph_str_get(r->p, f->name) : NULL;
}

/* The text table's rows so far, printed and dropped: its columns have
 * fixed widths (the source's, the last, is not padded), so a block at a
 * time prints what the whole table would. */
static void flush_text(line_rows *lr, size_t block)
{
    if (lr->text && ph_grid_rows(lr->lines) >= block) {
        ph_grid_print_rows(lr->lines, lr->out, "");
        ph_grid_clear(lr->lines);
    }
}

/* A row of the lines grid; i: its entry (data rows), or ~0. */
static void add_row(line_rows *lr, size_t i)
{
    size_t row;

    flush_text(lr, 4096);
    row = ph_grid_rows(lr->lines);
    ph_grid_row(lr->lines);
    if (i == ~(size_t)0)
        ph_grid_text_only(lr->lines);
    if (row >= lr->nentry) {
        lr->nentry = 2 * row + 64;
        lr->entry = ph_xrealloc(lr->entry, lr->nentry * sizeof *lr->entry);
    }
    lr->entry[row] = i;
}

/* The text cells of the current row: the events' costs v (and cum),
 * "." where NULL; then text in the source column, cut at the width.
 * Returns the columns before the source. */
static size_t text_cells(const ph_report *r, line_rows *lr, const int64_t *v,
                         const int64_t *cum)
{
    size_t col = lr->t_cost0, used = 0;
    char buf[80];

    for (size_t i = 0; i < lr->tc.n; i++) {
        for (int k = 0; k <= lr->tc.cum; k++) {
            size_t l;
            cell(r, &lr->tc, i, k ? cum : v, buf, sizeof buf);
            ph_grid_text(lr->lines, col++, buf);
            l = strlen(buf);
            used += (used ? 1 : 0) + (l > lr->tc.w[i] + 9 ? l
                                                        : lr->tc.w[i] + 9);
        }
    }
    return used;
}

static void source_text(line_rows *lr, size_t used, const char *text)
{
    char fit[PH_REPORT_MAXW + 1];
    size_t room = used + 2 < PH_REPORT_WIDTH ? PH_REPORT_WIDTH - used - 2
                                             : 1;

    if (strlen(text) > room) {
        /* a terminal: cut the source line at its right end */
        snprintf(fit, room + 1 < sizeof fit ? room + 1 : sizeof fit, "%s",
                 text);
        text = fit;
    }
    ph_grid_text(lr->lines, lr->t_src, text);
}

/* A source line without costs: the text table's only. */
static void add_context(const ph_report *r, line_rows *lr, const char *text)
{
    add_row(lr, ~(size_t)0);
    source_text(lr, text_cells(r, lr, NULL, NULL), text);
}

/* Entry i of ls (f: the function the lines are about; NULL: a file's),
 * and text (the source line, or a label) when the text table is built. */
static void add_entry(const ph_report *r, const ph_func *f,
                      const ph_lines *ls, size_t i, const char *text,
                      line_rows *lr)
{
    const ph_line_cost *lc = &ls->v[i];
    ph_grid *g = lr->lines, *cg = lr->calls;
    char cnt[32], fit[PH_REPORT_MAXW + 1], name[2048];

    add_row(lr, i);
    if (lr->text) {
        source_text(lr, text_cells(r, lr, lc->cost, lc->cum),
                    text ? text : "");
    } else {
        if (f)
            ph_grid_str(g, lr->lc.function, ph_str_get(r->p, f->name));
        ph_grid_str(g, lr->lc.file, file_name(r, lc->file));
        ph_grid_uint(g, lr->lc.line, lc->line);
        ph_report_cost_cells(r, g, lr->lc.self, lc->cost);
        if (lc->cum)
            ph_report_cost_cells(r, g, lr->lc.cum, lc->cum);
    }
    lr->call0[i] = ph_grid_rows(cg);
    for (size_t k = 0; k < lc->ncalls; k++) {
        const ph_call_line *cl = &lc->calls[k];
        const ph_func *to = cl->callee;
        const char *to_name = ph_str_text(r->p, to->name, &lr->callee,
                                          &lr->callee_cap);
        size_t used;
        if (!lr->text) {
            ph_grid_row(cg);
            ph_grid_str(cg, lr->cc.name, to_name);
            ph_grid_str(cg, lr->cc.file, file_name(r, to->file));
            ph_grid_uint(cg, lr->cc.calls, cl->count);
            if (cl->known)
                ph_report_cost_cells(r, cg, lr->cc.incl, cl->incl);
            continue;
        }
        add_row(lr, ~(size_t)0);
        used = text_cells(r, lr, cl->known ? cl->incl : NULL, NULL);
        snprintf(name, sizeof name, "%s:%s (%sx)",
                 to->file && to->file->name ? ph_str_get(r->p, to->file->name)
                                            : "???",
                 to_name,
                 ph_cli_commas(cnt, (int64_t)cl->count));
        snprintf(fit, sizeof fit, "=> ");
        ph_report_fit(fit + 3, sizeof fit - 3, name,
                      used + 5 < PH_REPORT_WIDTH - 12
                          ? PH_REPORT_WIDTH - used - 5 : 12);
        ph_grid_text(g, lr->t_src, fit);
    }
    lr->call0[i + 1] = ph_grid_rows(cg);
}

/* The rows of f's lines (CSV and the data formats). */
static void func_rows(const ph_report *r, const ph_func *f,
                      const ph_lines *ls, line_rows *lr)
{
    line_rows_clear(lr, ls);
    for (size_t i = 0; i < ls->n; i++)
        add_entry(r, f, ls, i, NULL, lr);
}

/* A rule of the text table, "-- line N ----". */
static void add_rule(line_rows *lr, uint64_t line)
{
    char rule[80];

    snprintf(rule, sizeof rule, "-- line %llu %s", (unsigned long long)line,
             "----------------------------------------");
    ph_grid_line(lr->lines, rule);
}

/* The rows of a whole file's lines; with the text table, its lines in
 * runs as callgrind_annotate finds them: costly lines whose context
 * windows overlap or touch join one run; a run prints from its first
 * costly line - context to its last + context, with "-- line N" rules
 * where it starts (unless at line 1) and where it ends before the end of
 * the file.  src NULL: the file was not found (its lines by number). */
static void file_rows(const ph_report *r, const ph_lines *ls,
                      const source *src, const char *note, line_rows *lr)
{
    size_t i = 0;
    char lab[64];

    line_rows_clear(lr, ls);
    if (lr->text) {
        ph_grid_line(lr->lines, "");
        if (!src) {
            ph_grid_line(lr->lines, note);
            ph_grid_line(lr->lines, "");
        }
    }
    for (; i < ls->n && ls->v[i].line == 0; i++)
        add_entry(r, NULL, ls, i, "<counts for unidentified lines>", lr);
    if (!lr->text || !src) {
        for (; i < ls->n; i++) {
            snprintf(lab, sizeof lab, "[line %u]", ls->v[i].line);
            add_entry(r, NULL, ls, i, lab, lr);
        }
    }
    while (i < ls->n) {
        size_t j = i;
        uint64_t ctx = r->context;
        while (j + 1 < ls->n && ls->v[j].line + 2 * ctx >= ls->v[j + 1].line)
            j++;
        uint64_t low = ls->v[i].line > ctx ? ls->v[i].line - ctx : 1;
        uint64_t high = ls->v[j].line + ctx;
        if (low != 1)
            add_rule(lr, low);
        for (uint64_t k = low; k <= high && k <= src->n; k++) {
            while (i <= j && ls->v[i].line < k)
                i++;   /* lines are merged: none is below k */
            if (i <= j && ls->v[i].line == k)
                add_entry(r, NULL, ls, i++, src->text[k - 1], lr);
            else
                add_context(r, lr, src->text[k - 1]);
        }
        for (; i <= j; i++) {
            /* past the end of the file: the source changed since */
            snprintf(lab, sizeof lab, "[line %u: past the end of the file]",
                     ls->v[i].line);
            add_entry(r, NULL, ls, i, lab, lr);
        }
        if (high < src->n)
            add_rule(lr, high);
    }
}

static void emit_calls(ph_emit *em, size_t row, void *ctx)
{
    const line_rows *lr = ctx;
    size_t i = lr->entry[row];

    ph_emit_key(em, "calls");
    ph_grid_emit_rows(lr->calls, em, lr->call0[i], lr->call0[i + 1], NULL,
                      NULL);
}

static void emit_lines(ph_emit *em, const char *key, line_rows *lr)
{
    ph_emit_key(em, key);
    ph_grid_emit_rows(lr->lines, em, 0, ph_grid_rows(lr->lines), emit_calls,
                      lr);
}

/* The lines of every function's code in a whole file.  The index of
 * each file's functions is made for the second file on: for one file a
 * walk over every function costs what making the index would. */
typedef struct file_index {
    ph_file_funcs *ff;
    size_t files;            /* files collected so far */
} file_index;

/* Whether file stands for code without debug information ("???", or no
 * file at all): not a file, but every such function's code. */
static int unknown_file(const ph_report *r, const ph_file *file)
{
    return !ph_report_file_known(file_name(r, file));
}

/* The lines of file to annotate f with: every function's code there, but
 * for code without debug information only f's (callgrind_annotate leaves
 * "???" out; all of it is every function's calls of a stripped binary). */
static void collect_file(ph_report *r, file_index *ix, const ph_file *file,
                         const ph_func *f, ph_lines *ls)
{
    if (unknown_file(r, file)) {
        ph_lines_collect(r, f, file, ls);
        return;
    }
    if (!ix->ff && ix->files++)
        r->file_funcs = ix->ff = ph_file_funcs_new(r->p);
    ph_lines_collect(r, NULL, file, ls);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static void print_rule(const char *title, FILE *out)
{
    char dash[81];
    memset(dash, '-', 80);
    dash[PH_REPORT_WIDTH < 80 ? PH_REPORT_WIDTH : 80] = '\0';
    fprintf(out, "%s\n%s\n%s\n", dash, title, dash);
}

/* One whole file: its costly lines with r->context lines around each. */
static void print_file(ph_report *r, file_index *ix, const ph_file *file,
                       const ph_func *f, FILE *out)
{
    const char *name = file && file->name ? ph_str_get(r->p, file->name)
                                          : "???";
    ph_lines ls;
    line_rows lr;
    source src;
    char title[PH_REPORT_MAXW + 64], fit[PH_REPORT_MAXW + 1];
    int unknown = unknown_file(r, file);
    int have = !unknown && load_source(r, name, &src) == 0;

    collect_file(r, ix, file, f, &ls);
    snprintf(title, sizeof title, "-- Auto-annotated source: %s",
             ph_report_fit(fit, sizeof fit, name,
                           PH_REPORT_WIDTH > 40 ? PH_REPORT_WIDTH - 27
                                                : 13));
    print_rule(title, out);
    if (!have && !unknown)
        ph_cli_warning("%s: source file not found%s", name,
                       r->source_dir ? "" : " (try --source-dir)");
    line_rows_new(r, &ls, out, &lr);
    ph_grid_print_text(lr.lines, out);     /* the heading */
    file_rows(r, &ls, have ? &src : NULL,
              unknown ? "  No debug information: this function's lines "
                        "only (--disasm shows its instructions)."
                      : "  The file was not found: its costly lines by "
                        "number.", &lr);
    flush_text(&lr, 0);
    fputc('\n', out);
    line_rows_free(&lr);
    if (have)
        free_source(&src);
    ph_lines_free(&ls);
}

/* ------------------------------------------------------------------ */
/* Data                                                                */

/* The files of f's lines (distinct, in line order). */
static size_t files_of(const ph_lines *ls, const ph_file ***out)
{
    size_t n = 0;
    *out = ph_xmalloc((ls->n + 1) * sizeof **out);
    for (size_t i = 0; i < ls->n; i++) {
        size_t k = 0;
        while (k < n && (*out)[k] != ls->v[i].file)
            k++;
        if (k == n)
            (*out)[n++] = ls->v[i].file;
    }
    return n;
}

static void emit_files(ph_report *r, file_index *ix, ph_emit *em,
                       const ph_func *f, const ph_lines *own)
{
    const ph_file **files;
    size_t nf = files_of(own, &files);
    line_rows lr;

    line_rows_new(r, NULL, NULL, &lr);
    ph_emit_key(em, "files");
    ph_emit_list(em, 0);
    for (size_t i = 0; i < nf; i++) {
        ph_lines ls;
        collect_file(r, ix, files[i], f, &ls);
        file_rows(r, &ls, NULL, NULL, &lr);
        ph_emit_map(em, 0);
        ph_emit_key(em, "file");
        ph_emit_str(em, file_name(r, files[i]));
        emit_lines(em, "lines", &lr);
        ph_emit_end(em);
        ph_lines_free(&ls);
    }
    ph_emit_end(em);
    line_rows_free(&lr);
    free(files);
}

static const ph_entry *table_entry(const ph_report *r, const ph_func *f)
{
    for (size_t i = 0; i < r->table->count; i++)
        if (r->table->entries[i].func == f)
            return &r->table->entries[i];
    return NULL;
}

int ph_report_annotate(ph_report *r)
{
    const ph_func **fs = NULL;
    const ph_file **done = NULL;
    size_t i, n, ndone = 0;
    ph_emit *em = NULL;
    line_rows lr;

    if (!r->ev) {
        ph_cli_file_error(r->path, "the profile has no events");
        return PH_EXIT_BAD;
    }
    if ((n = ph_report_matching(r, &fs)) == 0)
        return PH_EXIT_BAD;
    line_rows_new(r, NULL, NULL, &lr);
    em = ph_report_funcs_begin(r, lr.lines);
    file_index ix = { NULL, 0 };
    done = ph_xmalloc((ph_file_count(r->p) + 2) * sizeof *done);
    for (i = 0; i < n; i++) {
        ph_lines ls;
        const ph_entry *e = table_entry(r, fs[i]);
        ph_lines_collect(r, fs[i], NULL, &ls);
        func_rows(r, fs[i], &ls, &lr);
        if (r->fmt == PH_REPORT_TEXT) {
            const ph_file **files;
            size_t nf = files_of(&ls, &files);
            char fit[PH_REPORT_MAXW + 1];
            printf("\n%s: its code lies in %zu file%s\n",
                   ph_report_fit(fit, sizeof fit,
                                 ph_str_get(r->p, fs[i]->name), 50),
                   nf, nf == 1 ? "" : "s");
            if (ls.n == 0)
                printf("   (no cost lines)\n");
            for (size_t k = 0; k < nf; k++) {
                size_t d = 0;
                while (d < ndone && done[d] != files[k])
                    d++;
                /* annotated for an earlier match (but "???" is each
                 * function's own) */
                if (d < ndone && !unknown_file(r, files[k]))
                    continue;
                if (ndone < ph_file_count(r->p) + 1)
                    done[ndone++] = files[k];
                putchar('\n');
                print_file(r, &ix, files[k], fs[i], stdout);
            }
            free(files);
        } else if (r->fmt == PH_REPORT_CSV) {
            ph_grid_print_csv_rows(lr.lines, stdout);
        } else {
            ph_emit_map(em, 0);
            if (e) {
                ph_report_emit_entry(r, em, e);
            } else {
                ph_emit_key(em, "name");
                ph_emit_str(em, ph_str_get(r->p, fs[i]->name));
            }
            emit_lines(em, "lines", &lr);
            emit_files(r, &ix, em, fs[i], &ls);
            ph_emit_end(em);
        }
        ph_lines_free(&ls);
    }
    line_rows_free(&lr);
    r->file_funcs = NULL;
    ph_file_funcs_free(ix.ff);
    free(done);
    free(fs);
    return ph_report_funcs_end(em, PH_EXIT_OK);
}
