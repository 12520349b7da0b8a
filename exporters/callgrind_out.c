/* exporters/callgrind_out.c -- write a profile as a callgrind out-file
 * (format version 1) that KCachegrind and callgrind_annotate read: one
 * part per IR part, compressed names with ids restarting in every part
 * (KCachegrind clears its tables at each part), relative subpositions,
 * calls with their inclusive cost, jumps, derived events as event: lines,
 * and summary:/totals: equal to the data.  Rows and calls come from the
 * flat view (analysis/), which holds a context tree's costs exactly.
 * Negative costs (diffs) are written as they are. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "exporters/exporters.h"
#include "exporters/out_events.h"
#include "ir/jobs.h"

/* The keys of name lines.  A piece of a part (write_functions) marks a
 * name line by its key and id, made into the line when the pieces are put
 * in order: only then is it known whether the name is new to the part. */
enum { K_OB, K_COB, K_FL, K_FI, K_FE, K_CFI, K_JFI, K_FN, K_CFN, K_JFN,
       NKEYS };
static const char *const key_text[NKEYS] = {
    "ob", "cob", "fl", "fi", "fe", "cfi", "jfi", "fn", "cfn", "jfn"
};
/* A mark: a NUL (a name's NULs are written as '?': no other byte of the
 * file is one), the key + 1 or HEAD_MARK, an id of 4 bytes. */
#define MARK_LEN 6
#define HEAD_MARK 0xff

typedef struct cgw {
    const ph_profile *p;
    const ph_flat *v;       /* rows and calls, the tree's too */
    ph_output *out;
    size_t nreal;
    size_t *slots;          /* slots of the events written: additive ones */
    size_t nout;
    int instr;              /* write "positions: instr line" */
    /* Per part: compressed ids given so far (0 = not yet), by ->id. */
    uint32_t *obj_id, *file_id, *fn_id;
    uint32_t nobj, nfile, nfn;
    int marking;            /* a piece's: name lines and its head marked */
    /* Position context of the part being written.  head_open: a piece's
     * first function is still to come, whose ob= and fl= lines follow the
     * context the piece before leaves (marked). */
    ph_object *ob;
    ph_file *fl, *cur;
    int head_open;
    uint64_t last_addr, last_line;
    int fresh;              /* next position absolute (after fn=) */
    uint64_t unknown_incl;
    uint64_t unknown_counts;
    uint64_t renamed;       /* names with a line end or NUL replaced */
    ph_out_names event_names;
    char *text;             /* a compound name's text, made for writing it */
    size_t text_cap;
} cgw;

/* ------------------------------------------------------------------ */
/* Names and numbers                                                  */

/* A name on one line: see ph_out_line_name. */
static int put_text(ph_output *out, const char *t, size_t n)
{
    return ph_out_line_name(out, t, n, 1);
}

/* A mark of a name line (kind: its key + 1) or of a head (HEAD_MARK). */
static void put_mark(cgw *w, unsigned kind, uint32_t id)
{
    unsigned char m[MARK_LEN] = {0, (unsigned char)kind};
    memcpy(m + 2, &id, sizeof id);
    ph_output_write(w->out, m, sizeof m);
}

/* "key=(N) name" the first time in this part, "key=(N)" afterwards, for
 * the object, file or function (by key) of that id.  A name that itself
 * starts with "(digit" could not be read back: such names are rare enough
 * to always go compressed. */
static void put_spec(cgw *w, int key, uint32_t id)
{
    uint32_t *ids, *next;
    ph_str name;

    if (w->marking) {
        put_mark(w, (unsigned)key + 1, id);
        return;
    }
    if (key <= K_COB) {
        ids = w->obj_id;
        next = &w->nobj;
        name = ph_object_at(w->p, id - 1)->name;
    } else if (key <= K_JFI) {
        ids = w->file_id;
        next = &w->nfile;
        name = ph_file_at(w->p, id - 1)->name;
    } else {
        ids = w->fn_id;
        next = &w->nfn;
        name = ph_func_at(w->p, id - 1)->name;
    }
    ph_output_puts(w->out, key_text[key]);
    ph_output_puts(w->out, "=(");
    if (ids[id]) {
        ph_output_u64(w->out, ids[id]);
        ph_output_puts(w->out, ")\n");
        return;
    }
    ids[id] = ++*next;
    ph_output_u64(w->out, ids[id]);
    ph_output_puts(w->out, ") ");
    w->renamed += put_text(w->out,
                           ph_str_text(w->p, name, &w->text, &w->text_cap),
                           ph_str_len(w->p, name));
    ph_output_puts(w->out, "\n");
}

