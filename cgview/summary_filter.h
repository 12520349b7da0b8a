/* summary_filter.h -- the summary's sample filters and cut-offs, each
 * with the meaning of the peer it is named after: pprof's --focus,
 * --ignore, --hide, --show, --tagfocus, --tagignore and --node-fraction,
 * callgrind_annotate's --coverage (its --threshold).  The filtering itself
 * is the library's (analysis/table_filter.c); this file parses, cuts the
 * sorted table and prints what pprof prints above its table. */
#ifndef PH_SUMMARY_FILTER_H
#define PH_SUMMARY_FILTER_H

#include <getopt.h>
#include <regex.h>
#include <stdio.h>

#include "cgview/report.h"

enum {
    PH_OPT_FOCUS = 600, PH_OPT_IGNORE, PH_OPT_HIDE, PH_OPT_SHOW,
    PH_OPT_TAGFOCUS, PH_OPT_TAGIGNORE, PH_OPT_COVERAGE, PH_OPT_NODEFRACTION,
    PH_OPT_LINES,
};

#define PH_VIEW_FILTER_LONGOPTS                                        \
    { "focus", required_argument, NULL, PH_OPT_FOCUS },                \
    { "ignore", required_argument, NULL, PH_OPT_IGNORE },              \
    { "hide", required_argument, NULL, PH_OPT_HIDE },                  \
    { "show", required_argument, NULL, PH_OPT_SHOW },                  \
    { "tagfocus", required_argument, NULL, PH_OPT_TAGFOCUS },          \
    { "tagignore", required_argument, NULL, PH_OPT_TAGIGNORE },        \
    { "coverage", required_argument, NULL, PH_OPT_COVERAGE },          \
    { "node-fraction", required_argument, NULL, PH_OPT_NODEFRACTION }, \
    { "lines", no_argument, NULL, PH_OPT_LINES }

#define PH_VIEW_FILTER_USAGE                                              \
    "      --focus REGEX      pprof -focus: keep samples with a frame\n"   \
    "                         (function, file or object) matching REGEX\n" \
    "      --ignore REGEX     pprof -ignore: drop samples with such a frame\n" \
    "      --hide REGEX       pprof -hide: take matching frames off stacks\n" \
    "      --show REGEX       pprof -show: keep only matching frames\n"     \
    "      --tagfocus F       pprof -tagfocus: keep samples whose labels\n" \
    "                         match F ([KEY=]REGEX,... or a range 1kb:4kb)\n" \
    "      --tagignore F      pprof -tagignore: drop those samples\n"       \
    "      --coverage PCT     callgrind_annotate --threshold: the top\n"    \
    "                         entries until PCT%% of the total is covered\n" \
    "      --node-fraction F  pprof -nodefraction: drop entries whose\n"    \
    "                         inclusive cost is below F times the total\n" \
    "      --lines            pprof -lines: one entry per function and line\n"

enum { PH_VF_FOCUS, PH_VF_IGNORE, PH_VF_HIDE, PH_VF_SHOW, PH_VF_TAGFOCUS,
       PH_VF_TAGIGNORE, PH_VF_N };

typedef struct ph_view_filter {
    const char *spec[PH_VF_N];   /* as given; NULL = not given */
    regex_t re[4];               /* focus, ignore, hide, show */
    ph_tag_filter *tag[2];       /* tagfocus, tagignore */
    ph_sample_filter filter;
    double coverage;             /* percent; < 0 = not given */
    double nodefraction;         /* < 0 = not given */
    int lines;                   /* --lines */
    size_t dropped;              /* entries --node-fraction dropped */
    double cutoff;               /* total * fraction, as pprof says it */
} ph_view_filter;

/* Start with nothing given. */
void ph_view_filter_init(ph_view_filter *vf);
/* Handle option opt of getopt_long: 1 when it was one of ours, 0 when not,
 * -1 after a usage error. */
int ph_view_filter_option(ph_view_filter *vf, const char *cmd, int opt,
                          const char *arg);
/* Compile what was given into vf->filter (set r->topts.filter); -1 after a
 * usage error. */
int ph_view_filter_compile(ph_view_filter *vf, const char *cmd,
                           ph_report *r);
void ph_view_filter_free(ph_view_filter *vf);

/* After the table is sorted and its zero entries moved last: drop the
 * entries under --node-fraction (r->listed shrinks), say on stderr what a
 * filter matched nothing of or approximated. */
void ph_view_filter_cut(ph_view_filter *vf, ph_report *r);
/* How many of the first n entries --coverage keeps. */
size_t ph_view_filter_shown(const ph_view_filter *vf, const ph_report *r,
                            size_t n);
/* pprof's lines above the table (active filters, "Showing nodes
 * accounting for ...", "Dropped N nodes") when something was filtered or
 * cut; nothing otherwise. */
void ph_view_filter_print(const ph_view_filter *vf, const ph_report *r,
                          FILE *out);

#endif /* PH_SUMMARY_FILTER_H */
