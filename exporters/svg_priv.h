/* svg_priv.h -- what the svg module's files share: the parsed drawing
 * options, and small writers for SVG text (escaping, numbers, the page
 * frame with its inline script). */
#ifndef PH_SVG_PRIV_H
#define PH_SVG_PRIV_H

#include <regex.h>
#include <stddef.h>

#include "analysis/analysis.h"
#include "exporters/svg.h"
#include "exporters/frames.h"

typedef struct ph_svg_opts {
    ph_event *ev;          /* event drawn (in the NEW profile) */
    int inverted;
    int color_self;        /* colour by self share, not by object */
    int has_highlight;
    regex_t highlight;
    const char *highlight_text;
    double minwidth;       /* fraction of the total (0.001 = 0.1%) */
    int normalize;
    const char *root;
    int depth;             /* 0: the picture's default */
    const char *title;
    int embed;
} ph_svg_opts;

/* Picture width and the side margin, in px. */
#define PH_SVG_WIDTH 1200
#define PH_SVG_MARGIN 10

/* XML-escaped text (at most max bytes of s when max > 0, cut at a UTF-8
 * boundary, with "..." after a cut). */
void ph_svg_text(ph_output *out, const char *s, size_t max);
/* v as "12,345,678" when it is a whole number, else 4 significant digits;
 * buf >= 48 bytes. */
const char *ph_svg_num(char *buf, double v);
/* 100 * part / whole as "12.34%" ("-" when whole is 0); buf >= 32. */
const char *ph_svg_pct(char *buf, double part, double whole);
/* The opening of the picture: prolog (unless embedded), <svg>, style,
 * background, title and nsub subtitle lines (16 px apart from y=42;
 * NULL or empty lines are left out). */
void ph_svg_begin(ph_output *out, const ph_svg_opts *o, const char *kind,
                  int height, const char *title, const char *const *sub,
                  size_t nsub);
/* The click-to-zoom script (flame graphs), then </svg>. */
void ph_svg_end(ph_output *out, int zoom_script);
/* Label of name that fits px pixels at 12px type ("" when under 4
 * characters fit), written escaped. */
void ph_svg_label(ph_output *out, const char *name, double px);
/* A warm colour for a name (objects in a flame graph): "rgb(r,g,b)". */
const char *ph_svg_name_colour(char *buf, const char *name);
/* Shortened C++ name for a label: template arguments and parameter lists
 * folded ("std::vector<...>::push_back(...)").  Into buf. */
const char *ph_svg_short_name(char *buf, size_t size, const char *name);

/* Each function's numbers over all stacks, as `profhub summary` prints
 * them (svg_funcs.c). */
typedef struct ph_svg_funcs {
    ph_table *table;
    ph_entry **by_func;    /* func id -> its entry, or NULL */
} ph_svg_funcs;
void ph_svg_funcs_build(const ph_profile *p, ph_svg_funcs *fs);
void ph_svg_funcs_free(ph_svg_funcs *fs);
/* Inclusive (incl set) or self value of f for ev; NAN when unknown. */
double ph_svg_funcs_value(const ph_svg_funcs *fs, const ph_func *f,
                          const ph_event *ev, int incl);
/* "\nfunction over all stacks: inclusive X, self Y" (nothing when f has
 * no entry). */
void ph_svg_funcs_tip(ph_output *out, const ph_svg_funcs *fs,
                      const ph_func *f, const ph_event *ev);

/* Pictures, one file each. */
int ph_svg_flame(const ph_profile *p, const ph_profile *base, const ph_svg_opts *o,
                 ph_output *out);
int ph_svg_treemap(const ph_profile *p, const ph_svg_opts *o, ph_output *out);
int ph_svg_callgraph(const ph_profile *p, const ph_svg_opts *o,
                     ph_output *out);

#endif /* PH_SVG_PRIV_H */
