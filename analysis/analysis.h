/* analysis.h -- questions asked of a profile: cycles (strongly connected
 * components of the call graph), grouped and filtered cost tables, callers
 * and callees of a function.  Analysis reads the IR and never touches bytes.
 *
 * Ownership: a ph_table or ph_cycles belongs to its caller and is freed with
 * ph_table_free / ph_cycles_free; it points into the profile, which must
 * outlive it.  Entry strings live as long as the table.
 */
#ifndef PH_ANALYSIS_H
#define PH_ANALYSIS_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "io.h"   /* installed beside it: no ir/ prefix */
#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Views: the other shape of a profile                                 */

/* A loaded profile is read-only.  Code that needs the shape a profile does
 * not have (or has only in part) asks for a view, built beside the profile
 * on first request, cached, and freed with it (ir.h, "Caches beside a
 * loaded profile").  Views never change the profile.
 *
 * Stack view: call stacks.  The context tree is mirrored exactly; flat
 * costs and call records are turned into a tree by gprof's rule (a
 * callee's cost splits among its callers in proportion to their calls;
 * recursion cut where a function is already on the stack; each function
 * keeps its exact self cost, so totals are exact and inclusive costs are
 * approximated).  A profile holding both shapes gives both. */
typedef struct ph_stk_node {
    uint32_t parent;        /* index + 1 of the parent node; 0 = root */
    uint32_t flags;         /* PH_FRAME_* */
    const ph_func *func;    /* never NULL */
    const ph_object *obj;
    uint64_t addr;
    uint32_t line;
} ph_stk_node;

/* A sample's costs are read with ph_stk_cost: an approximated function's
 * cost at a line is kept once, packed, and split over the function's
 * nodes when it is read (each node's exact share). */
typedef struct ph_stk_sample {
    uint32_t node;          /* index of its node */
    uint32_t share;         /* 0: values are nreal int64_t; else
                               approximated (view_stacks.c) */
    const void *values;     /* read through ph_stk_cost */
    const ph_sample *src;   /* the IR sample; NULL when approximated */
} ph_stk_sample;

typedef struct ph_stk_share ph_stk_share;

/* Nodes are in parent-first order (a parent's index is smaller than its
 * children's). */
typedef struct ph_stacks {
    const ph_stk_node *nodes;
    size_t nnodes;
    const ph_stk_sample *samples;
    size_t nsamples;
    size_t width;           /* ph_event_nreal */
    const ph_stk_share *shares;
    /* per node, its id in the source file (drcctprof) or 0; NULL when no
     * node has one */
    const uint64_t *ext_ids;
    const char *approx;     /* why some stacks are approximated; NULL when
                               every stack is exact */
    size_t approx_parts;    /* parts merged by the approximation */
    size_t lost;            /* samples at frames without a function */
} ph_stacks;

PH_API const ph_stacks *ph_stacks_of(const ph_profile *p);
/* The width costs of sample i of s: its values, or its share of them
 * worked out in buf (width values). */
PH_API const int64_t *ph_stk_cost(const ph_stacks *s, size_t i,
                                  int64_t *buf);
/* Say on out what the stacks of s approximated or left out (drop
 * warnings, once per kind). */
PH_API void ph_stacks_warn(const ph_stacks *s, ph_output *out);

/* Flat view: self costs at positions and call records.  The profile's own
 * rows and calls, then the context tree turned into rows and records
 * exactly (view_flat.c states the one recursion rule).  Records from the
 * tree count samples, not calls. */
typedef struct ph_flat ph_flat;

PH_API const ph_flat *ph_flat_of(const ph_profile *p);
/* Whether some rows or records come from a context tree. */
PH_API int ph_flat_from_tree(const ph_flat *v);

/* Rows of f in part (NULL: every part): the profile's rows first.
 *   ph_flat_iter it; ph_row r;
 *   ph_flat_rows_init(&it, v, p, f, part);
 *   while (ph_flat_rows_next(&it, &r)) ...; */
