/* gmon_model.c -- turn gmon.out records plus the executable's symbols into
 * a profile: one part, event cpu_time (ticks, scale 1/rate, unit from the
 * file), self rows per histogram bin (a bin straddling two functions is
 * split by overlap in gprof's bin geometry, whole ticks kept), gprof's
 * fractional credits per function and per gprof -l line symbol, call
 * records from arcs (counts only, inclusive unknown), basic-block counts
 * as event bb_count.  First it checks
 * that the records belong to the executable, so a wrong --exe is refused
 * instead of giving wrong numbers.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/gmon_priv.h"

/* glibc rounds the histogram's high_pc up from etext by less than this. */
#define ETEXT_SLACK 64
/* -pg puts the mcount call within the first bytes of a function. */
#define MCOUNT_REACH 64

typedef struct line_sym {
    size_t sym;             /* the function symbol it lies in */
    uint32_t line, file;
} line_sym;

typedef struct model {
    ph_input *in;
    ph_profile *p;
    const ph_gmon_data *d;
    const ph_gmon_syms *s;
    ph_part *part;
    ph_object *obj;
    ph_func **funcs;        /* per symbol, made on first use */
    double *credit;         /* gprof's credit per symbol (ticks) */
    uint64_t *starts;       /* per symbol, its address */
    line_sym *lsyms;        /* gprof -l's line symbols, by address */
    uint64_t *lstarts;      /* their addresses */
    double *lcredit;        /* their credits (ticks) */
    size_t nlsyms;
    size_t cpu_slot, bb_slot;
    size_t nreal;
} model;

/* ------------------------------------------------------------------ */
/* Checks against the executable                                       */

static uint64_t text_end(const ph_gmon_syms *s)
{
    uint64_t hi = 0;
    for (size_t i = 0; i < s->nexec; i++)
        if (s->exec[i].hi > hi)
            hi = s->exec[i].hi;
    return hi;
}

