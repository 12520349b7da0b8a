/* grid.c -- a report's rows in every format (see grid.h): cells are kept
 * per row as typed values with an optional text, so the text table can
 * measure its columns before printing and CSV, JSON and YAML write the
 * same values. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/grid.h"
#include "cgview/report.h"

typedef enum kind { UNSET = 0, NUL, STR, INT, UINT, NUM, NUMTEXT, BOOL } kind;

/* Rows in one kind of output only; a LINE is the text table's only,
 * printed as its text alone (cell 0's). */
enum { DATA_ONLY = 1, TEXT_ONLY = 2, LINE = 3 };

typedef struct cell {
    kind kind;
    union {
        int64_t i;
        uint64_t u;
        double d;
    } v;
    char *s;       /* STR, NUMTEXT; the strings are in the grid's blocks */
    char *text;    /* text table, when it differs from the value */
    char *note;    /* PH_GRID_FILL */
} cell;

/* The cells' strings, in blocks that never move (a table of a whole
 * annotated file has millions: one malloc each cost a tenth of the run). */
typedef struct text_block {
    struct text_block *next;
    size_t used, size;
    char text[];
} text_block;

struct ph_grid {
    ph_grid_col *cols;
    size_t ncols, capcols;
    cell *cells;   /* nrows * ncols */
    unsigned char *only;     /* per row: DATA_ONLY, TEXT_ONLY or 0 */
    size_t nrows, cap;
    int flow;
    text_block *texts;       /* newest first */
};

ph_grid *ph_grid_new(int flow)
{
    ph_grid *g = ph_xcalloc(1, sizeof *g);
    g->flow = flow;
    return g;
}

/* Forget every string but keep the newest block for the next rows. */
static void clear_texts(ph_grid *g, int all)
{
    text_block *b = g->texts, *keep = all ? NULL : b;
    if (keep) {
        b = b->next;
        keep->next = NULL;
        keep->used = 0;
    }
    while (b) {
        text_block *next = b->next;
        free(b);
        b = next;
    }
    g->texts = keep;
}

void ph_grid_clear(ph_grid *g)
{
    g->nrows = 0;
    clear_texts(g, 0);
}

void ph_grid_free(ph_grid *g)
{
    if (!g)
        return;
    ph_grid_clear(g);
    for (size_t k = 0; k < g->ncols; k++) {
        ph_grid_col *c = &g->cols[k];
        free((char *)c->key);
        free((char *)c->group);
        free((char *)c->csv);
        free((char *)c->head);
        free((char *)c->sep);
    }
    clear_texts(g, 1);
    free(g->cells);
    free(g->only);
    free(g->cols);
    free(g);
}

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(ph_xmalloc(n), s, n);
}

/* s in the grid's text blocks, until the grid is cleared. */
static char *keep(ph_grid *g, const char *s)
{
    size_t n = strlen(s) + 1;
    text_block *b = g->texts;
    if (!b || b->size - b->used < n) {
        size_t size = n > 65536 ? n : 65536;
        b = ph_xmalloc(sizeof *b + size);
        b->size = size;
        b->used = 0;
        b->next = g->texts;
        g->texts = b;
    }
    char *t = memcpy(b->text + b->used, s, n);
    b->used += n;
    return t;
}

static char *dup_or_null(const char *s)
{
    return s ? dup(s) : NULL;
}

size_t ph_grid_add_col(ph_grid *g, const ph_grid_col *c)
{
    ph_grid_col *d;

    if (g->ncols == g->capcols) {   /* a column per event: 10^5 happen */
        g->capcols = g->capcols ? 2 * g->capcols : 16;
        g->cols = ph_xrealloc(g->cols, g->capcols * sizeof *g->cols);
    }
    d = &g->cols[g->ncols];
    *d = *c;
    d->key = dup_or_null(c->key);
    d->group = dup_or_null(c->group);
    d->csv = dup_or_null(c->csv);
    d->head = dup_or_null(c->head);
    d->sep = dup_or_null(c->sep);
    return g->ncols++;
}

size_t ph_grid_rows(const ph_grid *g)
{
    return g->nrows;
}

static void set_cap(ph_grid *g, size_t cap)
{
    g->cap = cap;
    g->cells = ph_xrealloc(g->cells, (cap * g->ncols + 1) * sizeof *g->cells);
    g->only = ph_xrealloc(g->only, cap);
}

void ph_grid_row(ph_grid *g)
{
    if (g->nrows == g->cap)
        set_cap(g, g->cap ? 2 * g->cap : 64);
    memset(g->cells + g->nrows * g->ncols, 0, g->ncols * sizeof *g->cells);
    g->only[g->nrows] = 0;
    g->nrows++;
}

