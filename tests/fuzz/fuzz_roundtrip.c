/* fuzz_roundtrip.c -- libFuzzer target for the writers: the bytes are
 * read as `profhub convert` reads them (any format, sniffed; gmon named by
 * address), KCachegrind's built-ins are added as the front end adds them,
 * and the profile is written to every format profhub both writes and
 * reads, through the writer's descriptor into a temporary file renamed
 * into place (ph_output, as convert's save path does).  Each file is read
 * back (sniffed, as a user would) and the per-event totals compared, in
 * each event's unit (pprof writes seconds of gmon ticks as nanoseconds).
 * The rules are tests/e2e/roundtrip.py's: an event may be missing only
 * when the writer announced dropped events or metrics, renamed only when
 * it announced renamed event names, folded's one event comes back as
 * "samples", values are compared raw when scales were dropped, and a
 * writer may refuse a profile only with "... has no ..." (nothing to
 * write).  Anything else aborts with what differed: an output that does
 * not read back, a total that changed, an event from nowhere. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/format.h"

static char dir[64];

static void remove_dir(void)
{
    rmdir(dir);
}

/* Value of an event's total in its base unit: time units in nanoseconds
 * (value * scale * unit), anything else as counted. */
static double in_unit(const ph_profile *p, const ph_event *ev, int64_t v)
{
    static const struct { const char *name; double ns; } times[] = {
        {"seconds", 1e9}, {"milliseconds", 1e6}, {"microseconds", 1e3},
        {"nanoseconds", 1},
    };
    const char *unit = ph_str_get(p, ev->unit);

    for (size_t i = 0; unit && i < sizeof times / sizeof times[0]; i++)
        if (strcmp(unit, times[i].name) == 0)
            return (double)v * ev->scale * times[i].ns;
    return (double)v;
}

