/* out_events.c -- what an additive output format can carry, for every
 * writer: which events (additive real events and linear formulas), their
 * values, the default one to show, and units with an integer factor.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/out_events.h"
#include "ir/hash.h"

/* ------------------------------------------------------------------ */
/* Events                                                             */

/* A formula is linear when no term multiplies or divides two names and
 * it has no parentheses (kept simple and on the safe side). */
static int formula_is_linear(const char *f)
{
    int names = 0;
    for (const char *s = f; *s; s++) {
        if (*s == '(' || *s == ')' || *s == '/')
            return 0;
        if (*s == '+' || *s == '-') {
            names = 0;
        } else if (isalpha((unsigned char)*s) || *s == '_') {
            if (++names > 1)
                return 0;
            while (isalnum((unsigned char)s[1]) || s[1] == '_' ||
                   s[1] == '.')
                s++;
        }
    }
    return 1;
}

ph_event **ph_out_events(const ph_profile *p, ph_output *out, size_t *n)
{
    size_t ne = ph_event_count(p), k = 0, nonadd = 0, derived = 0;
    ph_event **evs = ph_xcalloc(ne + 1, sizeof *evs);
    const char *want = out ? ph_output_option(out, "event") : NULL;
    for (size_t i = 0; i < ne; i++) {
        ph_event *ev = ph_event_at(p, i);
        /* A built-in is written only when asked for by name (-O event=). */
        if ((ev->flags & PH_EV_BUILTIN) &&
            !(want && strcmp(ph_str_get(p, ev->name), want) == 0))
            continue;
        if (ev->flags & PH_EV_NONADDITIVE) {
            nonadd++;
            continue;
        }
        if ((ev->flags & PH_EV_DERIVED) &&
            !formula_is_linear(ph_str_get(p, ev->formula))) {
            derived++;
            continue;
        }
        evs[k++] = ev;
    }
    if (nonadd)
        ph_output_drop(out, "nonadditive", nonadd, "non-additive metrics "
                       "(ids, enums, strings; the format sums values)");
    if (derived)
        ph_output_drop(out, "derived", derived, "derived events with "
                       "non-linear formulas (the format holds only summable "
                       "values)");
    *n = k;
    return evs;
}

int64_t ph_out_value(const ph_profile *p, const ph_event *ev,
                     const int64_t *cost)
{
    if (ev->slot >= 0)
        return cost[ev->slot];
    return (int64_t)llround(ph_event_eval(p, ev, cost));
}

