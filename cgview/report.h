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
#include "cgview/grid.h"

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
    PH_VIEW_DISASM,      /* report_disasm.c */
} ph_view;

typedef struct ph_report {
    ph_profile *p;
    const char *path;
    ph_report_format fmt;
    ph_view view;
    const char *fn;          /* --callers/--callees/--butterfly/--annotate */
    const char *source_dir;  /* --annotate: where to look for sources */
    /* --annotate: the functions with code in each file (annotate.h) */
    const struct ph_file_funcs *file_funcs;
    uint32_t context;        /* --annotate: lines around a costly line */
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
    int gprof;               /* --gprof: gprof's call graph (text) */
    const struct ph_view_filter *vf;  /* summary_filter.h */
} ph_report;

/* --context N into r->context; -1 after a usage error. */
int ph_report_parse_context(const char *cmd, const char *arg, ph_report *r);

/* The selected part(s) as a ph_part pointer for row iterators (NULL = all). */
ph_part *ph_report_part(const ph_report *r);

/* Percent of v in the total of the event, or NaN when a percentage means
 * nothing (a ratio, or a zero total). */
double ph_report_percent(const ph_report *r, const ph_event *ev, double v);
/* Whether an event is a ratio (a derived formula that divides). */
int ph_report_is_ratio(const ph_report *r, const ph_event *ev);
/* v, a value of ev, as text reports show it (ph_event_shown): seconds
 * with one tick's decimals for gmon's ticks ("0.16"), else a count with
 * commas.  buf holds 40 bytes. */
const char *ph_report_number(const ph_report *r, const ph_event *ev,
                             double v, char *buf);
/* Self value of e in the report's event: gprof's fractional credit when
 * the source kept one (ph_func_credit; a cycle sums its members'), so a
 * gmon row prints what gprof's flat profile prints; else the table's. */
double ph_report_self(const ph_report *r, const ph_entry *e);

/* Copy s into buf, at most width columns; a longer s loses its middle
 * ("std::vector<int>::...::insert"). */
const char *ph_report_fit(char *buf, size_t size, const char *s,
                          size_t width);
/* Columns s takes as ph_report_fit shows it (control bytes and bytes that
 * are no UTF-8 as \xNN). */
size_t ph_report_shown_len(const char *s);
/* Last component of a path. */
const char *ph_report_base(const char *path);
/* Whether a file's name names a file: not NULL, not empty, not valgrind's
 * "???" (code without debug information, every such function's). */
int ph_report_file_known(const char *name);

/* Text, JSON, YAML or CSV of the views; 0 or PH_EXIT_BAD. */
int ph_report_table(ph_report *r);
int ph_report_graph(ph_report *r);
/* gprof -q's call graph, whole or FN's entries (report_gprof.c). */
int ph_report_gprof(ph_report *r);
int ph_report_annotate(ph_report *r);
/* --gprof --annotate FN: FN's files as gprof -A prints them */
int ph_report_gprof_source(ph_report *r);
int ph_report_traces(ph_report *r);
/* FN's instruction addresses, costs, calls and objdump's text. */
int ph_report_disasm(ph_report *r);

/* Shared by the data reports: the "profile", "events" and "totals" keys of
 * the top-level map, and one function object (name, file, object, self,
 * inclusive, calls, cycle) without its closing. */
void ph_report_emit_head(ph_report *r, ph_emit *e);
void ph_report_emit_entry(ph_report *r, ph_emit *e, const ph_entry *en);
/* That function object as a row of a grid (the summary table's rows):
 * ph_report_entry_cols declares its columns, ph_report_entry_row adds
 * one entry's row. */
typedef struct ph_entry_cols {
    size_t name, file, object, cost[2], calls, cycle;  /* cost: self, incl */
    size_t line, address, credit;   /* of a gprof -l line symbol only */
} ph_entry_cols;
void ph_report_entry_cols(const ph_report *r, ph_grid *g, ph_entry_cols *c);
void ph_report_entry_row(const ph_report *r, ph_grid *g,
                         const ph_entry_cols *c, const ph_entry *en);
/* The columns of a group of costs, one per shown event, keyed by the
 * event's name (CSV: "PREFIX_EV", or "EV" without a prefix; none when
 * group->csv is NULL); group gives the group's name, flags and CSV
 * place.  Returns the group's first column, which
 * ph_report_cost_cells fills from the real values v. */
size_t ph_report_cost_cols(const ph_report *r, ph_grid *g,
                           const ph_grid_col *group, const char *csv_prefix);
void ph_report_cost_cells(const ph_report *r, ph_grid *g, size_t col,
                          const int64_t *v);
/* Whether the report shows event e (not a non-additive one). */
int ph_report_event_shown(const ph_event *e);
/* A flow map of every shown event's value for the real values v. */
void ph_report_emit_costs(ph_report *r, ph_emit *e, const int64_t *v);
/* The text header: profile, command, parts, events with totals. */
void ph_report_print_head(ph_report *r, FILE *out);
/* The functions --annotate/--disasm FN names (*fs, malloc'd); 0, with
 * the message printed and *fs NULL, when none matches. */
size_t ph_report_matching(const ph_report *r, const ph_func ***fs);
/* A source file by its name in the profile: under --source-dir (as
 * named, then by its base name), else as named; NULL when not found. */
FILE *ph_report_open_source(const ph_report *r, const char *name);
/* The start of a report with one block per function: the text head, the
 * CSV header of rows (the grid each block's CSV rows come from), or an
 * emitter holding the head and an open "functions" list, returned (NULL
 * for text and CSV). */
ph_emit *ph_report_funcs_begin(ph_report *r, const ph_grid *rows);
/* Close what ph_report_funcs_begin opened: rc, or PH_EXIT_BAD when the
 * emitter failed. */
int ph_report_funcs_end(ph_emit *em, int rc);

#endif /* PH_REPORT_H */