static int same(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

static int summed(const ph_event *ev)
{
    return ev->slot >= 0 && !(ev->flags & PH_EV_NONADDITIVE);
}

/* Writers rename event names with these bytes and control bytes
 * (callgrind's events: line, exporters/out_events.c); an empty name
 * becomes "_". */
static char *fix_name(const char *name, size_t n)
{
    char *s = malloc(n + 24);
    for (size_t i = 0; i < n; i++)
        s[i] = strchr(" =:", name[i]) || (unsigned char)name[i] < 0x20 ||
               name[i] == 0x7f ? '_' : name[i];
    strcpy(s + n, n ? "" : "_");
    return s;
}

/* The names those writers give the events of a, by event index, written
 * here again to check theirs: a name the rule leaves alone is kept, and a
 * renamed one that meets a name given already gets "_2", "_3", ...
 * (counting on from the last event renamed to the same name). */
static char **written_names(const ph_profile *a)
{
    size_t ne = ph_event_count(a);
    char **name = calloc(ne + 1, sizeof *name);
    unsigned *suffix = calloc(ne + 1, sizeof *suffix);
    size_t *base_len = calloc(ne + 1, sizeof *base_len);

    for (size_t i = 0; i < ne; i++) {
        const ph_event *ev = ph_event_at(a, i);
        size_t n = ph_str_len(a, ev->name);
        name[i] = fix_name(ph_str_get(a, ev->name), n);
        base_len[i] = strlen(name[i]);
        if (n && memcmp(name[i], ph_str_get(a, ev->name), n) == 0)
            continue;                   /* kept */
        unsigned k = 1;
        for (size_t j = i; j-- > 0;)
            if (suffix[j] && base_len[j] == base_len[i] &&
                memcmp(name[j], name[i], base_len[i]) == 0) {
                k = suffix[j] + 1;
                break;
            }
        for (;; k++) {
            int taken = 0;
            if (k > 1)
                snprintf(name[i] + base_len[i], 24, "_%u", k);
            taken = ph_event_find(a, name[i]) != NULL;
            for (size_t j = 0; j < i && !taken; j++)
                taken = suffix[j] && strcmp(name[j], name[i]) == 0;
            if (!taken)
                break;
        }
        suffix[i] = k;
    }
    free(suffix);
    free(base_len);
    return name;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "roundtrip: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* What the drop warnings of out allow (roundtrip.py's reading of them). */
typedef struct allowed {
    int events_lost;      /* "dropped N ... events|metrics" */
    int renamed;          /* event names with blanks rewritten */
    int raw;              /* event scales dropped: raw counts */
    int saturated;        /* values saturated when scaled */
    char folded[128];     /* folded's one event, read back as "samples"
                           * (the warning shows its first 80 bytes) */
} allowed;

static void read_drops(ph_output *out, allowed *al)
{
    memset(al, 0, sizeof *al);
    for (size_t i = 0; i < ph_output_drop_count(out); i++) {
        const char *what = ph_output_drop_at(out, i, NULL), *q;
        const char *tag = "event name (the values are '";
        if (strstr(what, "events") || strstr(what, "metrics"))
            al->events_lost = 1;
        if (strstr(what, "event names with blanks"))
            al->renamed = 1;
        if (strstr(what, "event scales"))
            al->raw = 1;
        if (strstr(what, "saturated"))
            al->saturated = 1;
        if (strncmp(what, tag, strlen(tag)) == 0 &&
            (q = strstr(what + strlen(tag), "'; the format has none"))) {
            size_t n = (size_t)(q - what - strlen(tag));
            if (n >= sizeof al->folded)
                n = sizeof al->folded - 1;
            memcpy(al->folded, what + strlen(tag), n);
            al->folded[n] = '\0';
        }
    }
}

/* The total of ev in a and of got in b agree (in their units; raw counts
 * when the scales were dropped). */
static int same_total(const ph_profile *a, const ph_event *ev,
                      const ph_profile *b, const ph_event *got,
                      const allowed *al)
{
    const int64_t *ta = ph_totals(a, PH_ALL_PARTS);
    const int64_t *tb = ph_totals(b, PH_ALL_PARTS);
    double want = al->raw ? (double)ta[ev->slot]
                          : in_unit(a, ev, ta[ev->slot]);
    double have = in_unit(b, got, tb[got->slot]);
    return same(want, have) || al->saturated;
}

/* name is the one folded's warning shows (cut at 80 bytes). */
static int named_in_warning(const char *name, const char *shown)
{
    size_t n = strlen(shown);
    return strncmp(name, shown, n) == 0 && (name[n] == '\0' || n >= 80);
}

static void compare(const char *fmt, const ph_profile *a, const ph_profile *b,
                    const allowed *al)
{
    char *seen = calloc(ph_event_nreal(b) + 1, 1);
    char **renamed = al->renamed ? written_names(a) : NULL;
    const ph_event *samples = ph_event_find(b, "samples");
    int folded_found = 0;

    for (size_t k = 0; k < ph_event_nreal(a); k++) {
        const ph_event *ev = ph_event_real(a, k), *got;
        const char *name = ph_str_get(a, ev->name);
        if (!summed(ev))
            continue;
        if (al->folded[0]) {
            /* the one event written: named so, with the same total (two
             * names may begin with the warning's 80 bytes) */
            if (!folded_found && samples && samples->slot >= 0 &&
                named_in_warning(name, al->folded) &&
                same_total(a, ev, b, samples, al)) {
                folded_found = 1;
                seen[samples->slot] = 1;
            } else if (!al->events_lost) {
                fail("%s: event %s lost without a warning", fmt, name);
            }
            continue;
        }
        if (al->renamed)
            name = renamed[ev->index];
        got = ph_event_find(b, name);
        if (!got || !summed(got)) {
            if (!al->events_lost)
                fail("%s: event %s lost without a drop warning", fmt, name);
            continue;
        }
        seen[got->slot] = 1;
        if (!same_total(a, ev, b, got, al))
            fail("%s: event %s total %.17g, read back %.17g", fmt, name,
                 (double)ph_totals(a, PH_ALL_PARTS)[ev->slot],
                 (double)ph_totals(b, PH_ALL_PARTS)[got->slot]);
    }
    if (al->folded[0] && !folded_found)
        fail("%s: no event named '%s' read back as samples with its total",
             fmt, al->folded);
    for (size_t k = 0; k < ph_event_nreal(b); k++) {
        const ph_event *ev = ph_event_real(b, k);
        const char *name = ph_str_get(b, ev->name);
        /* a derived event of a written as values is no stranger */
        if (!seen[k] && summed(ev) && !ph_event_find(a, name))
            fail("%s: event %s appears from nowhere", fmt, name);
    }
    for (size_t i = 0; renamed && i < ph_event_count(a); i++)
        free(renamed[i]);
    free(renamed);
    free(seen);
}

static void round_trip(const ph_profile *a, const ph_format *w)
{
    char path[128], err[1024], msg[1024];
    ph_output *out;
    ph_input *in;
    ph_profile *b;
    allowed al;
    int rc;

    snprintf(path, sizeof path, "%s/rt.%s", dir, w->name);
    out = ph_output_open(path, err, sizeof err);
    if (!out)
        fail("%s: cannot open %s", w->name, err);
    rc = w->write(a, out);
    if (rc < 0) {
        const char *why = ph_output_error(out) ? ph_output_error(out) : "";
        if (!strstr(why, "has no"))
            fail("%s: the writer refuses: %s", w->name, why);
        ph_output_abort(out);
        return;           /* nothing to write, and it says so */
    }
    read_drops(out, &al);
    if (ph_output_commit(out, msg, sizeof msg) < 0)
        fail("%s: %s", w->name, msg);
    in = ph_input_open(path, err, sizeof err);
    if (!in)
        fail("%s: cannot read back: %s", w->name, err);
    b = ph_load_input(in, NULL, err, sizeof err);
    if (!b)
        fail("%s: does not read back: %s", w->name, err);
    compare(w->name, a, b, &al);
    ph_profile_free(b);
    ph_input_close(in);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *copy = ph_xmalloc(size ? size : 1);
    char err[1024];
    ph_input *in;
    ph_profile *a;

    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", "/tmp/ph-fuzz-rt.XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
    }
    memcpy(copy, data, size);
    in = ph_input_memory(copy, size, "fuzz.in");
    ph_input_set_raw_addresses(in, 1);   /* gmon without --exe */
    a = ph_load_input(in, NULL, err, sizeof err);
    if (a) {
        ph_events_add_builtins(a);
        for (size_t i = 0; i < ph_exporter_count(); i++) {
            const ph_format *w = ph_exporter_at(i);
            if (ph_importer_find(w->name))
                round_trip(a, w);
        }
        ph_profile_free(a);
    }
    ph_input_close(in);
    free(copy);
    return 0;
}
