/* importers/callgrind_in.c -- reads one callgrind file (format version 0/1,
 * valgrind 3.x, see shared/formats/callgrind.md) into the IR in one pass:
 * the line loop, compressed names, and the body lines (ob= fl= fi= fe= fn=
 * cob= cfi= cfl= cfn= jfi= jfn=, cost lines, calls=, jump=, jcnd=).
 * Header lines and parts: callgrind_head.c; tokens: callgrind_scan.c; a
 * run's sibling files: callgrind_files.c. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/callgrind_priv.h"
#include "ir/jobs.h"
#include "ir/stock.h"

/* Record an error at column (at - line start) of the current line. */
int ph_cg_fail(ph_cgread *r, const char *at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    uint64_t col = at ? (uint64_t)(at - r->sc.s) + 1 : 1;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ph_input_error_at(r->in, r->sc.lineno, col, "%s", msg);
}

int ph_cg_bad_number(ph_cgread *r, const char *q, const char *e, int code,
                      const char *what)
{
    int n = ph_cg_toklen(q, e);

    if (code == PH_CGN_RANGE)
        return ph_cg_fail(r, q, "number \"%.*s\" is out of range (more than 64 "
                    "bits)", n, q);
    if (code == PH_CGN_SRANGE)
        return ph_cg_fail(r, q, "cost \"%.*s\" is out of range (more than "
                          "63 bits and a sign)", n, q);
    if (code == PH_CGN_NEGATIVE)
        return ph_cg_fail(r, q, "relative position \"%.*s\" goes below 0", n, q);
    if (q >= e)
        return ph_cg_fail(r, q, "expected %s, got the end of the line", what);
    return ph_cg_fail(r, q, "expected %s, got \"%.*s\"", what, n, q);
}
/* A cost written with a fraction ("12.75", "-3."), as some third-party
 * writers do: KCachegrind reads its integer part, and so do we, with one
 * warning.  Anything else stays PH_CGN_NOTNUM. */
int ph_cg_fraction_cost(ph_cgread *r, const char **pq, const char *e,
                        int64_t *v)
{
    const char *start = *pq, *q = start, *dot;
    int rc;

    if (q < e && (*q == '-' || *q == '+'))
        q++;
    dot = q;
    while (dot < e && (unsigned char)(*dot - '0') < 10)
        dot++;
    if (dot == q || dot == e || *dot != '.')
        return PH_CGN_NOTNUM;
    q = dot + 1;
    while (q < e && (unsigned char)(*q - '0') < 10)
        q++;
    if (q < e && !ph_cg_isspace(*q))
        return PH_CGN_NOTNUM;
    rc = ph_cg_i64(pq, dot, v);
    if (rc != PH_CGN_OK)
        return rc;
    ph_input_warn(r->in, "cg-fraction-cost", r->sc.lineno,
                  "cost \"%.*s\" read as its integer part %lld, as "
                  "KCachegrind does", (int)(q - start), start, (long long)*v);
    *pq = q;
    return PH_CGN_OK;
}

/* ------------------------------------------------------------------ */
/* Names                                                              */

/* Resolve a spec value through table t.  Sets *name (0 for "???" when
 * unknown_empty) and *ent (NULL for an uncompressed name). */
static int get_name(ph_cgread *r, ph_cgids *t, const char *v, const char *e,
                    int unknown_empty, ph_str *name, ph_cgent **ent,
                    uint64_t *idp)
{
    uint64_t id;
    const char *nm;
    size_t len, errcol;
    int compressed, rc;

    rc = ph_cg_name(v, e, &compressed, &id, &nm, &len, &errcol);

    if (rc == -2)
        return ph_cg_fail(r, v + errcol, "compressed %s id %.*s is too large "
                          "(ids are 32-bit)", t->kind,
                          (int)strspn(v + errcol, "0123456789"), v + errcol);
    if (rc < 0)
        return ph_cg_fail(r, v + errcol, "malformed compressed name \"%.*s\" "
                    "(expected \"(number) name\")",
                    ph_cg_toklen(v + errcol, e), v + errcol);
    *idp = compressed ? id + 1 : 0;
    if (!compressed || len > 0) {
        ph_str s = 0;
        if (len > 0 && !(unknown_empty && len == 3 &&
                         memcmp(nm, "???", 3) == 0))
            s = nm == r->hashed_name && len == r->hashed_len
                ? ph_str_intern_hashed(r->p, nm, len, r->hashes)
                : ph_str_intern(r->p, nm, len);
        *name = s;
        *ent = NULL;
        if (!compressed)
            return 0;
        *ent = ph_cg_find_id(t, id, 1);
        /* Ids restart per part in files KCachegrind-style writers make
         * (ours too): only a change inside one part is suspicious. */
        if ((*ent)->defined == r->nparts && (*ent)->name != s)
            ph_input_warn(r->in, "cg-redefined-id", r->sc.lineno,
                          "compressed %s id (%llu) redefined as \"%.*s\"",
                          t->kind, (unsigned long long)id, (int)len, nm);
        (*ent)->name = s;
        (*ent)->defined = r->nparts;
        (*ent)->cache = NULL;
        return 0;
    }
    *ent = ph_cg_find_id(t, id, 0);
    if (!*ent || !(*ent)->defined)
        return ph_cg_fail(r, v, "undefined compressed %s id (%llu)", t->kind,
                    (unsigned long long)id);
    *name = (*ent)->name;
    return 0;
}