static cell *at(const ph_grid *g, size_t row, size_t col)
{
    return &g->cells[row * g->ncols + col];
}

static cell *cur(ph_grid *g, size_t col, kind k)
{
    cell *c = at(g, g->nrows - 1, col);
    c->s = NULL;
    c->kind = k;
    return c;
}

void ph_grid_str(ph_grid *g, size_t col, const char *s)
{
    cell *c = cur(g, col, s ? STR : NUL);
    if (s)
        c->s = keep(g, s);
}

void ph_grid_int(ph_grid *g, size_t col, int64_t v)
{
    cur(g, col, INT)->v.i = v;
}

void ph_grid_uint(ph_grid *g, size_t col, uint64_t v)
{
    cur(g, col, UINT)->v.u = v;
}

void ph_grid_num(ph_grid *g, size_t col, double v)
{
    cur(g, col, NUM)->v.d = v;
}

void ph_grid_number_text(ph_grid *g, size_t col, const char *text)
{
    cur(g, col, NUMTEXT)->s = keep(g, text);
}

void ph_grid_bool(ph_grid *g, size_t col, int v)
{
    cur(g, col, BOOL)->v.i = v != 0;
}

void ph_grid_null(ph_grid *g, size_t col)
{
    cur(g, col, NUL);
}

void ph_grid_data_only(ph_grid *g)
{
    g->only[g->nrows - 1] = DATA_ONLY;
}

void ph_grid_text_only(ph_grid *g)
{
    g->only[g->nrows - 1] = TEXT_ONLY;
}

void ph_grid_line(ph_grid *g, const char *text)
{
    cell *c;

    ph_grid_row(g);
    g->only[g->nrows - 1] = LINE;
    c = at(g, g->nrows - 1, 0);
    c->text = keep(g, text);
}

static int in_data(const ph_grid *g, size_t row)
{
    return g->only[row] != TEXT_ONLY && g->only[row] != LINE;
}

void ph_grid_text(ph_grid *g, size_t col, const char *text)
{
    at(g, g->nrows - 1, col)->text = keep(g, text);
}

void ph_grid_note(ph_grid *g, size_t col, const char *note)
{
    at(g, g->nrows - 1, col)->note = keep(g, note);
}