typedef struct ph_flat_iter {
    ph_row_iter rows;
    const ph_flat *v;
    const ph_func *f;
    const ph_part *part;
    size_t next, end;
    int in_tree;
} ph_flat_iter;
PH_API void ph_flat_rows_init(ph_flat_iter *it, const ph_flat *v,
                              const ph_profile *p, const ph_func *f,
                              const ph_part *part);
PH_API int ph_flat_rows_next(ph_flat_iter *it, ph_row *out);

/* Whether record c comes from the context tree (its count is samples). */
PH_API int ph_flat_is_tree(const ph_flat *v, const ph_call *c);

/* Whether record c is recursive under the view's one rule: to its own
 * caller, or (the profile's records) within one cycle of the records of
 * every part.  Its calls count; its cost is inside an outer record, so an
 * arc summing records leaves it out. */
PH_API int ph_flat_recursive(const ph_flat *v, const ph_profile *p,
                             const ph_call *c);

/* Call records made by f (out) or into f (in), of every part:
 *   ph_flat_calls it;
 *   for (c = ph_flat_calls_out(&it, v, p, f); c; c = ph_flat_calls_next(&it))
 * As with ph_call_iter, a record is valid until the next step. */
typedef struct ph_flat_calls {
    const ph_flat *v;
    const ph_profile *p;
    const ph_func *f;
    int in;
    int ir_state;          /* the profile's records: 0 to start, 1 going,
                              2 done (or held as copies by the view) */
    ph_call_iter ir;
    size_t k, end;         /* then the view's, by index */
} ph_flat_calls;
PH_API const ph_call *ph_flat_calls_out(ph_flat_calls *it, const ph_flat *v,
                                        const ph_profile *p,
                                        const ph_func *f);
PH_API const ph_call *ph_flat_calls_in(ph_flat_calls *it, const ph_flat *v,
                                       const ph_profile *p, const ph_func *f);
PH_API const ph_call *ph_flat_calls_next(ph_flat_calls *it);

/* ------------------------------------------------------------------ */
/* Cycles                                                              */

/* Strongly connected components of the flat call graph of the selected
 * part(s) (self calls ignored), as gprof and KCachegrind find them.  Only
 * components of two or more functions are cycles; they are numbered from 1
 * in order of their first member's function id.
 *
 * Inclusive cost with cycles (gprof's rule, which never exceeds the total):
 * a member's inclusive is its self cost plus the calls it makes to
 * functions outside its cycle; the cycle's own inclusive is the members'
 * self plus every call from a member to outside the cycle. */
typedef struct ph_cycles ph_cycles;

PH_API ph_cycles *ph_cycles_find(const ph_profile *p, int part);
PH_API void ph_cycles_free(ph_cycles *c);
PH_API uint32_t ph_cycles_count(const ph_cycles *c);
/* Cycle number of f (1-based), 0 when f is in no cycle. */
PH_API uint32_t ph_cycles_of(const ph_cycles *c, const ph_func *f);
/* Members of cycle n (1-based) in function id order; *count set. */
PH_API ph_func *const *ph_cycles_members(const ph_cycles *c, uint32_t n,
                                         size_t *count);
/* Inclusive of member f under the cycle rule (width nreal); NULL when f is
 * in no cycle (use ph_func_incl then). */
PH_API const int64_t *ph_cycles_member_incl(const ph_cycles *c,
                                            const ph_func *f);
/* Self and inclusive of cycle n as a whole; calls into it from outside. */
PH_API const int64_t *ph_cycles_self(const ph_cycles *c, uint32_t n);
PH_API const int64_t *ph_cycles_incl(const ph_cycles *c, uint32_t n);
PH_API uint64_t ph_cycles_calls(const ph_cycles *c, uint32_t n);
/* Calls from one member of cycle n to another (gprof's "+N" of a cycle;
 * self calls apart). */
PH_API uint64_t ph_cycles_inner_calls(const ph_cycles *c, uint32_t n);

