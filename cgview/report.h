/* report.h -- what the files of the summary report share (cgview/summary.c
 * parses the options and loads; report_*.c print): the report's settings,
 * the cost table, and small helpers for names, numbers and columns. */
#ifndef PH_REPORT_H
#define PH_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "cgview/cli.h"
#include "cgview/emit.h"

/* Text reports fit ph_report_width columns: --width N / -w N, else
 * $COLUMNS, else the terminal's width when stdout is one, else no limit
 * (PH_REPORT_MAXW: nothing is cut in a pipe or a file, as pprof and git
 * do).  Name buffers hold PH_REPORT_MAXW + 1 bytes. */
enum { PH_REPORT_MAXW = 4096 };
extern size_t ph_report_width;
#define PH_REPORT_WIDTH ph_report_width
/* Set ph_report_width from arg (--width; NULL: the environment and the
 * terminal).  Returns -1 on a bad arg (the caller reports it). */
int ph_report_set_width(const char *arg);

typedef enum ph_view {
    PH_VIEW_TABLE = 0,   /* the default report */
    PH_VIEW_CALLERS,
    PH_VIEW_CALLEES,
    PH_VIEW_BUTTERFLY,
    PH_VIEW_TREE,
    PH_VIEW_ANNOTATE,
    PH_VIEW_TRACES,      /* report_traces.c */
} ph_view;

typedef struct ph_report {
    ph_profile *p;
    const char *path;
    ph_report_format fmt;
    ph_view view;
    const char *fn;          /* --callers/--callees/--butterfly/--annotate */
    const char *source_dir;  /* --annotate: where to look for sources */
    const ph_event *ev;      /* the event shown and sorted by */
    ph_sort sort;
    size_t top;              /* 0 = all */
    double threshold;        /* percent of the total; 0 = none */
    ph_table_opts topts;     /* group, part, cycles, focus, ignore */
    ph_table *table;         /* built and sorted by summary.c */
    size_t listed;           /* entries worth listing (text: nonzero) */
    size_t shown;            /* entries of table the report shows */
    const char *approx;      /* what the report approximated, if the
                                profile itself is exact (gprof's rule) */
    const struct ph_view_filter *vf;  /* summary_filter.h */
} ph_report;

/* The selected part(s) as a ph_part pointer for row iterators (NULL = all). */
ph_part *ph_report_part(const ph_report *r);

/* Percent of v in the total of the event, or NaN when a percentage means
 * nothing (a ratio, or a zero total). */
double ph_report_percent(const ph_report *r, const ph_event *ev, double v);
/* Whether an event is a ratio (a derived formula that divides). */
int ph_report_is_ratio(const ph_report *r, const ph_event *ev);

/* Copy s into buf, at most width columns; a longer s loses its middle
 * ("std::vector<int>::...::insert"). */
const char *ph_report_fit(char *buf, size_t size, const char *s,
                          size_t width);
/* Last component of a path. */
const char *ph_report_base(const char *path);

/* Text, JSON, YAML or CSV of the views; 0 or PH_EXIT_BAD. */
int ph_report_table(ph_report *r);
int ph_report_graph(ph_report *r);
int ph_report_annotate(ph_report *r);
int ph_report_traces(ph_report *r);

/* Shared by the data reports: the "profile", "events" and "totals" keys of
 * the top-level map, and one function object (name, file, object, self,
 * inclusive, calls, cycle) without its closing. */
void ph_report_emit_head(ph_report *r, ph_emit *e);
void ph_report_emit_entry(ph_report *r, ph_emit *e, const ph_entry *en);
/* A flow map of every shown event's value for the real values v. */
void ph_report_emit_costs(ph_report *r, ph_emit *e, const int64_t *v);
/* The text header: profile, command, parts, events with totals. */
void ph_report_print_head(ph_report *r, FILE *out);

/* Read derived-event definitions from a YAML config file into p
 * (cgview/config.c).  A missing default file is not an error.  Returns 0,
 * or prints "FILE:LINE:COL: message" and returns -1. */
int ph_report_config(ph_profile *p, const char *path, int must_exist);
/* The default config path (XDG_CONFIG_HOME or ~/.config); buf >= 4096. */
const char *ph_report_config_default(char *buf, size_t size);

#endif /* PH_REPORT_H */
