/* svg_flame.c -- flame graphs and differential flame graphs as SVG.
 *
 * A frame's width is its inclusive cost of one event; children sit on
 * their parent, sorted by name (flamegraph.pl's order, so two pictures of
 * one program line up).  Children narrower than minwidth of the total are
 * merged into one "..." frame per parent; when that still leaves more
 * than MAX_FRAMES frames, the threshold doubles until it does not, so a
 * picture of any profile stays a few MB.  Every frame carries a <title>
 * tooltip with its numbers and, for a flame graph, the function's numbers
 * over all stacks as `profhub summary` prints them.
 *
 * The differential picture (BASE -> NEW) takes shape and widths from NEW;
 * each frame is matched to the frame of BASE with the same path of
 * function names and coloured by the change of its self cost: blue for
 * cheaper, red for costlier, grey for changes under the noise floor
 * (minwidth of BASE's total).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/svg_priv.h"

#define MAX_FRAMES 5000
#define ROW 16                /* px per level */
#define TOP 86                /* px above the first level */

typedef struct named {
    const char *name;
    uint32_t i;
} named;

typedef struct flame {
    const ph_profile *p;
    const ph_svg_opts *o;
    ph_frames fr;
    double *v, *sv;           /* inclusive and self value per frame */
    double *bv, *bsv;         /* BASE's values of the matching frame */
    uint8_t *inbase;          /* frame has a match in BASE */
    double scale;             /* NEW -> BASE normalisation (1 if none) */
    double thr;               /* minimum width, fraction of the total */
    uint8_t *kept;
    double *x;                /* left edge, fraction of the total */
    double *dots;             /* per frame: value of its "..." child */
    uint32_t *ndots;          /* and how many frames it merges */
    uint32_t maxd;
    size_t drawn, gone, highlighted;
    double maxdelta;
    ph_svg_funcs funcs;       /* function numbers for the tooltips */
    int has_funcs;
} flame;