/* ------------------------------------------------------------------ */
/* Cost tables                                                         */

typedef enum ph_group {
    PH_GROUP_FUNCTION = 0,
    PH_GROUP_FILE,
    PH_GROUP_OBJECT,
    PH_GROUP_CLASS,     /* C++ namespace::class from the demangled name */
    PH_GROUP_FUNC_FILE, /* the function's own file (callgrind fl=); FILE
                         * is the file of the code (fi=/fe=) */
} ph_group;

typedef enum ph_sort {
    PH_SORT_SELF = 0,
    PH_SORT_INCL,
    PH_SORT_CALLS,
} ph_sort;

/* Sample filters, pprof's (go tool pprof -focus, -ignore, -hide, -show,
 * -tagfocus, -tagignore).  A frame matches a regular expression when its
 * function's name, its source file or its object does.  A sample is kept
 * when some frame matches focus and none matches ignore; then frames that
 * match hide, or do not match show, leave its stack (a sample left with
 * no frame is dropped).  Tag filters keep the samples whose labels match
 * tagfocus and not tagignore.  Flat data is filtered through its stack
 * view, approximated by gprof's rule. */
typedef struct ph_tag_filter ph_tag_filter;

/* "[KEY=]VALUE[,VALUE...]" as pprof reads it (tag_filter.c says how);
 * NULL with a message in err when a regular expression is bad. */
PH_API ph_tag_filter *ph_tag_filter_parse(const char *spec, char *err,
                                          size_t errsize);
PH_API void ph_tag_filter_free(ph_tag_filter *t);
/* Whether sample s (NULL: an approximated one, no labels) passes. */
PH_API int ph_tag_filter_match(const ph_tag_filter *t, const ph_profile *p,
                               const ph_sample *s);

typedef struct ph_sample_filter {
    const regex_t *focus, *ignore, *hide, *show;   /* NULL = not given */
    const ph_tag_filter *tagfocus, *tagignore;
} ph_sample_filter;

/* Whether f filters anything. */
PH_API int ph_sample_filter_active(const ph_sample_filter *f);

/* Bits of ph_table.unmatched: filters that matched no frame (or, for tag
 * filters, no sample), as pprof warns "Focus expression matched no
 * samples". */
enum {
    PH_UNMATCHED_FOCUS = 1, PH_UNMATCHED_IGNORE = 2, PH_UNMATCHED_HIDE = 4,
    PH_UNMATCHED_SHOW = 8, PH_UNMATCHED_TAGFOCUS = 16,
    PH_UNMATCHED_TAGIGNORE = 32,
};

/* The filters applied to each sample of the stack view (ph_stacks_of):
 *   ph_stack_filter *sf = ph_stack_filter_new(p, f, part);
 *   n = ph_stack_filter_sample(sf, i, frames);
 * gives the node indices of the frames sample i keeps, leaf first (frames
 * has room for the view's nnodes), or 0 when the sample is dropped.  f
 * may be NULL (only the part is selected; approximated samples belong to
 * every part). */
typedef struct ph_stack_filter ph_stack_filter;
PH_API ph_stack_filter *ph_stack_filter_new(const ph_profile *p,
                                            const ph_sample_filter *f,
                                            int part);
PH_API size_t ph_stack_filter_sample(ph_stack_filter *sf, size_t i,
                                     uint32_t *frames);
/* Whether frame j of the n kept frames is inlined into the next one (it
 * is an inlined frame and the frame it was inlined into was kept: pprof
 * drops the mark when -hide takes that frame off). */
PH_API int ph_stack_frame_inlined(const ph_stacks *s, const uint32_t *frames,
                                  size_t n, size_t j);
/* PH_UNMATCHED_* of the samples seen so far. */
PH_API unsigned ph_stack_filter_unmatched(const ph_stack_filter *sf);
PH_API void ph_stack_filter_free(ph_stack_filter *sf);