static void put_object(cgw *w, int key, const ph_object *o)
{
    if (!o) {
        ph_output_puts(w->out, key_text[key]);
        ph_output_puts(w->out, "=???\n");
        return;
    }
    put_spec(w, key, o->id);
}

static void put_file(cgw *w, int key, const ph_file *f)
{
    if (!f) {
        ph_output_puts(w->out, key_text[key]);
        ph_output_puts(w->out, "=???\n");
        return;
    }
    put_spec(w, key, f->id);
}

static void put_func(cgw *w, int key, const ph_func *f)
{
    put_spec(w, key, f->id);
}

/* One subposition, relative to *last unless absolute; moves *last when
 * move is set (cost lines do, call and jump targets do not). */
static void put_sub(cgw *w, uint64_t v, uint64_t *last, int hex, int move)
{
    if (!w->fresh && v == *last) {
        ph_output_puts(w->out, "*");
    } else if (!w->fresh && v > *last && v - *last < 100000) {
        ph_output_puts(w->out, "+");
        ph_output_u64(w->out, v - *last);
    } else if (!w->fresh && v < *last && *last - v < 100000) {
        ph_output_puts(w->out, "-");
        ph_output_u64(w->out, *last - v);
    } else if (hex) {
        ph_output_printf(w->out, "0x%llx", (unsigned long long)v);
    } else {
        ph_output_u64(w->out, v);
    }
    if (move)
        *last = v;
}

static void put_position(cgw *w, uint64_t addr, uint32_t line, int move)
{
    if (w->instr) {
        put_sub(w, addr, &w->last_addr, 1, move);
        ph_output_puts(w->out, " ");
    }
    put_sub(w, line, &w->last_line, 0, move);
    if (move)
        w->fresh = 0;
}

/* Costs with trailing zeros left out, then the line end. */
/* The written events' values of a vector of n slots (later slots 0). */
static void put_costs(cgw *w, const int64_t *c, size_t n)
{
    size_t k, m = w->nout;

    while (m > 0 && (w->slots[m - 1] >= n || c[w->slots[m - 1]] == 0))
        m--;
    for (k = 0; k < m; k++) {
        ph_output_puts(w->out, " ");
        ph_output_i64(w->out, w->slots[k] < n ? c[w->slots[k]] : 0);
    }
    ph_output_puts(w->out, "\n");
}

/* Switch the current source file of cost lines to f (fi=, or fe= when
 * going back to the function's file). */
static void switch_file(cgw *w, ph_file *f)
{
    if (f == w->cur || !f)
        return;
    put_file(w, f == w->fl ? K_FE : K_FI, f);
    w->cur = f;
}

/* ------------------------------------------------------------------ */
/* Header                                                             */

static void write_file_header(cgw *w)
{
    const ph_profile *p = w->p;
    size_t i, nm = ph_meta_count(p);
    int have_pid = 0, have_cmd = 0;

    ph_output_puts(w->out, "# callgrind format\nversion: 1\ncreator: "
                   "profhub-" VERSION "\n");
    for (i = 0; i < nm; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        if (strcmp(k, "pid") == 0 && !have_pid) {
            have_pid = 1;
            ph_output_puts(w->out, "pid: ");
        } else if (strcmp(k, "cmd") == 0 && !have_cmd) {
            have_cmd = 1;
            ph_output_puts(w->out, "cmd: ");
        } else if (strcmp(k, "desc") == 0) {
            ph_output_puts(w->out, "desc: ");
        } else if (strcmp(k, "creator") == 0 || strcmp(k, "event") == 0 ||
                   strcmp(k, "pid") == 0 || strcmp(k, "cmd") == 0) {
            continue;
        } else {
            /* Unknown desc: types are ignored by readers: keep the rest
             * there rather than dropping it. */
            ph_output_puts(w->out, "desc: ");
            put_text(w->out, k, strlen(k));
            ph_output_puts(w->out, ": ");
        }
        put_text(w->out, v, strlen(v));
        ph_output_puts(w->out, "\n");
    }
}

