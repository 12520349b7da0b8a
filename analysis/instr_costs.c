/* instr_costs.c -- a function's costs per instruction address: rows summed
 * by address (callgrind may write one address in several rows, one per
 * source line or inlined file), the call records placed at their call
 * sites, the jump records at their jump instructions (one per target and
 * kind, summed over parts). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/instr_costs.h"

static int by_addr(const void *a, const void *b)
{
    const ph_instr_row *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

typedef struct call_at {
    uint64_t addr;
    size_t order;
    ph_instr_call call;
} call_at;

static int call_by_addr(const void *a, const void *b)
{
    const call_at *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void grow(void **v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return;
    *cap = *cap ? *cap * 2 : 64;
    *v = ph_xrealloc(*v, *cap * size);
}

static size_t collect_rows(const ph_profile *p, const ph_func *f,
                           const ph_part *part, ph_instr_costs *out)
{
    ph_row_iter it;
    ph_row r;
    size_t cap = 0, w = out->width, k, i;

    ph_row_iter_init(&it, p, f, part);
    while (ph_row_next(&it, &r)) {
        for (k = 0; k < w; k++)
            out->self[k] = ph_cost_add(out->self[k], r.cost[k]);
        if (r.addr == 0) {
            out->unplaced++;
            continue;
        }
        grow((void **)&out->rows, &cap, out->n, sizeof *out->rows);
        out->rows[out->n].addr = r.addr;
        out->rows[out->n].line = r.line;
        out->rows[out->n].file = r.file;
        out->rows[out->n].call0 = out->rows[out->n].ncalls = 0;
        out->rows[out->n].jump0 = out->rows[out->n].njumps = 0;
        out->rows[out->n].cost = ph_xcalloc(w ? w : 1, sizeof(int64_t));
        memcpy(out->rows[out->n].cost, r.cost, w * sizeof(int64_t));
        out->n++;
    }
    /* Rows at one address are summed (qsort is not stable: the line kept
     * is one of theirs). */
    ph_qsort(out->rows, out->n, sizeof *out->rows, by_addr);
    for (i = 0, k = 0; i < out->n; i++) {
        ph_instr_row *last = k ? &out->rows[k - 1] : NULL;
        if (last && last->addr == out->rows[i].addr) {
            for (size_t e = 0; e < w; e++)
                last->cost[e] = ph_cost_add(last->cost[e],
                                            out->rows[i].cost[e]);
            free(out->rows[i].cost);
            continue;
        }
        out->rows[k++] = out->rows[i];
    }
    out->n = k;
    return cap;
}

/* The row at addr, added with zero cost when the address has none. */
static size_t row_at(ph_instr_costs *out, size_t *cap, uint64_t addr)
{
    size_t lo = 0, hi = out->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (out->rows[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < out->n && out->rows[lo].addr == addr)
        return lo;
    grow((void **)&out->rows, cap, out->n, sizeof *out->rows);
    memmove(out->rows + lo + 1, out->rows + lo,
            (out->n - lo) * sizeof *out->rows);
    memset(&out->rows[lo], 0, sizeof out->rows[lo]);
    out->rows[lo].addr = addr;
    out->rows[lo].cost = ph_xcalloc(out->width ? out->width : 1,
                                    sizeof(int64_t));
    out->n++;
    return lo;
}

typedef struct jump_at {
    uint64_t addr;
    size_t order;
    ph_instr_jump jump;
} jump_at;

static int jump_by_addr(const void *a, const void *b)
{
    const jump_at *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->jump.target != y->jump.target)
        return x->jump.target < y->jump.target ? -1 : 1;
    if (x->jump.conditional != y->jump.conditional)
        return x->jump.conditional - y->jump.conditional;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void collect_jumps(const ph_profile *p, const ph_func *f,
                          const ph_part *part, ph_instr_costs *out,
                          size_t *rcap)
{
    ph_jump_iter it;
    jump_at *js = NULL;
    size_t n = 0, cap = 0, k = 0;

    for (const ph_jump *j = ph_jumps_from(&it, p, f); j;
         j = ph_jump_next(&it)) {
        if (part && j->part != part)
            continue;
        if (j->addr == 0) {
            out->unplaced++;
            continue;
        }
        grow((void **)&js, &cap, n, sizeof *js);
        js[n].addr = j->addr;
        js[n].order = n;
        js[n].jump = (ph_instr_jump){j->to, j->target_addr, j->target_line,
                                     j->executed, j->followed,
                                     j->conditional};
        n++;
    }
    ph_qsort(js, n, sizeof *js, jump_by_addr);
    out->jumps = ph_xmalloc((n ? n : 1) * sizeof *out->jumps);
    for (size_t i = 0; i < n; i++) {
        ph_instr_jump *last = k ? &out->jumps[k - 1] : NULL;
        if (last && js[i - 1].addr == js[i].addr &&
            last->target == js[i].jump.target &&
            last->conditional == js[i].jump.conditional) {
            last->executed += js[i].jump.executed;
            last->followed += js[i].jump.followed;
            continue;
        }
        size_t r = row_at(out, rcap, js[i].addr);
        if (out->rows[r].njumps == 0)
            out->rows[r].jump0 = k;
        out->rows[r].njumps++;
        out->jumps[k++] = js[i].jump;
    }
    out->njumps = k;
    free(js);
}

void ph_instr_costs_collect(const ph_profile *p, const ph_func *f,
                            const ph_part *part, ph_instr_costs *out)
{
    ph_call_iter it;
    call_at *cs = NULL;
    size_t ncs = 0, ccap = 0, rcap, i, w;

    memset(out, 0, sizeof *out);
    w = out->width = ph_event_nreal(p);
    out->self = ph_xcalloc(w ? w : 1, sizeof(int64_t));
    rcap = collect_rows(p, f, part, out);
    for (const ph_call *c = ph_calls_out(&it, p, f); c;
         c = ph_call_next(&it)) {
        if (part && c->part != part)
            continue;
        if (c->addr == 0) {
            out->unplaced++;
            continue;
        }
        grow((void **)&cs, &ccap, ncs, sizeof *cs);
        cs[ncs].addr = c->addr;
        cs[ncs].order = ncs;
        cs[ncs].call.callee = c->callee;
        cs[ncs].call.count = c->count;
        cs[ncs].call.incl = NULL;
        if (c->incl) {
            int64_t *v = ph_xcalloc(w ? w : 1, sizeof(int64_t));
            for (size_t k = 0; k < w; k++)
                v[k] = ph_call_incl(c, k);
            cs[ncs].call.incl = v;
        }
        ncs++;
    }
    ph_qsort(cs, ncs, sizeof *cs, call_by_addr);
    out->calls = ph_xmalloc((ncs ? ncs : 1) * sizeof *out->calls);
    for (i = 0; i < ncs; i++) {
        size_t r = row_at(out, &rcap, cs[i].addr);
        if (out->rows[r].ncalls == 0)
            out->rows[r].call0 = i;
        out->rows[r].ncalls++;
        out->calls[i] = cs[i].call;
    }
    out->ncalls = ncs;
    free(cs);
    collect_jumps(p, f, part, out, &rcap);
}

void ph_instr_costs_free(ph_instr_costs *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->rows[i].cost);
    for (size_t i = 0; i < c->ncalls; i++)
        free(c->calls[i].incl);
    free(c->rows);
    free(c->calls);
    free(c->jumps);
    free(c->self);
    memset(c, 0, sizeof *c);
}