typedef struct ph_table_opts {
    ph_group group;
    int part;              /* PH_ALL_PARTS or a part index */
    int cycles;            /* add <cycle N> entries and use the cycle rule */
    const regex_t *focus;  /* keep entries whose name matches; NULL = all */
    const regex_t *ignore; /* drop entries whose name matches; NULL = none */
    /* Filter samples by stack and labels (pprof); when set and active,
     * the table comes from the kept samples: self is the cost of the
     * samples whose (remaining) leaf is in the entry, inclusive the cost
     * of those with the entry on their stack, no calls and no cycles. */
    const ph_sample_filter *filter;
    /* pprof's -lines granularity: one entry per function and source line
     * of a frame ("name file:line"), from the stack view as with a filter
     * (the grouping is then ignored).  On data with gprof's line credits
     * (gmon.out) and no sample filter: gprof -l's flat profile, one entry
     * per line symbol (ph_line_credits). */
    int lines;
    /* Only the totals, no entry (a report that lists none: text
     * --annotate): no per-function sums, calls or cycles to find. */
    int totals_only;
    /* A report of this one event (NULL: of every event): the entries of
     * a table of functions may then hold only the real events it reads,
     * a few values a function where two vectors of every event would be
     * the biggest thing after the profile; ph_entry_value then answers
     * for this event alone.  Ignored where the table needs more (groups,
     * sample filters, lines, context trees, gprof's inclusive rule). */
    const ph_event *only;
} ph_table_opts;

typedef struct ph_entry {
    /* the name of a group, cycle or line symbol; NULL for a function's
     * entry, whose name is its function's (ph_entry_name: a compound
     * name is made into text only when asked for) */
    const char *label;
    const char *file;      /* function's file ("" if none) */
    const char *object;    /* function's object ("" if none) */
    const ph_func *func;   /* PH_GROUP_FUNCTION members; NULL otherwise */
    /* nreal values each: the profile's or the cycles' own sums, which
     * the table borrows (the profile must not change while the table
     * lives), or the entry's own vectors in own; in a table of one event
     * (ph_table.kept) the values of its kept slots, which the table
     * holds */
    const int64_t *self;
    const int64_t *incl;
    int64_t *own;          /* self and incl the entry owns, or NULL */
    uint64_t calls;        /* calls from outside (self calls excluded) */
    uint64_t self_calls;
    uint32_t cycle;        /* cycle number of the function or cycle entry */
    /* (the flags are bytes: a table has an entry per function) */
    unsigned char is_cycle; /* the entry is "<cycle N>" as a whole */
    unsigned char has_incl; /* inclusive cost is known */
    /* pprof's marker, from the stacks of a context tree: PH_INLINE_ALL
     * when every call into the entry is a frame inlined into its caller,
     * PH_INLINE_SOME when some are; 0 otherwise */
    unsigned char inlined;
    /* gprof -l's line symbols (ph_table_opts.lines on data with line
     * credits): the self cost of the credit event in fractions of a unit,
     * which ph_entry_value returns, and where the symbol starts */
    unsigned char credited;
    uint32_t line;
    double credit;
    uint64_t addr;
} ph_entry;

enum { PH_INLINE_ALL = 1, PH_INLINE_SOME = 2 };

typedef struct ph_table {
    const ph_profile *profile;
    ph_entry *entries;
    size_t count;
    size_t nreal;
    const int64_t *totals; /* of the selected part(s), owned by the profile */
    ph_cycles *cycles;     /* when opts.cycles; owned by the table */
    char **names;          /* group and cycle names the table owns */
    size_t nnames;
    /* With a sample filter: */
    const char *approx;    /* why the stacks are approximated, or NULL */
    unsigned unmatched;    /* PH_UNMATCHED_* */
    int filtered;          /* the table comes from filtered samples */
    int gprof_lines;       /* entries are gprof -l's line symbols */
    /* A table of one event (ph_table_opts.only): the slots its entries
     * keep (nkept of them, NULL: every event), their values, and room for
     * a vector of every event to evaluate them in (ph_entry_value writes
     * it: such a table is read by one thread at a time). */
    size_t *kept;
    size_t nkept;
    int64_t *kept_sums;
    int64_t *wide;
} ph_table;

