/* svg_funcs.c -- each function's numbers over all stacks, as `profhub
 * summary` prints them, for the tooltips of every picture: the analysis
 * table (gprof's cycle rule) and, for flat data whose calls carry no cost
 * (gmon.out's arcs), gprof's inclusive time by the rule summary uses
 * (analysis/gprof_incl.c).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/svg_priv.h"

void ph_svg_funcs_build(const ph_profile *p, ph_svg_funcs *fs)
{
    ph_table_opts to;
    memset(&to, 0, sizeof to);
    to.group = PH_GROUP_FUNCTION;
    to.part = PH_ALL_PARTS;
    to.cycles = 1;
    fs->table = ph_table_build(p, &to);
    ph_table_gprof_incl(p, fs->table, PH_ALL_PARTS);   /* as summary */
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
