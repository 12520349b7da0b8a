/* gprof_lines.c -- gprof -l's flat profile: one entry per line symbol the
 * gmon reader credited (ph_line_credits), named as gprof prints it,
 * "function (file:line @ address)", with its fractional self time and
 * on a function's entry symbol, the function's calls.  gprof lists a
 * symbol with time or calls; so does this table. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"

int ph_table_has_line_credits(const ph_profile *p)
{
    size_t n;
    ph_line_credits(p, &n);
    return n > 0;
}

/* The event the credits are of: ph_has_credits names it. */
static long credit_slot(const ph_profile *p)
{
    for (size_t k = 0; k < ph_event_nreal(p); k++)
        if (ph_has_credits(p, ph_event_real(p, k)))
            return (long)k;
    return -1;
}

/* gprof -l's calls of a line symbol: a function's calls go to its entry
 * symbol (gprof looks the callee up as a function), and are recursive
 * when the call site lies in that symbol too. */
static void count_calls(const ph_profile *p, const ph_line_credit *lc,
                        int part, uint64_t *calls, uint64_t *self_calls)
{
    ph_call_iter it;
    for (const ph_call *c = ph_calls_in(&it, p, lc->func); c;
         c = ph_call_next(&it)) {
        if (!ph_part_selected(c->part, part) || lc->addr != lc->func->addr)
            continue;
        if (c->caller == lc->func && c->addr >= lc->addr && c->addr < lc->end)
            *self_calls += c->count;
        else
            *calls += c->count;
    }
}

void ph_table_build_line_credits(ph_table *t, const ph_table_opts *o)
{
    const ph_profile *p = t->profile;
    size_t n, cap = 0;
    const ph_line_credit *lc = ph_line_credits(p, &n);
    long slot = credit_slot(p);

    t->gprof_lines = 1;
    for (size_t i = 0; i < n; i++) {
        const ph_line_credit *c = &lc[i];
        const ph_func *f = c->func;
        uint64_t calls = 0, self_calls = 0;
        char buf[4096];
        count_calls(p, c, o->part, &calls, &self_calls);
        if (c->credit == 0 && calls == 0 && self_calls == 0)
            continue;
        const char *fname = ph_str_get(p, f->name);
        if (c->file && c->line)
            snprintf(buf, sizeof buf, "%s (%s:%" PRIu32 " @ %" PRIx64 ")",
                     fname, ph_base_name(ph_str_get(p, c->file->name)),
                     c->line, c->addr);
        else
            snprintf(buf, sizeof buf, "%s", fname);
        if (!ph_table_keeps_name(o, buf))
            continue;
        ph_entry *e = ph_table_push_entry(t, &cap);
        e->label = ph_table_own_name(t, buf);
        e->file = c->file ? ph_str_get(p, c->file->name) : "";
        e->object = f->object ? ph_str_get(p, f->object->name) : "";
        e->func = f;
        e->calls = calls;
        e->self_calls = self_calls;
        e->credited = 1;
        e->credit = c->credit;
        e->line = c->line;
        e->addr = c->addr;
        if (slot >= 0)
            ph_entry_self_mut(t, e)[slot] = llround(c->credit);
    }
}
