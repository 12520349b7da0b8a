/* svg_treemap.c -- KCachegrind's callee map as SVG: nested rectangles of
 * inclusive cost, from a root function (main by default, else every
 * stack's top) down to a depth.  A box's area is its inclusive cost; its
 * children are laid out inside it with the squarified algorithm (Bruls,
 * Huizing, van Wijk), and the area left over is the box's self cost.
 * Where a function occurs in several stacks, its occurrences are drawn as
 * one box: boxes stand for groups of frames with the same path of names
 * below the root.  Groups narrower than minwidth of the root merge into
 * one "..." box per parent.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/svg_priv.h"

#define HEIGHT 800
#define TOP 50
#define HEADER 15            /* px of a box's label strip */
#define DEFAULT_DEPTH 6
#define MAX_BOXES 6000

typedef struct tmap {
    const ph_profile *p;
    const ph_svg_opts *o;
    ph_frames fr;
    double *v, *sv;
    double total;            /* the root's inclusive value */
    ph_svg_funcs funcs;      /* the numbers of profhub summary */
    int depth;
    size_t boxes;
} tmap;

/* A group of frames with one name, and its value. */
typedef struct group {
    const char *name;
    uint32_t *frames;
    size_t n;
    double v, sv;
    size_t merged;           /* a "..." box: how many groups it holds */
} group;

typedef struct rect {
    double x, y, w, h;
} rect;

/* Children of all frames of g, grouped by name; sorted by value, largest
 * first.  *ngroups set; the arrays are malloc'ed. */
static group *child_groups(const tmap *t, const group *g, size_t *ngroups)
{
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++)
        for (uint32_t c = t->fr.f[g->frames[i]].child; c;
             c = t->fr.f[c].next)
            n++;
    group *out = ph_xcalloc(n + 3, sizeof *out);  /* + "..." and self */
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        for (uint32_t c = t->fr.f[g->frames[i]].child; c;
             c = t->fr.f[c].next) {
            if (t->v[c] <= 0)
                continue;
            const char *name = ph_frame_name(t->p, &t->fr, c);
            size_t j;
            for (j = 0; j < k && strcmp(out[j].name, name); j++)
                ;
            if (j == k)
                out[k++].name = name;
            if ((out[j].n & (out[j].n - 1)) == 0)   /* 0, 1, 2, 4, ... */
                out[j].frames = ph_xrealloc(out[j].frames, (out[j].n ? 2 *
                                            out[j].n : 1) * sizeof(uint32_t));
            out[j].frames[out[j].n++] = c;
            out[j].v += t->v[c];
            out[j].sv += t->sv[c];
        }
    for (size_t i = 1; i < k; i++)          /* insertion sort: few */
        for (size_t j = i; j > 0 && out[j].v > out[j - 1].v; j--) {
            group tmp = out[j];
            out[j] = out[j - 1];
            out[j - 1] = tmp;
        }
    *ngroups = k;
    return out;
}

static void draw_box(tmap *t, ph_output *out, const group *g, const rect *r,
                     int depth)
{
    char fill[24], a[48], b[48], c[32], d[32];
    const char *ev = ph_str_get(t->p, t->o->ev->name), *name = g->name;
    double v = g->v, sv = g->sv;
    size_t nmerged = g->merged;
    t->boxes++;
    if (nmerged)
        strcpy(fill, "rgb(200,200,200)");
    else if (t->o->has_highlight &&
             regexec(&t->o->highlight, name, 0, NULL, 0) == 0)
        strcpy(fill, "rgb(230,0,230)");
    else
        ph_svg_name_colour(fill, name);
    ph_output_printf(out, "<g class=\"ph-t\" data-d=\"%d\"><title>", depth);
    ph_svg_text(out, name, 1000);
    if (nmerged)
        ph_output_printf(out, "\n%zu boxes under %g%% of the total, merged",
                         nmerged, 100 * t->o->minwidth);
    ph_output_printf(out, "\n%s inclusive: %s (%s), self: %s (%s)",
                     ev, ph_svg_num(a, v), ph_svg_pct(c, v, t->total),
                     ph_svg_num(b, sv), ph_svg_pct(d, sv, t->total));
    if (g->n && !nmerged)
        ph_svg_funcs_tip(out, &t->funcs, t->fr.f[g->frames[0]].func,
                         t->o->ev);
    ph_output_puts(out, "</title>");
    ph_output_printf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                     "height=\"%.2f\" fill=\"%s\" stroke=\"#555\" "
                     "stroke-width=\"0.5\"/>", r->x, r->y, r->w, r->h, fill);
    ph_output_printf(out, "<text x=\"%.2f\" y=\"%.2f\">", r->x + 3,
                     r->y + 12);
    if (r->h >= 14)
        ph_svg_label(out, name, r->w);
    ph_output_puts(out, "</text></g>\n");
}

