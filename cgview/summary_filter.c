/* summary_filter.c -- the summary's pprof filters (--focus, --ignore,
 * --hide, --show, --tagfocus, --tagignore), pprof's --node-fraction and
 * callgrind_annotate's cumulative --coverage: option values, the cut of
 * the sorted table, and pprof's lines above it.  The samples are filtered
 * by the library (ph_sample_filter, analysis/table_filter.c). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/summary_filter.h"

static const char *const vf_names[PH_VF_N] = {
    "focus", "ignore", "hide", "show", "tagfocus", "tagignore",
};

void ph_view_filter_init(ph_view_filter *vf)
{
    memset(vf, 0, sizeof *vf);
    vf->coverage = -1;
    vf->nodefraction = -1;
}

static int parse_number(const char *cmd, const char *opt, const char *arg,
                        double max, int percent, double *out)
{
    size_t len = strlen(arg), used;
    double v = 0;

    used = ph_parse_decimal(arg, len, &v);
    if (percent && used > 0 && arg[used] == '%')
        used++;
    if (used == 0 || used != len || !(v >= 0 && v <= max)) {
        ph_cli_usage_error(cmd, "--%s: expected %s between 0 and %g, got "
                           "\"%s\"", opt, percent ? "a percentage"
                                                  : "a fraction", max, arg);
        return -1;
    }
    *out = v;
    return 0;
}

int ph_view_filter_option(ph_view_filter *vf, const char *cmd, int opt,
                          const char *arg)
{
    switch (opt) {
    case PH_OPT_FOCUS: vf->spec[PH_VF_FOCUS] = arg; return 1;
    case PH_OPT_IGNORE: vf->spec[PH_VF_IGNORE] = arg; return 1;
    case PH_OPT_HIDE: vf->spec[PH_VF_HIDE] = arg; return 1;
    case PH_OPT_SHOW: vf->spec[PH_VF_SHOW] = arg; return 1;
    case PH_OPT_TAGFOCUS: vf->spec[PH_VF_TAGFOCUS] = arg; return 1;
    case PH_OPT_TAGIGNORE: vf->spec[PH_VF_TAGIGNORE] = arg; return 1;
    case PH_OPT_COVERAGE:
        return parse_number(cmd, "coverage", arg, 100, 1, &vf->coverage) < 0
                   ? -1 : 1;
    case PH_OPT_LINES: vf->lines = 1; return 1;
    case PH_OPT_NODEFRACTION:
        return parse_number(cmd, "node-fraction", arg, 1, 0,
                            &vf->nodefraction) < 0 ? -1 : 1;
    default:
        return 0;
    }
}

int ph_view_filter_compile(ph_view_filter *vf, const char *cmd,
                           ph_report *r)
{
    const regex_t **slot[4] = { &vf->filter.focus, &vf->filter.ignore,
                                &vf->filter.hide, &vf->filter.show };
    const ph_tag_filter **tslot[2] = { &vf->filter.tagfocus,
                                       &vf->filter.tagignore };
    char msg[256];

    for (int i = 0; i < 4; i++) {
        const char *s = vf->spec[i];
        int rc;
        if (!s)
            continue;
        rc = regcomp(&vf->re[i], s, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            regerror(rc, &vf->re[i], msg, sizeof msg);
            regfree(&vf->re[i]);
            return ph_cli_usage_error(cmd, "--%s: bad regular expression "
                                      "\"%s\": %s", vf_names[i], s, msg),
                   -1;
        }
        *slot[i] = &vf->re[i];
    }
    for (int i = 0; i < 2; i++) {
        const char *s = vf->spec[PH_VF_TAGFOCUS + i];
        if (!s)
            continue;
        vf->tag[i] = ph_tag_filter_parse(s, msg, sizeof msg);
        if (!vf->tag[i])
            return ph_cli_usage_error(cmd, "--%s: %s",
                                      vf_names[PH_VF_TAGFOCUS + i], msg),
                   -1;
        *tslot[i] = vf->tag[i];
    }
    if (ph_sample_filter_active(&vf->filter))
        r->topts.filter = &vf->filter;
    r->topts.lines = vf->lines;
    return 0;
}

void ph_view_filter_free(ph_view_filter *vf)
{
    const regex_t **slot[4] = { &vf->filter.focus, &vf->filter.ignore,
                                &vf->filter.hide, &vf->filter.show };
    for (int i = 0; i < 4; i++)
        if (*slot[i])
            regfree(&vf->re[i]);
    ph_tag_filter_free(vf->tag[0]);
    ph_tag_filter_free(vf->tag[1]);
}

static double total_of(const ph_report *r)
{
    return r->ev ? ph_event_eval(r->p, r->ev, r->table->totals) : 0;
}

typedef struct cut_at {
    const ph_event *ev;
    double cut;
} cut_at;

static int above_cut(const ph_table *t, const ph_entry *e, void *ctx)
{
    const cut_at *c = ctx;
    return fabs(ph_entry_value(t, e, c->ev, e->has_incl)) >= c->cut;
}

void ph_view_filter_cut(ph_view_filter *vf, ph_report *r)
{
    ph_table *t = r->table;
    static const char *const what[] = { "Focus", "Ignore", "Hide", "Show",
                                        "TagFocus", "TagIgnore" };

    for (int i = 0; i < PH_VF_N; i++)
        if (t->unmatched & (1u << i))
            ph_cli_warning("--%s: %s expression matched no samples",
                           vf_names[i], what[i]);
    if (t->filtered && t->approx)
        r->approx = t->approx;
    if (t->filtered && t->approx)
        ph_cli_warning("%s: filtered approximately: %s", r->path, t->approx);
    if (vf->nodefraction < 0 || !r->ev)
        return;
    /* pprof keeps a node when |cum| >= |flat sum * fraction|, the flat sum
     * of what the filters kept; its message names total * fraction */
    double flat = 0, cut;
    for (size_t i = 0; i < t->count; i++)
        flat += ph_entry_value(t, &t->entries[i], r->ev, 0);
    cut = fabs(trunc(flat * vf->nodefraction));
    vf->cutoff = fabs(total_of(r) * vf->nodefraction);
    cut_at c = { r->ev, cut };
    size_t k = ph_table_keep(t, r->listed, above_cut, &c);
    vf->dropped = r->listed - k;
    r->listed = k;
}

