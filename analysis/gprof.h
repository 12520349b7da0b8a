/* gprof.h -- gprof's call-graph numbers for a flat profile: self seconds,
 * calls (self-recursive calls apart), children seconds propagated from
 * callees to callers in proportion to call counts, and cycles reported as
 * "<cycle N>", computed the way GNU gprof's cg_arcs.c does, so a gprof user
 * sees the numbers they know.  Reads the IR only.
 *
 * Ownership: a ph_gprof belongs to its caller (ph_gprof_free); it points
 * into the profile, which must outlive it.
 */
#ifndef PH_GPROF_H
#define PH_GPROF_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"   /* installed beside it: no ir/ prefix */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ph_gprof_fn {
    const ph_func *func;
    double self;          /* seconds (event value x scale) */
    double children;      /* seconds propagated from callees */
    uint64_t calls;       /* calls from other functions (gprof "called") */
    uint64_t self_calls;  /* self-recursive calls ("1+50": the 50) */
    uint32_t cycle;       /* cycle number, 0 = in no cycle */
    double percent;       /* (self + children) of the total, computed in
                             ticks as gprof does (its "% time") */
} ph_gprof_fn;

typedef struct ph_gprof_cycle {
    uint32_t number;      /* 1-based */
    double self, children;
    uint64_t calls;       /* calls into the cycle from outside */
    uint64_t self_calls;  /* calls between members */
    size_t nmembers;
    const ph_func **members;
    double percent;       /* as ph_gprof_fn's */
} ph_gprof_cycle;

/* One caller -> callee line of gprof's call graph (self arcs excluded). */
typedef struct ph_gprof_arc {
    const ph_func *caller, *callee;
    uint64_t count;
    double time, child_time;  /* seconds this arc carries to the caller */
    size_t seq;               /* order of its first call record: gprof
                                 lists equal arcs newest first */
} ph_gprof_arc;

typedef struct ph_gprof ph_gprof;

/* Compute for event ev (NULL: the first real event) over part (or
 * PH_ALL_PARTS).  Functions with no time, no calls and no arcs are left
 * out. */
PH_API ph_gprof *ph_gprof_compute(const ph_profile *p, const ph_event *ev,
                                  int part);
/* Why the children times are approximated (they assume every call costs
 * the same), for reports to say; NULL without arcs.  A static string. */
PH_API const char *ph_gprof_approx(const ph_gprof *g);
PH_API void ph_gprof_free(ph_gprof *g);

PH_API size_t ph_gprof_count(const ph_gprof *g);
PH_API const ph_gprof_fn *ph_gprof_at(const ph_gprof *g, size_t i);
/* Entry of f, or NULL. */
PH_API const ph_gprof_fn *ph_gprof_find(const ph_gprof *g, const ph_func *f);
PH_API size_t ph_gprof_ncycles(const ph_gprof *g);
PH_API const ph_gprof_cycle *ph_gprof_cycle_at(const ph_gprof *g, size_t i);
PH_API size_t ph_gprof_narcs(const ph_gprof *g);
PH_API const ph_gprof_arc *ph_gprof_arc_at(const ph_gprof *g, size_t i);
/* Total self seconds (gprof's "total time"). */
PH_API double ph_gprof_total(const ph_gprof *g);

#ifdef __cplusplus
}
#endif
#endif /* PH_GPROF_H */