static void write_events(cgw *w, int first)
{
    const ph_profile *p = w->p;
    size_t i, n = ph_event_count(p), nm = ph_meta_count(p);

    ph_output_puts(w->out, w->instr ? "positions: instr line\n"
                                    : "positions: line\n");
    /* event: lines before events:, which callgrind_annotate takes as the
     * last header line (an event: line after it is "malformed" there). */
    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        int derived = (ev->flags & PH_EV_DERIVED) != 0;
        if ((ev->flags & (PH_EV_BUILTIN | PH_EV_NONADDITIVE)) ||
            (!derived && !ev->long_name))
            continue;
        ph_output_puts(w->out, "event: ");
        ph_out_event_name(w->out, &w->event_names, ev);
        if (derived)
            ph_output_printf(w->out, " = %s", ph_str_get(p, ev->formula));
        if (ev->long_name)
            ph_output_printf(w->out, " : %s", ph_str_get(p, ev->long_name));
        ph_output_puts(w->out, "\n");
    }
    for (i = 0; i < nm && first; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        if (strcmp(k, "event") == 0)
            ph_output_printf(w->out, "event: %s\n", v);
    }
    ph_output_puts(w->out, "events:");
    for (i = 0; i < w->nout; i++) {
        ph_output_puts(w->out, " ");
        if (ph_out_event_name(w->out, &w->event_names,
                              ph_event_real(p, w->slots[i])) && first)
            ph_out_event_names_changed(w->out, 1, "callgrind");
    }
    ph_output_puts(w->out, "\n");
}

/* ------------------------------------------------------------------ */
/* Body                                                               */

static int func_has_data(cgw *w, const ph_func *f, const ph_part *part)
{
    ph_flat_iter it;
    ph_flat_calls calls;
    ph_row r;
    ph_jump_iter ji;
    const ph_call *c;
    const ph_jump *jp;

    ph_flat_rows_init(&it, w->v, w->p, f, part);
    if (ph_flat_rows_next(&it, &r))
        return 1;
    for (c = ph_flat_calls_out(&calls, w->v, w->p, f); c;
         c = ph_flat_calls_next(&calls))
        if (c->part == part)
            return 1;
    for (jp = ph_jumps_from(&ji, w->p, f); jp; jp = ph_jump_next(&ji))
        if (jp->part == part)
            return 1;
    return 0;
}

static void write_call(cgw *w, const ph_func *f, const ph_call *c,
                       int64_t *zero)
{
    ph_file *cf = c->callee->file;

    switch_file(w, c->file);
    if (c->callee->object != f->object)
        put_object(w, K_COB, c->callee->object);
    if (cf != w->cur && cf)
        put_file(w, K_CFI, cf);
    else if (!cf && w->cur)
        ph_output_puts(w->out, "cfi=???\n");
    put_func(w, K_CFN, c->callee);
    /* Records from sampled stacks count samples, not calls: the count
     * is unknown, written as 0 as go tool pprof -callgrind does. */
    int sampled = ph_flat_is_tree(w->v, c);
    w->unknown_counts += sampled;
    ph_output_puts(w->out, "calls=");
    ph_output_u64(w->out, sampled ? 0 : c->count);
    ph_output_puts(w->out, " ");
    put_position(w, c->target_addr, c->target_line, 0);
    ph_output_puts(w->out, "\n");
    put_position(w, c->addr, c->line, 1);
    if (!c->incl) {
        w->unknown_incl++;
        put_costs(w, zero, 0);
    } else {
        put_costs(w, c->incl, c->width < w->nreal ? c->width : w->nreal);
    }
}

