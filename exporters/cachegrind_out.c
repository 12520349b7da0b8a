/* cachegrind_out.c -- write a profile as a Cachegrind out-file that
 * cg_annotate (3.19 Perl and 3.21+ Python) reads: desc: lines, cmd:,
 * events:, fl=/fn=/count lines grouped by file then function, and a
 * summary: equal to the sum of the lines.  Calls, jumps, derived events,
 * addresses and context stacks cannot be held: they are dropped and said.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "exporters/exporters.h"
#include "exporters/out_events.h"

/* One output cost line: (file, function, line) and the offset of its
 * values, packed (ph_costs_put), once its function's rows are summed. */
typedef struct cg_entry {
    uint32_t filerank;    /* order of first appearance of the file */
    uint32_t func;        /* function index (ph_func_at) */
    uint32_t line;
    size_t cost;          /* offset in packed */
} cg_entry;

typedef struct cg_writer {
    const ph_profile *p;
    ph_output *out;
    size_t nout;          /* events written */
    size_t *slots;        /* slot of each written event */
    cg_entry *ents;
    size_t nents, capents;
    unsigned char *packed;
    size_t npacked, cappacked;
    /* the entries of the function being collected, by (file, line), and
     * their sums (nout a line) */
    uint32_t *slot;       /* entry index + 1; 0 = empty */
    size_t mask;
    size_t func_first;    /* its first entry */
    int64_t *sums;
    size_t capsums;
    uint32_t *filerank;   /* by file id; 0 = not seen yet */
    ph_file **files;      /* by rank - 1 */
    uint32_t nfiles;
    uint64_t addr_rows;
    uint64_t renamed;       /* names with a line end replaced */
    char *text;             /* a compound name's text, made for writing it */
    size_t text_cap;
    uint64_t renamed_events; /* event names with blanks or line ends */
    ph_out_names event_names;
} cg_writer;

/* ------------------------------------------------------------------ */
/* Collecting rows                                                     */

static uint32_t rank_file(cg_writer *w, ph_file *f)
{
    size_t id = f ? f->id : 0;   /* 0: no file object at all */
    if (w->filerank[id] == 0) {
        w->files[w->nfiles] = f;
        w->filerank[id] = ++w->nfiles;
    }
    return w->filerank[id];
}

static void add_entry(cg_writer *w, uint32_t filerank, uint32_t func,
                      uint32_t line, const int64_t *cost)
{
    if (w->nents >= UINT32_MAX - 1)   /* entries are named by 32 bits */
        ph_oom();
    if (w->nents == w->capents) {
        w->capents = w->capents ? 2 * w->capents : 1024;
        w->ents = ph_xrealloc(w->ents, w->capents * sizeof *w->ents);
    }
    ph_map_ahead(w->ents, sizeof *w->ents, w->nents, w->capents);
    size_t at = (w->nents - w->func_first) * w->nout;
    if (at + w->nout > w->capsums) {
        w->capsums = 2 * (at + w->nout);
        w->sums = ph_xrealloc(w->sums, w->capsums * sizeof *w->sums);
    }
    cg_entry *e = &w->ents[w->nents];
    e->filerank = filerank;
    e->func = func;
    e->line = line;
    e->cost = 0;
    for (size_t k = 0; k < w->nout; k++)
        w->sums[at + k] = cost[w->slots[k]];
    w->nents++;
}

static size_t line_slot(const cg_writer *w, uint32_t filerank,
                        uint32_t line)
{
    uint64_t key = (uint64_t)filerank << 32 | line;
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & w->mask;
}

/* Room in the function's table for one more entry (twice as many slots as
 * entries); the entries there put back. */