/* Worst aspect ratio of a row of values (sum s, min lo, max hi) laid along
 * a side of length side, in an area where value * k = px^2. */
static double worst(double s, double lo, double hi, double side, double k)
{
    double s2 = s * s * k, side2 = side * side;
    double a = side2 * hi / s2, b = s2 / (side2 * lo);
    return a > b ? a : b;
}

static void draw_group(tmap *t, ph_output *out, const group *g, rect r,
                       int depth);

/* Lay out groups gs[0..n) (values descending) over r, in which value v
 * takes v * k px^2, then draw each. */
static void squarify(tmap *t, ph_output *out, group *gs, size_t n, rect r,
                     double k, int depth)
{
    size_t i = 0;
    while (i < n && r.w > 1 && r.h > 1) {
        double side = r.w < r.h ? r.w : r.h;
        size_t j = i + 1;
        double s = gs[i].v, hi = gs[i].v, lo = gs[i].v;
        while (j < n && gs[j].v > 0) {
            double s2 = s + gs[j].v, lo2 = gs[j].v < lo ? gs[j].v : lo;
            if (worst(s2, lo2, hi, side, k) > worst(s, lo, hi, side, k))
                break;
            s = s2;
            lo = lo2;
            j++;
        }
        /* The row takes a strip of thickness area / side. */
        double thick = s * k / side, at = 0;
        for (size_t m = i; m < j; m++) {
            double len = gs[m].v * k / thick;
            rect b = r.w < r.h ? (rect){ r.x + at, r.y, len, thick }
                               : (rect){ r.x, r.y + at, thick, len };
            at += len;
            draw_group(t, out, &gs[m], b, depth);
        }
        if (r.w < r.h) {
            r.y += thick;
            r.h -= thick;
        } else {
            r.x += thick;
            r.w -= thick;
        }
        i = j;
    }
}

static void draw_group(tmap *t, ph_output *out, const group *g, rect r,
                       int depth)
{
    if (r.w < 1 || r.h < 1 || !g->name)
        return;                        /* a self area stays empty */
    draw_box(t, out, g, &r, depth);
    if (g->merged || depth >= t->depth || r.w < 8 || r.h < HEADER + 8 ||
        t->boxes >= MAX_BOXES)
        return;
    size_t n;
    group *gs = child_groups(t, g, &n);
    /* Small groups merge into one "..." box; the box's own self cost is
     * an undrawn group, so it shows as the area left empty. */
    size_t keep = 0;
    group dots = { "...", NULL, 0, 0, 0, 0 };
    for (size_t i = 0; i < n; i++) {
        if (gs[i].v >= t->o->minwidth * t->total) {
            group tmp = gs[keep];
            gs[keep++] = gs[i];
            gs[i] = tmp;
        } else {
            free(gs[i].frames);
            gs[i].frames = NULL;
            dots.merged++;
            dots.v += gs[i].v;
            dots.sv += gs[i].sv;
        }
    }
    size_t m = keep;
    if (dots.merged)
        gs[m++] = dots;
    group self = { NULL, NULL, 0, g->v, 0, 0 };
    for (size_t i = 0; i < m; i++)
        self.v -= gs[i].v;
    if (self.v > 0)
        gs[m++] = self;
    for (size_t i = 1; i < m; i++)          /* keep values descending */
        for (size_t j = i; j > 0 && gs[j].v > gs[j - 1].v; j--) {
            group tmp = gs[j];
            gs[j] = gs[j - 1];
            gs[j - 1] = tmp;
        }
    rect in = { r.x + 2, r.y + HEADER, r.w - 4, r.h - HEADER - 2 };
    double sum = 0;
    for (size_t i = 0; i < m; i++)
        sum += gs[i].v;
    if (sum > 0)
        squarify(t, out, gs, m, in, in.w * in.h / sum, depth + 1);
    /* The groups moved about: free every frame list once. */
    for (size_t i = 0; i < (m > n ? m : n); i++)
        free(gs[i].frames);
    free(gs);
}

