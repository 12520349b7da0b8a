/* svg.h -- pictures of a profile as self-contained SVG (flame graph,
 * differential flame graph, callee treemap, call graph), for the svg
 * exporter and cgview's draw and report commands.  Options come from the
 * output's options (ph_output_set_option):
 *   event=NAME      the event drawn (default: the profile's default event)
 *   inverted=1      icicle: root at the top (flame, diff)
 *   color=object|self   frame colours (flame)
 *   highlight=REGEX frames whose name matches are drawn magenta
 *   minwidth=PCT    frames narrower than PCT of the total (default 0.1) are
 *                   merged into one "..." frame per parent
 *   normalize=1     diff: scale NEW to BASE's total
 *   root=NAME       treemap/callgraph: the function at the centre
 *                   (default: main, else the top of the stacks)
 *   depth=N         treemap/callgraph: levels drawn (default 6 / 2)
 *   title=TEXT      the heading (default: the kind and the event)
 *   embed=1         no XML prolog (the SVG goes inside an HTML page)
 */
#ifndef PH_SVG_H
#define PH_SVG_H

#include <stddef.h>

#include "ir/format.h"

typedef enum ph_picture {
    PH_PICTURE_FLAME = 0,
    PH_PICTURE_DIFF,
    PH_PICTURE_TREEMAP,
    PH_PICTURE_CALLGRAPH,
} ph_picture;

/* The picture kind called name ("flame", "diff", "treemap", "callgraph"),
 * or -1. */
int ph_picture_find(const char *name);

/* Draw picture kind of p (and base, for PH_PICTURE_DIFF only; else NULL)
 * into out.  0 on success; -1 with the error recorded on out. */
int ph_svg_draw(ph_picture kind, const ph_profile *p, const ph_profile *base,
                ph_output *out);

#endif /* PH_SVG_H */