/* Build the table of every function (or group) with nonzero self or
 * inclusive cost or calls.  Inclusive cost of a group (file, object,
 * class): from a context tree, exactly (each stack counted once per group);
 * from flat data, the calls into the group from outside it, or when it has
 * none, its self cost plus its calls out of it. */
PH_API ph_table *ph_table_build(const ph_profile *p,
                                const ph_table_opts *opts);
PH_API void ph_table_free(ph_table *t);
/* The one rule for tables of flat data whose calls carry no cost
 * (gmon.out): each function entry of t (grouped by function) gets gprof's
 * self + children as inclusive, each cycle entry its cycle's, per real
 * event, over part (or PH_ALL_PARTS).  Returns why that is approximated
 * (analysis/gprof.h), or NULL when t was left alone (calls with costs). */
PH_API const char *ph_table_gprof_incl(const ph_profile *p, ph_table *t,
                                       int part);
/* The entry's name: its label, or its function's name. */
PH_API const char *ph_entry_name(const ph_table *t, const ph_entry *e);
/* The same without keeping a compound name's text (ph_str_text): valid
 * until the next call with buf, which the caller frees. */
PH_API const char *ph_entry_text(const ph_table *t, const ph_entry *e,
                                 char **buf, size_t *cap);
/* Value of event ev for an entry (derived events from the entry's sums). */
PH_API double ph_entry_value(const ph_table *t, const ph_entry *e,
                             const ph_event *ev, int inclusive);
/* The entries among the first n that keep(t, entry, ctx) keeps move to
 * the front, in the order they were; the others follow them in any order.
 * Returns how many it kept.  In place: a table of every function of a big
 * profile is the biggest thing a summary makes after the load. */
PH_API size_t ph_table_keep(ph_table *t, size_t n,
                            int (*keep)(const ph_table *t, const ph_entry *e,
                                        void *ctx),
                            void *ctx);
/* Sort by |value| of ev (or calls), descending; ties by name. */
PH_API void ph_table_sort(ph_table *t, const ph_event *ev, ph_sort by);
/* The same for the first n entries, of which only the first top (0: all)
 * need be in that order: the rest follow them in any order. */
PH_API void ph_table_sort_top(ph_table *t, size_t n, const ph_event *ev,
                              ph_sort by, size_t top);

/* The object that is the program itself: the one named like the program
 * of the "cmd" metadata, else the object of main (C) or main.main (Go);
 * NULL when neither is known. */
PH_API const ph_object *ph_main_object(const ph_profile *p);

/* Class of a demangled C++ name: "geom::Circle::area() const" ->
 * "geom::Circle"; "main" -> "" (no class).  Writes into buf. */