static void write_jump(cgw *w, const ph_func *f, const ph_jump *j)
{
    switch_file(w, j->file);
    if (j->to_file && j->to_file != w->cur)
        put_file(w, K_JFI, j->to_file);
    if (j->to && j->to != f)
        put_func(w, K_JFN, j->to);
    if (j->conditional) {
        ph_output_puts(w->out, "jcnd=");
        ph_output_u64(w->out, j->followed);
        ph_output_puts(w->out, "/");
        ph_output_u64(w->out, j->executed);
    } else {
        ph_output_puts(w->out, "jump=");
        ph_output_u64(w->out, j->executed);
    }
    ph_output_puts(w->out, " ");
    put_position(w, j->target_addr, j->target_line, 0);
    ph_output_puts(w->out, "\n");
    put_position(w, j->addr, j->line, 1);
    ph_output_puts(w->out, "\n");
}

/* The ob= and fl= lines before function f's fn= (as they follow the
 * context the function before left). */
static void put_head(cgw *w, const ph_func *f)
{
    if (f->object != w->ob || !w->ob)
        put_object(w, K_OB, f->object);
    /* callgrind_annotate does not go back to the fl= file at fn=: write
     * fl= again after fi=/fe= lines, as callgrind does. */
    if (f->file != w->fl || f->file != w->cur || !w->fl)
        put_file(w, K_FL, f->file);
}

static void write_function(cgw *w, const ph_func *f, const ph_part *part,
                           int64_t *zero)
{
    ph_flat_iter it;
    ph_flat_calls calls;
    ph_row r;
    ph_jump_iter ji;
    const ph_call *c;
    const ph_jump *jp;

    if (w->head_open) {
        /* the context before the piece is known when it is put in place */
        put_mark(w, HEAD_MARK, f->id);
        w->head_open = 0;
    } else {
        put_head(w, f);
    }
    w->ob = f->object;
    w->fl = f->file;
    put_func(w, K_FN, f);
    w->cur = w->fl;
    w->fresh = 1;
    ph_flat_rows_init(&it, w->v, w->p, f, part);
    while (ph_flat_rows_next(&it, &r)) {
        switch_file(w, r.file);
        put_position(w, r.addr, r.line, 1);
        put_costs(w, r.cost, w->nreal);
    }
    for (c = ph_flat_calls_out(&calls, w->v, w->p, f); c;
         c = ph_flat_calls_next(&calls))
        if (c->part == part)
            write_call(w, f, c, zero);
    for (jp = ph_jumps_from(&ji, w->p, f); jp; jp = ph_jump_next(&ji))
        if (jp->part == part)
            write_jump(w, f, jp);
    ph_output_puts(w->out, "\n");
}

/* ------------------------------------------------------------------ */
/* A part's functions in pieces                                        */

/* The cost lines' numbers, most of the writer's time, are made on two
 * threads: the functions in pieces of PIECE_FUNCS, each piece in memory
 * with its name lines and head marked (put_mark), up to PIECES_AHEAD of
 * them ahead of the one written; the pieces written in order, their marks
 * made into lines there (ph_run_ordered). */
#define PIECE_FUNCS 256
#define PIECES_AHEAD 8

typedef struct piece {
    ph_output *mem;
    int any;                    /* a function in it */
    ph_object *ob;              /* the context it leaves */
    ph_file *fl, *cur;
    uint64_t unknown_incl, unknown_counts;
} piece;

typedef struct part_pieces {
    cgw *w;
    const ph_part *part;
    int64_t *zero;
    size_t nf;
    cgw side[2];                /* each thread's writer of pieces */
    piece slot[PIECES_AHEAD];   /* piece i in slot i % PIECES_AHEAD */
} part_pieces;

