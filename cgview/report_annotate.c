/* report_annotate.c -- --annotate FN: the source lines of FN with their
 * self costs (flat rows of the selected parts, and samples of context
 * nodes whose frame is FN), each costly line shown with three lines of
 * context, and the calls made from each line with their inclusive cost.
 * Sources are looked up as recorded, then under --source-dir; a missing
 * file is a warning and its lines are shown without text. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgview/report.h"

enum { CONTEXT = 3 };

typedef struct line_cost {
    const ph_file *file;
    uint32_t line;
    int64_t *cost;           /* nreal values */
} line_cost;

typedef struct lines {
    line_cost *v;
    size_t n, cap, w;
} lines;

static void add_line(lines *ls, const ph_file *file, uint32_t line,
                     const int64_t *cost, size_t width)
{
    line_cost *lc;

    if (ls->n && ls->v[ls->n - 1].file == file &&
        ls->v[ls->n - 1].line == line) {
        lc = &ls->v[ls->n - 1];
    } else {
        if (ls->n == ls->cap) {
            ls->cap = ls->cap ? ls->cap * 2 : 64;
            ls->v = ph_xrealloc(ls->v, ls->cap * sizeof *ls->v);
        }
        lc = &ls->v[ls->n++];
        lc->file = file;
        lc->line = line;
        lc->cost = ph_xcalloc(ls->w + 1, sizeof *lc->cost);
    }
    for (size_t i = 0; i < width && i < ls->w; i++)
        lc->cost[i] += cost[i];
}

static int cmp_lines(const void *a, const void *b)
{
    const line_cost *x = a, *y = b;
    uint32_t fx = x->file ? x->file->id : 0, fy = y->file ? y->file->id : 0;
    if (fx != fy)
        return fx < fy ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Sort by (file, line) and add up equal keys. */
static void merge_lines(lines *ls)
{
    size_t i, o = 0;

    if (ls->n == 0)
        return;
    ph_qsort(ls->v, ls->n, sizeof *ls->v, cmp_lines);
    for (i = 0; i < ls->n; i++) {
        if (o && cmp_lines(&ls->v[o - 1], &ls->v[i]) == 0) {
            for (size_t k = 0; k < ls->w; k++)
                ls->v[o - 1].cost[k] += ls->v[i].cost[k];
            free(ls->v[i].cost);
        } else {
            ls->v[o++] = ls->v[i];
        }
    }
    ls->n = o;
}

static void collect(ph_report *r, const ph_func *f, lines *ls)
{
    ph_profile *p = r->p;
    ph_row_iter it;
    ph_row row;

    ls->w = ph_event_nreal(p);
    ph_row_iter_init(&it, p, f, ph_report_part(r));
    while (ph_row_next(&it, &row))
        add_line(ls, row.file ? row.file : f->file, row.line, row.cost,
                 ls->w);
    for (size_t i = 0; i < ph_node_count(p); i++) {
        const ph_node *nd = ph_node_at(p, i);
        if (nd->func != f)
            continue;
        for (const ph_sample *s = nd->samples; s; s = s->next)
            if (r->topts.part == PH_ALL_PARTS ||
                (s->part && (int)s->part->index == r->topts.part))
                add_line(ls, f->file, nd->line, s->cost, s->width);
    }
    merge_lines(ls);
}

/* ------------------------------------------------------------------ */
/* Source files                                                        */

typedef struct source {
    char **text;             /* line i at text[i - 1] */
    size_t n;
} source;

static FILE *open_source(const ph_report *r, const char *name)
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

static int load_source(const ph_report *r, const char *name, source *s)
{
    FILE *f;
    char buf[4096];
    size_t cap = 0;

    memset(s, 0, sizeof *s);
    if (!name[0] || strcmp(name, "???") == 0 || !(f = open_source(r, name)))
        return -1;
    while (fgets(buf, sizeof buf, f)) {
        size_t l = strlen(buf);
        int whole = l && buf[l - 1] == '\n';
        while (l && (buf[l - 1] == '\n' || buf[l - 1] == '\r'))
            buf[--l] = '\0';
        if (s->n == cap) {
            cap = cap ? cap * 2 : 256;
            s->text = ph_xrealloc(s->text, cap * sizeof *s->text);
        }
        s->text[s->n] = ph_xmalloc(l + 1);
        memcpy(s->text[s->n++], buf, l + 1);
        /* Skip the rest of an over-long line. */
        while (!whole && fgets(buf, sizeof buf, f)) {
            l = strlen(buf);
            whole = l && buf[l - 1] == '\n';
        }
    }
    fclose(f);
    return 0;
}

static void free_source(source *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->text[i]);
    free(s->text);
}