PH_API const char *ph_class_of(const char *name, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Around one function                                                 */

/* Callers or callees of f summed per other function (flat call records and
 * context-tree edges).  For callers: each row's cost is what f costs when
 * called from that caller; for callees: what f spends in each callee. */
typedef struct ph_arc {
    const ph_func *func;  /* the other function */
    uint64_t count;       /* calls (samples for tree data) */
    int64_t *incl;        /* nreal values */
    int recursive;        /* within a cycle (or f itself): calls only, the
                             cost is inside the arcs into the cycle, as
                             gprof shows them; incl stays 0 */
} ph_arc;

typedef struct ph_arcs {
    ph_arc *arcs;
    size_t count;
} ph_arcs;

PH_API ph_arcs *ph_callers(const ph_profile *p, const ph_func *f, int part);
PH_API ph_arcs *ph_callees(const ph_profile *p, const ph_func *f, int part);
PH_API void ph_arcs_free(ph_arcs *a);

/* Functions whose name matches re (regex) or, if none, equals name. */
PH_API size_t ph_funcs_matching(const ph_profile *p, const char *name,
                                const ph_func ***out);

/* ------------------------------------------------------------------ */
/* Renaming and merging                                                */

/* A rename rule "s/OLD/NEW/[g]" (POSIX extended regex; NEW may use & and
 * \1..\9), applied to function or file names before matching. */
typedef struct ph_rename {
    regex_t re;
    char *repl;
    int global;
} ph_rename;

/* Parse spec into r; -1 with a message in err when it is not s/OLD/NEW/ or
 * the regex does not compile. */
PH_API int ph_rename_parse(ph_rename *r, const char *spec, char *err,
                           size_t errsize);
PH_API void ph_rename_free(ph_rename *r);
/* Apply n rules in order to s; returns s itself when n is 0, else buf. */
PH_API const char *ph_rename_apply(const ph_rename *rules, size_t n,
                                   const char *s, char *buf, size_t size);

typedef struct ph_merge_opts {
    int64_t scale;                 /* +1 to add, -1 to subtract */
    ph_part *into;                 /* every part of src goes here; NULL:
                                      each src part becomes a new dst part */
    const ph_rename *rename_fn;    /* rules for function names */
    size_t nrename_fn;
    const ph_rename *rename_file;  /* rules for file names */
    size_t nrename_file;
    /* A string label added to every copied sample (a diff's base samples
     * get pprof::base = true, pprof's -diff_base convention); NULL: none. */
    const char *label_key, *label_value;
    /* When not NULL: filled with the dst function of each src function
     * (indexed by src id - 1; ph_func_count(src) entries). */
    ph_func **func_map;
    /* Sum the rows, calls, jumps and samples that land on one place into
     * one record, in key order, instead of appending them as given. */
    int coalesce;
    /* With into NULL: each src part still becomes a new dst part, but as
     * a descriptor only (kind, number, name, thread): every record lands
     * on dst's first part.  For reports over all parts, whose costs do not
     * depend on the part, so that many inputs take the memory of one.
     * With coalesce, records keep the order their places first came (the
     * order views list ties in) and samples are copied as they are (a
     * context tree's call counts count them). */
    int fold_parts;
} ph_merge_opts;

/* Add src, scaled, into dst: events by name (real events added as needed,
 * derived ones defined when dst lacks them), functions by (name, file,
 * object) after renames, rows, calls, jumps, context nodes and samples.
 * Metadata keys dst lacks are copied.  src is not changed (its caches may
 * fill). */
PH_API void ph_merge_into(ph_profile *dst, ph_profile *src,
                          const ph_merge_opts *o);

/* Many profiles summed into one part (events by name, functions by name,
 * file and object) with memory bounded by the result: every few inputs
 * and at the end the sum is compacted, records that land on one place
 * summed into one.  With the option fold_parts the sum keeps every input
 * part as a descriptor (ph_merge_opts), the records on its first part.
 * Function ids are kept by compaction; ph_func pointers into the sum
 * (func_map) hold until the next add.
 *   ph_merge_stream s;
 *   ph_merge_stream_init(&s, NULL);   (or options: scale, renames)
 *   for each input: ph_merge_stream_add(&s, src, NULL); free src;
 *   ph_profile *sum = ph_merge_stream_finish(&s); */
typedef struct ph_merge_stream {
    ph_profile *sum;
    ph_merge_opts opts;
    size_t pending;       /* inputs added since the last compaction */
    size_t inputs;
} ph_merge_stream;
PH_API void ph_merge_stream_init(ph_merge_stream *s, const ph_merge_opts *o);
PH_API void ph_merge_stream_add(ph_merge_stream *s, ph_profile *src,
                                ph_func **func_map);
PH_API ph_profile *ph_merge_stream_finish(ph_merge_stream *s);

/* ------------------------------------------------------------------ */
/* Diff                                                                */

/* How diff pairs functions.  The default pairs the two profiles' main
 * programs whatever their names (prog and prog_after are one program) and
 * other objects by file name without the folder; NAME_FILE_OBJECT is the
 * strict rule: the object's whole path. */
typedef enum ph_match {
    PH_MATCH_PROGRAM = 0,           /* default: name+file+program */
    PH_MATCH_NAME,
    PH_MATCH_NAME_FILE,
    PH_MATCH_NAME_FILE_OBJECT,
} ph_match;

typedef enum ph_diff_by {
    PH_BY_FUNCTION = 0,
    PH_BY_FILE,
    PH_BY_OBJECT,
    PH_BY_LINE,      /* file:line of flat rows */
    PH_BY_PATH,      /* whole call paths of the context tree */
} ph_diff_by;

typedef struct ph_diff_opts {
    ph_match match;
    ph_diff_by by;
    int normalize;                 /* scale NEW to BASE's total per event */
    const ph_rename *rename_fn;
    size_t nrename_fn;
    const ph_rename *rename_file;
    size_t nrename_file;
    /* Built-in derived events (PH_EV_BUILTIN) to compare: the others are
     * left out, so a diff shows the events the files hold and those the
     * user names. */
    const char *const *builtins;
    size_t nbuiltins;
} ph_diff_opts;

enum { PH_DIFF_IN_BASE = 1, PH_DIFF_IN_NEW = 2 };

typedef struct ph_diff_row {
    ph_str name, file, object;  /* in the diff's strings: ph_diff_str */
    int status;          /* PH_DIFF_IN_BASE | PH_DIFF_IN_NEW */
    const int64_t *bv;   /* base's real values (its nreal) */
    const int64_t *nv;   /* new's real values (its nreal) */
} ph_diff_row;

typedef struct ph_diff {
    ph_profile *base, *newp;
    ph_diff_opts opts;
    size_t nevents;                /* events both sides have, base order */
    const ph_event **bev, **nev;   /* the same event on each side */
    double *scale;                 /* normalisation factor per event */
    size_t bw, nw;
    ph_diff_row *rows;
    size_t count;
    /* Each side's main program (object path) as the default rule found
     * it; NULL when none was found or another rule was asked for. */
    char *base_program, *new_program;
    /* Private: the rows' names, each distinct one once; the values rows
     * borrow: each side's table or values of its own, and the sums of
     * rows made of several of a side's entries; zeros for a side a row
     * is not on. */
    ph_profile *strings;
    ph_table *tables[2];
    int64_t *item_values[2], *sums[2], *zeros;
} ph_diff;

/* Match base and new by the rule in o (self costs; derived events on each
 * side's sums).  Rows keep the order of first appearance until sorted.
 * Rows borrow the profiles' sums: the profiles must not change while the
 * diff lives. */
PH_API ph_diff *ph_diff_build(ph_profile *base, ph_profile *newp,
                              const ph_diff_opts *o);
PH_API void ph_diff_free(ph_diff *d);
PH_API double ph_diff_base_value(const ph_diff *d, const ph_diff_row *r,
                                 size_t e);
/* New's value, normalised when asked. */
PH_API double ph_diff_new_value(const ph_diff *d, const ph_diff_row *r,
                                size_t e);
PH_API double ph_diff_base_total(const ph_diff *d, size_t e);
PH_API double ph_diff_new_total(const ph_diff *d, size_t e);
/* Sort by |new - base| of event e, descending (then by name and file):
 * the first top rows (0: all), the others after them in no order. */
PH_API void ph_diff_sort(ph_diff *d, size_t e, size_t top);
/* Index of a common event by name, (size_t)-1 when absent. */
PH_API size_t ph_diff_event_index(const ph_diff *d, const char *name);
/* The text of a row's name, file or object ("" for none): made only for
 * the rows shown (a name of parts is kept as its parts, ir.h). */
PH_API const char *ph_diff_str(const ph_diff *d, ph_str s);

#ifdef __cplusplus
}
#endif
#endif /* PH_ANALYSIS_H */