static int cmp_named(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static const char *name_of(const flame *fl, size_t i)
{
    return ph_frame_name(fl->p, &fl->fr, i);
}

/* ------------------------------------------------------------------ */
/* Values and the match with BASE                                     */

static void values(flame *fl)
{
    size_t n = fl->fr.n;
    fl->v = ph_xcalloc(n + 1, sizeof *fl->v);
    fl->sv = ph_xcalloc(n + 1, sizeof *fl->sv);
    for (size_t i = 0; i < n; i++) {
        fl->v[i] = ph_frames_value(fl->p, fl->o->ev,
                                   ph_frame_total(&fl->fr, i));
        fl->sv[i] = ph_frames_value(fl->p, fl->o->ev,
                                    ph_frame_self(&fl->fr, i));
    }
}

static uint32_t base_child(const ph_profile *bp, const ph_frames *b,
                           uint32_t parent, const char *name)
{
    for (uint32_t c = b->f[parent].child; c; c = b->f[c].next)
        if (!strcmp(ph_frame_name(bp, b, c), name))
            return c;
    return 0;
}

static int match_base(flame *fl, const ph_profile *base, ph_output *out)
{
    const char *evname = ph_str_get(fl->p, fl->o->ev->name);
    const ph_event *bev = ph_event_find(base, evname);
    if (!bev) {
        ph_output_error_set(out, "the base profile has no event \"%s\"",
                            evname);
        return -1;
    }
    ph_frames b;
    ph_frames_build(base, NULL, &b);
    size_t n = fl->fr.n;
    uint32_t *map = ph_xcalloc(n + 1, sizeof *map);
    uint8_t *used = ph_xcalloc(b.n + 1, 1);
    fl->bv = ph_xcalloc(n + 1, sizeof *fl->bv);
    fl->bsv = ph_xcalloc(n + 1, sizeof *fl->bsv);
    fl->inbase = ph_xcalloc(n + 1, 1);
    fl->inbase[0] = used[0] = 1;
    for (size_t i = 1; i < n; i++) {
        uint32_t par = fl->fr.f[i].parent;
        if (!fl->inbase[par])
            continue;
        uint32_t c = base_child(base, &b, map[par], name_of(fl, i));
        if (c) {
            map[i] = c;
            fl->inbase[i] = used[c] = 1;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (!fl->inbase[i])
            continue;
        fl->bv[i] = ph_frames_value(base, bev, ph_frame_total(&b, map[i]));
        fl->bsv[i] = ph_frames_value(base, bev, ph_frame_self(&b, map[i]));
    }
    /* Paths of BASE that NEW lacks, counted at their top frame. */
    for (size_t i = 1; i < b.n; i++)
        if (!used[i] && used[b.f[i].parent] &&
            ph_frames_value(base, bev, ph_frame_total(&b, i)) != 0)
            fl->gone++;
    fl->scale = 1;
    if (fl->o->normalize && fl->v[0] != 0)
        fl->scale = fl->bv[0] / fl->v[0];
    free(map);
    free(used);
    ph_frames_free(&b);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Layout                                                             */

/* Mark frames at least thr wide; returns how many frames are drawn,
 * "..." frames included. */
static size_t mark(flame *fl, double thr)
{
    size_t n = fl->fr.n, count = 1;
    double total = fl->v[0];
    memset(fl->dots, 0, n * sizeof *fl->dots);
    memset(fl->ndots, 0, n * sizeof *fl->ndots);
    fl->kept[0] = 1;
    for (size_t i = 1; i < n; i++) {
        uint32_t par = fl->fr.f[i].parent;
        fl->kept[i] = 0;
        if (!fl->kept[par] || fl->v[i] <= 0)
            continue;
        if (fl->v[i] >= thr * total) {
            fl->kept[i] = 1;
            count++;
        } else {
            if (!fl->ndots[par])
                count++;
            fl->dots[par] += fl->v[i];
            fl->ndots[par]++;
        }
    }
    return count;
}

static void layout(flame *fl)
{
    size_t n = fl->fr.n;
    fl->kept = ph_xcalloc(n + 1, 1);
    fl->x = ph_xcalloc(n + 1, sizeof *fl->x);
    fl->dots = ph_xcalloc(n + 1, sizeof *fl->dots);
    fl->ndots = ph_xcalloc(n + 1, sizeof *fl->ndots);
    fl->thr = fl->o->minwidth;
    while ((fl->drawn = mark(fl, fl->thr)) > MAX_FRAMES)
        fl->thr = fl->thr > 0 ? 2 * fl->thr : 1e-6;
    named *kids = ph_xmalloc((n + 1) * sizeof *kids);
    double total = fl->v[0];
    for (size_t i = 0; i < n; i++) {
        if (!fl->kept[i])
            continue;
        if (fl->fr.f[i].depth + (fl->ndots[i] ? 1 : 0) > fl->maxd)
            fl->maxd = fl->fr.f[i].depth + (fl->ndots[i] ? 1 : 0);
        size_t k = 0;
        for (uint32_t c = fl->fr.f[i].child; c; c = fl->fr.f[c].next)
            if (fl->kept[c]) {
                kids[k].name = name_of(fl, c);
                kids[k++].i = c;
            }
        qsort(kids, k, sizeof *kids, cmp_named);
        /* Children never exceed the parent, even where a derived event
         * is not quite additive. */
        double at = fl->x[i], end = fl->x[i] + fl->v[i] / total;
        for (size_t j = 0; j < k; j++) {
            fl->x[kids[j].i] = at;
            at += fl->v[kids[j].i] / total;
            if (at > end) {
                fl->v[kids[j].i] -= (at - end) * total;
                at = end;
            }
        }
    }
    free(kids);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                            */

static void colour(const flame *fl, size_t i, char *buf)
{
    const char *name = name_of(fl, i);
    if (fl->o->has_highlight && i &&
        regexec(&fl->o->highlight, name, 0, NULL, 0) == 0) {
        strcpy(buf, "rgb(230,0,230)");
        return;
    }
    if (fl->bv) {
        double d = fl->sv[i] * fl->scale - fl->bsv[i];
        double noise = fl->thr * fabs(fl->bv[0]);
        if (fabs(d) <= noise || fl->maxdelta <= 0) {
            strcpy(buf, "rgb(221,221,221)");
            return;
        }
        double k = fabs(d) / fl->maxdelta;
        unsigned c = (unsigned)(215 - 185 * (k > 1 ? 1 : k));
        if (d < 0)
            snprintf(buf, 24, "rgb(%u,%u,255)", c, c);
        else
            snprintf(buf, 24, "rgb(255,%u,%u)", c, c);
        return;
    }
    if (fl->o->color_self) {
        double s = fl->v[i] > 0 ? fl->sv[i] / fl->v[i] : 0;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
        snprintf(buf, 24, "rgb(255,%u,%u)", (unsigned)(235 - 200 * s),
                 (unsigned)(140 - 130 * s));
        return;
    }
    const ph_func *f = fl->fr.f[i].func;
    const char *obj = f && f->object ? ph_str_get(fl->p, f->object->name)
                                     : name;
    ph_svg_name_colour(buf, obj);
}

static void tip_where(const flame *fl, ph_output *out, size_t i)
{
    const ph_func *f = fl->fr.f[i].func;
    if (!f)
        return;
    const char *file = f->file ? ph_str_get(fl->p, f->file->name) : "";
    const char *obj = f->object ? ph_str_get(fl->p, f->object->name) : "";
    if (!*file && !*obj)
        return;
    ph_output_puts(out, "\n");
    if (*file) {
        ph_svg_text(out, file, 200);
        if (f->line)
            ph_output_printf(out, ":%u", f->line);
    }
    if (*obj) {
        ph_output_puts(out, *file ? " in " : "in ");
        ph_svg_text(out, obj, 200);
    }
    if (fl->fr.f[i].inlined)
        ph_output_puts(out, " (inlined)");
}

static void tip_numbers(const flame *fl, ph_output *out, size_t i)
{
    char a[48], b[48], c[32], d[32];
    const char *ev = ph_str_get(fl->p, fl->o->ev->name);
    double total = fl->v[0];
    ph_output_printf(out, "\n%s inclusive: %s (%s), self: %s (%s)",
                     ev, ph_svg_num(a, fl->v[i]),
                     ph_svg_pct(c, fl->v[i], total),
                     ph_svg_num(b, fl->sv[i]),
                     ph_svg_pct(d, fl->sv[i], total));
    if (fl->has_funcs)
        ph_svg_funcs_tip(out, &fl->funcs, fl->fr.f[i].func, fl->o->ev);
}

static void tip_diff(const flame *fl, ph_output *out, size_t i)
{
    char a[48], b[48], c[48], d[32];
    const char *ev = ph_str_get(fl->p, fl->o->ev->name);
    double nv = fl->v[i] * fl->scale, ns = fl->sv[i] * fl->scale;
    if (!fl->inbase[i])
        ph_output_puts(out, "\nnot in BASE");
    ph_output_printf(out, "\n%s inclusive: NEW %s, BASE %s, change %s (%s)",
                     ev, ph_svg_num(a, nv), ph_svg_num(b, fl->bv[i]),
                     ph_svg_num(c, nv - fl->bv[i]),
                     ph_svg_pct(d, nv - fl->bv[i], fl->bv[i]));
    ph_output_printf(out, "\n%s self: NEW %s, BASE %s, change %s (%s)",
                     ev, ph_svg_num(a, ns), ph_svg_num(b, fl->bsv[i]),
                     ph_svg_num(c, ns - fl->bsv[i]),
                     ph_svg_pct(d, ns - fl->bsv[i], fl->bsv[i]));
}

static void draw_box(const flame *fl, ph_output *out, double x, double w,
                     uint32_t depth, const char *fill)
{
    int y = fl->o->inverted ? TOP + (int)depth * ROW
                            : TOP + (int)(fl->maxd - depth) * ROW;
    double span = PH_SVG_WIDTH - 2 * PH_SVG_MARGIN;
    ph_output_printf(out, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
                     "height=\"%d\" fill=\"%s\" rx=\"2\"/>",
                     PH_SVG_MARGIN + x * span, y, w * span, ROW - 1, fill);
    ph_output_printf(out, "<text x=\"%.2f\" y=\"%d\">",
                     PH_SVG_MARGIN + x * span + 3, y + ROW - 4);
}

static void draw_frame(const flame *fl, ph_output *out, size_t i)
{
    double total = fl->v[0], w = fl->v[i] / total;
    double span = PH_SVG_WIDTH - 2 * PH_SVG_MARGIN;
    const char *name = name_of(fl, i);
    char fill[24];
    colour(fl, i, fill);
    ph_output_printf(out, "<g class=\"ph-f\" data-x=\"%.9g\" "
                     "data-w=\"%.9g\" data-d=\"%u\"><title>", fl->x[i], w,
                     fl->fr.f[i].depth);
    ph_svg_text(out, name, 1000);
    tip_where(fl, out, i);
    if (fl->bv)
        tip_diff(fl, out, i);
    else
        tip_numbers(fl, out, i);
    ph_output_puts(out, "</title>");
    draw_box(fl, out, fl->x[i], w, fl->fr.f[i].depth, fill);
    ph_svg_label(out, name, w * span);
    ph_output_puts(out, "</text></g>\n");
}

/* The "..." frame of parent i, after its drawn children. */
static void draw_dots(const flame *fl, ph_output *out, size_t i)
{
    double total = fl->v[0], at = fl->x[i];
    double span = PH_SVG_WIDTH - 2 * PH_SVG_MARGIN;
    char a[48], c[32];
    for (uint32_t k = fl->fr.f[i].child; k; k = fl->fr.f[k].next)
        if (fl->kept[k])
            at += fl->v[k] / total;
    double w = fl->dots[i] / total;
    if (at + w > fl->x[i] + fl->v[i] / total)
        w = fl->x[i] + fl->v[i] / total - at;
    ph_output_printf(out, "<g class=\"ph-f ph-dots\" data-x=\"%.9g\" "
                     "data-w=\"%.9g\" data-d=\"%u\"><title>...\n%u frames "
                     "narrower than %g%% of the total, merged\n%s "
                     "inclusive: %s (%s)</title>", at, w,
                     fl->fr.f[i].depth + 1, fl->ndots[i], 100 * fl->thr,
                     ph_str_get(fl->p, fl->o->ev->name),
                     ph_svg_num(a, fl->dots[i] * fl->scale),
                     ph_svg_pct(c, fl->dots[i], total));
    draw_box(fl, out, at, w, fl->fr.f[i].depth + 1, "rgb(200,200,200)");
    ph_svg_label(out, "...", w * span);
    ph_output_puts(out, "</text></g>\n");
}

static void prepare_colours(flame *fl)
{
    for (size_t i = 0; i < fl->fr.n; i++) {
        if (!fl->kept[i])
            continue;
        if (fl->o->has_highlight && i &&
            regexec(&fl->o->highlight, name_of(fl, i), 0, NULL, 0) == 0)
            fl->highlighted++;
        if (fl->bv) {
            double d = fabs(fl->sv[i] * fl->scale - fl->bsv[i]);
            if (d > fl->maxdelta)
                fl->maxdelta = d;
        }
    }
}

static void headings(const flame *fl, ph_output *out)
{
    const char *ev = ph_str_get(fl->p, fl->o->ev->name);
    char title[512], sub[512], sub2[512], sub3[256], a[48];
    int height = TOP + (int)(fl->maxd + 1) * ROW + 10;
    if (fl->o->title)
        snprintf(title, sizeof title, "%s", fl->o->title);
    else
        snprintf(title, sizeof title, "%s graph of %s",
                 fl->bv ? "Differential flame" :
                 fl->o->inverted ? "Icicle" : "Flame", ev);
    int k = snprintf(sub, sizeof sub, "width: inclusive %s, total %s; "
                     "frames narrower than %g%% of the total merged into "
                     "\"...\"", ev, ph_svg_num(a, fl->v[0]),
                     100 * fl->thr);
    if (fl->highlighted && k > 0 && (size_t)k < sizeof sub)
        snprintf(sub + k, sizeof sub - (size_t)k,
                 "; %zu frames match /%s/ (magenta)", fl->highlighted,
                 fl->o->highlight_text);
    sub2[0] = '\0';
    if (fl->bv)
        snprintf(sub2, sizeof sub2, "shape from NEW; colour: change of "
                 "self cost from BASE, blue cheaper, red costlier, "
                 "grey within %g%% of BASE's total%s; %zu paths of BASE "
                 "not in NEW", 100 * fl->thr,
                 fl->o->normalize ? "; NEW normalised to BASE's total" : "",
                 fl->gone);
    snprintf(sub3, sizeof sub3, "%s", fl->fr.approx ? "stacks approximated "
             "from flat data: a callee's cost split among its callers by "
             "calls" : "");
    const char *subs[] = { sub, sub2, sub3 };
    ph_svg_begin(out, fl->o, fl->bv ? "diff" : "flame", height, title, subs,
                 3);
}

static void free_flame(flame *fl)
{
    free(fl->v);
    free(fl->sv);
    free(fl->bv);
    free(fl->bsv);
    free(fl->inbase);
    free(fl->kept);
    free(fl->x);
    free(fl->dots);
    free(fl->ndots);
    if (fl->has_funcs)
        ph_svg_funcs_free(&fl->funcs);
    ph_frames_free(&fl->fr);
}

int ph_svg_flame(const ph_profile *p, const ph_profile *base, const ph_svg_opts *o,
                 ph_output *out)
{
    flame fl;
    memset(&fl, 0, sizeof fl);
    fl.p = p;
    fl.o = o;
    fl.scale = 1;
    ph_frames_build(p, out, &fl.fr);
    values(&fl);
    if (!(fl.v[0] > 0)) {
        ph_output_error_set(out, "no positive cost of event \"%s\" to draw",
                            ph_str_get(p, o->ev->name));
        free_flame(&fl);
        return -1;
    }
    if (base && match_base(&fl, base, out) < 0) {
        free_flame(&fl);
        return -1;
    }
    if (!base) {
        ph_svg_funcs_build(p, &fl.funcs);
        fl.has_funcs = 1;
    }
    layout(&fl);
    prepare_colours(&fl);
    headings(&fl, out);
    ph_output_puts(out, "<g class=\"ph-frames\">\n");
    for (size_t i = 0; i < fl.fr.n; i++) {
        if (!fl.kept[i])
            continue;
        draw_frame(&fl, out, i);
        if (fl.ndots[i])
            draw_dots(&fl, out, i);
    }
    ph_output_puts(out, "</g>\n");
    ph_svg_end(out, 1);
    free_flame(&fl);
    return 0;
}
