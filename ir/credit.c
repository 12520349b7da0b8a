/* credit.c -- a function's self cost in fractions of a unit, when the
 * source attributed finer than its integer costs: gprof credits each
 * symbol its share of a histogram bin, while the rows keep whole ticks.
 * One event per profile carries credits; reports that follow the source
 * tool (analysis/gprof_prop.c) read them.  gprof -l's line symbols carry
 * theirs the same way (summary --lines on gmon data).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"

void ph_func_set_credit(ph_profile *p, const ph_func *f, const ph_event *ev,
                        double credit)
{
    size_t i = f->id - 1;
    if (p->credit_event && p->credit_event != ev)
        return;                       /* one event carries credits */
    p->credit_event = ev;
    if (i >= p->ncredits) {
        size_t n = p->funcs.n > i ? p->funcs.n : i + 1;
        p->credits = ph_xrealloc(p->credits, n * sizeof *p->credits);
        for (size_t k = p->ncredits; k < n; k++)
            p->credits[k] = 0;
        p->ncredits = n;
    }
    p->credits[i] = credit;
    ph_profile_invalidate(p);
}

int ph_has_credits(const ph_profile *p, const ph_event *ev)
{
    return p->credit_event && p->credit_event == ev;
}

double ph_func_credit(const ph_profile *p, const ph_func *f)
{
    return f->id - 1 < p->ncredits ? p->credits[f->id - 1] : 0;
}

void ph_line_credit_add(ph_profile *p, const ph_event *ev,
                        const ph_line_credit *c)
{
    if (p->credit_event && p->credit_event != ev)
        return;
    p->credit_event = ev;
    if (p->nline_credits == p->line_credits_cap) {
        p->line_credits_cap = p->line_credits_cap ? 2 * p->line_credits_cap
                                                  : 64;
        p->line_credits = ph_xrealloc(p->line_credits, p->line_credits_cap *
                                      sizeof *p->line_credits);
    }
    p->line_credits[p->nline_credits++] = *c;
}

const ph_line_credit *ph_line_credits(const ph_profile *p, size_t *n)
{
    *n = p->nline_credits;
    return p->line_credits;
}

void ph_credits_free(ph_profile *p)
{
    free(p->line_credits);
    p->line_credits = NULL;
    p->nline_credits = p->line_credits_cap = 0;
    free(p->credits);
    p->credits = NULL;
    p->ncredits = 0;
}
