/* credit.c -- a function's self cost in fractions of a unit, when the
 * source attributed finer than its integer costs: gprof credits each
 * symbol its share of a histogram bin, while the rows keep whole ticks.
 * One event per profile carries credits; reports that follow the source
 * tool (analysis/gprof_prop.c) read them.
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

void ph_credits_free(ph_profile *p)
{
    free(p->credits);
    p->credits = NULL;
    p->ncredits = 0;
}