static void make_piece(void *arg, size_t i, int side)
{
    part_pieces *pp = arg;
    cgw *s = &pp->side[side];
    piece *pc = &pp->slot[i % PIECES_AHEAD];
    size_t k = i * PIECE_FUNCS;
    size_t end = pp->nf - k > PIECE_FUNCS ? k + PIECE_FUNCS : pp->nf;

    ph_output_memory_clear(pc->mem);
    s->out = pc->mem;
    s->head_open = 1;
    s->unknown_incl = s->unknown_counts = 0;
    for (; k < end; k++) {
        const ph_func *f = ph_func_at(s->p, k);
        if (func_has_data(s, f, pp->part))
            write_function(s, f, pp->part, pp->zero);
    }
    pc->any = !s->head_open;
    pc->ob = s->ob;
    pc->fl = s->fl;
    pc->cur = s->cur;
    pc->unknown_incl = s->unknown_incl;
    pc->unknown_counts = s->unknown_counts;
}

/* Piece i into the output, its marks made into lines. */
static void give_piece(void *arg, size_t i)
{
    part_pieces *pp = arg;
    cgw *w = pp->w;
    piece *pc = &pp->slot[i % PIECES_AHEAD];
    size_t len;
    const unsigned char *b = ph_output_memory_bytes(pc->mem, &len);
    const unsigned char *end = b + len, *m;

    for (; b < end; b = m + MARK_LEN) {
        uint32_t id;
        m = memchr(b, 0, (size_t)(end - b));
        ph_output_write(w->out, b, (size_t)((m ? m : end) - b));
        if (!m)
            break;
        memcpy(&id, m + 2, sizeof id);
        if (m[1] == HEAD_MARK)
            put_head(w, ph_func_at(w->p, id - 1));
        else
            put_spec(w, m[1] - 1, id);
    }
    if (pc->any) {
        w->ob = pc->ob;
        w->fl = pc->fl;
        w->cur = pc->cur;
    }
    w->unknown_incl += pc->unknown_incl;
    w->unknown_counts += pc->unknown_counts;
}

static void write_functions(cgw *w, const ph_part *part, int64_t *zero)
{
    part_pieces pp;
    int k;

    pp.w = w;
    pp.part = part;
    pp.zero = zero;
    pp.nf = ph_func_count(w->p);
    for (k = 0; k < 2; k++) {
        pp.side[k] = *w;        /* marking: no name made, no table used */
        pp.side[k].marking = 1;
        pp.side[k].text = NULL;
        pp.side[k].text_cap = 0;
    }
    for (k = 0; k < PIECES_AHEAD; k++)
        pp.slot[k].mem = ph_output_memory();
    ph_run_ordered((pp.nf + PIECE_FUNCS - 1) / PIECE_FUNCS, PIECES_AHEAD,
                   ph_iters_apart(w->p) ? 2 : 1, make_piece, give_piece, &pp);
    for (k = 0; k < PIECES_AHEAD; k++)
        ph_output_abort(pp.slot[k].mem);
}

static const int64_t *summary_of(cgw *w, const ph_part *part,
                                 const int64_t *tot)
{
    size_t k;

    if (!part->file_summary || part->file_width != w->nreal)
        return tot;
    for (k = 0; k < w->nreal; k++)
        if (part->file_summary[k] < tot[k])
            return tot;
    return part->file_summary;
}