static int check_exe(model *m)
{
    const ph_gmon_data *d = m->d;
    const ph_gmon_syms *s = m->s;
    size_t far = 0, counted = 0;

    if (s->nexec == 0)
        return ph_input_error_off(m->in, 0, "executable %s has no text "
                                  "section", s->path);
    for (size_t i = 0; i < d->nhists; i++) {
        const ph_gmon_hist *h = &d->hists[i];
        uint64_t end = s->has_etext ? s->etext : text_end(s);
        uint64_t start = s->exec[0].lo;
        for (size_t k = 1; k < s->nexec; k++)
            if (s->exec[k].lo < start)
                start = s->exec[k].lo;
        if (h->high < end || h->high - end >= ETEXT_SLACK || h->low > start)
            return ph_input_error_off(m->in, h->off,
                                      "histogram range [0x%llx, 0x%llx) does "
                                      "not match the text of %s (which ends "
                                      "at 0x%llx): wrong executable?",
                                      (unsigned long long)h->low,
                                      (unsigned long long)h->high, s->path,
                                      (unsigned long long)end);
    }
    for (size_t i = 0; i < d->narcs; i++) {
        const ph_gmon_arc *a = &d->arcs[i];
        long k;
        if (!ph_gmon_syms_in_text(s, a->from) ||
            !ph_gmon_syms_in_text(s, a->self))
            return ph_input_error_off(m->in, a->off,
                                      "call arc 0x%llx -> 0x%llx lies outside "
                                      "the text of %s: wrong executable?",
                                      (unsigned long long)a->from,
                                      (unsigned long long)a->self, s->path);
        k = ph_gmon_syms_find(s, a->self);
        if (k >= 0) {
            counted++;
            if (a->self - s->syms[k].addr > MCOUNT_REACH)
                far++;
        }
    }
    if (counted > 0 && 2 * far > counted)
        return ph_input_error_off(m->in, 0,
                                  "%zu of %zu call arcs do not point at a "
                                  "function entry of %s: wrong executable?",
                                  far, counted, s->path);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Functions                                                           */

static ph_file *file_of(model *m, uint32_t file)
{
    if (!m->s || file == 0)
        return NULL;
    return ph_file_get(m->p, ph_str_intern0(m->p, m->s->files[file - 1]));
}

static ph_func *func_of_sym(model *m, size_t k)
{
    const ph_gmon_sym *g = &m->s->syms[k];
    if (!m->funcs[k]) {
        ph_func *f = ph_func_get(m->p, ph_str_intern0(m->p, g->name),
                                 file_of(m, g->file), m->obj);
        if (g->mangled)
            f->mangled = ph_str_intern0(m->p, g->mangled);
        f->addr = g->addr;
        f->line = g->line;
        m->funcs[k] = f;
    }
    return m->funcs[k];
}

/* A function named by its address, for code no symbol covers. */
static ph_func *func_of_addr(model *m, uint64_t addr)
{
    char name[32];
    ph_func *f;
    snprintf(name, sizeof name, "0x%llx", (unsigned long long)addr);
    f = ph_func_get(m->p, ph_str_intern0(m->p, name), NULL, m->obj);
    f->addr = addr;
    return f;
}

static ph_func *func_at(model *m, uint64_t addr, long *sym)
{
    long k = m->s ? ph_gmon_syms_find(m->s, addr) : -1;
    if (sym)
        *sym = k;
    return k >= 0 ? func_of_sym(m, (size_t)k) : NULL;
}

static void add_cost(model *m, ph_func *f, uint64_t addr, size_t slot,
                     int64_t v)
{
    int64_t cost[2] = {0, 0};
    uint32_t file = 0, line = 0;
    if (v == 0)
        return;
    cost[slot] = v;
    if (m->s)
        line = ph_gmon_syms_line(m->s, addr, &file);
    ph_row_add(m->p, f, m->part, addr, line, file_of(m, file), cost,
               slot + 1);
}

/* ------------------------------------------------------------------ */
/* Histogram                                                           */

/* gprof's hist_assign_samples: bins and symbols in 2-byte units, bin
 * bounds truncated, symbol i reaching to symbol i+1 (the last to end);
 * credit = overlap * count / units-per-bin.  Symbols start at starts[],
 * sorted.  Kept so reports can print gprof's own numbers. */
static void credit_bins(const ph_gmon_hist *h, const uint64_t *starts,
                        size_t n, uint64_t end, double *credit)
{
    double scale = (double)(h->high - h->low) / 2 / h->nbins;
    uint64_t lowu = h->low / 2;
    size_t j = 0;

    for (uint32_t i = 0; i < h->nbins; i++) {
        if (!h->bins[i])
            continue;
        uint64_t blo = lowu + (uint64_t)(scale * i);
        uint64_t bhi = lowu + (uint64_t)(scale * (i + 1));
        while (j < n) {
            uint64_t slo = starts[j] / 2;
            uint64_t shi = j + 1 < n ? starts[j + 1] / 2 : end / 2;
            if (bhi < slo)
                break;
            if (blo < shi) {
                uint64_t lo = blo > slo ? blo : slo;
                uint64_t hi = bhi < shi ? bhi : shi;
                if (hi > lo)
                    credit[j] += (double)(hi - lo) * (double)h->bins[i] /
                                 scale;
                if (shi > bhi)
                    break;
            }
            j++;
        }
    }
}

/* gprof -l's line symbols.  gprof walks the text address by address and
 * starts a line symbol where (function, file, line) differs from the last
 * line symbol's; addresses without a line start none.  Function symbols
 * stay (one wins over a line symbol at its address).  So per function:
 * its entry, then each row address in it whose line differs from the
 * last. */
static void make_line_syms(model *m)
{
    const ph_gmon_syms *s = m->s;
    size_t cap = s->nsyms + 16;

    m->lsyms = ph_xmalloc(cap * sizeof *m->lsyms);
    m->lstarts = ph_xmalloc(cap * sizeof *m->lstarts);
    for (size_t k = 0; k < s->nsyms; k++) {
        uint64_t a = s->syms[k].addr;
        uint64_t hi = k + 1 < s->nsyms ? s->syms[k + 1].addr : s->syms[k].end;
        uint32_t file, line = ph_gmon_syms_line(s, a, &file);
        uint32_t pline = line, pfile = file;
        int start = 1;
        for (size_t r = ph_gmon_syms_row_after(s, a);; r++) {
            if (start || (line && (line != pline || file != pfile))) {
                if (m->nlsyms == cap) {
                    cap *= 2;
                    m->lsyms = ph_xrealloc(m->lsyms, cap * sizeof *m->lsyms);
                    m->lstarts = ph_xrealloc(m->lstarts,
                                             cap * sizeof *m->lstarts);
                }
                m->lsyms[m->nlsyms] = (line_sym){k, line, file};
                m->lstarts[m->nlsyms++] = a;
                if (line)
                    pline = line, pfile = file;
                start = 0;
            }
            /* the last row of those at one address: one look per address */
            while (r + 1 < s->nlines &&
                   s->lines[r + 1].addr == s->lines[r].addr)
                r++;
            if (r >= s->nlines || s->lines[r].addr >= hi)
                break;
            a = s->lines[r].addr;
            line = ph_gmon_syms_line(s, a, &file);
        }
    }
}

typedef struct share {
    ph_func *f;
    uint64_t addr, overlap;
    int64_t ticks;
    uint64_t rem;
} share;

/* Split one bin's count among the functions and lines its bytes overlap
 * (as gprof -l does), in whole ticks (largest remainder), so totals stay
 * exact.  Bytes no symbol covers
 * go to a function named by their address. */
static void split_bin(model *m, uint64_t blo, uint64_t bhi, uint64_t count)
{
    share one[4], *sh = one;
    size_t n = 0, cap = 4;
    uint64_t width = bhi - blo, given = 0;
    uint64_t a = blo;

    while (a < bhi) {
        long k;
        ph_func *f = func_at(m, a, &k);
        uint64_t end = bhi;
        if (f) {
            uint64_t next = ph_gmon_syms_line_next(m->s, a);
            if (m->s->syms[k].end < end)
                end = m->s->syms[k].end;
            if (next < end)   /* gprof -l splits bins among lines too */
                end = next;
        } else {
            size_t j = ph_gmon_syms_next(m->s, a);
            if (j < m->s->nsyms && m->s->syms[j].addr < end)
                end = m->s->syms[j].addr;
            f = func_of_addr(m, a);
        }
        if (n == cap) {
            cap *= 2;
            if (sh == one) {
                sh = ph_xmalloc(cap * sizeof *sh);
                memcpy(sh, one, sizeof one);
            } else {
                sh = ph_xrealloc(sh, cap * sizeof *sh);
            }
        }
        sh[n++] = (share){f, a, end - a, 0, 0};
        a = end;
    }
    if (width >= 2)   /* overlaps in gprof's 2-byte units, truncated */
        for (size_t i = 0; i < n; i++) {
            uint64_t e = i + 1 < n ? sh[i + 1].addr : bhi;
            sh[i].overlap = e / 2 - sh[i].addr / 2;
        }
    width = width >= 2 ? bhi / 2 - blo / 2 : width;
    for (size_t i = 0; i < n; i++) {
        unsigned __int128 t = (unsigned __int128)count * sh[i].overlap;
        sh[i].ticks = (int64_t)(t / width);
        sh[i].rem = (uint64_t)(t % width);
        given += (uint64_t)sh[i].ticks;
    }
    while (given < count) {
        size_t best = 0;
        for (size_t i = 1; i < n; i++)
            if (sh[i].rem > sh[best].rem)
                best = i;
        sh[best].ticks++;
        sh[best].rem = 0;
        given++;
    }
    for (size_t i = 0; i < n; i++)
        add_cost(m, sh[i].f, sh[i].addr, m->cpu_slot, sh[i].ticks);
    if (sh != one)
        free(sh);
}

/* Bin i in bytes, in the geometry gprof (and glibc's profil) use: 2-byte
 * units, bounds truncated. */
static void bin_bounds(const ph_gmon_hist *h, uint32_t i, uint64_t *lo,
                       uint64_t *hi)
{
    double scale = (double)(h->high - h->low) / 2 / h->nbins;
    *lo = 2 * (h->low / 2 + (uint64_t)(scale * i));
    *hi = 2 * (h->low / 2 + (uint64_t)(scale * (i + 1)));
    if (*hi <= *lo)
        *hi = *lo + 1;
}

static void add_hist(model *m, const ph_gmon_hist *h)
{
    for (uint32_t i = 0; i < h->nbins; i++) {
        uint64_t blo, bhi;
        if (!h->bins[i])
            continue;
        bin_bounds(h, i, &blo, &bhi);
        if (!m->s)
            add_cost(m, func_of_addr(m, blo), blo, m->cpu_slot,
                     (int64_t)h->bins[i]);
        else
            split_bin(m, blo, bhi, h->bins[i]);
    }
    if (!m->s || m->s->nsyms == 0)
        return;
    credit_bins(h, m->starts, m->s->nsyms,
                m->s->syms[m->s->nsyms - 1].end, m->credit);
    credit_bins(h, m->lstarts, m->nlsyms,
                m->s->syms[m->s->nsyms - 1].end, m->lcredit);
}

/* ------------------------------------------------------------------ */
/* Arcs                                                                */

static int cmp_arc(const void *x, const void *y)
{
    const ph_gmon_arc *a = x, *b = y;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    if (a->self != b->self)
        return a->self < b->self ? -1 : 1;
    return 0;
}

static int cmp_off(const void *x, const void *y)
{
    const ph_gmon_arc *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off;
}

static void add_arcs(model *m)
{
    const ph_gmon_data *d = m->d;
    ph_gmon_arc *arcs;
    size_t n = 0, dropped = 0;

    if (d->narcs == 0)
        return;
    arcs = ph_xmalloc(d->narcs * sizeof *arcs);
    memcpy(arcs, d->arcs, d->narcs * sizeof *arcs);
    ph_qsort(arcs, d->narcs, sizeof *arcs, cmp_arc);
    for (size_t i = 0; i < d->narcs; i++) {   /* gprof -s: add by pair */
        if (n > 0 && arcs[n - 1].from == arcs[i].from &&
            arcs[n - 1].self == arcs[i].self) {
            arcs[n - 1].count += arcs[i].count;
            if (arcs[i].off < arcs[n - 1].off)
                arcs[n - 1].off = arcs[i].off;
        } else {
            arcs[n++] = arcs[i];
        }
    }
    /* calls in the file's order, which gprof's call graph keeps for
     * arcs of equal time (two callees of one indirect call site) */
    ph_qsort(arcs, n, sizeof *arcs, cmp_off);
    for (size_t i = 0; i < n; i++) {
        const ph_gmon_arc *a = &arcs[i];
        ph_func *caller, *callee;
        uint32_t file = 0, line = 0;
        if (m->s) {
            caller = func_at(m, a->from, NULL);
            callee = func_at(m, a->self, NULL);
            if (!caller || !callee) {   /* gprof drops these too */
                dropped++;
                continue;
            }
            line = ph_gmon_syms_line(m->s, a->from - 1, &file);
        } else {
            caller = func_of_addr(m, a->from);
            callee = func_of_addr(m, a->self);
        }
        ph_call_add(m->p, caller, m->part, a->from, line, file_of(m, file),
                    callee, a->self, 0, a->count, NULL, 0);
    }
    if (dropped)
        ph_input_warn(m->in, "gmon-arc-nosym", 0,
                      "dropped %zu call arcs whose caller or callee has no "
                      "symbol", dropped);
    free(arcs);
}

static void add_bbs(model *m)
{
    for (size_t i = 0; i < m->d->nbbs; i++) {
        const ph_gmon_bb *b = &m->d->bbs[i];
        ph_func *f = func_at(m, b->addr, NULL);
        if (!f)
            f = func_of_addr(m, b->addr);
        add_cost(m, f, b->addr, m->bb_slot, (int64_t)b->count);
    }
}

/* The line symbols a report may list, as gprof -l does: those with time
 * and every function entry (gprof -l credits a function's calls to its
 * entry symbol). */
static void keep_line_credits(model *m, const ph_event *ev)
{
    unsigned char *keep = ph_xcalloc(m->nlsyms + 1, 1);
    uint64_t end = m->s && m->s->nsyms ? m->s->syms[m->s->nsyms - 1].end : 0;

    for (size_t i = 0; i < m->nlsyms; i++)
        keep[i] = m->lcredit[i] != 0 ||
                  m->lstarts[i] == m->s->syms[m->lsyms[i].sym].addr;
    for (size_t i = 0; i < m->nlsyms; i++) {
        const line_sym *l = &m->lsyms[i];
        if (!keep[i])
            continue;
        ph_line_credit c = {func_of_sym(m, l->sym), file_of(m, l->file),
                            l->line, m->lstarts[i],
                            i + 1 < m->nlsyms ? m->lstarts[i + 1] : end,
                            m->lcredit[i]};
        ph_line_credit_add(m->p, ev, &c);
    }
    free(keep);
}

/* Keep gprof's credits (fractions of a tick) beside the whole ticks, for
 * reports that print gprof's times (analysis/gprof_prop.c). */
static void keep_credits(model *m)
{
    const ph_event *ev = ph_event_real(m->p, m->cpu_slot);
    for (size_t k = 0; m->s && k < m->s->nsyms; k++)
        if (m->credit[k] != 0)
            ph_func_set_credit(m->p, func_of_sym(m, k), ev, m->credit[k]);
    keep_line_credits(m, ev);
}

/* ------------------------------------------------------------------ */

int ph_gmon_model(ph_input *in, ph_profile *p, const ph_gmon_data *d,
                  const ph_gmon_syms *s)
{
    model m;
    ph_event *ev;
    char buf[64];
    int rc = 0;

    memset(&m, 0, sizeof m);
    m.in = in;
    m.p = p;
    m.d = d;
    m.s = s;
    if (s && check_exe(&m) != 0)
        return -1;
    if (!s)
        ph_input_warn(in, "gmon-noexe", 0,
                      "no executable (--raw-addresses): code is named by "
                      "the address of its histogram bin or arc");
    else if (!s->has_symtab)
        ph_input_warn(in, "gmon-nosyms", 0,
                      "%s has no symbol table (stripped?): functions are "
                      "named by address", s->path);

    ev = ph_event_add(p, "cpu_time");
    ev->long_name = ph_str_intern0(p, "CPU time (profiling timer ticks)");
    if (d->nhists > 0) {
        ev->unit = ph_str_intern0(p, d->hists[0].dimen[0] ? d->hists[0].dimen
                                                         : "seconds");
        ev->scale = 1.0 / d->hists[0].rate;
        snprintf(buf, sizeof buf, "%u", d->hists[0].rate);
        ph_meta_add(p, "gmon.prof_rate", buf);
    } else {
        ev->unit = ph_str_intern0(p, "seconds");
        ev->scale = 0.01;
    }
    m.cpu_slot = (size_t)ev->slot;
    if (d->nbbs > 0) {
        ph_event *bb = ph_event_add(p, "bb_count");
        bb->long_name = ph_str_intern0(p, "Basic-block executions");
        bb->unit = ph_str_intern0(p, "count");
        m.bb_slot = (size_t)bb->slot;
    }
    m.part = ph_part_add(p, PH_PART_WHOLE);
    if (s) {
        m.obj = ph_object_get(p, ph_str_intern0(p, s->path));
        m.funcs = ph_xcalloc(s->nsyms ? s->nsyms : 1, sizeof *m.funcs);
        m.credit = ph_xcalloc(s->nsyms ? s->nsyms : 1, sizeof *m.credit);
        m.starts = ph_xmalloc((s->nsyms + 1) * sizeof *m.starts);
        for (size_t k = 0; k < s->nsyms; k++)
            m.starts[k] = s->syms[k].addr;
        make_line_syms(&m);
        m.lcredit = ph_xcalloc(m.nlsyms + 1, sizeof *m.lcredit);
        ph_meta_add(p, "cmd", s->path);
    }
    snprintf(buf, sizeof buf, "%u", d->nfiles);
    ph_meta_add(p, "gmon.files", buf);
    for (size_t i = 0; i < d->nhists; i++)
        add_hist(&m, &d->hists[i]);
    add_arcs(&m);
    add_bbs(&m);
    keep_credits(&m);
    free(m.funcs);
    free(m.credit);
    free(m.starts);
    free(m.lsyms);
    free(m.lstarts);
    free(m.lcredit);
    return rc;
}