/* The root group: frames of the named function (default: main) that no
 * other frame of it encloses; with no name and no main, the tops of all
 * stacks. */
static int root_group(tmap *t, group *g, ph_output *out)
{
    const char *want = t->o->root ? t->o->root : "main";
    memset(g, 0, sizeof *g);
    g->frames = ph_xmalloc((t->fr.n + 1) * sizeof *g->frames);
    g->name = want;
    uint8_t *inside = ph_xcalloc(t->fr.n + 1, 1);
    for (size_t i = 1; i < t->fr.n; i++) {
        uint32_t par = t->fr.f[i].parent;
        int is = !strcmp(ph_frame_name(t->p, &t->fr, i), want);
        inside[i] = inside[par] || is;
        if (is && !inside[par]) {
            g->frames[g->n++] = (uint32_t)i;
            g->v += t->v[i];
            g->sv += t->sv[i];
        }
    }
    free(inside);
    if (!g->n && !t->o->root) {
        g->name = "all";
        g->frames[g->n++] = 0;
        g->v = t->v[0];
        g->sv = t->sv[0];
    }
    if (!g->n) {
        ph_output_error_set(out, "no function \"%s\" in the profile's stacks",
                            want);
        return -1;
    }
    return 0;
}

int ph_svg_treemap(const ph_profile *p, const ph_svg_opts *o, ph_output *out)
{
    tmap t;
    group root;
    int rc = -1;
    memset(&t, 0, sizeof t);
    t.p = p;
    t.o = o;
    t.depth = o->depth ? o->depth : DEFAULT_DEPTH;
    ph_frames_build(p, out, &t.fr);
    t.v = ph_xcalloc(t.fr.n + 1, sizeof *t.v);
    t.sv = ph_xcalloc(t.fr.n + 1, sizeof *t.sv);
    for (size_t i = 0; i < t.fr.n; i++) {
        t.v[i] = ph_frames_value(p, o->ev, ph_frame_total(&t.fr, i));
        t.sv[i] = ph_frames_value(p, o->ev, ph_frame_self(&t.fr, i));
    }
    ph_svg_funcs_build(p, &t.funcs);
    if (root_group(&t, &root, out) < 0)
        goto done;
    if (!(root.v > 0)) {
        ph_output_error_set(out, "no positive cost of event \"%s\" under "
                            "\"%s\" to draw", ph_str_get(p, o->ev->name),
                            root.name);
        goto done;
    }
    t.total = root.v;
    char title[512], sub[512], a[48];
    const char *ev = ph_str_get(p, o->ev->name);
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "Callee map of %s: %s", root.name,
                 ev);
    snprintf(sub, sizeof sub, "area: inclusive %s, total %s; %d levels; "
             "boxes under %g%% of the total merged into \"...\"%s", ev,
             ph_svg_num(a, root.v), t.depth, 100 * o->minwidth,
             t.fr.approx ? "; stacks approximated from flat data" : "");
    const char *subs[] = { sub };
    ph_svg_begin(out, o, "treemap", HEIGHT + TOP + 10, title, subs, 1);
    rect r = { PH_SVG_MARGIN, TOP, PH_SVG_WIDTH - 2 * PH_SVG_MARGIN,
               HEIGHT };
    ph_output_puts(out, "<g class=\"ph-boxes\">\n");
    draw_group(&t, out, &root, r, 0);
    ph_output_puts(out, "</g>\n");
    ph_svg_end(out, 0);
    rc = 0;
done:
    free(root.frames);
    free(t.v);
    free(t.sv);
    ph_svg_funcs_free(&t.funcs);
    ph_frames_free(&t.fr);
    return rc;
}