/* The value as CSV and text write it ("" for null); buf holds 40 bytes. */
static const char *value_text(const cell *c, char *buf)
{
    switch (c->kind) {
    case STR:
    case NUMTEXT: return c->s;
    case INT: snprintf(buf, 40, "%" PRId64, c->v.i); return buf;
    case UINT: snprintf(buf, 40, "%" PRIu64, c->v.u); return buf;
    case NUM: return isfinite(c->v.d) ? ph_emit_format_num(buf, c->v.d) : "";
    case BOOL: return c->v.i ? "true" : "false";
    default: return "";
    }
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static const char *cell_text(const cell *c, char *buf)
{
    return c->text ? c->text : value_text(c, buf);
}

/* A row of the text table, made whole before it is written (a whole
 * annotated file's table has millions of cells: a stdio call each cost
 * more than making them). */
typedef struct row_text {
    char *s;
    size_t n, cap;
} row_text;

static void put(row_text *t, const char *s, size_t n)
{
    if (n == 0)
        return;
    if (t->n + n > t->cap) {
        t->cap = 2 * (t->n + n) + 256;
        t->s = ph_xrealloc(t->s, t->cap);
    }
    memcpy(t->s + t->n, s, n);
    t->n += n;
}

static void put_str(row_text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* Blanks that make a cell of n bytes as wide as w (printf's "%*s"). */
static void pad(row_text *t, size_t w, size_t n)
{
    static const char blanks[] = "                                ";
    while (n < w) {
        size_t k = w - n < sizeof blanks - 1 ? w - n : sizeof blanks - 1;
        put(t, blanks, k);
        n += k;
    }
}

/* The fill cell: the text, then "  note" while the note fits. */
static void put_fill(row_text *t, const cell *c, size_t room)
{
    char fit[PH_REPORT_MAXW + 1], buf[40];
    const char *text = cell_text(c, buf), *note = c->note ? c->note : "";
    size_t nl = strlen(note);

    if (nl && strlen(text) + 2 + nl > room)
        nl = 0;   /* the name matters more than where it lives */
    if (!nl) {
        put_str(t, ph_report_fit(fit, sizeof fit, text, room));
        return;
    }
    put_str(t, ph_report_fit(fit, sizeof fit, text, room - nl - 2));
    put(t, "  ", 2);
    put(t, note, nl);
}

/* The rows of the text table after the heading when there is one, each
 * line after indent. */
static void print_table(const ph_grid *g, FILE *out, int heading,
                        const char *indent)
{
    size_t *w = ph_xcalloc(g->ncols + 1, sizeof *w);
    size_t used = 0, room = 0, last = 0, head_last = 0, over;
    int no_room = 0;   /* a PH_GRID_ELIDE fill under its width */
    int first = 1;
    char buf[40];
    row_text t = { NULL, 0, 0 };

    for (size_t k = 0; k < g->ncols; k++) {
        const ph_grid_col *c = &g->cols[k];
        if (!c->head)
            continue;
        w[k] = c->width > 0 ? (size_t)c->width : 0;
        if (!(c->flags & (PH_GRID_FIXED | PH_GRID_FILL)))
            for (size_t i = 0; i < g->nrows; i++) {
                size_t n = g->only[i] == DATA_ONLY || g->only[i] == LINE
                               ? 0 : strlen(cell_text(at(g, i, k), buf));
                w[k] = n > w[k] ? n : w[k];
            }
        used += strlen(first ? "" : c->sep ? c->sep : "  ");
        if (c->flags & PH_GRID_FILL) {
            long r = (long)ph_report_width - (long)used + c->slack;
            room = r > c->width ? (size_t)r : (size_t)c->width;
            no_room = r < c->width;
        } else {
            used += w[k];
        }
        first = 0;
    }
    for (size_t k = 0; k < g->ncols; k++) {
        if (g->cols[k].head)
            last = k;
        if (g->cols[k].head && g->cols[k].head[0])
            head_last = k;
    }
    for (size_t i = !heading; i <= g->nrows; i++) {   /* heading, rows */
        if (i && g->only[i - 1] == DATA_ONLY)
            continue;
        t.n = 0;
        put_str(&t, indent);
        if (i && g->only[i - 1] == LINE) {
            put_str(&t, at(g, i - 1, 0)->text);
            put(&t, "\n", 1);
            fwrite(t.s, 1, t.n, out);
            continue;
        }
        first = 1;
        over = 0;
        for (size_t k = 0; k < g->ncols; k++) {
            const ph_grid_col *c = &g->cols[k];
            const cell *x = i ? at(g, i - 1, k) : NULL;
            const char *s = x ? cell_text(x, buf) : c->head;
            if (!c->head)
                continue;
            if (!x && k > head_last)   /* the heading ends at its last */
                break;
            if (x && (c->flags & PH_GRID_ELIDE) &&
                (!s[0] || ((c->flags & PH_GRID_FILL) && no_room)))
                continue;
            put_str(&t, first ? "" : c->sep ? c->sep : "  ");
            first = 0;
            size_t n = strlen(s);
            if ((c->flags & PH_GRID_LEFT) && k == last) {
                put(&t, s, n);
            } else if (c->flags & PH_GRID_LEFT) {
                put(&t, s, n);
                pad(&t, w[k], n);
            } else if (!(c->flags & PH_GRID_FILL)) {
                pad(&t, w[k], n);
                put(&t, s, n);
            } else if (x) {   /* what overflowed comes off the fill's room */
                put_fill(&t, x, room > over + 1 ? room - over : 1);
            } else {
                put_str(&t, c->head);
            }
            if ((c->flags & PH_GRID_FIXED) && n > w[k])
                over += n - w[k];
        }
        put(&t, "\n", 1);
        fwrite(t.s, 1, t.n, out);
    }
    free(t.s);
    free(w);
}

void ph_grid_print_text(const ph_grid *g, FILE *out)
{
    print_table(g, out, 1, "");
}

void ph_grid_print_rows(const ph_grid *g, FILE *out, const char *indent)
{
    print_table(g, out, 0, indent);
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */

/* The CSV columns in their order (*n of them; malloc'd). */
static size_t *csv_order(const ph_grid *g, size_t *n)
{
    size_t *order = ph_xmalloc((g->ncols + 1) * sizeof *order);

    /* Insertion by csv_pos keeps equal ones in declaration order. */
    *n = 0;
    for (size_t k = 0; k < g->ncols; k++) {
        size_t j = *n;
        if (!g->cols[k].csv)
            continue;
        while (j > 0 && g->cols[order[j - 1]].csv_pos > g->cols[k].csv_pos) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
        (*n)++;
    }
    return order;
}

void ph_grid_print_csv_head(const ph_grid *g, FILE *out)
{
    size_t n, *order = csv_order(g, &n);

    for (size_t j = 0; j < n; j++)
        ph_csv_str(out, g->cols[order[j]].csv, j == 0);
    fputc('\n', out);
    free(order);
}

void ph_grid_print_csv_rows(const ph_grid *g, FILE *out)
{
    size_t n, *order = csv_order(g, &n);
    char buf[40];

    for (size_t i = 0; i < g->nrows; i++) {
        if (!in_data(g, i))
            continue;
        for (size_t j = 0; j < n; j++)
            ph_csv_str(out, value_text(at(g, i, order[j]), buf), j == 0);
        fputc('\n', out);
    }
    free(order);
}

void ph_grid_print_csv(const ph_grid *g, FILE *out)
{
    ph_grid_print_csv_head(g, out);
    ph_grid_print_csv_rows(g, out);
}

/* ------------------------------------------------------------------ */
/* JSON and YAML                                                       */

static void emit_words(ph_emit *em, const char *w)
{
    ph_emit_list(em, 1);
    while (w && *w) {
        size_t n = strcspn(w, " ");
        char word[128];
        if (n > 0 && n < sizeof word) {
            memcpy(word, w, n);
            word[n] = '\0';
            ph_emit_str(em, word);
        }
        w += n;
        w += strspn(w, " ");
    }
    ph_emit_end(em);
}

static void emit_cell(const ph_grid_col *col, const cell *c, ph_emit *em)
{
    switch (c->kind) {
    case STR:
        if (col->flags & PH_GRID_WORDS)
            emit_words(em, c->s);
        else
            ph_emit_str(em, c->s);
        break;
    case INT: ph_emit_int(em, c->v.i); break;
    case UINT: ph_emit_uint(em, c->v.u); break;
    case NUM: ph_emit_num(em, c->v.d); break;
    case NUMTEXT: ph_emit_number_text(em, c->s); break;
    case BOOL: ph_emit_bool(em, (int)c->v.i); break;
    default: ph_emit_null(em);
    }
}

static int same_group(const ph_grid_col *a, const ph_grid_col *b)
{
    return a->group && b->group && strcmp(a->group, b->group) == 0;
}

void ph_grid_emit_row(const ph_grid *g, ph_emit *em, size_t i)
{
    size_t k = 0;

    while (k < g->ncols) {
        const ph_grid_col *c = &g->cols[k];
        size_t end = k + 1, j;
        int set = 0;
        if ((!c->key && !c->group) || (c->flags & PH_GRID_KEY)) {
            k++;
            continue;
        }
        if (!c->group) {
            if ((c->flags & PH_GRID_OPTIONAL) && at(g, i, k)->kind == UNSET) {
                k++;
                continue;
            }
            ph_emit_key(em, c->key);
            emit_cell(c, at(g, i, k), em);
            k++;
            continue;
        }
        while (end < g->ncols && same_group(c, &g->cols[end]))
            end++;
        for (j = k; j < end; j++)
            set |= at(g, i, j)->kind != UNSET;
        if (!set && (c->flags & PH_GRID_OPTIONAL)) {
            k = end;
            continue;
        }
        ph_emit_key(em, c->group);
        if (set) {
            ph_emit_map(em, 1);
            for (j = k; j < end; j++) {
                if (!g->cols[j].key)
                    continue;
                ph_emit_key(em, g->cols[j].key);
                emit_cell(&g->cols[j], at(g, i, j), em);
            }
            ph_emit_end(em);
        } else {
            ph_emit_null(em);
        }
        k = end;
    }
}

/* The column whose cell keys each row (PH_GRID_KEY), or ncols. */
static size_t key_col(const ph_grid *g)
{
    size_t k = 0;

    while (k < g->ncols && !(g->cols[k].flags & PH_GRID_KEY))
        k++;
    return k;
}

void ph_grid_emit_rows(const ph_grid *g, ph_emit *em, size_t from,
                       size_t to, ph_grid_more more, void *ctx)
{
    size_t kc = key_col(g);
    char buf[40];

    if (kc < g->ncols)
        ph_emit_map(em, g->flow > 1);
    else
        ph_emit_list(em, g->flow > 1);
    for (size_t i = from; i < to && i < g->nrows; i++) {
        if (!in_data(g, i))
            continue;
        if (kc < g->ncols)
            ph_emit_key(em, value_text(at(g, i, kc), buf));
        ph_emit_map(em, g->flow > 0);
        ph_grid_emit_row(g, em, i);
        if (more)
            more(em, i, ctx);
        ph_emit_end(em);
    }
    ph_emit_end(em);
}

void ph_grid_emit_pairs(const ph_grid *g, ph_emit *em, size_t key,
                        size_t val)
{
    char buf[40];

    ph_emit_map(em, 1);
    for (size_t i = 0; i < g->nrows; i++) {
        if (!in_data(g, i))
            continue;
        ph_emit_key(em, value_text(at(g, i, key), buf));
        emit_cell(&g->cols[val], at(g, i, val), em);
    }
    ph_emit_end(em);
}

void ph_grid_emit(const ph_grid *g, ph_emit *em)
{
    ph_grid_emit_rows(g, em, 0, g->nrows, NULL, NULL);
}
