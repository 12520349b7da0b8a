/* folded_out.c -- write folded stacks ("root;...;leaf COUNT" per line, the
 * input of flamegraph.pl, inferno, speedscope and friends).  One event
 * (-O event=NAME, else the profile's default); identical stacks are summed;
 * inlined frames carry FlameGraph's "_[i]" suffix.  Flat data goes through
 * the stack view's approximation (analysis/).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/exporters.h"
#include "exporters/out_events.h"

PH_DECLARE_EXPORTER(folded);

/* A frame name as the folded reader takes it back: ';' (the frame
 * separator) becomes ':', control bytes (line ends, NUL, ESC: folded text
 * has no escapes and readers refuse them) become '?', and the empty name
 * (a cost outside any function) is "???".  Returns how many names were
 * changed. */
static size_t put_name(ph_output *out, const char *s, size_t n)
{
    size_t i, start = 0, fixed = 0;
    if (n == 0) {
        ph_output_puts(out, "???");
        return 1;
    }
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c != ';' && c >= 0x20 && c != 0x7f)
            continue;
        ph_output_write(out, s + start, i - start);
        ph_output_write(out, c == ';' ? ":" : "?", 1);
        start = i + 1;
        fixed = 1;
    }
    ph_output_write(out, s + start, n - start);
    return fixed;
}

int ph_folded_write(const ph_profile *p, ph_output *out)
{
    const ph_stacks *st = ph_stacks_of(p);
    size_t ne;
    ph_stacks_warn(st, out);
    ph_out_drop_scales(p, out);
    ph_event **evs = ph_out_events(p, out, &ne);
    int pick = ph_out_pick(p, out, evs, ne);
    if (pick < 0) {
        free(evs);
        return ph_output_error_set(out, "the profile has no additive event "
                                   "to write");
    }
    if (ne > 1)
        ph_output_drop(out, "events", ne - 1, "other events (the "
                       "format holds one value per stack; -O event=NAME "
                       "picks it)");
    /* Folded files name no event: readers call the value "samples". */
    const char *evname = ph_str_get(p, evs[pick]->name);
    if (strcmp(evname, "samples") != 0) {
        char what[160];
        snprintf(what, sizeof what, "event name (the values are '%.80s'; "
                 "the format has none, read back as 'samples')", evname);
        ph_output_drop(out, "event-name", 1, what);
    }
    /* Sum per node, then one line per node with a value. */
    int64_t *sum = ph_xcalloc(st->nnodes + 1, sizeof *sum);
    size_t labelled = 0;
    for (size_t i = 0; i < st->nsamples; i++) {
        sum[st->samples[i].node] = ph_cost_add(sum[st->samples[i].node],
            ph_out_value(p, evs[pick], st->samples[i].cost));
        labelled += st->samples[i].src && st->samples[i].src->nlabels;
    }
    uint32_t *path = ph_xmalloc((st->nnodes + 1) * sizeof *path);
    size_t fixed = 0, written = 0;
    for (size_t i = 0; i < st->nnodes; i++) {
        if (!sum[i])
            continue;
        written++;
        size_t depth = 0;
        for (uint32_t n = (uint32_t)i + 1; n; n = st->nodes[n - 1].parent)
            path[depth++] = n - 1;
        while (depth-- > 0) {
            const ph_stk_node *n = &st->nodes[path[depth]];
            fixed += put_name(out, ph_str_get(p, n->func->name),
                              ph_str_len(p, n->func->name));
            if ((n->flags & PH_FRAME_INLINED) && n->parent)
                ph_output_puts(out, "_[i]");
            ph_output_write(out, depth ? ";" : " ", 1);
        }
        ph_output_i64(out, sum[i]);
        ph_output_write(out, "\n", 1);
    }
    if (!written) {
        /* An empty file is no profile to any reader (ours included). */
        ph_output_error_set(out, "the profile has no stack with a nonzero "
                            "'%s' (an empty folded file would be no "
                            "profile)", evname);
        free(path);
        free(sum);
        free(evs);
        return -1;
    }
    if (fixed)
        ph_output_drop(out, "rename", fixed, "frame names with ';', "
                       "control characters or no name (written with ':', "
                       "'?' or as \"???\")");
    if (labelled)
        ph_output_drop(out, "labels", labelled, "sample labels "
                       "(the format has none)");
    if (ph_part_count(p) > 1 && !st->approx)
        ph_output_drop(out, "parts", ph_part_count(p), "parts "
                       "merged into one (the format has no threads)");
    free(path);
    free(sum);
    free(evs);
    return 0;
}
