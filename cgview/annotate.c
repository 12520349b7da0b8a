/* annotate.c -- line costs and call lines for --annotate: the flat rows
 * of the selected parts and the samples of context nodes, by (file,
 * line); the calls made from each line merged per callee, so that records
 * of one line to one callee read as one, as callgrind_annotate prints them
 * (163,617 (1x) + 6,381,063 (39x) => 6,544,680 (40x)). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgview/annotate.h"

/* Cost vectors of w + 1 values, zeroed, cut from blocks that are freed
 * together: a file's lines may make a hundred thousand call lines, and a
 * calloc and free each was a tenth of annotating it. */
struct ph_vec_block {
    ph_vec_block *next;
    size_t used, cap;
    int64_t v[];
};

static int64_t *new_vec(ph_lines *ls)
{
    size_t n = ls->w + 1;
    ph_vec_block *b = ls->vecs;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 8192 ? n : 8192;
        b = ph_xmalloc(sizeof *b + cap * sizeof *b->v);
        b->next = ls->vecs;
        b->used = 0;
        b->cap = cap;
        ls->vecs = b;
    }
    int64_t *v = b->v + b->used;
    b->used += n;
    memset(v, 0, n * sizeof *v);
    return v;
}

static ph_line_cost *new_line(ph_lines *ls, const ph_file *file,
                              uint32_t line)
{
    if (ls->n == ls->cap) {
        ls->cap = ls->cap ? ls->cap * 2 : 64;
        ls->v = ph_xrealloc(ls->v, ls->cap * sizeof *ls->v);
    }
    ph_line_cost *lc = &ls->v[ls->n++];
    memset(lc, 0, sizeof *lc);
    lc->file = file;
    lc->line = line;
    lc->cost = new_vec(ls);
    return lc;
}

/* The entry for (file, line), made when absent. */
static ph_line_cost *line_at(ph_lines *ls, const ph_file *file,
                             uint32_t line)
{
    uint64_t key = (uint64_t)(file ? file->id : 0) << 32 | line;
    int64_t i = ph_idmap_get(&ls->line_of, key);
    if (i >= 0)
        return &ls->v[i];
    ph_idmap_put(&ls->line_of, key, (uint32_t)ls->n);
    return new_line(ls, file, line);
}

static void add_into(const ph_lines *ls, ph_line_cost *lc,
                     const int64_t *cost, size_t width)
{
    for (size_t i = 0; i < width && i < ls->w; i++)
        lc->cost[i] = ph_cost_add(lc->cost[i], cost[i]);
}

static void add_cost(ph_lines *ls, const ph_file *file, uint32_t line,
                     const int64_t *cost, size_t width)
{
    add_into(ls, line_at(ls, file, line), cost, width);
}

/* The call line of lc to callee, made when absent. */
static ph_call_line *call_slot(ph_lines *ls, ph_line_cost *lc,
                               const ph_func *callee)
{
    uint64_t key = (uint64_t)(lc - ls->v) << 32 | callee->id;
    int64_t i = ph_idmap_get(&ls->call_of, key);
    if (i >= 0)
        return &lc->calls[i];
    ph_idmap_put(&ls->call_of, key, (uint32_t)lc->ncalls);
    if (lc->ncalls == lc->calls_cap) {
        lc->calls_cap = lc->calls_cap ? 2 * lc->calls_cap : 4;
        lc->calls = ph_xrealloc(lc->calls, lc->calls_cap * sizeof *lc->calls);
    }
    ph_call_line *cl = &lc->calls[lc->ncalls++];
    memset(cl, 0, sizeof *cl);
    cl->callee = callee;
    cl->incl = new_vec(ls);
    return cl;
}

static void add_call(ph_lines *ls, ph_line_cost *lc, const ph_call *c)
{
    ph_call_line *cl = call_slot(ls, lc, c->callee);
    cl->count += c->count;
    cl->known |= c->incl != NULL;
    for (size_t k = 0; k < ls->w; k++)
        cl->incl[k] = ph_cost_add(cl->incl[k], ph_call_incl(c, k));
}

