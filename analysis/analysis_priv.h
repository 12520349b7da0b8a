/* analysis_priv.h -- helpers shared by the files of analysis/ only. */
#ifndef PH_ANALYSIS_PRIV_H
#define PH_ANALYSIS_PRIV_H

#include <string.h>

#include "analysis.h"

/* Whether a call, sample or node part matches the selection. */
static inline int ph_part_selected(const ph_part *pt, int part)
{
    return part == PH_ALL_PARTS || (pt && (int)pt->index == part);
}

/* Subtree sums of the context tree for the selected part(s): an array of
 * node_count * nreal values, row (id - 1) holding the cost of every sample
 * at or below that node; non-additive events stay 0.  NULL when the profile
 * has no nodes.  Also the number of samples below each node in *counts
 * (malloc'd, may be NULL when counts is NULL).  Caller frees both. */
int64_t *ph_subtree_sums(const ph_profile *p, int part, uint64_t **counts);

/* Strongly connected components of a graph of n vertices in compressed
 * form: the successors of v are to[first[v] .. first[v + 1]), tried in
 * that order; roots are tried in the order of roots (NULL: 0 .. n-1).
 * comp[v] gets v's component, numbered in completion order (a component
 * completes after every component it reaches, Tarjan's order); order,
 * when not NULL, gets the vertices in that order, each component's
 * members together; visit, when not NULL, the order in which the search
 * first met each vertex.  Returns the number of components (scc.c). */
size_t ph_scc(size_t n, const size_t *first, const uint32_t *to,
              const uint32_t *roots, uint32_t *comp, uint32_t *order,
              uint32_t *visit);

/* Per function (id - 1), its cycle among the calls of part (self calls
 * left out), numbered from 1 in the order of their first members; 0 for a
 * function in none (cycles.c). */
uint32_t *ph_call_cycles(const ph_profile *p, int part);

/* The last part of a path ("a/b/c.so" -> "c.so"). */
static inline const char *ph_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Building a table (table.c): a new zeroed entry with self and incl
 * vectors of its own (*cap: the entries' capacity, doubling); e's self
 * and incl to write, copied first when e borrowed them; e's vectors
 * freed; a copy of s that lives as long as the table; whether the
 * table's --focus/--ignore keep an entry of this name. */
ph_entry *ph_table_push_entry(ph_table *t, size_t *cap);
int64_t *ph_entry_self_mut(const ph_table *t, ph_entry *e);
int64_t *ph_entry_incl_mut(const ph_table *t, ph_entry *e);
void ph_entry_release(ph_entry *e);
const char *ph_table_own_name(ph_table *t, const char *s);
int ph_table_keeps_name(const ph_table_opts *o, const char *name);
/* Whether f is a row of a table of functions (the rule of tables and
 * diffs): a cost of its own or below it (w values of self and incl),
 * calls into it, a credit, or in a call graph a call to another function.
 * incl NULL: the profile's, asked only when nothing else decides (the
 * first time, a pass over every call). */
int ph_table_lists_func(const ph_profile *p, const ph_func *f, int part,
                        const int64_t *self, const int64_t *incl, size_t w);
/* Whether the calls of p carry inclusive costs (or there are none): else
 * gprof's rule gives a table its inclusive costs (gprof_incl.c). */
int ph_calls_have_costs(const ph_profile *p);

/* ph_cost_add, called only when the sum overflows (it saturates and says
 * so): the loops that add millions of costs make no call otherwise. */
static inline int64_t ph_cost_add_fast(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? ph_cost_add(a, b) : r;
}

/* Add n values of b to a. */
static inline void ph_vec_add(int64_t *a, const int64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = ph_cost_add_fast(a[i], b[i]);
}

/* The same for a call's inclusive vector, which may be shorter. */
static inline void ph_vec_add_call(int64_t *a, const ph_call *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = ph_cost_add_fast(a[i], ph_call_incl(c, i));
}

/* Records of nkey id words and width values; ph_sumbuf_fold sorts them by
 * key and sums equal keys, leaving n records in key order, or with
 * first_seen in the order each key first came (sumbuf.c). */
typedef struct ph_sumbuf {
    size_t nkey, width, n, cap;
    uint64_t *keys;       /* n * nkey */
    int64_t *vals;        /* n * width */
    size_t *order;
    int first_seen;
} ph_sumbuf;
void ph_sumbuf_init(ph_sumbuf *b, size_t nkey, size_t width);
void ph_sumbuf_free(ph_sumbuf *b);
/* Empty b for records of this shape (its memory kept when the same). */
void ph_sumbuf_reset(ph_sumbuf *b, size_t nkey, size_t width);
/* Append a record with KEY; returns its zeroed values to fill. */
int64_t *ph_sumbuf_push(ph_sumbuf *b, const uint64_t *key);
size_t ph_sumbuf_fold(ph_sumbuf *b);
static inline const uint64_t *ph_sumbuf_key(const ph_sumbuf *b, size_t i)
{
    return b->keys + i * b->nkey;
}
static inline int64_t *ph_sumbuf_vals(const ph_sumbuf *b, size_t i)
{
    return b->vals + i * b->width;
}

/* Name of the group of f, NULL when unknown (table.c).  A class name is
 * made into buf; the others live in the profile. */
const char *ph_table_group_key(const ph_profile *p, const ph_func *f,
                               ph_group g, char *buf, size_t size);

/* Fill t (profile, nreal and totals set) from the samples of the stack
 * view that opts->filter keeps, pprof's way (table_filter.c). */
void ph_table_build_filtered(ph_table *t, const ph_table_opts *opts);
/* Whether p has gprof's line credits; fill t with an entry per line
 * symbol (gprof_lines.c). */
int ph_table_has_line_credits(const ph_profile *p);
void ph_table_build_line_credits(ph_table *t, const ph_table_opts *opts);
/* Set the entries' inlined markers (pprof's "(inline)") from the stacks
 * of the context tree, for a table of functions built from the profile
 * (table_filter.c). */
void ph_table_mark_inline(ph_table *t, const ph_table_opts *opts);

#endif /* PH_ANALYSIS_PRIV_H */