static void room_for_line(cg_writer *w)
{
    size_t n = w->nents - w->func_first;
    if (w->slot && 2 * (n + 1) <= w->mask + 1)
        return;
    size_t cap = w->slot ? 2 * (w->mask + 1) : 1024;
    free(w->slot);
    w->slot = ph_xcalloc(cap, sizeof *w->slot);
    w->mask = cap - 1;
    for (size_t i = w->func_first; i < w->nents; i++) {
        size_t j = line_slot(w, w->ents[i].filerank, w->ents[i].line);
        while (w->slot[j])
            j = (j + 1) & w->mask;
        w->slot[j] = (uint32_t)i + 1;
    }
}

/* A row of function func: its costs added to the function's entry of the
 * same file and line, or a new entry.  Summed here, not when written: an
 * instruction-level profile has many rows a line (every row of a stripped
 * binary is line 0), and an entry a row held them all at once (5.4 times
 * the cc1 file at the peak). */
static void add_row(cg_writer *w, uint32_t filerank, uint32_t func,
                    uint32_t line, const int64_t *cost)
{
    room_for_line(w);
    size_t j = line_slot(w, filerank, line);
    for (; w->slot[j]; j = (j + 1) & w->mask) {
        size_t i = w->slot[j] - 1;
        const cg_entry *e = &w->ents[i];
        if (e->filerank == filerank && e->line == line) {
            int64_t *acc = w->sums + (i - w->func_first) * w->nout;
            for (size_t k = 0; k < w->nout; k++)
                acc[k] = (int64_t)((uint64_t)acc[k] +
                                   (uint64_t)cost[w->slots[k]]);
            return;
        }
    }
    w->slot[j] = (uint32_t)w->nents + 1;
    add_entry(w, filerank, func, line, cost);
}

/* A function's entries in the order they are written: by file, then
 * line. */
