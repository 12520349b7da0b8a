/* importers/callgrind_in.c -- reads one callgrind file (format version 0/1,
 * valgrind 3.x, see shared/formats/callgrind.md) into the IR in one pass:
 * name compression with file-wide id tables, positions instr/line, cost,
 * call and jump lines, several parts, event: formulas (applied at the end
 * of the file), summary:/totals: checks.  Loading a run's sibling files is
 * in callgrind_files.c; the token helpers are in callgrind_scan.c. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/callgrind_priv.h"
#include "io.h"
#include "ir.h"

/* ------------------------------------------------------------------ */
/* Compressed-name tables                                             */

/* One id of one kind: its name and what it resolved to last time (an
 * object, a file, or a function with the file and object it was resolved
 * with), so that "fn=(12)" costs one array lookup. */
typedef struct cgent {
    ph_str name;
    int defined;
    void *cache;
    const void *k1, *k2;
} cgent;

/* Small ids (the normal case) index an array; ids far beyond what the file
 * could define go to an open-addressing table, so a huge id in a small
 * file allocates nothing big. */
typedef struct cgids {
    cgent *dense;
    size_t ndense;
    size_t limit;
    uint64_t *hkey;
    cgent *hval;
    size_t hcap, hused;
    const char *kind;   /* "object", "file", "function" */
} cgids;

static cgent *find_id(cgids *t, uint64_t id, int create)
{
    size_t i, mask;

    if (id < t->limit) {
        if (id >= t->ndense) {
            size_t n = t->ndense ? t->ndense : 256;
            if (!create)
                return NULL;
            while (n <= id)
                n *= 2;
            if (n > t->limit)
                n = t->limit;
            t->dense = ph_xrealloc(t->dense, n * sizeof *t->dense);
            memset(t->dense + t->ndense, 0,
                   (n - t->ndense) * sizeof *t->dense);
            t->ndense = n;
        }
        return &t->dense[id];
    }
    if (t->hcap == 0 || (create && 2 * (t->hused + 1) > t->hcap)) {
        size_t ncap = t->hcap ? 2 * t->hcap : 64, j;
        uint64_t *nk;
        cgent *nv;
        if (!create && t->hcap == 0)
            return NULL;
        nk = ph_xcalloc(ncap, sizeof *nk);
        nv = ph_xcalloc(ncap, sizeof *nv);
        for (j = 0; j < t->hcap; j++) {
            if (!t->hkey[j])
                continue;
            i = (size_t)(t->hkey[j] * 0x9E3779B97F4A7C15ull) & (ncap - 1);
            while (nk[i])
                i = (i + 1) & (ncap - 1);
            nk[i] = t->hkey[j];
            nv[i] = t->hval[j];
        }
        free(t->hkey);
        free(t->hval);
        t->hkey = nk;
        t->hval = nv;
        t->hcap = ncap;
    }
    mask = t->hcap - 1;
    i = (size_t)(id * 0x9E3779B97F4A7C15ull) & mask;
    while (t->hkey[i] && t->hkey[i] != id)
        i = (i + 1) & mask;
    if (!t->hkey[i]) {
        if (!create)
            return NULL;
        t->hkey[i] = id;
        t->hused++;
    }
    return &t->hval[i];
}

static void free_ids(cgids *t)
{
    free(t->dense);
    free(t->hkey);
    free(t->hval);
}

/* ------------------------------------------------------------------ */
/* Reader state                                                       */

enum { PEND_NONE, PEND_CALL, PEND_JUMP, PEND_JCND };

typedef struct cgevdef {
    uint64_t line;
    const char *s, *e;   /* text after "event:" */
} cgevdef;

