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

/* Room for need bytes in *buf. */
static void room(char **buf, size_t *cap, size_t need)
{
    if (need > *cap) {
        *cap = need > 2 * *cap ? need : 2 * *cap;
        *buf = ph_xrealloc(*buf, *cap);
    }
}

/* A frame name as the folded reader takes it back: ';' (the frame
 * separator) becomes ':', control bytes (line ends, NUL, ESC: folded text
 * has no escapes and readers refuse them) become '?', so does a blank
 * that would begin a line (the first frame's: indented lines are no
 * folded stacks to the sniffer), a blank after ':' becomes '_' (": " is
 * the "key: value" header of other formats to the sniffer), and the empty
 * name (a cost outside any function) is "???".  s (n bytes) into d (room
 * for n, at least 3), as a frame that does not begin its line; returns
 * the length, *fixed whether the name was changed. */
static size_t fold_name(char *d, const char *s, size_t n, int *fixed)
{
    *fixed = 0;
    if (n == 0) {
        memcpy(d, "???", 3);
        *fixed = 1;
        return 3;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int colon_blank = i > 0 && c == ' ' && (s[i - 1] == ':' ||
                                                 s[i - 1] == ';');
        d[i] = (char)c;
        if (c != ';' && c >= 0x20 && c != 0x7f && !colon_blank)
            continue;
        d[i] = c == ';' ? ':' : colon_blank ? '_' : '?';
        *fixed = 1;
    }
    return n;
}

/* The lines' text.  A big profile's lines repeat their callers' names (a
 * 222 MB callgrind file's stacks are 1.7 GB of folded text): each
 * function's name is folded once, and a line is the line of its parent,
 * kept from the lines before while they pass through it, and its own
 * name. */
typedef struct folded_text {
    const ph_profile *p;
    const ph_frames *fr;
    size_t *name_at;        /* per function id: offset + 1 in names; 0:
                               not folded yet */
    uint32_t *name_len;
    unsigned char *name_fixed;
    char *names;
    size_t nnames, capnames;
    char *raw;              /* ph_str_text's room */
    size_t capraw;
    /* the line held: its frame at each depth, the text and the changed
     * names up to it */
    uint32_t *on;
    size_t *end, *nfixed;
    size_t depth;           /* of its last frame; 0: none */
    char *line;
    size_t capline;
    uint32_t *up;           /* frames to add, deepest first */
} folded_text;

static void text_init(folded_text *t, const ph_profile *p,
                      const ph_frames *fr)
{
    size_t nf = ph_func_count(p) + 1, deepest = 0;
    memset(t, 0, sizeof *t);
    t->p = p;
    t->fr = fr;
    for (size_t i = 1; i < fr->n; i++)
        deepest = fr->f[i].depth > deepest ? fr->f[i].depth : deepest;
    t->name_at = ph_xcalloc(nf, sizeof *t->name_at);
    t->name_len = ph_xcalloc(nf, sizeof *t->name_len);
    t->name_fixed = ph_xcalloc(nf, 1);
    t->on = ph_xcalloc(deepest + 1, sizeof *t->on);
    t->end = ph_xcalloc(deepest + 1, sizeof *t->end);
    t->nfixed = ph_xcalloc(deepest + 1, sizeof *t->nfixed);
    t->up = ph_xmalloc((deepest + 1) * sizeof *t->up);
}

static void text_free(folded_text *t)
{
    free(t->name_at);
    free(t->name_len);
    free(t->name_fixed);
    free(t->names);
    free(t->raw);
    free(t->on);
    free(t->end);
    free(t->nfixed);
    free(t->line);
    free(t->up);
}

/* Function f's folded name, made at its first use. */
static const char *folded_name(folded_text *t, const ph_func *f,
                               size_t *len, int *fixed)
{
    uint32_t id = f->id;
    if (!t->name_at[id]) {
        size_t n = ph_str_len(t->p, f->name);
        const char *s = ph_str_text(t->p, f->name, &t->raw, &t->capraw);
        room(&t->names, &t->capnames, t->nnames + n + 3);
        int fx;
        size_t m = fold_name(t->names + t->nnames, s, n, &fx);
        t->name_at[id] = t->nnames + 1;
        t->name_len[id] = (uint32_t)m;
        t->name_fixed[id] = (unsigned char)fx;
        t->nnames += m;
    }
    *len = t->name_len[id];
    *fixed = t->name_fixed[id];
    return t->names + t->name_at[id] - 1;
}

/* Frame k after the line held up to its parent: ";" (but for a line's
 * first frame), its name, FlameGraph's "_[i]" for an inlined frame that
 * is not top-level. */
static void add_frame(folded_text *t, uint32_t k)
{
    const ph_path_frame *f = &t->fr->f[k];
    size_t d = f->depth, at = d > 1 ? t->end[d - 1] : 0, len;
    int fixed;
    const char *name = folded_name(t, f->func, &len, &fixed);
    room(&t->line, &t->capline, at + len + 5);
    char *w = t->line + at;
    if (d > 1)
        *w++ = ';';
    memcpy(w, name, len);
    if (d == 1 && *w == ' ') {  /* a blank would begin the line */
        *w = '?';
        fixed = 1;
    }
    w += len;
    if (f->inlined && f->parent) {
        memcpy(w, "_[i]", 4);
        w += 4;
    }
    t->on[d] = k;
    t->end[d] = (size_t)(w - t->line);
    t->nfixed[d] = (d > 1 ? t->nfixed[d - 1] : 0) + (size_t)fixed;
    t->depth = d;
}

/* "root;...;frame" of frame i (not the root "all") in t->line, its length
 * returned; *fixed: how many of its names were changed. */
static size_t line_of(folded_text *t, uint32_t i, size_t *fixed)
{
    const ph_path_frame *f = t->fr->f;
    size_t n = 0;
    /* up to the deepest frame of the line held that is on i's path */
    for (uint32_t k = i;; k = f[k].parent) {
        uint32_t parent = f[k].parent;
        t->up[n++] = k;
        if (!parent || (f[parent].depth <= t->depth &&
                        t->on[f[parent].depth] == parent))
            break;
    }
    while (n-- > 0)
        add_frame(t, t->up[n]);
    *fixed = t->nfixed[t->depth];
    return t->end[t->depth];
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
    folded_text text;
    size_t fixed = 0, written = 0;
    text_init(&text, p, &fr);
    for (size_t i = 1; i < fr.n; i++) {
        int64_t v = ph_out_value(p, evs[pick], ph_frame_self(&fr, i));
        if (!v)
            continue;
        size_t changed, len = line_of(&text, (uint32_t)i, &changed);
        written++;
        fixed += changed;
        ph_output_write(out, text.line, len);
        ph_output_write(out, " ", 1);
        ph_output_i64(out, v);
        ph_output_write(out, "\n", 1);
    }
    text_free(&text);
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