int ph_out_pick(const ph_profile *p, ph_output *out, ph_event **evs,
                size_t n)
{
    const char *want = out ? ph_output_option(out, "event") : NULL;
    const ph_event *def = ph_default_event(p);
    for (size_t i = 0; i < n; i++)
        if (want ? !strcmp(ph_str_get(p, evs[i]->name), want)
                 : evs[i] == def)
            return (int)i;
    return n ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Event names in blank-separated lists                               */

/* An open-addressing set of the names given so far; next is the first
 * suffix to try when another name comes out equal to this one, so that n
 * equal names cost n tries, not n^2. */
typedef struct name_slot {
    const char *name;
    unsigned next;
} name_slot;

typedef struct name_set {
    name_slot *slot;
    size_t mask;
} name_set;

/* The slot holding name, or the empty one where it would go. */
static name_slot *name_find(const name_set *set, const char *name)
{
    size_t i = (size_t)ph_hash_bytes(name, strlen(name), 0) & set->mask;
    while (set->slot[i].name && strcmp(set->slot[i].name, name))
        i = (i + 1) & set->mask;
    return &set->slot[i];
}

static int name_needs_rule(const char *s, size_t n)
{
    if (n == 0)
        return 1;
    for (size_t i = 0; i < n; i++)
        if (s[i] == ' ' || s[i] == '=' || s[i] == ':' ||
            (unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 1;
    return 0;
}

/* s[0..n) under the rule, with room for a suffix. */
static char *name_by_rule(const char *s, size_t n)
{
    char *t = ph_xmalloc(n + 24);
    for (size_t i = 0; i < n; i++)
        t[i] = name_needs_rule(s + i, 1) ? '_' : s[i];
    strcpy(t + n, n ? "" : "_");
    return t;
}

void ph_out_names_init(ph_out_names *names, const ph_profile *p)
{
    size_t ne = ph_event_count(p), cap = 16;
    name_set set;

    while (cap < 2 * ne)
        cap *= 2;
    set.slot = ph_xcalloc(cap, sizeof *set.slot);
    set.mask = cap - 1;
    names->name = ph_xcalloc(ne + 1, sizeof *names->name);
    names->made = ph_xcalloc(ne + 1, sizeof *names->made);
    names->nmade = 0;
    names->p = p;
    /* The names the rule keeps first: no other name may take them. */
    for (size_t i = 0; i < ne; i++) {
        const ph_event *ev = ph_event_at(p, i);
        const char *s = ph_str_get(p, ev->name);
        if (name_needs_rule(s, ph_str_len(p, ev->name)))
            continue;
        names->name[ev->index] = s;
        name_find(&set, s)->name = s;
    }
    for (size_t i = 0; i < ne; i++) {
        const ph_event *ev = ph_event_at(p, i);
        if (names->name[ev->index])
            continue;
        char *t = name_by_rule(ph_str_get(p, ev->name),
                               ph_str_len(p, ev->name));
        size_t base = strlen(t);
        name_slot *taken = name_find(&set, t), *free_slot = taken;
        for (unsigned k = taken->next ? taken->next : 2; free_slot->name;
             k++) {
            snprintf(t + base, 24, "_%u", k);
            free_slot = name_find(&set, t);
            taken->next = k + 1;
        }
        free_slot->name = t;
        names->name[ev->index] = t;
        names->made[names->nmade++] = t;
    }
    free(set.slot);
}

void ph_out_names_free(ph_out_names *names)
{
    for (size_t i = 0; i < names->nmade; i++)
        free(names->made[i]);
    free(names->made);
    free(names->name);
}

int ph_out_event_name(ph_output *out, const ph_out_names *names,
                      const ph_event *ev)
{
    const char *s = names->name[ev->index];
    ph_output_puts(out, s);
    /* a name kept is the profile's own string */
    return s != ph_str_get(names->p, ev->name);
}

void ph_out_event_names_changed(ph_output *out, uint64_t n,
                                const char *format)
{
    char what[160];
    snprintf(what, sizeof what, "event names with blanks, '=', ':' or "
             "control bytes written with '_', and '_2', '_3' where that "
             "made two one (%s separates names by blanks)", format);
    ph_output_drop(out, "event-name", n, what);
}

/* ------------------------------------------------------------------ */
/* Units                                                              */

/* Nanoseconds in one unit of time, or 0 for a unit that is no time. */
static double unit_ns(const char *unit)
{
    static const struct { const char *name; double ns; } times[] = {
        {"seconds", 1e9}, {"s", 1e9}, {"sec", 1e9},
        {"milliseconds", 1e6}, {"ms", 1e6},
        {"microseconds", 1e3}, {"us", 1e3},
        {"nanoseconds", 1}, {"ns", 1},
    };
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (strcmp(unit, times[i].name) == 0)
            return times[i].ns;
    return 0;
}

const char *ph_out_unit(const ph_profile *p, const ph_event *ev,
                        int64_t *factor, int *exact)
{
    const char *unit = ph_str_get(p, ev->unit);
    double scale = ev->scale, ns = unit_ns(unit);
    *factor = 1;
    *exact = 1;
    if (scale == 1.0 || scale == 0.0)
        return unit;
    if (ns > 0) {
        double f = scale * ns, r = floor(f + 0.5);
        if (r >= 1 && fabs(f - r) < 1e-6 * r && r < 9e18) {
            *factor = (int64_t)r;
            return "nanoseconds";
        }
    }
    double r = floor(scale + 0.5);
    if (r >= 1 && fabs(scale - r) < 1e-9 * r && r < 9e18) {
        *factor = (int64_t)r;
        return unit;
    }
    *exact = 0;
    return "count";
}

int64_t ph_out_scale(int64_t v, int64_t factor, int *overflow)
{
    int64_t r;
    if (factor == 1)
        return v;
    if (__builtin_mul_overflow(v, factor, &r)) {
        *overflow = 1;
        return v < 0 ? INT64_MIN : INT64_MAX;
    }
    return r;
}

void ph_out_drop_scales(const ph_profile *p, ph_output *out)
{
    uint64_t n = 0;
    for (size_t k = 0; k < ph_event_nreal(p); k++) {
        const ph_event *ev = ph_event_real(p, k);
        /* nanoseconds read back as counts are the same quantity; seconds
         * (gmon's at 1 tick a second) are not */
        int coarse_time = unit_ns(ph_str_get(p, ev->unit)) > 1;
        n += (coarse_time || (ev->scale != 1.0 && ev->scale != 0.0)) &&
             !(ev->flags & PH_EV_NONADDITIVE);
    }
    ph_output_drop(out, "scale", n, "event scales and time units (the "
                   "format has no units: values written as raw counts, "
                   "such as ticks)");
}

/* The length of t[0..n) before its first line end (or NUL). */
static size_t line_part(const char *t, size_t n, int nul)
{
    const char *q;
    if ((q = memchr(t, '\n', n)) != NULL)
        n = (size_t)(q - t);
    if ((q = memchr(t, '\r', n)) != NULL)
        n = (size_t)(q - t);
    if (nul && (q = memchr(t, '\0', n)) != NULL)
        n = (size_t)(q - t);
    return n;
}

int ph_out_line_name(ph_output *out, const char *t, size_t n, int nul)
{
    int replaced = 0;

    if (n == 0) {
        ph_output_write(out, "???", 3);
        return 0;
    }
    for (;;) {
        size_t k = line_part(t, n, nul);
        ph_output_write(out, t, k);
        if (k == n)
            return replaced;
        ph_output_write(out, "?", 1);
        replaced = 1;
        t += k + 1;
        n -= k + 1;
    }
}