static int cmp_lines(const void *a, const void *b)
{
    const ph_line_cost *x = a, *y = b;
    uint32_t fx = x->file ? x->file->id : 0, fy = y->file ? y->file->id : 0;
    if (fx != fy)
        return fx < fy ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Sort by (file, line) (each is one entry) and leave out the lines
 * whose costs add up to nothing (a diff's) and make no call. */
static void sort_lines(ph_lines *ls)
{
    size_t o = 0;
    ph_qsort(ls->v, ls->n, sizeof *ls->v, cmp_lines);
    for (size_t i = 0; i < ls->n; i++) {
        ph_line_cost *lc = &ls->v[i];
        size_t k = 0;
        while (k < ls->w && lc->cost[k] == 0)
            k++;
        if (k < ls->w || lc->ncalls)
            ls->v[o++] = *lc;
    }
    ls->n = o;
}

static void vec_add(int64_t *a, const int64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = ph_cost_add(a[i], b[i]);
}

static int part_ok(const ph_report *r, const ph_part *pt)
{
    return r->topts.part == PH_ALL_PARTS ||
           (pt && (int)pt->index == r->topts.part);
}

/* The code of g: all of it (file NULL) or what lies in file. */
static void collect_func(const ph_report *r, const ph_func *g,
                         const ph_file *file, ph_lines *ls)
{
    ph_profile *p = r->p;
    ph_row_iter it;
    ph_row row;
    size_t at = SIZE_MAX;   /* the last row's entry: a line's rows come
                             * together, in runs */
    const ph_file *at_file = NULL;
    uint32_t at_line = 0;
    /* g's rows, unless none of them can lie in file */
    int rows = !file || g->file == file || ph_func_rows_elsewhere(p, g);
    if (rows)
        ph_row_iter_init(&it, p, g, ph_report_part(r));
    while (rows && ph_row_next_line(&it, &row)) {
        const ph_file *rf = row.file ? row.file : g->file;
        if (file && rf != file)
            continue;
        if (at == SIZE_MAX || rf != at_file || row.line != at_line) {
            at = (size_t)(line_at(ls, rf, row.line) - ls->v);
            at_file = rf;
            at_line = row.line;
        }
        add_into(ls, &ls->v[at], row.cost, ls->w);
    }
    ph_call_iter ci;
    for (const ph_call *c = ph_calls_out(&ci, p, g); c;
         c = ph_call_next(&ci)) {
        const ph_file *cf = c->file ? c->file : g->file;
        if ((file && cf != file) || !part_ok(r, c->part))
            continue;
        add_call(ls, line_at(ls, cf, c->line), c);
    }
}

/* Cost below each node of the selected parts (nodes come parents first,
 * so one backward pass adds each node into its parent). */
static int64_t *subtree_costs(const ph_report *r, size_t w)
{
    size_t nn = ph_node_count(r->p);
    int64_t *sub = ph_xcalloc(nn * w + 1, sizeof *sub);
    for (size_t i = 0; i < nn; i++) {
        const ph_node *nd = ph_node_at(r->p, i);
        int64_t *v = sub + i * w;
        for (const ph_sample *s = ph_node_samples(r->p, nd); s; s = s->next)
            if (part_ok(r, s->part))
                for (size_t k = 0; k < w && k < s->width; k++)
                    v[k] = ph_cost_add(v[k], s->cost[k]);
    }
    for (size_t i = nn; i-- > 0;) {
        const ph_node *nd = ph_node_at(r->p, i);
        if (nd->parent)
            vec_add(sub + (nd->parent - 1) * w, sub + i * w, w);
    }
    return sub;
}

static ph_line_cost *find_line(ph_lines *ls, const ph_file *file,
                               uint32_t line)
{
    ph_line_cost key = { .file = file, .line = line };
    return ls->n ? bsearch(&key, ls->v, ls->n, sizeof *ls->v, cmp_lines)
                 : NULL;
}

/* pprof -list's cum: each node of a chosen line adds its subtree, unless
 * an ancestor is the same function at the same line (recursion: that
 * stack counted already). */
static void add_cum(const ph_report *r, const ph_func *f,
                    const ph_file *file, ph_lines *ls)
{
    size_t w = ls->w;
    int64_t *sub = subtree_costs(r, w);
    for (size_t i = 0; i < ls->n; i++)
        ls->v[i].cum = new_vec(ls);
    for (size_t i = 0; i < ph_node_count(r->p); i++) {
        const ph_node *nd = ph_node_at(r->p, i);
        const ph_frame *fr = ph_node_frame(r->p, nd);
        uint32_t up;
        if (!fr->func ||
            (f ? fr->func != f || (file && fr->func->file != file)
               : fr->func->file != file))
            continue;
        for (up = nd->parent; up; up = ph_node_at(r->p, up - 1)->parent) {
            const ph_frame *ufr = ph_node_frame(r->p, ph_node_at(r->p, up - 1));
            if (ufr->func == fr->func && ufr->line == fr->line)
                break;
        }
        if (up)
            continue;
        ph_line_cost *lc = find_line(ls, fr->func->file, fr->line);
        if (!lc) {
            lc = new_line(ls, fr->func->file, fr->line);
            lc->cum = new_vec(ls);
            ph_qsort(ls->v, ls->n, sizeof *ls->v, cmp_lines);
            lc = find_line(ls, fr->func->file, fr->line);
        }
        vec_add(lc->cum, sub + i * w, w);
    }
    free(sub);
}

struct ph_file_funcs {
    uint32_t *first;        /* by file id: its first entry in func */
    uint32_t *func;         /* function indices, by file */
};

ph_file_funcs *ph_file_funcs_new(const ph_profile *p)
{
    size_t nfiles = ph_file_count(p), n = 0, cap = 0;
    uint32_t *stamp = ph_xcalloc(nfiles + 1, sizeof *stamp);
    uint32_t *file_of = NULL, *func_of = NULL;   /* (file id, function) */
    for (size_t i = 0; i < ph_func_count(p); i++) {
        const ph_func *g = ph_func_at(p, i);
        ph_row_iter it;
        ph_row row;
        ph_call_iter ci;
        const ph_call *c;
        /* every row in g's file: the first row tells all */
        int one_file = !ph_func_rows_elsewhere(p, g), more_rows = 1;
        ph_row_iter_init(&it, p, g, NULL);
        c = ph_calls_out(&ci, p, g);
        for (;;) {
            /* the file collect_func counts a row or a call in */
            const ph_file *fl;
            if (more_rows && ph_row_next_line(&it, &row)) {
                fl = row.file ? row.file : g->file;
                more_rows = !one_file;
            } else if (c) {
                fl = c->file ? c->file : g->file;
                c = ph_call_next(&ci);
            } else
                break;
            if (!fl || stamp[fl->id] == i + 1)
                continue;       /* listed for this function already */
            stamp[fl->id] = (uint32_t)i + 1;
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                file_of = ph_xrealloc(file_of, cap * sizeof *file_of);
                func_of = ph_xrealloc(func_of, cap * sizeof *func_of);
            }
            file_of[n] = fl->id;
            func_of[n++] = (uint32_t)i;
        }
    }
    free(stamp);
    /* by file, each file's functions in the order found (function order) */
    ph_file_funcs *ff = ph_xcalloc(1, sizeof *ff);
    ff->first = ph_xcalloc(nfiles + 2, sizeof *ff->first);
    ff->func = ph_xmalloc((n + 1) * sizeof *ff->func);
    for (size_t k = 0; k < n; k++)
        ff->first[file_of[k] + 1]++;
    for (size_t id = 1; id <= nfiles; id++)
        ff->first[id + 1] += ff->first[id];
    uint32_t *fill = ph_xmalloc((nfiles + 2) * sizeof *fill);
    memcpy(fill, ff->first, (nfiles + 2) * sizeof *fill);
    for (size_t k = 0; k < n; k++)
        ff->func[fill[file_of[k]]++] = func_of[k];
    free(fill);
    free(file_of);
    free(func_of);
    return ff;
}

void ph_file_funcs_free(ph_file_funcs *ff)
{
    if (!ff)
        return;
    free(ff->first);
    free(ff->func);
    free(ff);
}

void ph_lines_collect(const ph_report *r, const ph_func *f,
                      const ph_file *file, ph_lines *ls)
{
    ph_profile *p = r->p;
    memset(ls, 0, sizeof *ls);
    ls->w = ph_event_nreal(p);
    ph_idmap_init(&ls->line_of, 64);
    ph_idmap_init(&ls->call_of, 64);
    if (f) {
        collect_func(r, f, file, ls);
    } else if (file && r->file_funcs) {
        const ph_file_funcs *ff = r->file_funcs;
        for (uint32_t k = ff->first[file->id]; k < ff->first[file->id + 1];
             k++)
            collect_func(r, ph_func_at(p, ff->func[k]), file, ls);
    } else {
        for (size_t i = 0; i < ph_func_count(p); i++)
            collect_func(r, ph_func_at(p, i), file, ls);
    }
    for (size_t i = 0; i < ph_node_count(p); i++) {
        const ph_node *nd = ph_node_at(p, i);
        const ph_frame *fr = ph_node_frame(p, nd);
        if (!fr->func || (f ? fr->func != f : fr->func->file != file))
            continue;
        for (const ph_sample *s = ph_node_samples(p, nd); s; s = s->next)
            if (part_ok(r, s->part))
                add_cost(ls, fr->func->file, fr->line, s->cost, s->width);
    }
    ph_idmap_free(&ls->line_of);
    ph_idmap_free(&ls->call_of);
    sort_lines(ls);
    if (ph_node_count(p))
        add_cum(r, f, file, ls);
}

void ph_lines_free(ph_lines *ls)
{
    for (size_t i = 0; i < ls->n; i++)
        free(ls->v[i].calls);
    free(ls->v);
    while (ls->vecs) {
        ph_vec_block *b = ls->vecs;
        ls->vecs = b->next;
        free(b);
    }
}
