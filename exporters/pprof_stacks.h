/* pprof_stacks.h -- stacks for the tree-shaped exporters (pprof, drcctprof,
 * folded, speedscope), for exporters/ only: the profile's context tree as
 * is, or a tree approximated from flat data (callgrind, gprof) by gprof's
 * rule.  Also the choice of events an additive format can carry. */
#ifndef PH_PPROF_STACKS_H
#define PH_PPROF_STACKS_H

#include "ir/format.h"

typedef struct ph_stk_node {
    uint32_t parent;        /* index + 1 of the parent node; 0 = root */
    uint32_t flags;         /* PH_FRAME_* */
    ph_func *func;          /* never NULL */
    ph_object *obj;
    uint64_t addr;
    uint32_t line;
    uint64_t ext_id;        /* id in the source file (drcctprof), or 0 */
} ph_stk_node;

typedef struct ph_stk_sample {
    uint32_t node;          /* index of its node */
    const int64_t *cost;    /* nreal values */
    const ph_sample *src;   /* the IR sample; NULL when approximated */
} ph_stk_sample;

/* Nodes are in parent-first order (a parent's index is smaller than its
 * children's). */
typedef struct ph_stacks {
    ph_stk_node *nodes;
    size_t nnodes;
    ph_stk_sample *samples;
    size_t nsamples;
    size_t width;           /* ph_event_nreal */
    int approx;             /* built from flat data */
    int64_t *pool;
} ph_stacks;

/* Build the stacks of p.  Tree data is mirrored exactly.  Flat data is
 * turned into a tree: from each function without callers, callees are
 * expanded with the caller's share of the callee (calls' inclusive cost of
 * the first event, else call counts); recursion is cut where a function is
 * already on the stack; each function's self cost is split over its nodes
 * in proportion to their shares, rounded so that every function keeps its
 * exact self cost (so totals are exact; inclusive costs are approximated).
 * Then p is marked approximated and out gets a warning saying so. */
void ph_stacks_build(ph_profile *p, ph_output *out, const char *fmt,
                     ph_stacks *s);
void ph_stacks_free(ph_stacks *s);

/* Events an additive format can carry: additive real events and derived
 * events whose formula is linear (a sum of constant * event).  The others
 * are reported through ph_output_drop.  Returns a malloc'ed array (free
 * it) and their count in *n. */
ph_event **ph_stacks_events(ph_profile *p, ph_output *out, const char *fmt,
                            size_t *n);
/* Value of ev for a full-width cost vector (derived: rounded). */
int64_t ph_stacks_value(ph_profile *p, const ph_event *ev,
                        const int64_t *cost);
/* Unit to write for ev and the integer factor to multiply its raw values
 * by, so that formats without a scale (pprof, speedscope) say the true
 * quantity: an event in seconds with scale 0.01 (gmon's ticks) becomes
 * "nanoseconds" x 10000000.  When no integer factor fits, the raw unit
 * "count" with factor 1 is returned and *exact is set to 0. */
const char *ph_stacks_unit(ph_profile *p, const ph_event *ev, int64_t *factor,
                           int *exact);
/* v * factor, saturated at the int64 range (sets *overflow). */
int64_t ph_stacks_scale(int64_t v, int64_t factor, int *overflow);

/* Index of the event to show by default: option "event", else metadata
 * "default_sample_type", else the last (pprof's rule) when last is set,
 * else the first. -1 when n is 0. */
int ph_stacks_pick(ph_profile *p, ph_output *out, ph_event **evs, size_t n,
                   int last);

#endif /* PH_PPROF_STACKS_H */