typedef struct cgread {
    ph_input *in;
    ph_profile *p;
    ph_cgscan sc;
    cgids obs, files, fns;

    /* Current part. */
    ph_part *part;
    int have_events;
    int pos_instr, pos_line;
    uint64_t last_addr, last_line;
    int ncol;             /* events in this part's "events:" */
    int *slot;            /* column -> slot */
    int identity;         /* slot[i] == i for all columns */
    int64_t *col;         /* costs of the current line, per column */
    int64_t *vec;         /* the same per slot, when not identity */
    size_t nvec;
    uint64_t *sum;        /* per column: self costs of this part */
    int64_t *fsum, *ftot; /* summary:/totals: as written, per column */
    uint64_t fsum_line, ftot_line;
    int fsum_n, ftot_n;

    /* Position context. */
    ph_object *ob, *cob;
    ph_file *fl, *fi, *cfi, *jfi;
    ph_func *fn;
    ph_str cfn_name, jfn_name;
    uint64_t cfn_id, jfn_id;
    int have_cfn, have_jfn;

    /* A calls=/jump=/jcnd= waiting for its position line. */
    int pend;
    uint64_t pend_line;
    uint64_t pend_count, pend_followed;
    uint64_t pend_taddr, pend_tline;
    ph_func *pend_to;
    ph_file *pend_tofile;

    cgevdef *evs;
    size_t nevs, capevs;
    int nparts;
    int warned_nofn, warned_jumpcost;
} cgread;