size_t ph_view_filter_shown(const ph_view_filter *vf, const ph_report *r,
                            size_t n)
{
    const ph_table *t = r->table;
    double total = total_of(r), cur = 0;
    size_t i;

    /* callgrind_annotate: 100 shows everything; otherwise stop before the
     * entry at which the covered part reached the threshold.  Sorted by
     * inclusive cost, what is covered is the total minus the last entry's
     * inclusive cost.  <cycle N> entries are shown but not counted. */
    if (vf->coverage < 0 || vf->coverage >= 100 || !r->ev)
        return n;
    for (i = 0; i < n; i++) {
        const ph_entry *e = &t->entries[i];
        double prop = total > 0 ? cur * 100 / total : cur * 100;
        if (prop >= vf->coverage)
            break;
        if (e->is_cycle)
            continue;   /* its members are counted */
        if (r->sort == PH_SORT_INCL && e->has_incl)
            cur = total - ph_entry_value(t, e, r->ev, 1);
        else
            cur += ph_entry_value(t, e, r->ev, 0);
    }
    return i;
}

void ph_view_filter_print(const ph_view_filter *vf, const ph_report *r,
                          FILE *out)
{
    const ph_table *t = r->table;
    char a[32], b[32];
    double shown = 0, total = total_of(r);
    int any = 0;

    for (int i = 0; i < PH_VF_N; i++)
        any |= vf->spec[i] != NULL;
    if (!r->ev || (!any && vf->nodefraction < 0 &&
                   (!vf->lines || r->table->gprof_lines)))
        return;
    fputc('\n', out);
    if (any) {
        fprintf(out, "Active filters:\n");
        for (int i = 0; i < PH_VF_N; i++)
            if (vf->spec[i])
                fprintf(out, "   %s=%s\n", vf_names[i], vf->spec[i]);
    }
    for (size_t i = 0; i < r->shown; i++)
        shown += ph_entry_value(t, &t->entries[i], r->ev, 0);
    fprintf(out, "Showing nodes accounting for %s, %.2f%% of %s total\n",
            ph_cli_commas(a, llround(shown)),
            total != 0 ? shown * 100 / total : 0.0,
            ph_cli_commas(b, llround(total)));
    if (vf->dropped)
        fprintf(out, "Dropped %zu node%s (cum <= %s)\n", vf->dropped,
                vf->dropped == 1 ? "" : "s",
                ph_cli_commas(a, llround(vf->cutoff)));
}
