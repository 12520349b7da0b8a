/* folded_out.c -- write folded stacks ("root;...;leaf COUNT" per line, the
 * input of flamegraph.pl, inferno, speedscope and friends).  One event
 * (-O event=NAME, else the profile's default); stacks of the same names
 * are one line (the frame tree, frames.h, sums them: stacks that differ
 * only in lines or addresses are one stack here); inlined frames carry
 * FlameGraph's "_[i]" suffix.  Flat data goes through the stack view's
 * approximation (analysis/).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/exporters.h"
#include "exporters/frames.h"
#include "exporters/out_events.h"

PH_DECLARE_EXPORTER(folded);

/* A frame name as the folded reader takes it back: ';' (the frame
 * separator) becomes ':', control bytes (line ends, NUL, ESC: folded text
 * has no escapes and readers refuse them) become '?', so does a blank
 * that would begin a line (the first frame's: indented lines are no
 * folded stacks to the sniffer), a blank after ':' becomes '_' (": " is
 * the "key: value" header of other formats to the sniffer), and the empty
 * name (a cost outside any function) is "???".  Returns how many names
 * were changed. */
static size_t put_name(ph_output *out, const char *s, size_t n, int first)
{
    size_t i, start = 0, fixed = 0;
    if (n == 0) {
        ph_output_puts(out, "???");
        return 1;
    }
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int leading_blank = first && i == 0 && c == ' ';
        int colon_blank = i > 0 && c == ' ' && (s[i - 1] == ':' ||
                                                 s[i - 1] == ';');
        if (c != ';' && c >= 0x20 && c != 0x7f && !leading_blank &&
            !colon_blank)
            continue;
        ph_output_write(out, s + start, i - start);
        ph_output_write(out, c == ';' ? ":" : colon_blank ? "_" : "?", 1);
        start = i + 1;
        fixed = 1;
    }
    ph_output_write(out, s + start, n - start);
    return fixed;
}

/* "root;...;frame" of frame i (not the root "all"), inlined frames but a
 * top-level one with FlameGraph's "_[i]"; returns how many names were
 * changed. */
static size_t put_path(ph_output *out, const ph_profile *p,
                       const ph_frames *fr, uint32_t i, uint32_t *path)
{
    size_t depth = 0, fixed = 0;
    for (; i; i = fr->f[i].parent)
        path[depth++] = i;
    while (depth-- > 0) {
        const ph_path_frame *f = &fr->f[path[depth]];
        fixed += put_name(out, ph_str_get(p, f->func->name),
                          ph_str_len(p, f->func->name), !f->parent);
        if (f->inlined && f->parent)
            ph_output_puts(out, "_[i]");
        if (depth)
            ph_output_write(out, ";", 1);
    }
    return fixed;
}

int ph_folded_write(const ph_profile *p, ph_output *out)
{
    ph_frames fr;
    size_t ne;
    ph_frames_build(p, out, &fr);
    ph_out_drop_scales(p, out);
    ph_event **evs = ph_out_events(p, out, &ne);
    int pick = ph_out_pick(p, out, evs, ne);
    if (pick < 0) {
        ph_frames_free(&fr);
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
    /* One line per frame (distinct path of names) with a value. */
    uint32_t *path = ph_xmalloc((fr.n + 1) * sizeof *path);
    size_t fixed = 0, written = 0;
    for (size_t i = 1; i < fr.n; i++) {
        int64_t v = ph_out_value(p, evs[pick], ph_frame_self(&fr, i));
        if (!v)
            continue;
        written++;
        fixed += put_path(out, p, &fr, (uint32_t)i, path);
        ph_output_write(out, " ", 1);
        ph_output_i64(out, v);
        ph_output_write(out, "\n", 1);
    }
    free(path);
    ph_frames_free(&fr);
    if (!written) {
        /* An empty file is no profile to any reader (ours included). */
        ph_output_error_set(out, "the profile has no stack with a nonzero "
                            "'%s' (an empty folded file would be no "
                            "profile)", evname);
        free(evs);
        return -1;
    }
    const ph_stacks *st = ph_stacks_of(p);
    size_t labelled = 0;
    for (size_t i = 0; i < st->nsamples; i++)
        labelled += st->samples[i].src && st->samples[i].src->nlabels;
    if (fixed)
        ph_output_drop(out, "rename", fixed, "frame names with ';', "
                       "control characters, a leading blank, \": \" or no "
                       "name (written with ':', '?', \":_\" or as "
                       "\"???\")");
    if (labelled)
        ph_output_drop(out, "labels", labelled, "sample labels "
                       "(the format has none)");
    if (ph_part_count(p) > 1 && !st->approx)
        ph_output_drop(out, "parts", ph_part_count(p), "parts "
                       "merged into one (the format has no threads)");
    free(evs);
    return 0;
}