static const char *source_line(const source *s, uint32_t line)
{
    return line >= 1 && line <= s->n ? s->text[line - 1] : NULL;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

/* Text of a source line with tabs expanded, fitted into width. */
static void print_source(const char *t, size_t width, FILE *out)
{
    size_t col = 0;
    for (; *t && col < width; t++) {
        if (*t == '\t') {
            do
                fputc(' ', out);
            while (++col % 8 && col < width);
        } else {
            fputc(*t, out);
            col++;
        }
    }
}

static void print_calls_at(ph_report *r, const ph_func *f,
                           const ph_file *file, uint32_t line, size_t wv,
                           FILE *out)
{
    char num[40], cnt[32], fit[PH_REPORT_MAXW + 1];
    ph_part *part = ph_report_part(r);

    ph_call_iter it;
    for (const ph_call *c = ph_calls_out(&it, r->p, f); c;
         c = ph_call_next(&it)) {
        const ph_file *cf = c->file ? c->file : f->file;
        if (c->line != line || cf != file || (part && c->part != part))
            continue;
        size_t w = ph_event_nreal(r->p);
        int64_t *iv = ph_xcalloc(w + 1, sizeof *iv);
        for (size_t k = 0; k < w; k++)
            iv[k] = ph_call_incl(c, k);
        double v = ph_event_eval(r->p, r->ev, iv);
        free(iv);
        fprintf(out, "%*s %6s  => %s (%sx)\n", (int)wv,
                c->incl ? ph_cli_number(num, v, 1) : "?", "",
                ph_report_fit(fit, sizeof fit,
                              ph_str_get(r->p, c->callee->name),
                              PH_REPORT_WIDTH - wv - 30),
                ph_cli_commas(cnt, (int64_t)c->count));
    }
}

static void print_file(ph_report *r, const ph_func *f, const lines *ls,
                       size_t from, size_t to, FILE *out)
{
    const ph_file *file = ls->v[from].file;
    const char *name = file ? ph_str_get(r->p, file->name) : "";
    source src;
    char num[40], fit[PH_REPORT_MAXW + 1];
    size_t i, wv = 5;
    uint32_t shown = 0;   /* last line printed */
    int have = load_source(r, name, &src) == 0;

    if (!have)
        ph_cli_warning("%s: source file not found%s", name[0] ? name : "???",
                       r->source_dir ? "" : " (try --source-dir)");
    for (i = from; i < to; i++) {
        size_t l = strlen(ph_cli_number(
            num, ph_event_eval(r->p, r->ev, ls->v[i].cost), 1));
        if (l > wv)
            wv = l;
    }
    ph_call_iter it;
    for (const ph_call *c = ph_calls_out(&it, r->p, f); c;
         c = ph_call_next(&it)) {
        size_t l = strlen(ph_cli_number(num, (double)ph_call_incl(
                                                 c, (size_t)(r->ev->slot >= 0
                                                    ? r->ev->slot : 0)), 1));
        if (l > wv && r->ev->slot >= 0)
            wv = l;
    }
    fprintf(out, "-- %s\n", ph_report_fit(fit, sizeof fit, name[0] ? name
                                                                  : "???",
                                          PH_REPORT_WIDTH - 3));
    for (i = from; i < to; i++) {
        uint32_t line = ls->v[i].line;
        uint32_t first = have && line > CONTEXT ? line - CONTEXT : 1;
        uint32_t last = line + (have ? CONTEXT : 0);
        if (!have || line == 0)
            first = last = line;
        if (first <= shown)
            first = shown + 1;
        if (shown && first > shown + 1)
            fprintf(out, "%*s\n", (int)wv, "...");
        for (uint32_t k = first; k <= last; k++) {
            const char *t = have ? source_line(&src, k) : NULL;
            const line_cost *lc = NULL;
            if (have && !t && k != line)
                break;
            for (size_t j = i; j < to && ls->v[j].line <= k; j++)
                if (ls->v[j].line == k)
                    lc = &ls->v[j];
            if (lc)
                fprintf(out, "%*s", (int)wv,
                        ph_cli_number(num, ph_event_eval(r->p, r->ev,
                                                         lc->cost), 1));
            else
                fprintf(out, "%*s", (int)wv, ".");
            fprintf(out, " %6u  ", k);
            if (t)
                print_source(t, PH_REPORT_WIDTH - wv - 9, out);
            fputc('\n', out);
            if (lc)
                print_calls_at(r, f, file, k, wv, out);
            shown = k;
        }
    }
    if (have)
        free_source(&src);
}

static void emit_lines(ph_report *r, ph_emit *em, const lines *ls)
{
    ph_profile *p = r->p;
    size_t i;

    ph_emit_key(em, "lines");
    ph_emit_list(em, 0);
    for (i = 0; i < ls->n; i++) {
        ph_emit_map(em, 1);
        ph_emit_key(em, "file");
        ph_emit_str(em, ls->v[i].file ? ph_str_get(p, ls->v[i].file->name)
                                      : NULL);
        ph_emit_key(em, "line");
        ph_emit_uint(em, ls->v[i].line);
        ph_emit_key(em, "self");
        ph_report_emit_costs(r, em, ls->v[i].cost);
        ph_emit_end(em);
    }
    ph_emit_end(em);
}

static void free_lines(lines *ls)
{
    for (size_t i = 0; i < ls->n; i++)
        free(ls->v[i].cost);
    free(ls->v);
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
    size_t i, n;
    ph_emit *em = NULL;
    int rc;

    if (!r->ev) {
        ph_cli_file_error(r->path, "the profile has no events");
        return PH_EXIT_BAD;
    }
    n = ph_funcs_matching(r->p, r->fn, &fs);
    if (n == 0) {
        ph_cli_file_error(r->path, "no function matches \"%s\"", r->fn);
        free(fs);
        return PH_EXIT_BAD;
    }
    if (r->fmt == PH_REPORT_TEXT) {
        ph_report_print_head(r, stdout);
    } else if (r->fmt == PH_REPORT_CSV) {
        fputs("function,file,line", stdout);
        for (i = 0; i < ph_event_count(r->p); i++)
            if (!(ph_event_at(r->p, i)->flags & PH_EV_NONADDITIVE))
                ph_csv_str(stdout,
                           ph_str_get(r->p, ph_event_at(r->p, i)->name), 0);
        putchar('\n');
    } else {
        em = ph_emit_new(stdout, r->fmt);
        ph_emit_map(em, 0);
        ph_report_emit_head(r, em);
        ph_emit_key(em, "functions");
        ph_emit_list(em, 0);
    }
    for (i = 0; i < n; i++) {
        lines ls = { NULL, 0, 0, 0 };
        const ph_entry *e = table_entry(r, fs[i]);
        collect(r, fs[i], &ls);
        if (r->fmt == PH_REPORT_TEXT) {
            char fit[PH_REPORT_MAXW + 1];
            printf("\n%s, self %s by line:\n",
                   ph_report_fit(fit, sizeof fit,
                                 ph_str_get(r->p, fs[i]->name), 50),
                   ph_str_get(r->p, r->ev->name));
            for (size_t a = 0, b; a < ls.n; a = b) {
                for (b = a + 1; b < ls.n && ls.v[b].file == ls.v[a].file; b++)
                    ;
                print_file(r, fs[i], &ls, a, b, stdout);
            }
            if (ls.n == 0)
                printf("   (no cost lines)\n");
        } else if (r->fmt == PH_REPORT_CSV) {
            for (size_t a = 0; a < ls.n; a++) {
                ph_csv_str(stdout, ph_str_get(r->p, fs[i]->name), 1);
                ph_csv_str(stdout, ls.v[a].file ? ph_str_get(
                                       r->p, ls.v[a].file->name) : "", 0);
                ph_csv_num(stdout, ls.v[a].line, 0);
                for (size_t k = 0; k < ph_event_count(r->p); k++) {
                    const ph_event *ev = ph_event_at(r->p, k);
                    if (!(ev->flags & PH_EV_NONADDITIVE))
                        ph_csv_num(stdout, ph_event_eval(r->p, ev,
                                                         ls.v[a].cost), 0);
                }
                putchar('\n');
            }
        } else {
            ph_emit_map(em, 0);
            if (e) {
                ph_report_emit_entry(r, em, e);
            } else {
                ph_emit_key(em, "name");
                ph_emit_str(em, ph_str_get(r->p, fs[i]->name));
            }
            emit_lines(r, em, &ls);
            ph_emit_end(em);
        }
        free_lines(&ls);
    }
    rc = PH_EXIT_OK;
    if (em) {
        ph_emit_end(em);
        ph_emit_end(em);
        if (ph_emit_free(em) < 0)
            rc = PH_EXIT_BAD;
    }
    free(fs);
    return rc;
}
