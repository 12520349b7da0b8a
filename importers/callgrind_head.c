/* importers/callgrind_head.c -- the header side of the callgrind reader:
 * parts (opened by events:/positions:/part:/pid:/thread: after a part with
 * events), events: column mapping, positions:, summary:/totals: checked
 * against the cost lines, cmd/pid/creator/desc/thread/part kept, and
 * event: lines (long names, derived formulas) applied at the end. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/callgrind_priv.h"
/* ------------------------------------------------------------------ */
/* Parts                                                              */

void ph_cg_new_part(ph_cgread *r)
{
    if (r->part)
        ph_cg_check_sums(r, 0);
    r->part = ph_part_add(r->p, PH_PART_WHOLE);
    r->part->number = r->part->pid = r->part->tid = -1;
    r->nparts++;
    r->have_events = 0;
    r->pos_instr = 0;
    r->pos_line = 1;
    r->last_addr = r->last_line = 0;
    r->ncol = 0;
    r->fsum_n = r->ftot_n = -1;
    r->ob = r->cob = NULL;
    r->fl = r->fi = r->cfi = r->jfi = NULL;
    r->fn = NULL;
    r->have_cfn = r->have_jfn = 0;
}

/* Lines that open a part when the current one already has "events:". */
void ph_cg_start_part(ph_cgread *r)
{
    if (!r->part || r->have_events)
        ph_cg_new_part(r);
}

/* summary: may exceed the cost lines (the spec says ">="; valgrind 3.19
 * with --cache-sim=yes really writes 2 Ir more): only less is suspicious.
 * totals: must be equal. */
static void warn_vector(ph_cgread *r, const char *what, uint64_t line,
                        const int64_t *v, int n, int may_exceed)
{
    int i;

    for (i = 0; i < r->ncol; i++) {
        int64_t want = i < n ? v[i] : 0;
        if (may_exceed ? want < (int64_t)r->sum[i]
                       : (uint64_t)want != r->sum[i]) {
            ph_event *ev = ph_event_real(r->p, (size_t)r->slot[i]);
            ph_input_warn(r->in, "cg-totals-mismatch", line,
                          "%s says %lld %s but the cost lines add up to "
                          "%lld", what, (long long)want,
                          ph_str_get(r->p, ev->name),
                          (long long)(int64_t)r->sum[i]);
            return;
        }
    }
}

/* Compare summary:/totals: with the data of the part that ends; keep them
 * in the IR (per slot). */
void ph_cg_check_sums(ph_cgread *r, int at_eof)
{
    int64_t tmp[64], *v;
    int i;

    (void)at_eof;
    if (r->part->tid >= 0)
        r->part->kind = PH_PART_THREAD;
    else if (r->part->number >= 0)
        r->part->kind = PH_PART_DUMP;
    if (!r->have_events)
        return;
    v = r->ncol <= 64 ? tmp : ph_xmalloc((size_t)r->ncol * sizeof *v);
    if (r->fsum_n >= 0) {
        warn_vector(r, "summary:", r->fsum_line, r->fsum, r->fsum_n, 1);
        for (i = 0; i < r->ncol; i++)
            v[i] = i < r->fsum_n ? r->fsum[i] : 0;
        if (r->identity) {
            ph_part_set_summary(r->p, r->part, v, (size_t)r->ncol);
        } else {
            memset(r->vec, 0, r->nvec * sizeof *r->vec);
            for (i = 0; i < r->ncol; i++)
                r->vec[r->slot[i]] = v[i];
            ph_part_set_summary(r->p, r->part, r->vec, r->nvec);
        }
    }
    if (r->ftot_n >= 0) {
        warn_vector(r, "totals:", r->ftot_line, r->ftot, r->ftot_n, 0);
        for (i = 0; i < r->ncol; i++)
            v[i] = i < r->ftot_n ? r->ftot[i] : 0;
        if (r->identity) {
            ph_part_set_totals(r->p, r->part, v, (size_t)r->ncol);
        } else {
            memset(r->vec, 0, r->nvec * sizeof *r->vec);
            for (i = 0; i < r->ncol; i++)
                r->vec[r->slot[i]] = v[i];
            ph_part_set_totals(r->p, r->part, r->vec, r->nvec);
        }
    }
    if (v != tmp)
        free(v);
}

