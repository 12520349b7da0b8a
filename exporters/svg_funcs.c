/* svg_funcs.c -- each function's numbers over all stacks, as `profhub
 * summary` prints them, for the tooltips of every picture: the analysis
 * table (gprof's cycle rule) and, for flat data whose calls carry no cost
 * (gmon.out's arcs), gprof's inclusive time, as summary applies it.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gprof.h"
#include "exporters/svg_priv.h"

static int calls_have_costs(const ph_profile *p)
{
    ph_call_iter it;
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it))
        if (c->incl)
            return 1;
    return ph_call_count(p) == 0;
}

/* gprof's self + children per function entry, per real event. */
static void apply_gprof(const ph_profile *p, ph_table *t)
{
    for (size_t s = 0; s < t->nreal; s++) {
        const ph_event *ev = ph_event_real(p, s);
        double scale = ev->scale != 0 ? ev->scale : 1.0;
        ph_gprof *g = ph_gprof_compute(p, ev, PH_ALL_PARTS);
        for (size_t i = 0; i < t->count; i++) {
            ph_entry *e = &t->entries[i];
            const ph_gprof_fn *fn = e->func && !e->is_cycle
                                    ? ph_gprof_find(g, e->func) : NULL;
            if (fn) {
                e->incl[s] = llround((fn->self + fn->children) / scale);
                e->has_incl = 1;
            }
        }
        ph_gprof_free(g);
    }
}

void ph_svg_funcs_build(const ph_profile *p, ph_svg_funcs *fs)
{
    ph_table_opts to;
    memset(&to, 0, sizeof to);
    to.group = PH_GROUP_FUNCTION;
    to.part = PH_ALL_PARTS;
    to.cycles = 1;
    fs->table = ph_table_build(p, &to);
    if (!calls_have_costs(p))
        apply_gprof(p, fs->table);
    fs->by_func = ph_xcalloc(ph_func_count(p) + 2, sizeof *fs->by_func);
    for (size_t i = 0; i < fs->table->count; i++) {
        ph_entry *e = &fs->table->entries[i];
        if (e->func && !e->is_cycle)
            fs->by_func[e->func->id] = e;
    }
}

void ph_svg_funcs_free(ph_svg_funcs *fs)
{
    free(fs->by_func);
    if (fs->table)
        ph_table_free(fs->table);
    memset(fs, 0, sizeof *fs);
}

double ph_svg_funcs_value(const ph_svg_funcs *fs, const ph_func *f,
                          const ph_event *ev, int incl)
{
    const ph_entry *e = f ? fs->by_func[f->id] : NULL;
    if (!e || (incl && !e->has_incl))
        return NAN;
    return ph_entry_value(fs->table, e, ev, incl);
}

void ph_svg_funcs_tip(ph_output *out, const ph_svg_funcs *fs,
                      const ph_func *f, const ph_event *ev)
{
    char a[48], b[48];
    if (!f || !fs->by_func[f->id])
        return;
    double in = ph_svg_funcs_value(fs, f, ev, 1);
    double self = ph_svg_funcs_value(fs, f, ev, 0);
    ph_output_printf(out, "\nfunction over all stacks: inclusive %s, "
                     "self %s", isnan(in) ? "-" : ph_svg_num(a, in),
                     ph_svg_num(b, self));
}