static void write_part(cgw *w, size_t index, int64_t *zero)
{
    const ph_profile *p = w->p;
    ph_part *part = ph_part_at(p, index);
    size_t nf = ph_func_count(p);
    const int64_t *tot = ph_totals(p, (int)index);
    const char *gpid = ph_meta_get(p, "pid");

    memset(w->obj_id, 0, (ph_object_count(p) + 1) * sizeof *w->obj_id);
    memset(w->file_id, 0, (ph_file_count(p) + 1) * sizeof *w->file_id);
    memset(w->fn_id, 0, (nf + 1) * sizeof *w->fn_id);
    w->nobj = w->nfile = w->nfn = 0;
    w->ob = NULL;
    w->fl = w->cur = NULL;
    w->last_addr = w->last_line = 0;

    ph_output_puts(w->out, "\npart: ");
    ph_output_i64(w->out, part->number >= 0 ? part->number
                  : (int64_t)index + 1);
    ph_output_puts(w->out, "\n");
    if (part->tid >= 0)
        ph_output_printf(w->out, "thread: %lld\n", (long long)part->tid);
    if (part->pid >= 0 && (!gpid || (long long)strtoll(gpid, NULL, 10)
                           != (long long)part->pid))
        ph_output_printf(w->out, "pid: %lld\n", (long long)part->pid);
    if (part->trigger)
        ph_output_printf(w->out, "desc: Trigger: %s\n",
                         ph_str_get(p, part->trigger));
    write_events(w, index == 0);
    /* The file's own summary: when it is there and not below the data
     * (valgrind's may exceed the cost lines; callgrind_annotate prints it
     * as the program total), else the data. */
    ph_output_puts(w->out, "summary:");
    put_costs(w, summary_of(w, part, tot), w->nreal);
    ph_output_puts(w->out, "\n");
    write_functions(w, part, zero);
    ph_output_puts(w->out, "totals:");
    put_costs(w, tot, w->nreal);
}

int ph_callgrind_write(const ph_profile *p, ph_output *out)
{
    cgw w;
    size_t i, nparts;
    int64_t *zero;

    memset(&w, 0, sizeof w);
    w.p = p;
    w.v = ph_flat_of(p);
    w.out = out;
    w.nreal = ph_event_nreal(p);
    /* Non-additive metrics (ids, enums) are no costs: callgrind sums every
     * column, so they are left out and said. */
    w.slots = ph_xcalloc(w.nreal + 1, sizeof *w.slots);
    for (i = 0; i < w.nreal; i++)
        if (!(ph_event_real(p, i)->flags & PH_EV_NONADDITIVE))
            w.slots[w.nout++] = i;
    if (w.nout == 0 && w.nreal > 0) {
        free(w.slots);
        return ph_output_error_set(out, "the profile has no additive event "
                                   "to write");
    }
    if (w.nout < w.nreal)
        ph_output_drop(out, "nonadditive", w.nreal - w.nout, "non-additive "
                       "metrics (ids, enums; callgrind sums every event)");
    ph_out_drop_scales(p, out);
    nparts = ph_part_count(p);
    for (i = 0; i < ph_func_count(p) && !w.instr; i++) {
        const ph_func *f = ph_func_at(p, i);
        ph_flat_iter it;
        ph_row r;
        const ph_call *c;
        ph_flat_rows_init(&it, w.v, p, f, NULL);
        while (!w.instr && ph_flat_rows_next(&it, &r))
            w.instr = r.addr != 0;
        ph_flat_calls calls;
        for (c = ph_flat_calls_out(&calls, w.v, p, f); c && !w.instr;
             c = ph_flat_calls_next(&calls))
            w.instr = c->addr != 0;
    }
    w.obj_id = ph_xcalloc(ph_object_count(p) + 2, sizeof *w.obj_id);
    w.file_id = ph_xcalloc(ph_file_count(p) + 2, sizeof *w.file_id);
    w.fn_id = ph_xcalloc(ph_func_count(p) + 2, sizeof *w.fn_id);
    zero = ph_xcalloc(w.nreal + 1, sizeof *zero);
    ph_out_names_init(&w.event_names, p);
    write_file_header(&w);
    for (i = 0; i < nparts; i++)
        write_part(&w, i, zero);
    if (nparts == 0)    /* readers need events: even with no cost line */
        write_events(&w, 1);
    if (w.renamed)
        ph_output_drop(out, "rename", w.renamed, "names with a line end or "
                       "NUL byte (written with '?')");
    if (w.unknown_counts)
        ph_output_drop(out, "call-count", w.unknown_counts,
                       "call counts of records from sampled stacks "
                       "(unknown: written as calls=0)");
    if (w.unknown_incl)
        ph_output_drop(out, "call-cost", w.unknown_incl,
                       "calls without an inclusive cost (written as 0)");
    ph_out_names_free(&w.event_names);
    free(w.text);
    free(w.slots);
    free(w.obj_id);
    free(w.file_id);
    free(w.fn_id);
    free(zero);
    return 0;
}
