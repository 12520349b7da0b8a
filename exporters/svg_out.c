/* svg_out.c -- the svg exporter and the entry of the pictures: read the
 * drawing options from the output (-O KEY=VALUE, or what `profhub draw`
 * sets), pick the event, and hand over to the picture's own file.  As an
 * exporter (`convert -t svg`) it draws a flame graph, or -O kind=KIND.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "exporters/exporters.h"
#include "exporters/svg_priv.h"

PH_DECLARE_EXPORTER(svg);

static const char *const kinds[] = { "flame", "diff", "treemap",
                                     "callgraph" };

int ph_picture_find(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(kinds[i], name))
            return (int)i;
    return -1;
}

static int flag(ph_output *out, const char *key)
{
    const char *v = ph_output_option(out, key);
    return v && strcmp(v, "0") && strcmp(v, "no") && strcmp(v, "false");
}

/* The event to draw: -O event=NAME or the profile's default.  Ratios
 * (formulas that divide) and non-additive metrics cannot be widths. */
static ph_event *pick_event(const ph_profile *p, ph_output *out)
{
    const char *want = ph_output_option(out, "event");
    ph_event *ev = want ? ph_event_find(p, want) : ph_default_event(p);
    if (!ev) {
        if (want)
            ph_output_error_set(out, "no event \"%s\" in the profile", want);
        else
            ph_output_error_set(out, "the profile has no events");
        return NULL;
    }
    const char *name = ph_str_get(p, ev->name);
    if (ev->flags & PH_EV_NONADDITIVE) {
        ph_output_error_set(out, "event \"%s\" is not additive (ids, enums)"
                            "; pictures need a cost that sums", name);
        return NULL;
    }
    if ((ev->flags & PH_EV_DERIVED) &&
        strchr(ph_str_get(p, ev->formula), '/')) {
        ph_output_error_set(out, "event \"%s\" is a ratio (%s); pictures "
                            "need a cost that sums", name,
                            ph_str_get(p, ev->formula));
        return NULL;
    }
    return ev;
}

static int parse_opts(const ph_profile *p, ph_output *out, ph_svg_opts *o)
{
    const char *v;
    memset(o, 0, sizeof *o);
    o->ev = pick_event(p, out);
    if (!o->ev)
        return -1;
    o->inverted = flag(out, "inverted");
    o->normalize = flag(out, "normalize");
    o->embed = flag(out, "embed");
    o->root = ph_output_option(out, "root");
    o->title = ph_output_option(out, "title");
    o->minwidth = 0.001;
    if ((v = ph_output_option(out, "minwidth"))) {
        char *end;
        double pct = strtod(v, &end);
        if (end == v || *end || !(pct >= 0 && pct <= 100)) {
            ph_output_error_set(out, "minwidth expects a percentage from 0 "
                                "to 100, got \"%s\"", v);
            return -1;
        }
        o->minwidth = pct / 100;
    }
    if ((v = ph_output_option(out, "depth"))) {
        char *end;
        long d = strtol(v, &end, 10);
        if (end == v || *end || d < 1 || d > 100) {
            ph_output_error_set(out, "depth expects a number from 1 to 100, "
                                "got \"%s\"", v);
            return -1;
        }
        o->depth = (int)d;
    }
    if ((v = ph_output_option(out, "color"))) {
        if (!strcmp(v, "self"))
            o->color_self = 1;
        else if (strcmp(v, "object")) {
            ph_output_error_set(out, "color expects \"object\" or \"self\", "
                                "got \"%s\"", v);
            return -1;
        }
    }
    if ((v = ph_output_option(out, "highlight"))) {
        int rc = regcomp(&o->highlight, v, REG_EXTENDED | REG_NOSUB);
        if (rc) {
            char msg[256];
            regerror(rc, &o->highlight, msg, sizeof msg);
            ph_output_error_set(out, "highlight: bad regular expression "
                                "\"%s\": %s", v, msg);
            return -1;
        }
        o->has_highlight = 1;
        o->highlight_text = v;
    }
    return 0;
}

int ph_svg_draw(ph_picture kind, const ph_profile *p, const ph_profile *base,
                ph_output *out)
{
    ph_svg_opts o;
    int rc;
    if (parse_opts(p, out, &o) < 0)
        return -1;
    switch (kind) {
    case PH_PICTURE_FLAME:
        rc = ph_svg_flame(p, NULL, &o, out);
        break;
    case PH_PICTURE_DIFF:
        if (!base) {
            ph_output_error_set(out, "a differential flame graph needs a "
                                "base profile");
            rc = -1;
            break;
        }
        rc = ph_svg_flame(p, base, &o, out);
        break;
    case PH_PICTURE_TREEMAP:
        rc = ph_svg_treemap(p, &o, out);
        break;
    case PH_PICTURE_CALLGRAPH:
        rc = ph_svg_callgraph(p, &o, out);
        break;
    default:
        ph_output_error_set(out, "unknown picture kind");
        rc = -1;
    }
    if (o.has_highlight)
        regfree(&o.highlight);
    if (rc < 0 && !ph_output_error(out))
        ph_output_error_set(out, "cannot be drawn");
    return rc;
}

int ph_svg_write(const ph_profile *p, ph_output *out)
{
    const char *k = ph_output_option(out, "kind");
    int kind = k ? ph_picture_find(k) : PH_PICTURE_FLAME;
    if (kind < 0 || kind == PH_PICTURE_DIFF)
        return ph_output_error_set(out, "kind expects flame, treemap or "
                                   "callgraph, got \"%s\" (a diff needs two "
                                   "inputs: profhub draw diff)", k);
    return ph_svg_draw((ph_picture)kind, p, NULL, out);
}