/* Record an error at column (at - line start) of the current line. */
static int fail(cgread *r, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(cgread *r, const char *at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    uint64_t col = at ? (uint64_t)(at - r->sc.s) + 1 : 1;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ph_input_error_at(r->in, r->sc.lineno, col, "%s", msg);
}

static int bad_number(cgread *r, const char *q, const char *e, int code,
                      const char *what)
{
    int n = ph_cg_toklen(q, e);

    if (code == PH_CGN_RANGE)
        return fail(r, q, "number \"%.*s\" is out of range (more than 64 "
                    "bits)", n, q);
    if (code == PH_CGN_NEGATIVE)
        return fail(r, q, "relative position \"%.*s\" goes below 0", n, q);
    if (q >= e)
        return fail(r, q, "expected %s, got the end of the line", what);
    return fail(r, q, "expected %s, got \"%.*s\"", what, n, q);
}

/* ------------------------------------------------------------------ */
/* Names                                                              */

/* Resolve a spec value through table t.  Sets *name (0 for "???" when
 * unknown_empty) and *ent (NULL for an uncompressed name). */
static int get_name(cgread *r, cgids *t, const char *v, const char *e,
                    int unknown_empty, ph_str *name, cgent **ent,
                    uint64_t *idp)
{
    uint64_t id;
    const char *nm;
    size_t len, errcol;
    int compressed;

    if (ph_cg_name(v, e, &compressed, &id, &nm, &len, &errcol) < 0)
        return fail(r, v + errcol, "malformed compressed name \"%.*s\" "
                    "(expected \"(number) name\")",
                    ph_cg_toklen(v + errcol, e), v + errcol);
    *idp = compressed ? id + 1 : 0;
    if (!compressed || len > 0) {
        ph_str s = 0;
        if (len > 0 && !(unknown_empty && len == 3 &&
                         memcmp(nm, "???", 3) == 0))
            s = ph_str_intern(r->p, nm, len);
        *name = s;
        *ent = NULL;
        if (!compressed)
            return 0;
        *ent = find_id(t, id, 1);
        if ((*ent)->defined && (*ent)->name != s)
            ph_input_warn(r->in, "cg-redefined-id", r->sc.lineno,
                          "compressed %s id (%llu) redefined as \"%.*s\"",
                          t->kind, (unsigned long long)id, (int)len, nm);
        (*ent)->name = s;
        (*ent)->defined = 1;
        (*ent)->cache = NULL;
        return 0;
    }
    *ent = find_id(t, id, 0);
    if (!*ent || !(*ent)->defined)
        return fail(r, v, "undefined compressed %s id (%llu)", t->kind,
                    (unsigned long long)id);
    *name = (*ent)->name;
    return 0;
}

static int get_object(cgread *r, const char *v, const char *e,
                      ph_object **out)
{
    ph_str s;
    cgent *ent;
    uint64_t id;

    if (get_name(r, &r->obs, v, e, 1, &s, &ent, &id) < 0)
        return -1;
    if (ent && ent->cache) {
        *out = ent->cache;
        return 0;
    }
    *out = ph_object_get(r->p, s);
    if (ent)
        ent->cache = *out;
    return 0;
}

static int get_file(cgread *r, const char *v, const char *e, ph_file **out)
{
    ph_str s;
    cgent *ent;
    uint64_t id;

    if (get_name(r, &r->files, v, e, 1, &s, &ent, &id) < 0)
        return -1;
    if (ent && ent->cache) {
        *out = ent->cache;
        return 0;
    }
    *out = ph_file_get(r->p, s);
    if (ent)
        ent->cache = *out;
    return 0;
}

/* Function by name id + 1 (0: uncompressed) within file and object. */
static ph_func *resolve_func(cgread *r, uint64_t id, ph_str name,
                             ph_file *file, ph_object *obj)
{
    cgent *ent = id ? find_id(&r->fns, id - 1, 0) : NULL;
    ph_func *f;

    if (ent && ent->cache && ent->k1 == file && ent->k2 == obj)
        return ent->cache;
    f = ph_func_get(r->p, name, file, obj);
    if (ent) {
        ent->cache = f;
        ent->k1 = file;
        ent->k2 = obj;
    }
    return f;
}

/* Name of a fn=/cfn=/jfn= spec: the name and id + 1 (0 if plain). */
static int get_func_name(cgread *r, const char *v, const char *e,
                         ph_str *name, uint64_t *id)
{
    cgent *ent;

    return get_name(r, &r->fns, v, e, 0, name, &ent, id);
}

/* ------------------------------------------------------------------ */
/* Parts                                                              */

static void check_sums(cgread *r, int at_eof);

static void new_part(cgread *r)
{
    if (r->part)
        check_sums(r, 0);
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
static void start_part(cgread *r)
{
    if (!r->part || r->have_events)
        new_part(r);
}

static void warn_vector(cgread *r, const char *what, uint64_t line,
                        const int64_t *v, int n)
{
    int i;

    for (i = 0; i < r->ncol; i++) {
        int64_t want = i < n ? v[i] : 0;
        if ((uint64_t)want != r->sum[i]) {
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
static void check_sums(cgread *r, int at_eof)
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
        warn_vector(r, "summary:", r->fsum_line, r->fsum, r->fsum_n);
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
        warn_vector(r, "totals:", r->ftot_line, r->ftot, r->ftot_n);
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

/* A part that announced a summary, has no totals: and less data than the
 * summary is a file cut short: callgrind always ends a part with totals:. */
static int check_truncated(cgread *r)
{
    int i;

    if (!r->have_events || r->fsum_n < 0 || r->ftot_n >= 0)
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

static int parse_vector(cgread *r, const char *q, const char *e,
                        int64_t **out, int *n)
{
    int k = 0;

    if (!r->have_events)
        return fail(r, q, "\"summary:\"/\"totals:\" before \"events:\"");
    if (!*out)
        *out = ph_xmalloc((size_t)r->ncol * sizeof **out);
    q = ph_cg_skipws(q, e);
    while (q < e) {
        int rc;
        if (k == r->ncol)
            return fail(r, q, "more values than events (%d)", r->ncol);
        rc = ph_cg_i64(&q, e, &(*out)[k]);
        if (rc != PH_CGN_OK)
            return bad_number(r, q, e, rc, "a number");
        k++;
        q = ph_cg_skipws(q, e);
    }
    *n = k;
    return 0;
}

static int do_events(cgread *r, const char *q, const char *e)
{
    int n = 0, i;
    const char *t;
    char name[256];

    start_part(r);
    for (t = ph_cg_skipws(q, e); t < e; t = ph_cg_skipws(t, e)) {
        while (t < e && !ph_cg_isspace(*t))
            t++;
        n++;
    }
    if (n == 0)
        return fail(r, e, "\"events:\" names no event");
    r->slot = ph_xrealloc(r->slot, (size_t)n * sizeof *r->slot);
    r->col = ph_xrealloc(r->col, (size_t)n * sizeof *r->col);
    r->sum = ph_xrealloc(r->sum, (size_t)n * sizeof *r->sum);
    free(r->fsum);
    free(r->ftot);
    r->fsum = r->ftot = NULL;
    memset(r->sum, 0, (size_t)n * sizeof *r->sum);
    r->identity = 1;
    n = 0;
    for (t = ph_cg_skipws(q, e); t < e; t = ph_cg_skipws(t, e)) {
        const char *w = t;
        ph_event *ev;
        while (t < e && !ph_cg_isspace(*t))
            t++;
        if ((size_t)(t - w) >= sizeof name)
            return fail(r, w, "event name too long");
        memcpy(name, w, (size_t)(t - w));
        name[t - w] = 0;
        ev = ph_event_add(r->p, name);
        if (ev->slot < 0)
            return fail(r, w, "event \"%s\" is a derived event", name);
        for (i = 0; i < n; i++)
            if (r->slot[i] == ev->slot)
                return fail(r, w, "event \"%s\" listed twice", name);
        r->slot[n] = ev->slot;
        if (ev->slot != n)
            r->identity = 0;
        n++;
    }
    r->ncol = n;
    r->nvec = ph_event_nreal(r->p);
    r->vec = ph_xrealloc(r->vec, r->nvec * sizeof *r->vec);
    r->have_events = 1;
    return 0;
}

static int do_positions(cgread *r, const char *q, const char *e)
{
    const char *t;

    start_part(r);
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
            return fail(r, w, "unknown position kind \"%.*s\" (expected "
                        "\"instr\" or \"line\")", (int)(t - w), w);
    }
    if (!r->pos_instr && !r->pos_line)
        r->pos_line = 1;
    return 0;
}

static int header_number(cgread *r, const char *q, const char *e,
                         uint64_t *v)
{
    int rc;

    q = ph_cg_skipws(q, e);
    rc = ph_cg_u64(&q, e, v);
    if (rc != PH_CGN_OK)
        return bad_number(r, q, e, rc, "a number");
    if (ph_cg_skipws(q, e) != e)
        return fail(r, q, "unexpected text after the number");
    return 0;
}

/* Add key: value to the metadata unless that exact pair is there. */
static void meta_once(cgread *r, const char *key, const char *v, size_t n)
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

static int do_header(cgread *r, const char *k, size_t kl, const char *q,
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
        r->evs[r->nevs].line = r->sc.lineno;
        r->evs[r->nevs].s = q;
        r->evs[r->nevs].e = e;
        r->nevs++;
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
        start_part(r);
        if (v > INT64_MAX)
            return fail(r, q, "number out of range");
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
                new_part(r);
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
/* Body lines                                                         */

/* "calls=N target", "jump=N target", "jcnd=F/E target" (or "E F"). */
static int parse_target(cgread *r, const char *q, const char *e)
{
    int rc;
    uint64_t a = 0, l = 0;

    q = ph_cg_skipws(q, e);
    if (r->pos_instr) {
        if (q >= e)
            return 0;       /* target omitted: unknown */
        rc = ph_cg_subpos(&q, e, r->last_addr, &a);
        if (rc != PH_CGN_OK)
            return bad_number(r, q, e, rc, "a target address");
        q = ph_cg_skipws(q, e);
    }
    if (r->pos_line && q < e) {
        rc = ph_cg_subpos(&q, e, r->last_line, &l);
        if (rc != PH_CGN_OK)
            return bad_number(r, q, e, rc, "a target line");
        q = ph_cg_skipws(q, e);
    }
    if (q < e)
        return fail(r, q, "unexpected \"%.*s\" after the target position",
                    ph_cg_toklen(q, e), q);
    if (l > UINT32_MAX)
        return fail(r, q, "line number %llu is too large",
                    (unsigned long long)l);
    r->pend_taddr = a;
    r->pend_tline = l;
    return 0;
}

static int do_call(cgread *r, const char *q, const char *e)
{
    int rc;

    if (!r->have_cfn)
        return fail(r, r->sc.s, "\"calls=\" without a \"cfn=\" before it");
    q = ph_cg_skipws(q, e);
    rc = ph_cg_u64(&q, e, &r->pend_count);
    if (rc != PH_CGN_OK)
        return bad_number(r, q, e, rc, "a call count");
    if (parse_target(r, q, e) < 0)
        return -1;
    r->pend_to = resolve_func(r, r->cfn_id, r->cfn_name,
                              r->cfi ? r->cfi : r->fi,
                              r->cob ? r->cob : r->ob);
    r->pend = PEND_CALL;
    r->pend_line = r->sc.lineno;
    return 0;
}

static int do_jump(cgread *r, int cond, const char *q, const char *e)
{
    int rc;
    uint64_t a, b = 0;

    q = ph_cg_skipws(q, e);
    if (cond) {
        const char *slash = q;
        while (slash < e && !ph_cg_isspace(*slash) && *slash != '/')
            slash++;
        if (slash < e && *slash == '/') {
            /* Written form: followed/executed. */
            rc = ph_cg_u64(&q, slash, &a);
            if (rc != PH_CGN_OK)
                return bad_number(r, q, slash, rc, "a jump count");
            q = slash + 1;
            rc = ph_cg_u64(&q, e, &b);
            if (rc != PH_CGN_OK)
                return bad_number(r, q, e, rc, "a jump count");
            r->pend_followed = a;
            r->pend_count = b;
        } else {
            /* The spec's form: executed followed. */
            rc = ph_cg_u64(&q, e, &a);
            if (rc == PH_CGN_OK) {
                q = ph_cg_skipws(q, e);
                rc = ph_cg_u64(&q, e, &b);
            }
            if (rc != PH_CGN_OK)
                return bad_number(r, q, e, rc, "a jump count");
            r->pend_count = a;
            r->pend_followed = b;
        }
    } else {
        rc = ph_cg_u64(&q, e, &a);
        if (rc != PH_CGN_OK)
            return bad_number(r, q, e, rc, "a jump count");
        r->pend_count = r->pend_followed = a;
    }
    if (parse_target(r, q, e) < 0)
        return -1;
    r->pend_tofile = r->jfi ? r->jfi : r->fi;
    r->pend_to = r->have_jfn ? resolve_func(r, r->jfn_id, r->jfn_name,
                                            r->pend_tofile, r->ob) : r->fn;
    r->pend = cond ? PEND_JCND : PEND_JUMP;
    r->pend_line = r->sc.lineno;
    return 0;
}

static int do_spec(cgread *r, const char *k, size_t kl, const char *q,
                   const char *e)
{
#define KEY(s) (kl == sizeof(s) - 1 && memcmp(k, s, kl) == 0)
    if (!r->have_events)
        return fail(r, r->sc.s, "\"%.*s=\" before \"events:\"", (int)kl, k);
    if (kl == 2 && k[0] == 'f') {
        if (k[1] == 'n') {
            ph_str name;
            uint64_t id;
            if (get_func_name(r, q, e, &name, &id) < 0)
                return -1;
            r->fn = resolve_func(r, id, name, r->fl, r->ob);
            r->fi = r->fl;
            return 0;
        }
        if (k[1] == 'l') {
            if (get_file(r, q, e, &r->fl) < 0)
                return -1;
            r->fi = r->fl;
            return 0;
        }
        if (k[1] == 'i' || k[1] == 'e')
            return get_file(r, q, e, &r->fi);
    }
    if (KEY("ob")) {
        r->fn = NULL;
        return get_object(r, q, e, &r->ob);
    }
    if (KEY("cfn"))
        return get_func_name(r, q, e, &r->cfn_name, &r->cfn_id) < 0
            ? -1 : (r->have_cfn = 1, 0);
    if (KEY("cfi") || KEY("cfl"))
        return get_file(r, q, e, &r->cfi);
    if (KEY("cob"))
        return get_object(r, q, e, &r->cob);
    if (KEY("calls") || KEY("rcalls"))
        return do_call(r, q, e);
    if (KEY("jump"))
        return do_jump(r, 0, q, e);
    if (KEY("jcnd"))
        return do_jump(r, 1, q, e);
    if (KEY("jfi"))
        return get_file(r, q, e, &r->jfi);
    if (KEY("jfn"))
        return get_func_name(r, q, e, &r->jfn_name, &r->jfn_id) < 0
            ? -1 : (r->have_jfn = 1, 0);
    ph_input_warn(r->in, "cg-unknown-spec", r->sc.lineno,
                  "unknown line \"%.*s=\" ignored", (int)kl, k);
    return 0;
#undef KEY
}

/* The costs of the current line, per slot (n values). */
static const int64_t *slot_costs(cgread *r, int n, size_t *nout)
{
    int i;

    if (r->identity) {
        *nout = (size_t)n;
        return r->col;
    }
    memset(r->vec, 0, r->nvec * sizeof *r->vec);
    for (i = 0; i < n; i++)
        r->vec[r->slot[i]] = r->col[i];
    *nout = r->nvec;
    return r->vec;
}

static int do_cost(cgread *r, const char *q, const char *e)
{
    uint64_t addr = 0, line = 0;
    int n = 0, rc;
    size_t nv;
    const int64_t *v;

    if (!r->have_events)
        return fail(r, q, "cost line before \"events:\"");
    if (r->pos_instr) {
        rc = ph_cg_subpos(&q, e, r->last_addr, &addr);
        if (rc != PH_CGN_OK)
            return bad_number(r, q, e, rc, "an address");
        q = ph_cg_skipws(q, e);
    }
    if (r->pos_line) {
        if (q >= e)
            return fail(r, q, "expected a line number, got the end of "
                        "the line");
        rc = ph_cg_subpos(&q, e, r->last_line, &line);
        if (rc != PH_CGN_OK)
            return bad_number(r, q, e, rc, "a line number");
        if (line > UINT32_MAX)
            return fail(r, q - 1, "line number %llu is too large",
                        (unsigned long long)line);
        q = ph_cg_skipws(q, e);
    }
    r->last_addr = addr;
    r->last_line = line;
    while (q < e) {
        if (n == r->ncol)
            return fail(r, q, "more costs than events (%d event%s)",
                        r->ncol, r->ncol == 1 ? "" : "s");
        rc = ph_cg_i64(&q, e, &r->col[n]);
        if (rc != PH_CGN_OK)
            return bad_number(r, q, e, rc, "a cost");
        n++;
        q = ph_cg_skipws(q, e);
    }
    if (!r->fn) {
        if (!r->warned_nofn++)
            ph_input_warn(r->in, "cg-no-function", r->sc.lineno,
                          "cost line without \"fn=\": cost given to an "
                          "unnamed function");
        r->fn = ph_func_get(r->p, 0, r->fl, r->ob);
    }
    v = slot_costs(r, n, &nv);
    if (r->pend == PEND_NONE) {
        int i;
        for (i = 0; i < n; i++)
            r->sum[i] += (uint64_t)r->col[i];
        ph_row_add(r->p, r->fn, r->part, addr, (uint32_t)line, r->fi, v, nv);
    } else if (r->pend == PEND_CALL) {
        ph_call_add(r->p, r->fn, r->part, addr, (uint32_t)line, r->fi,
                    r->pend_to, r->pend_taddr, (uint32_t)r->pend_tline,
                    r->pend_count, v, nv);
        r->pend = PEND_NONE;
        r->cob = NULL;
        r->cfi = NULL;
    } else {
        ph_jump j;
        memset(&j, 0, sizeof j);
        j.from = r->fn;
        j.part = r->part;
        j.addr = addr;
        j.line = (uint32_t)line;
        j.file = r->fi;
        j.to = r->pend_to;
        j.to_file = r->pend_tofile;
        j.target_addr = r->pend_taddr;
        j.target_line = (uint32_t)r->pend_tline;
        j.executed = r->pend_count;
        j.followed = r->pend_followed;
        j.conditional = r->pend == PEND_JCND;
        ph_jump_add(r->p, &j);
        if (n > 0 && !r->warned_jumpcost++)
            ph_input_warn(r->in, "cg-jump-cost", r->sc.lineno,
                          "costs on the source line of a jump ignored");
        r->pend = PEND_NONE;
        r->jfi = NULL;
        r->have_jfn = 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* event: lines, applied at the end of the file                       */

static void apply_event(cgread *r, const cgevdef *d, int last_try,
                        int *done)
{
    const char *q = d->s, *e = d->e, *n0, *f0 = NULL, *f1 = NULL, *l0 = NULL;
    size_t nlen;
    char *name, *formula, *lname = NULL;
    ph_event *ev;

    n0 = q;
    while (q < e && !ph_cg_isspace(*q) && *q != '=' && *q != ':')
        q++;
    nlen = (size_t)(q - n0);
    q = ph_cg_skipws(q, e);
    if (q < e && *q == '=') {
        f0 = q + 1;
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
            char *text = ph_xmalloc((size_t)(d->e - d->s) + 1);
            memcpy(text, d->s, (size_t)(d->e - d->s));
            text[d->e - d->s] = 0;
            /* Keep the declaration (and its long name) as metadata so a
             * callgrind export writes it back. */
            ph_meta_add(r->p, "event", text);
            ph_input_warn(r->in, "cg-event-formula", d->line,
                          "formula of event \"%s\" not understood (%s at "
                          "column %d of \"%s\"); kept as a name only", name,
                          err, col, formula);
            free(text);
            *done = 1;
        }
        free(formula);
    }
    free(name);
}

static void apply_events(cgread *r)
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

/* ------------------------------------------------------------------ */
/* The line loop                                                      */

static int do_line(cgread *r)
{
    const char *q = ph_cg_skipws(r->sc.s, r->sc.e), *e = r->sc.e, *k;
    char c;

    if (q == e || *q == '#')
        return 0;
    c = *q;
    if (c <= '9') {
        return do_cost(r, q, e);
    }
    if (r->pend != PEND_NONE) {
        ph_input_note_at(r->in, r->pend_line, 1, "the call or jump is here");
        return fail(r, q, "expected the position line of the \"%s\" on "
                    "line %llu, got \"%.*s\"",
                    r->pend == PEND_CALL ? "calls=" : "jump",
                    (unsigned long long)r->pend_line, ph_cg_toklen(q, e), q);
    }
    k = q;
    while (q < e && *q != '=' && *q != ':' && !ph_cg_isspace(*q))
        q++;
    if (q < e && *q == '=')
        return do_spec(r, k, (size_t)(q - k), q + 1, e);
    if (q < e && *q == ':')
        return do_header(r, k, (size_t)(q - k), q + 1, e);
    {
        /* "timeframe (BB): ..." and other old keys with blanks. */
        const char *colon = memchr(q, ':', (size_t)(e - q));
        if (colon) {
            ph_input_warn(r->in, "cg-unknown-header", r->sc.lineno,
                          "unknown header line \"%.*s:\" ignored",
                          (int)(colon - k), k);
            return 0;
        }
    }
    return fail(r, k, "expected \"key: value\", \"spec=name\" or a cost "
                "line, got \"%.*s\"", ph_cg_toklen(k, e), k);
}

/* Read one callgrind file into p (parts are appended).  0 or -1. */
int ph_cg_read_file(ph_input *in, ph_profile *p);
int ph_cg_read_file(ph_input *in, ph_profile *p)
{
    cgread r;
    int rc = 0;
    size_t size = ph_input_size(in), next_progress = 1u << 22;

    memset(&r, 0, sizeof r);
    r.in = in;
    r.p = p;
    r.obs.kind = "object";
    r.files.kind = "file";
    r.fns.kind = "function";
    r.obs.limit = r.files.limit = r.fns.limit = 65536 + size / 16;
    ph_cgscan_init(&r.sc, ph_input_data(in), size);
    if (r.sc.end == r.sc.p) {
        ph_input_error_at(in, 1, 1, "no data (empty file)");
        return -1;
    }
    while (ph_cgscan_next(&r.sc)) {
        if (do_line(&r) < 0) {
            rc = -1;
            break;
        }
        if ((size_t)(r.sc.p - r.sc.s) > 0 &&
            (size_t)(r.sc.p - (const char *)ph_input_data(in)) >=
            next_progress) {
            next_progress += 1u << 22;
            ph_input_progress(in, (size_t)(r.sc.p -
                              (const char *)ph_input_data(in)));
        }
    }
    if (rc == 0 && r.pend != PEND_NONE)
        rc = ph_input_error_at(in, r.pend_line, 1,
                               "\"%s\" at the end of the file, without its "
                               "position line (truncated file?)",
                               r.pend == PEND_CALL ? "calls=" : "jump");
    if (rc == 0 && !r.have_events)
        rc = ph_input_error_at(in, r.sc.lineno ? r.sc.lineno : 1, 1,
                               "no data (no \"events:\" line)");
    if (rc == 0)
        rc = check_truncated(&r);
    if (rc == 0) {
        check_sums(&r, 1);
        apply_events(&r);
    }
    free_ids(&r.obs);
    free_ids(&r.files);
    free_ids(&r.fns);
    free(r.slot);
    free(r.col);
    free(r.vec);
    free(r.sum);
    free(r.fsum);
    free(r.ftot);
    free(r.evs);
    return rc;
}