static int get_object(ph_cgread *r, const char *v, const char *e,
                      ph_object **out)
{
    ph_str s = 0;
    ph_cgent *ent = NULL;
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

static int get_file(ph_cgread *r, const char *v, const char *e, ph_file **out)
{
    ph_str s = 0;
    ph_cgent *ent = NULL;
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
static ph_func *resolve_func(ph_cgread *r, uint64_t id, ph_str name,
                             ph_file *file, ph_object *obj)
{
    ph_cgent *ent = id ? ph_cg_find_id(&r->fns, id - 1, 0) : NULL;
    ph_func *f;

    f = ent ? ent->cache : NULL;
    if (f && f->file == file && f->object == obj)
        return f;
    f = ph_func_get(r->p, name, file, obj);
    if (ent)
        ent->cache = f;
    return f;
}

/* Name of a fn=/cfn=/jfn= spec: the name and id + 1 (0 if plain). */
static int get_func_name(ph_cgread *r, const char *v, const char *e,
                         ph_str *name, uint64_t *id)
{
    ph_cgent *ent;

    return get_name(r, &r->fns, v, e, 0, name, &ent, id);
}

/* ------------------------------------------------------------------ */
/* Body lines                                                         */

/* "calls=N target", "jump=N target", "jcnd=F/E target" (or "E F"). */
static int parse_target(ph_cgread *r, const char *q, const char *e)
{
    int rc;
    uint64_t a = 0, l = 0;

    q = ph_cg_skipws(q, e);
    if (r->pos_instr) {
        if (q >= e)
            return 0;       /* target omitted: unknown */
        rc = ph_cg_subpos(&q, e, r->last_addr, &a);
        if (rc != PH_CGN_OK)
            return ph_cg_bad_number(r, q, e, rc, "a target address");
        q = ph_cg_skipws(q, e);
    }
    if (r->pos_line && q < e) {
        rc = ph_cg_subpos(&q, e, r->last_line, &l);
        if (rc != PH_CGN_OK)
            return ph_cg_bad_number(r, q, e, rc, "a target line");
        q = ph_cg_skipws(q, e);
    }
    if (q < e)
        /* Xdebug 3 writes "calls=1 0 0"; KCachegrind reads the count and
         * the target and ignores the rest of the line. */
        ph_input_warn(r->in, "cg-target-extra", r->sc.lineno,
                      "ignored \"%.*s\" after the target position of a "
                      "call or jump (KCachegrind ignores it too)",
                      (int)(e - q), q);
    if (l > UINT32_MAX)
        return ph_cg_fail(r, q, "line number %llu is too large",
                    (unsigned long long)l);
    r->pend_taddr = a;
    r->pend_tline = l;
    return 0;
}

static int do_call(ph_cgread *r, const char *q, const char *e)
{
    int rc;

    if (!r->have_cfn)
        return ph_cg_fail(r, r->sc.s, "\"calls=\" without a \"cfn=\" before it");
    q = ph_cg_skipws(q, e);
    rc = ph_cg_u64(&q, e, &r->pend_count);
    if (rc != PH_CGN_OK)
        return ph_cg_bad_number(r, q, e, rc, "a call count");
    if (parse_target(r, q, e) < 0)
        return -1;
    r->pend_to = resolve_func(r, r->cfn_id, r->cfn_name,
                              r->cfi ? r->cfi : r->fi,
                              r->cob ? r->cob : r->ob);
    r->pend = PEND_CALL;
    r->pend_line = r->sc.lineno;
    return 0;
}

static int do_jump(ph_cgread *r, int cond, const char *q, const char *e)
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
                return ph_cg_bad_number(r, q, slash, rc, "a jump count");
            q = slash + 1;
            rc = ph_cg_u64(&q, e, &b);
            if (rc != PH_CGN_OK)
                return ph_cg_bad_number(r, q, e, rc, "a jump count");
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
                return ph_cg_bad_number(r, q, e, rc, "a jump count");
            r->pend_count = a;
            r->pend_followed = b;
        }
    } else {
        rc = ph_cg_u64(&q, e, &a);
        if (rc != PH_CGN_OK)
            return ph_cg_bad_number(r, q, e, rc, "a jump count");
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

static int do_spec(ph_cgread *r, const char *k, size_t kl, const char *q,
                   const char *e)
{
#define KEY(s) (kl == sizeof(s) - 1 && memcmp(k, s, kl) == 0)
    if (!r->have_events)
        return ph_cg_fail(r, r->sc.s, "\"%.*s=\" before \"events:\"", (int)kl, k);
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
static const int64_t *slot_costs(ph_cgread *r, int n, size_t *nout)
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

static void apply_cost(ph_cgread *r, uint64_t addr, uint64_t line, int n);

static int do_cost(ph_cgread *r, const char *q, const char *e)
{
    uint64_t addr = 0, line = 0;
    int n = 0, rc;

    if (!r->have_events)
        return ph_cg_fail(r, q, "cost line before \"events:\"");
    if (r->pos_instr) {
        rc = ph_cg_subpos(&q, e, r->last_addr, &addr);
        if (rc != PH_CGN_OK)
            return ph_cg_bad_number(r, q, e, rc, "an address");
        q = ph_cg_skipws(q, e);
    }
    if (r->pos_line) {
        if (q >= e)
            return ph_cg_fail(r, q, "expected a line number, got the end of "
                        "the line");
        rc = ph_cg_subpos(&q, e, r->last_line, &line);
        if (rc != PH_CGN_OK)
            return ph_cg_bad_number(r, q, e, rc, "a line number");
        if (line > UINT32_MAX)
            return ph_cg_fail(r, q - 1, "line number %llu is too large",
                        (unsigned long long)line);
        q = ph_cg_skipws(q, e);
    }
    r->last_addr = addr;
    r->last_line = line;
    while (q < e) {
        if (n == r->ncol)
            return ph_cg_fail(r, q, "more costs than events (%d event%s)",
                        r->ncol, r->ncol == 1 ? "" : "s");
        rc = ph_cg_i64(&q, e, &r->col[n]);
        if (rc == PH_CGN_NOTNUM)
            rc = ph_cg_fraction_cost(r, &q, e, &r->col[n]);
        if (rc != PH_CGN_OK)
            return ph_cg_bad_number(r, q, e, rc, "a cost");
        n++;
        q = ph_cg_skipws(q, e);
    }
    apply_cost(r, addr, line, n);
    return 0;
}

/* A position token read by the look-ahead threads, resolved against the
 * previous position as ph_cg_subpos does; 0 when the ordinary parser must
 * read the line (it then reports the error). */
static int tok_pos(uint8_t kind, uint64_t v, uint64_t last, uint64_t *out)
{
    if (kind == PH_CGTOK_ABS)
        *out = v;
    else if (kind == PH_CGTOK_SAME)
        *out = last;
    else if (kind == PH_CGTOK_PLUS) {
        if (v > UINT64_MAX - last)
            return 0;
        *out = last + v;
    } else {
        if (v > last)
            return 0;
        *out = last - v;
    }
    return 1;
}

/* do_cost on a line the look-ahead threads tokenized: 1 when done, 0 when
 * the line needs the ordinary parser (nothing has changed then). */
static int do_cost_tokens(ph_cgread *r, unsigned ntok, const uint64_t *val,
                          const uint8_t *kind)
{
    uint64_t addr = 0, line = 0;
    unsigned i = 0, n;

    if (!r->have_events)
        return 0;
    if (r->pos_instr) {
        if (i >= ntok || !tok_pos(kind[i], val[i], r->last_addr, &addr))
            return 0;
        i++;
    }
    if (r->pos_line) {
        if (i >= ntok || !tok_pos(kind[i], val[i], r->last_line, &line) ||
            line > UINT32_MAX)
            return 0;
        i++;
    }
    if (ntok - i > (unsigned)r->ncol)
        return 0;
    if (r->identity && r->pend == PEND_NONE && r->fn &&
        ph_cg_plain_counts(kind + i, val + i, ntok - i)) {
        /* apply_cost's row, its columns its slots (ncol <= nreal) */
        r->last_addr = addr;
        r->last_line = line;
        ph_row_add_counts(r->p, r->fn, r->part, addr, (uint32_t)line, r->fi,
                          val + i, ntok - i, r->sum);
        return 1;
    }
    for (n = 0; i < ntok; i++, n++) {
        uint64_t v = val[i];
        if (kind[i] == PH_CGTOK_MINUS) {
            if (v > (uint64_t)INT64_MAX + 1)
                return 0;
            r->col[n] = (int64_t)(0 - v);
        } else {
            if (kind[i] == PH_CGTOK_SAME || v > (uint64_t)INT64_MAX)
                return 0;
            r->col[n] = (int64_t)v;
        }
    }
    r->last_addr = addr;
    r->last_line = line;
    apply_cost(r, addr, line, (int)n);
    return 1;
}

/* The position of dimension d of a run's last line (ph_cgrows), its first
 * line's being first: 1, or 0 when a line of the run went below 0 or
 * above limit from first (the parser refuses it there). */
static int run_end(const ph_cgrows *run, int d, uint64_t first,
                   uint64_t limit, uint64_t *last)
{
    if ((run->lo[d] < 0 && (uint64_t)-run->lo[d] > first) ||
        (run->hi[d] > 0 && (uint64_t)run->hi[d] > limit - first))
        return 0;
    *last = run->known[d] ? (uint64_t)run->end[d]
                          : first + (uint64_t)run->end[d];
    return 1;
}

/* A run of rows the look-ahead threads made (PH_CGPIPE_ROWS), stored as
 * do_cost_tokens would store its lines one by one, its first line's
 * tokens val and kind (that line numbered already, the others numbered
 * here): 1, or 0 when its lines must be stored one by one. */
static int store_rows(ph_cgread *r, const ph_cgrows *run, const uint64_t *val,
                      const uint8_t *kind)
{
    uint64_t addr = 0, line = 0, last_addr = 0, last_line = 0;
    unsigned i = 0;

    if (!r->have_events || !r->identity || r->pend != PEND_NONE || !r->fn ||
        run->pos != (r->pos_instr | r->pos_line << 1) ||
        run->width > r->ncol)
        return 0;
    if (r->pos_instr &&
        (!tok_pos(kind[i++], val[0], r->last_addr, &addr) ||
         !run_end(run, 0, addr, UINT64_MAX, &last_addr)))
        return 0;
    if (r->pos_line &&
        (!tok_pos(kind[i], val[i], r->last_line, &line) ||
         line > UINT32_MAX ||
         !run_end(run, 1, line, UINT32_MAX, &last_line)))
        return 0;
    ph_row_add_run(r->p, r->fn, r->part, addr, (uint32_t)line, r->fi,
                   run->costs, run->costs_len, run->rows, run->rows_len,
                   run->nlines - 1, last_addr, (uint32_t)last_line);
    for (unsigned k = 0; k < run->width; k++)
        r->sum[k] += run->sum[k];
    r->last_addr = last_addr;
    r->last_line = last_line;
    r->sc.lineno += run->nlines - 1;
    return 1;
}

/* Store a parsed cost line: a row, or the call or jump it ends. */
static void apply_cost(ph_cgread *r, uint64_t addr, uint64_t line, int n)
{
    size_t nv;
    const int64_t *v;

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
}

/* ------------------------------------------------------------------ */
/* The line loop                                                      */

static int do_line(ph_cgread *r)
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
        return ph_cg_fail(r, q, "expected the position line of the \"%s\" on "
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
        return ph_cg_header(r, k, (size_t)(q - k), q + 1, e);
    {
        /* "timeframe (BB): ..." and other old keys with blanks. */
        const char *colon = q < e ? memchr(q, ':', (size_t)(e - q)) : NULL;
        if (colon) {
            ph_input_warn(r->in, "cg-unknown-header", r->sc.lineno,
                          "unknown header line \"%.*s:\" ignored",
                          (int)(colon - k), k);
            return 0;
        }
    }
    return ph_cg_fail(r, k, "expected \"key: value\", \"spec=name\" or a cost "
                "line, got \"%.*s\"", ph_cg_toklen(k, e), k);
}

/* Tokens of one cost line read in one pass: enough for the position and
 * every event of callgrind's own files. */
#define FAST_TOKENS 32

/* The next line, when it is a plain cost line: found, parsed and stored
 * in one pass (ph_cg_cost_tokens, do_cost_tokens) instead of a line
 * search and a parse; it holds no NUL byte then.  0 when the ordinary
 * scanner and parser must take it; nothing has changed then. */
static int fast_cost_line(ph_cgread *r)
{
    uint64_t val[FAST_TOKENS];
    uint8_t kind[FAST_TOKENS];
    const char *s = r->sc.p, *e, *next;
    ph_cgline l;

    if (s >= r->sc.end || !ph_cg_token_start(*s))
        return 0;
    l.ntok = ph_cg_cost_tokens(s, r->sc.end, FAST_TOKENS, val, kind, &e,
                               &next);
    if (l.ntok == PH_CGTOK_NONE)
        return 0;
    if (next > r->sc.clean)
        r->sc.clean = next;
    l.val = val;
    l.kind = kind;
    r->sc.s = s;
    r->sc.e = e;
    r->sc.p = next;
    r->sc.lineno++;
    return do_cost_tokens(r, l.ntok, l.val, l.kind) ? 1
           : do_line(r) < 0 ? -1 : 1;
}

/* store_rows on the next line of ph_cgpipe_run, numbered here. */
static int store_run_rows(void *reader, const ph_cgrows *run,
                          const uint64_t *val, const uint8_t *kind)
{
    ph_cgread *r = reader;
    r->sc.lineno++;
    if (store_rows(r, run, val, kind))
        return 1;
    r->sc.lineno--;
    return 0;
}

/* do_cost_tokens on the next line of a run (ph_cgpipe_run), which it
 * numbers when it stores it. */
static int store_run_line(void *reader, unsigned ntok, const uint64_t *val,
                          const uint8_t *kind)
{
    ph_cgread *r = reader;
    r->sc.lineno++;
    if (do_cost_tokens(r, ntok, val, kind))
        return 1;
    r->sc.lineno--;
    return 0;
}

int ph_cg_read_file(ph_input *in, ph_profile *p)
{
    ph_cgread r;
    int rc = 0;
    size_t size = ph_input_size(in), next_progress = PH_CG_PROGRESS_EVERY;
    const char *base = (const char *)ph_input_data(in);
    ph_cgpipe *pp = NULL;

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
    if (r.sc.end == base + size)
        pp = ph_cgpipe_start(in, p, base, size, ph_jobs(),
                              PH_CGPIPE_STOCK | PH_CGPIPE_ROWS);
    if (pp) {
        ph_cgline l;
        int got;
        ph_profile_set_stock(p, ph_cgpipe_stock(pp));
        while ((got = ph_cgpipe_next(pp, &l)) > 0) {
            r.sc.s = l.s;
            r.sc.e = l.e;
            r.sc.p = l.next;
            r.sc.lineno++;
            r.hashed_name = l.name;
            r.hashed_len = l.name_len;
            r.hashes = &l.name_hashes;
            if (l.rows && store_rows(&r, l.rows, l.val, l.kind)) {
                ph_cgpipe_skip(pp, l.rows->nlines - 1, 0, 0);
            } else if (!(l.ntok != PH_CGTOK_NONE &&
                         do_cost_tokens(&r, l.ntok, l.val, l.kind)) &&
                       do_line(&r) < 0) {
                rc = -1;
                break;
            }
            ph_cgpipe_run(pp, store_run_line, store_run_rows, &r);
        }
        /* The serial scanner goes on from here: at the end, after an
         * error, or at a chunk with a NUL byte in it. */
        if (got < 0)
            r.sc.p = r.sc.clean = l.next;
        else if (got == 0)
            r.sc.p = r.sc.clean = r.sc.end;
        r.hashed_name = NULL;
        ph_profile_set_stock(p, NULL);
        ph_cgpipe_stop(pp);
        /* (after an error r.sc.p may lie in a chunk's copy: not used) */
        while (rc == 0 && next_progress <= (size_t)(r.sc.p - base))
            next_progress += PH_CG_PROGRESS_EVERY;
    }
    while (rc == 0) {
        int got = fast_cost_line(&r);
        if (got == 0) {
            if (!ph_cgscan_next(&r.sc))
                break;
            got = do_line(&r) < 0 ? -1 : 1;
        }
        if (got < 0) {
            rc = -1;
            break;
        }
        if ((size_t)(r.sc.p - r.sc.s) > 0 &&
            (size_t)(r.sc.p - base) >= next_progress) {
            next_progress += PH_CG_PROGRESS_EVERY;
            ph_input_progress(in, (size_t)(r.sc.p - base));
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
        rc = ph_cg_check_truncated(&r);
    if (rc == 0) {
        ph_cg_check_sums(&r, 1);
        ph_cg_apply_events(&r);
    }
    ph_cg_free_ids(&r.obs);
    ph_cg_free_ids(&r.files);
    ph_cg_free_ids(&r.fns);
    free(r.slot);
    free(r.col);
    free(r.vec);
    free(r.sum);
    free(r.fsum);
    free(r.ftot);
    for (size_t i = 0; i < r.nevs; i++)
        free(r.evs[i].text);
    free(r.evs);
    return rc;
}