/* Writers that end every part with totals: (valgrind's callgrind and our
 * own writer).  Others (Xdebug, pyprof2calltree, go tool pprof) write no
 * totals: and a summary: of their own making (Xdebug: the script's wall
 * time; pyprof2calltree: the largest inclusive time), which KCachegrind
 * replaces by the sum of the cost lines: so do we. */
static int writes_totals(const ph_cgread *r)
{
    const char *c = ph_meta_get(r->p, "creator");

    return c && (strncmp(c, "callgrind-", 10) == 0 ||
                 strncmp(c, "profhub-", 8) == 0);
}

/* A part that announced a summary, has no totals: and less data than the
 * summary is a file cut short when its writer always ends a part with
 * totals:. */
int ph_cg_check_truncated(ph_cgread *r)
{
    int i;

    if (!r->have_events || r->fsum_n < 0 || r->ftot_n >= 0 ||
        !writes_totals(r))
        return 0;
    for (i = 0; i < r->ncol; i++) {
        int64_t want = i < r->fsum_n ? r->fsum[i] : 0;
        if ((uint64_t)want != r->sum[i]) {
            ph_event *ev = ph_event_real(r->p, (size_t)r->slot[i]);
            return ph_input_error_at(r->in, r->sc.lineno + 1, 1,
                "file ends early (no \"totals:\"; the cost lines add up "
                "to %lld %s, \"summary:\" on line %llu says %lld)",
                (long long)(int64_t)r->sum[i], ph_str_get(r->p, ev->name),
                (unsigned long long)r->fsum_line, (long long)want);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Header lines                                                       */

static int parse_vector(ph_cgread *r, const char *q, const char *e,
                        int64_t **out, int *n)
{
    int k = 0;

    if (!r->have_events)
        return ph_cg_fail(r, q, "\"summary:\"/\"totals:\" before \"events:\"");
    if (!*out)
        *out = ph_xmalloc((size_t)r->ncol * sizeof **out);
    q = ph_cg_skipws(q, e);
    while (q < e) {
        int rc;
        if (k == r->ncol)
            return ph_cg_fail(r, q, "more values than events (%d)", r->ncol);
        rc = ph_cg_i64(&q, e, &(*out)[k]);
        if (rc == PH_CGN_NOTNUM)
            rc = ph_cg_fraction_cost(r, &q, e, &(*out)[k]);
        if (rc != PH_CGN_OK)
            return ph_cg_bad_number(r, q, e, rc, "a number");
        k++;
        q = ph_cg_skipws(q, e);
    }
    *n = k;
    return 0;
}

static int do_events(ph_cgread *r, const char *q, const char *e)
{
    int n = 0;
    const char *t;
    char name[256];
    unsigned char *listed;

    ph_cg_start_part(r);
    for (t = ph_cg_skipws(q, e); t < e; t = ph_cg_skipws(t, e)) {
        while (t < e && !ph_cg_isspace(*t))
            t++;
        n++;
    }
    if (n == 0)
        return ph_cg_fail(r, e, "\"events:\" names no event");
    r->slot = ph_xrealloc(r->slot, (size_t)n * sizeof *r->slot);
    r->col = ph_xrealloc(r->col, (size_t)n * sizeof *r->col);
    r->sum = ph_xrealloc(r->sum, (size_t)n * sizeof *r->sum);
    free(r->fsum);
    free(r->ftot);
    r->fsum = r->ftot = NULL;
    memset(r->sum, 0, (size_t)n * sizeof *r->sum);
    r->identity = 1;
    /* One mark per slot finds a name listed twice in linear time (a scan of
     * the names before it took 11.7 s for 200,000 names).  The n names
     * add at most n slots to those there now. */
    listed = ph_xcalloc(ph_event_nreal(r->p) + (size_t)n, 1);
    n = 0;
    for (t = ph_cg_skipws(q, e); t < e; t = ph_cg_skipws(t, e)) {
        const char *w = t;
        ph_event *ev;
        while (t < e && !ph_cg_isspace(*t))
            t++;
        if ((size_t)(t - w) >= sizeof name) {
            free(listed);
            return ph_cg_fail(r, w, "event name too long");
        }
        memcpy(name, w, (size_t)(t - w));
        name[t - w] = 0;
        ev = ph_event_add(r->p, name);
        if (ev->slot < 0 || listed[ev->slot]) {
            free(listed);
            return ph_cg_fail(r, w, ev->slot < 0 ?
                              "event \"%s\" is a derived event" :
                              "event \"%s\" listed twice", name);
        }
        listed[ev->slot] = 1;
        r->slot[n] = ev->slot;
        if (ev->slot != n)
            r->identity = 0;
        n++;
    }
    free(listed);
    r->ncol = n;
    r->nvec = ph_event_nreal(r->p);
    r->vec = ph_xrealloc(r->vec, r->nvec * sizeof *r->vec);
    r->have_events = 1;
    return 0;
}

static int do_positions(ph_cgread *r, const char *q, const char *e)
{
    const char *t;

    ph_cg_start_part(r);
    r->pos_instr = r->pos_line = 0;
    for (t = ph_cg_skipws(q, e); t < e; t = ph_cg_skipws(t, e)) {
        const char *w = t;
        while (t < e && !ph_cg_isspace(*t))
            t++;
        if (t - w == 5 && memcmp(w, "instr", 5) == 0)
            r->pos_instr = 1;
        else if (t - w == 4 && memcmp(w, "line", 4) == 0)
            r->pos_line = 1;
        else
            return ph_cg_fail(r, w, "unknown position kind \"%.*s\" (expected "
                        "\"instr\" or \"line\")", (int)(t - w), w);
    }
    if (!r->pos_instr && !r->pos_line)
        r->pos_line = 1;
    return 0;
}

static int header_number(ph_cgread *r, const char *q, const char *e,
                         uint64_t *v)
{
    int rc;

    q = ph_cg_skipws(q, e);
    rc = ph_cg_u64(&q, e, v);
    if (rc != PH_CGN_OK)
        return ph_cg_bad_number(r, q, e, rc, "a number");
    if (ph_cg_skipws(q, e) != e)
        return ph_cg_fail(r, q, "unexpected text after the number");
    return 0;
}

/* Add key: value to the metadata unless that exact pair is there. */
static void meta_once(ph_cgread *r, const char *key, const char *v, size_t n)
{
    char buf[4096];
    char *s = n < sizeof buf ? buf : ph_xmalloc(n + 1);
    size_t i, cnt = ph_meta_count(r->p);

    memcpy(s, v, n);
    s[n] = 0;
    for (i = 0; i < cnt; i++) {
        const char *k, *val;
        ph_meta_at(r->p, i, &k, &val);
        if (strcmp(k, key) == 0 && strcmp(val, s) == 0)
            break;
    }
    if (i == cnt)
        ph_meta_add(r->p, key, s);
    if (s != buf)
        free(s);
}

int ph_cg_header(ph_cgread *r, const char *k, size_t kl, const char *q,
                     const char *e)
{
    uint64_t v;

#define KEY(s) (kl == sizeof(s) - 1 && memcmp(k, s, kl) == 0)
    q = ph_cg_skipws(q, e);
    while (e > q && ph_cg_isspace(e[-1]))
        e--;
    if (KEY("events"))
        return do_events(r, q, e);
    if (KEY("positions"))
        return do_positions(r, q, e);
    if (KEY("event")) {
        if (r->nevs == r->capevs) {
            r->capevs = r->capevs ? 2 * r->capevs : 8;
            r->evs = ph_xrealloc(r->evs, r->capevs * sizeof *r->evs);
        }
        ph_cgevdef *d = &r->evs[r->nevs++];
        d->line = r->sc.lineno;
        d->len = (size_t)(e - q);
        d->text = ph_xmalloc(d->len + 1);
        memcpy(d->text, q, d->len);
        d->text[d->len] = '\0';
        return 0;
    }
    if (KEY("summary")) {
        r->fsum_line = r->sc.lineno;
        return parse_vector(r, q, e, &r->fsum, &r->fsum_n);
    }
    if (KEY("totals")) {
        r->ftot_line = r->sc.lineno;
        return parse_vector(r, q, e, &r->ftot, &r->ftot_n);
    }
    if (KEY("part") || KEY("pid") || KEY("thread")) {
        if (header_number(r, q, e, &v) < 0)
            return -1;
        ph_cg_start_part(r);
        if (v > INT64_MAX)
            return ph_cg_fail(r, q, "number out of range");
        if (KEY("part")) {
            r->part->number = (int64_t)v;
        } else if (KEY("thread")) {
            r->part->tid = (int64_t)v;
        } else {
            r->part->pid = (int64_t)v;
            if (!ph_meta_get(r->p, "pid"))
                meta_once(r, "pid", q, (size_t)(e - q));
        }
        return 0;
    }
    if (KEY("version")) {
        if (header_number(r, q, e, &v) < 0)
            return -1;
        if (v > 1)
            ph_input_warn(r->in, "cg-version", r->sc.lineno,
                          "format version %llu is newer than 1; reading "
                          "it as version 1", (unsigned long long)v);
        return 0;
    }
    if (KEY("cmd") || KEY("creator")) {
        meta_once(r, KEY("cmd") ? "cmd" : "creator", q, (size_t)(e - q));
        return 0;
    }
    if (KEY("desc")) {
        if (e - q >= 8 && memcmp(q, "Trigger:", 8) == 0) {
            const char *t = ph_cg_skipws(q + 8, e);
            if (!r->part)
                ph_cg_new_part(r);
            r->part->trigger = ph_str_intern(r->p, t, (size_t)(e - t));
            return 0;
        }
        meta_once(r, "desc", q, (size_t)(e - q));
        return 0;
    }
    ph_input_warn(r->in, "cg-unknown-header", r->sc.lineno,
                  "unknown header line \"%.*s:\" ignored", (int)kl, k);
    return 0;
#undef KEY
}

/* ------------------------------------------------------------------ */
/* event: lines, applied at the end of the file                       */

static void apply_event(ph_cgread *r, const ph_cgevdef *d, int last_try,
                        int *done)
{
    const char *q = d->text, *e = d->text + d->len, *n0, *f0 = NULL,
               *f1 = NULL, *l0 = NULL;
    size_t nlen;
    char *name, *formula, *lname = NULL;
    ph_event *ev;

    n0 = q;
    while (q < e && !ph_cg_isspace(*q) && *q != '=' && *q != ':')
        q++;
    nlen = (size_t)(q - n0);
    q = ph_cg_skipws(q, e);
    if (q < e && *q == '=') {
        f0 = ph_cg_skipws(q + 1, e);
        q = f0;
        while (q < e && *q != ':')
            q++;
        f1 = q;
    }
    if (q < e && *q == ':')
        l0 = ph_cg_skipws(q + 1, e);
    name = ph_xmalloc(nlen + 1);
    memcpy(name, n0, nlen);
    name[nlen] = 0;
    if (l0)
        lname = (char *)l0;
    if (nlen == 0) {
        ph_input_warn(r->in, "cg-event", d->line,
                      "\"event:\" line without a name ignored");
        *done = 1;
    } else if (!f0) {
        ev = ph_event_find(r->p, name);
        if (ev && lname)
            ev->long_name = ph_str_intern(r->p, l0, (size_t)(e - l0));
        else if (!ev) {
            ph_meta_add(r->p, "event", name);
            ph_input_warn(r->in, "cg-event", d->line, "\"event: %s\" names "
                          "an event that is not in \"events:\"", name);
        }
        *done = 1;
    } else {
        int col = 0;
        char err[200];
        size_t fl = (size_t)(f1 - f0);
        formula = ph_xmalloc(fl + 1);
        memcpy(formula, f0, fl);
        while (fl > 0 && ph_cg_isspace(formula[fl - 1]))
            fl--;
        formula[fl] = 0;
        ev = ph_event_define(r->p, name, formula, &col, err, sizeof err);
        if (ev) {
            if (lname)
                ev->long_name = ph_str_intern(r->p, l0, (size_t)(e - l0));
            *done = 1;
        } else if (last_try) {
            /* Keep the declaration (and its long name) as metadata so a
             * callgrind export writes it back. */
            ph_meta_add(r->p, "event", d->text);
            ph_input_warn(r->in, "cg-event-formula", d->line,
                          "formula of event \"%s\" not understood (%s at "
                          "column %d of \"%s\"); kept as a name only", name,
                          err, col, formula);
            *done = 1;
        }
        free(formula);
    }
    free(name);
}

void ph_cg_apply_events(ph_cgread *r)
{
    int *done = ph_xcalloc(r->nevs + 1, sizeof *done);
    size_t i, left = r->nevs;
    int progress = 1;

    /* Derived events may refer to ones declared later: retry until no
     * progress, then report what is left. */
    while (left && progress) {
        progress = 0;
        for (i = 0; i < r->nevs; i++) {
            if (done[i])
                continue;
            apply_event(r, &r->evs[i], 0, &done[i]);
            if (done[i])
                left--, progress = 1;
        }
    }
    for (i = 0; i < r->nevs; i++)
        if (!done[i])
            apply_event(r, &r->evs[i], 1, &done[i]);
    free(done);
}