static int compare_in_function(const void *a, const void *b)
{
    const cg_entry *x = a, *y = b;
    if (x->filerank != y->filerank)
        return x->filerank < y->filerank ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* The function's table emptied for the next one, its entries sorted and
 * their sums packed. */
static void next_function(cg_writer *w)
{
    size_t room = ph_costs_room_max(w->nout), n = w->nents - w->func_first;
    cg_entry *e = w->ents + w->func_first;
    for (size_t i = 0; i < n; i++) {
        size_t j = line_slot(w, e[i].filerank, e[i].line);
        while (w->slot[j] != w->func_first + i + 1)
            j = (j + 1) & w->mask;
        w->slot[j] = 0;
        e[i].cost = i;          /* its sums, until packed */
    }
    size_t sorted = 1;
    while (sorted < n && compare_in_function(&e[sorted - 1], &e[sorted]) < 0)
        sorted++;
    if (sorted < n)     /* a cachegrind file's rows come in order */
        ph_qsort(e, n, sizeof *e, compare_in_function);
    for (size_t i = 0; i < n; i++) {
        if (w->npacked + room > w->cappacked) {
            w->cappacked = 2 * (w->npacked + room) + 4096;
            w->packed = ph_xrealloc(w->packed, w->cappacked);
        }
        ph_map_ahead_bytes(w->packed, w->npacked, room, w->cappacked);
        const int64_t *sums = w->sums + e[i].cost * w->nout;
        e[i].cost = w->npacked;
        w->npacked = (size_t)(ph_costs_put(w->packed + w->npacked, sums,
                                           w->nout) - w->packed);
    }
    w->func_first = w->nents;
}

/* Rows of the flat view: the profile's rows and its samples' self costs. */
static void collect_rows(cg_writer *w)
{
    size_t nf = ph_func_count(w->p);
    const ph_flat *v = ph_flat_of(w->p);
    for (size_t i = 0; i < nf; i++) {
        const ph_func *f = ph_func_at(w->p, i);
        ph_flat_iter it;
        ph_row r;
        ph_flat_rows_init(&it, v, w->p, f, NULL);
        while (ph_flat_rows_next(&it, &r)) {
            ph_file *file = r.file ? r.file : f->file;
            if (r.addr)
                w->addr_rows++;
            add_row(w, rank_file(w, file), (uint32_t)i, r.line, r.cost);
        }
        next_function(w);
    }
}

/* The entries in the order they are written, by file, then function,
 * then line: each function's are in file and line order already, and the
 * functions come in order; a stable pass by file is all it takes (a sort
 * of the entries would need as many again beside them). */
static uint32_t *written_order(const cg_writer *w)
{
    size_t *first = ph_xcalloc(w->nfiles + 2, sizeof *first);
    uint32_t *order = ph_xmalloc_written((w->nents + 1) * sizeof *order);
    for (size_t i = 0; i < w->nents; i++)
        first[w->ents[i].filerank]++;
    for (size_t r = 0, at = 0; r <= w->nfiles; r++) {
        size_t n = first[r];
        first[r] = at;
        at += n;
    }
    for (size_t i = 0; i < w->nents; i++)
        order[first[w->ents[i].filerank]++] = (uint32_t)i;
    free(first);
    return order;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

/* A name on one line (line ends as '?', ph_out_line_name; the unknown
 * name, 0 or empty, as "???"), a compound name's text made in the
 * writer's buffer; counts a changed name in w->renamed. */
static void put_name(cg_writer *w, ph_str s)
{
    const char *t = ph_str_text(w->p, s, &w->text, &w->text_cap);
    w->renamed += ph_out_line_name(w->out, t, ph_str_len(w->p, s), 0);
}

static void put_meta_line(ph_output *out, const char *key, const char *v)
{
    ph_output_puts(out, key);
    ph_output_puts(out, " ");
    for (const char *c = v; *c; c++) {
        char ch = (*c == '\n' || *c == '\r') ? ' ' : *c;
        ph_output_write(out, &ch, 1);
    }
    ph_output_puts(out, "\n");
}

static void write_header(cg_writer *w)
{
    const ph_profile *p = w->p;
    const char *cmd = NULL;
    size_t nm = ph_meta_count(p);
    for (size_t i = 0; i < nm; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        if (strcmp(k, "desc") == 0)
            put_meta_line(w->out, "desc:", v);
        else if (strcmp(k, "cmd") == 0 && !cmd)
            cmd = v;
    }
    put_meta_line(w->out, "cmd:", cmd && *cmd ? cmd : "<unknown>");
    ph_output_puts(w->out, "events:");
    for (size_t k = 0; k < w->nout; k++) {
        ph_output_puts(w->out, " ");
        w->renamed_events += ph_out_event_name(w->out, &w->event_names,
                                               ph_event_real(p, w->slots[k]));
    }
    ph_output_puts(w->out, "\n");
}

static void put_costs(ph_output *out, const int64_t *c, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        ph_output_write(out, " ", 1);
        ph_output_i64(out, c[k]);
    }
    ph_output_write(out, "\n", 1);
}

/* The fl=/fn=/count lines in the written order (an entry a (file,
 * function, line): summed as collected) and summary:. */
static void write_body(cg_writer *w)
{
    const ph_profile *p = w->p;
    size_t n = w->nout;
    int64_t *sum = ph_xcalloc(n ? n : 1, sizeof *sum);
    int64_t *acc = ph_xcalloc(n ? n : 1, sizeof *acc);
    const unsigned char *end = w->packed + w->npacked;
    uint32_t *order = written_order(w);
    uint32_t curfile = 0, curfunc = UINT32_MAX;
    for (size_t i = 0; i < w->nents; i++) {
        const cg_entry *e = &w->ents[order[i]];
        memset(acc, 0, n * sizeof *acc);
        ph_costs_get(w->packed + e->cost, end, acc, n);
        if (e->filerank != curfile) {
            ph_file *f = w->files[e->filerank - 1];
            ph_output_puts(w->out, "fl=");
            put_name(w, f ? f->name : 0);
            ph_output_puts(w->out, "\n");
            curfile = e->filerank;
            curfunc = UINT32_MAX;
        }
        if (e->func != curfunc) {
            ph_output_puts(w->out, "fn=");
            put_name(w, ph_func_at(p, e->func)->name);
            ph_output_puts(w->out, "\n");
            curfunc = e->func;
        }
        ph_output_u64(w->out, e->line);
        put_costs(w->out, acc, n);
        for (size_t k = 0; k < n; k++)
            sum[k] = (int64_t)((uint64_t)sum[k] + (uint64_t)acc[k]);
    }
    ph_output_puts(w->out, "summary:");
    put_costs(w->out, sum, n);
    free(order);
    free(sum);
    free(acc);
}

/* Say what the format cannot hold. */
static void report_drops(cg_writer *w, size_t nderived, size_t nnonadd)
{
    const ph_profile *p = w->p;
    if (nderived)
        ph_output_drop(w->out, "formulas", nderived,
                       "derived events (cachegrind has no formulas)");
    if (nnonadd)
        ph_output_drop(w->out, "nonadditive", nnonadd,
                       "non-additive events (cachegrind counts add up)");
    if (ph_call_count(p))
        ph_output_drop(w->out, "calls", ph_call_count(p),
                       "call records (cachegrind has no call graph)");
    if (ph_jump_count(p))
        ph_output_drop(w->out, "jumps", ph_jump_count(p),
                       "jump records (cachegrind has no jumps)");
    if (ph_part_count(p) > 1)
        ph_output_drop(w->out, "parts", ph_part_count(p),
                       "parts, summed into one (cachegrind has one part)");
    ph_out_drop_scales(p, w->out);
    if (w->addr_rows)
        ph_output_drop(w->out, "addresses", w->addr_rows,
                       "instruction addresses (cachegrind keeps lines only)");
}

int ph_cachegrind_write(const ph_profile *p, ph_output *out)
{
    cg_writer w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.out = out;

    size_t nsamples = ph_sample_count(p);
    if (nsamples) {
        /* stacks become self rows through the flat view */
        ph_output_drop(out, "contexts", nsamples,
                       "call-stack samples, kept as self costs "
                       "(cachegrind has no stacks)");
    }

    size_t nreal = ph_event_nreal(p), nderived = 0, nnonadd = 0;
    w.slots = ph_xcalloc(nreal ? nreal : 1, sizeof *w.slots);
    for (size_t i = 0; i < ph_event_count(p); i++) {
        ph_event *ev = ph_event_at(p, i);
        if (ev->flags & PH_EV_DERIVED)
            nderived++;
        else if (ev->flags & PH_EV_NONADDITIVE)
            nnonadd++;
    }
    for (size_t s = 0; s < nreal; s++)
        if (!(ph_event_real(p, s)->flags & PH_EV_NONADDITIVE))
            w.slots[w.nout++] = s;
    if (w.nout == 0) {
        free(w.slots);
        return ph_output_error_set(out, "the profile has no additive event "
                                   "to write");
    }

    size_t nfiles = ph_file_count(p);
    w.filerank = ph_xcalloc(nfiles + 2, sizeof *w.filerank);
    w.files = ph_xcalloc(nfiles + 2, sizeof *w.files);

    collect_rows(&w);
    report_drops(&w, nderived, nnonadd);
    ph_out_names_init(&w.event_names, p);
    write_header(&w);
    write_body(&w);
    if (w.renamed)
        ph_output_drop(out, "rename", w.renamed, "names with a line end "
                       "(written with '?')");
    if (w.renamed_events)
        ph_out_event_names_changed(out, w.renamed_events, "cachegrind");

    ph_out_names_free(&w.event_names);
    free(w.text);
    free(w.ents);
    free(w.slot);
    free(w.sums);
    free(w.packed);
    free(w.filerank);
    free(w.files);
    free(w.slots);
    return 0;
}
