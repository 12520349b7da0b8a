/* out_events.h -- what an additive output format can carry (events,
 * values, the default event, units), shared by the writers in exporters/
 * only.  Stacks and flat records come from the views of analysis/. */
#ifndef PH_OUT_EVENTS_H
#define PH_OUT_EVENTS_H

#include "analysis/analysis.h"
#include "ir/format.h"

/* Events an additive format can carry: additive real events and derived
 * events whose formula is linear (a sum of constant * event).  The others
 * are reported through ph_output_drop.  Returns a malloc'ed array (free
 * it) and their count in *n. */
ph_event **ph_out_events(const ph_profile *p, ph_output *out, size_t *n);
/* Value of ev for a full-width cost vector (derived: rounded). */
int64_t ph_out_value(const ph_profile *p, const ph_event *ev,
                     const int64_t *cost);
/* Unit to write for ev and the integer factor to multiply its raw values
 * by, so that formats without a scale (pprof, speedscope) say the true
 * quantity: an event in seconds with scale 0.01 (gmon's ticks) becomes
 * "nanoseconds" x 10000000.  When no integer factor fits, the raw unit
 * "count" with factor 1 is returned and *exact is set to 0. */
const char *ph_out_unit(const ph_profile *p, const ph_event *ev,
                        int64_t *factor, int *exact);
/* For formats without units (callgrind, cachegrind, folded): a drop
 * warning for the real events whose scale is not 1 (gmon's ticks of
 * 0.01 s) or whose unit is a time coarser than nanoseconds, whose raw
 * counts are written. */
void ph_out_drop_scales(const ph_profile *p, ph_output *out);
/* v * factor, saturated at the int64 range (sets *overflow). */
int64_t ph_out_scale(int64_t v, int64_t factor, int *overflow);
/* Index in evs of the event to show first: the writer option "event",
 * else the profile's default event (ph_default_event), else the first;
 * -1 when n is 0. */
int ph_out_pick(const ph_profile *p, ph_output *out, ph_event **evs,
                size_t n);
/* The names to write for the events of p in the blank-separated lists of
 * callgrind and cachegrind files (events:, event:), one rule for both:
 * ' ', '=', ':' and every control byte (tab, line ends, NUL, and the form
 * feed and vertical tab that the cachegrind reader and cg_annotate take as
 * blanks) become '_', and an empty name is "_".  A name the rule makes
 * equal to another event's gets "_2", "_3", ... until it is distinct (a
 * list with a name twice does not read back); names the rule leaves alone
 * are kept.  Indexed by ph_event.index. */
typedef struct ph_out_names {
    const ph_profile *p;
    const char **name;
    char **made;        /* the names written differently, to free */
    size_t nmade;
} ph_out_names;

void ph_out_names_init(ph_out_names *names, const ph_profile *p);
void ph_out_names_free(ph_out_names *names);
/* Writes ev's name; returns 1 when it differs from the profile's (the
 * writer says so with an "event-name" drop). */
int ph_out_event_name(ph_output *out, const ph_out_names *names,
                      const ph_event *ev);
/* The "event-name" drop for n names that ph_out_event_name changed, in a
 * file of the given format. */
void ph_out_event_names_changed(ph_output *out, uint64_t n,
                                const char *format);

/* A name on one line of a line-based format (callgrind, cachegrind): its
 * line ends, and its NULs when nul is set, written as '?' (they would end
 * its line, or its name for callgrind's readers); an empty name as "???".
 * Returns whether a byte was replaced. */
int ph_out_line_name(ph_output *out, const char *t, size_t n, int nul);

#endif /* PH_OUT_EVENTS_H */
