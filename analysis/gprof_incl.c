/* gprof_incl.c -- the one rule for inclusive cost of flat data whose calls
 * carry no cost (gmon.out's arcs): a function table entry's inclusive is
 * gprof's self + children, a cycle's the cycle's, per real event
 * (analysis/gprof_prop.c).  summary's table and the pictures' tooltips
 * (exporters/svg_funcs.c) both read it here.
 */
#include "config.h"

#include <math.h>

#include "analysis/gprof.h"
#include "analysis_priv.h"

int ph_calls_have_costs(const ph_profile *p)
{
    ph_call_iter it;
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it))
        if (c->incl)
            return 1;
    return ph_call_count(p) == 0;
}

static uint32_t gprof_cycle_of(const ph_table *t, const ph_gprof *g,
                               uint32_t k)
{
    size_t cnt;
    ph_func *const *m = t->cycles ? ph_cycles_members(t->cycles, k, &cnt)
                                  : NULL;
    const ph_gprof_fn *fn = m && cnt ? ph_gprof_find(g, m[0]) : NULL;
    return fn ? fn->cycle : 0;
}

const char *ph_table_gprof_incl(const ph_profile *p, ph_table *t, int part)
{
    const char *approx = NULL;

    if (ph_calls_have_costs(p))
        return NULL;
    for (size_t s = 0; s < t->nreal; s++) {
        const ph_event *ev = ph_event_real(p, s);
        double scale = ev->scale != 0 ? ev->scale : 1.0;
        ph_gprof *g = ph_gprof_compute(p, ev, part);
        if (ph_gprof_approx(g))
            approx = ph_gprof_approx(g);
        for (size_t i = 0; i < t->count; i++) {
            ph_entry *e = &t->entries[i];
            double v = -1;
            if (e->is_cycle) {
                uint32_t num = gprof_cycle_of(t, g, e->cycle);
                for (size_t c = 0; num && c < ph_gprof_ncycles(g); c++) {
                    const ph_gprof_cycle *cy = ph_gprof_cycle_at(g, c);
                    if (cy->number == num)
                        v = cy->self + cy->children;
                }
            } else if (e->func) {
                const ph_gprof_fn *fn = ph_gprof_find(g, e->func);
                if (fn)
                    v = fn->self + fn->children;
            }
            if (v >= 0) {
                ph_entry_incl_mut(t, e)[s] = llround(v / scale);
                e->has_incl = 1;
            }
        }
        ph_gprof_free(g);
    }
    return approx;
}
