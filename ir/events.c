/* events.c -- the event table: real events (one slot each in every cost
 * vector) and derived events, whose formulas are parsed here into an
 * expression tree and evaluated on aggregated real values.
 */
#include "config.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"

/* A formula node.  Leaves are numbers or events; col is where the node's
 * first token starts in the formula (1-based), for messages. */
enum { EX_NUM, EX_EVENT, EX_NEG, EX_ADD, EX_SUB, EX_MUL, EX_DIV };

struct ph_expr {
    int op;
    int col;
    double num;
    const ph_event *ev;
    ph_expr *a, *b;
};

#define MAX_NESTING 200
/* Evaluation and the cycle check recurse over the tree: bound its size
 * (KCachegrind's longest built-in formula has 11 nodes). */
#define MAX_NODES 4000

void ph_events_free(ph_profile *p)
{
    ph_vec_free(&p->events);
    ph_vec_free(&p->reals);
    ph_vec_free(&p->exprs);
    ph_htab_free(&p->eventmap);
}

/* ------------------------------------------------------------------ */
/* Table                                                               */

static ph_event *find_by_handle(const ph_profile *p, ph_str name)
{
    uint64_t h = ph_hash_mix(p->seed, name);
    const ph_htab *t = &p->eventmap;
    size_t i;
    if (!t->v)
        return NULL;
    for (i = h & t->mask; t->v[i]; i = (i + 1) & t->mask) {
        ph_event *ev = t->v[i];
        if (ev->name == name)
            return ev;
    }
    return NULL;
}

ph_event *ph_event_find(const ph_profile *p, const char *name)
{
    return find_by_handle(p, ph_str_lookup(p, name, strlen(name)));
}

static ph_event *new_event(ph_profile *p, ph_str name)
{
    ph_event *ev = ph_profile_alloc(p, sizeof *ev);
    ev->name = name;
    ev->scale = 1.0;
    ev->slot = -1;
    ev->index = (int)p->events.n;
    ph_vec_push(&p->events, ev);
    ph_vec_push(&p->exprs, NULL);
    ph_htab_insert(&p->eventmap, ph_hash_mix(p->seed, name), ev);
    return ev;
}

ph_event *ph_event_add(ph_profile *p, const char *name)
{
    ph_str s = ph_str_intern0(p, name);
    ph_event *ev = find_by_handle(p, s);
    if (ev)
        return ev;
    if (p->events.n >= INT32_MAX)
        ph_oom();
    ev = new_event(p, s);
    ev->slot = (int)p->reals.n;
    ph_vec_push(&p->reals, ev);
    ph_profile_invalidate(p);
    return ev;
}

size_t ph_event_count(const ph_profile *p)
{
    return p->events.n;
}

size_t ph_event_nreal(const ph_profile *p)
{
    return p->reals.n;
}

ph_event *ph_event_at(const ph_profile *p, size_t i)
{
    return i < p->events.n ? p->events.v[i] : NULL;
}

ph_event *ph_event_real(const ph_profile *p, size_t slot)
{
    return slot < p->reals.n ? p->reals.v[slot] : NULL;
}

/* ------------------------------------------------------------------ */
/* Formula parser (recursive descent, one token of look-ahead)         */

typedef struct parser {
    ph_profile *p;
    const char *s;
    size_t pos;
    const char *defname;  /* the event being defined */
    int depth;
    int nodes;
    int failed;
    int err_col;
    char *err;
    size_t errsize;
} parser;

static int is_name_start(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int is_name_char(int c)
{
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '.';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static void skip_space(parser *ps)
{
    while (ps->s[ps->pos] == ' ' || ps->s[ps->pos] == '\t')
        ps->pos++;
}

/* Length of the token at pos, for quoting it in a message. */
static size_t token_length(const parser *ps, size_t pos)
{
    const char *s = ps->s;
    size_t n = 0;
    if (is_name_start((unsigned char)s[pos])) {
        while (is_name_char((unsigned char)s[pos + n]))
            n++;
    } else if (is_digit((unsigned char)s[pos])) {
        while (is_digit((unsigned char)s[pos + n]) || s[pos + n] == '.')
            n++;
    } else if (s[pos]) {
        n = 1;   /* one character: a UTF-8 sequence stays whole */
        while ((s[pos + n] & 0xc0) == 0x80 && n < 4)
            n++;
    }
    return n;
}

/* Record the first error: column of pos and a finished message. */
static ph_expr *fail(parser *ps, size_t pos, const char *msg)
{
    if (!ps->failed) {
        ps->failed = 1;
        ps->err_col = (int)pos + 1;
        if (ps->err && ps->errsize)
            snprintf(ps->err, ps->errsize, "%s", msg);
    }
    return NULL;
}

/* "unknown event "Foo"" and the like: a message quoting s[0..n). */
static ph_expr *fail_quote(parser *ps, size_t pos, const char *what,
                           const char *s, size_t n)
{
    char msg[320];
    snprintf(msg, sizeof msg, "%s \"%.*s\"", what, (int)(n > 256 ? 256 : n),
             s);
    return fail(ps, pos, msg);
}

/* "expected X, got "tok"" or "... got end of formula". */
static ph_expr *fail_expected(parser *ps, const char *what)
{
    char msg[320];
    size_t n = token_length(ps, ps->pos);
    if (n == 0) {
        snprintf(msg, sizeof msg, "expected %s, got end of formula", what);
        return fail(ps, ps->pos, msg);
    }
    snprintf(msg, sizeof msg, "expected %s, got \"%.*s\"", what,
             (int)(n > 256 ? 256 : n), ps->s + ps->pos);
    return fail(ps, ps->pos, msg);
}

static ph_expr *make(parser *ps, int op, int col, ph_expr *a, ph_expr *b)
{
    ph_expr *e;
    if (++ps->nodes > MAX_NODES)
        return fail(ps, (size_t)col - 1, "formula too long");
    e = ph_arena_alloc(&ps->p->arena, sizeof *e, alignof(ph_expr));
    e->op = op;
    e->col = col;
    e->a = a;
    e->b = b;
    return e;
}

static ph_expr *parse_expr(parser *ps);

/* A decimal number "12" or "1.25" (no sign, no exponent). */
static ph_expr *parse_number(parser *ps)
{
    size_t start = ps->pos;
    double v = 0, scale = 1;
    ph_expr *e;
    while (is_digit((unsigned char)ps->s[ps->pos]))
        v = v * 10 + (ps->s[ps->pos++] - '0');
    if (ps->s[ps->pos] == '.') {
        ps->pos++;
        if (!is_digit((unsigned char)ps->s[ps->pos]))
            return fail(ps, ps->pos, "expected a digit after \".\"");
        while (is_digit((unsigned char)ps->s[ps->pos])) {
            scale /= 10;
            v += (ps->s[ps->pos++] - '0') * scale;
        }
    }
    e = make(ps, EX_NUM, (int)start + 1, NULL, NULL);
    if (e)
        e->num = v;
    return e;
}

static ph_expr *parse_name(parser *ps)
{
    size_t start = ps->pos, n = 0;
    const ph_event *ev;
    ph_expr *e;
    char buf[256];
    while (is_name_char((unsigned char)ps->s[start + n]))
        n++;
    ps->pos += n;
    if (n >= sizeof buf)
        return fail_quote(ps, start, "unknown event", ps->s + start, n);
    memcpy(buf, ps->s + start, n);
    buf[n] = '\0';
    if (strcmp(buf, ps->defname) == 0) {
        char msg[320];
        snprintf(msg, sizeof msg, "formula of %s refers to itself", buf);
        return fail(ps, start, msg);
    }
    ev = ph_event_find(ps->p, buf);
    if (!ev)
        return fail_quote(ps, start, "unknown event", ps->s + start, n);
    e = make(ps, EX_EVENT, (int)start + 1, NULL, NULL);
    if (e)
        e->ev = ev;
    return e;
}

static ph_expr *parse_factor(parser *ps)
{
    ph_expr *e;
    int c, col;
    skip_space(ps);
    c = (unsigned char)ps->s[ps->pos];
    col = (int)ps->pos + 1;
    if (c == '-') {
        ps->pos++;
        if (++ps->depth > MAX_NESTING)
            return fail(ps, ps->pos - 1, "formula nested too deeply");
        e = parse_factor(ps);
        ps->depth--;
        return e ? make(ps, EX_NEG, col, e, NULL) : NULL;
    }
    if (c == '(') {
        ps->pos++;
        if (++ps->depth > MAX_NESTING)
            return fail(ps, ps->pos - 1, "formula nested too deeply");
        e = parse_expr(ps);
        ps->depth--;
        if (!e)
            return NULL;
        skip_space(ps);
        if (ps->s[ps->pos] != ')')
            return fail_expected(ps, "\")\"");
        ps->pos++;
        return e;
    }
    if (is_digit(c)) {
        e = parse_number(ps);
        if (!e)
            return NULL;
        skip_space(ps);
        /* KCachegrind's "10 Bm": a number followed by a name multiplies. */
        if (is_name_start((unsigned char)ps->s[ps->pos])) {
            ph_expr *name = parse_name(ps);
            return name ? make(ps, EX_MUL, col, e, name) : NULL;
        }
        return e;
    }
    if (is_name_start(c))
        return parse_name(ps);
    return fail_expected(ps, "a name or number");
}

static ph_expr *parse_term(parser *ps)
{
    ph_expr *e = parse_factor(ps);
    while (e) {
        int c, col;
        skip_space(ps);
        c = ps->s[ps->pos];
        if (c != '*' && c != '/')
            break;
        col = e->col;
        ps->pos++;
        ph_expr *r = parse_factor(ps);
        e = r ? make(ps, c == '*' ? EX_MUL : EX_DIV, col, e, r) : NULL;
    }
    return e;
}

static ph_expr *parse_expr(parser *ps)
{
    ph_expr *e = parse_term(ps);
    while (e) {
        int c, col;
        skip_space(ps);
        c = ps->s[ps->pos];
        if (c != '+' && c != '-')
            break;
        col = e->col;
        ps->pos++;
        ph_expr *r = parse_term(ps);
        e = r ? make(ps, c == '+' ? EX_ADD : EX_SUB, col, e, r) : NULL;
    }
    return e;
}

/* ------------------------------------------------------------------ */
/* Cycles                                                              */

/* Whether the formula tree e reaches event target through derived events;
 * seen[] (by event index) keeps shared sub-formulas from being walked
 * twice.  The graph without target's new formula has no cycle. */
static int reaches(const ph_profile *p, const ph_expr *e,
                   const ph_event *target, unsigned char *seen)
{
    if (!e)
        return 0;
    if (e->op == EX_EVENT) {
        const ph_event *ev = e->ev;
        if (ev == target)
            return 1;
        if (!(ev->flags & PH_EV_DERIVED) || seen[ev->index])
            return 0;
        seen[ev->index] = 1;
        return reaches(p, p->exprs.v[ev->index], target, seen);
    }
    return reaches(p, e->a, target, seen) || reaches(p, e->b, target, seen);
}

/* Find the first derived event named in e through which target reaches
 * itself; NULL when none. */
static const ph_expr *find_cycle(const ph_profile *p, const ph_expr *e,
                                 const ph_event *target, unsigned char *seen)
{
    const ph_expr *r;
    if (!e)
        return NULL;
    if (e->op == EX_EVENT) {
        if (e->ev == target)
            return e;
        if (!(e->ev->flags & PH_EV_DERIVED))
            return NULL;
        memset(seen, 0, p->events.n);
        return reaches(p, p->exprs.v[e->ev->index], target, seen) ? e : NULL;
    }
    r = find_cycle(p, e->a, target, seen);
    return r ? r : find_cycle(p, e->b, target, seen);
}

/* ------------------------------------------------------------------ */
/* Define and evaluate                                                 */

static int walk_fits(const ph_profile *p, const ph_expr *e);

static void complexity_error(const ph_profile *p, const char *name,
                             const ph_event *other, int *err_col, char *err,
                             size_t errsize)
{
    if (err_col)
        *err_col = 1;
    if (!err || !errsize)
        return;
    if (other)
        snprintf(err, errsize, "formula of %s makes %s too complex to evaluate",
                 name, ph_str_get(p, other->name));
    else
        snprintf(err, errsize, "formula of %s is too complex to evaluate",
                 name);
}

/* A redefinition of ev as e must keep ev and every derived event (some may
 * use ev) within the evaluation limits; on failure the old formula stays. */
static int check_complexity(ph_profile *p, ph_event *ev, ph_expr *e,
                            int *err_col, char *err, size_t errsize)
{
    ph_expr *old = p->exprs.v[ev->index];
    const char *name = ph_str_get(p, ev->name);
    size_t i;
    p->exprs.v[ev->index] = e;
    if (!walk_fits(p, e)) {
        p->exprs.v[ev->index] = old;
        complexity_error(p, name, NULL, err_col, err, errsize);
        return 0;
    }
    for (i = 0; i < p->events.n; i++) {
        const ph_event *d = p->events.v[i];
        if (d == ev || !(d->flags & PH_EV_DERIVED) || !p->exprs.v[i])
            continue;
        if (!walk_fits(p, p->exprs.v[i])) {
            p->exprs.v[ev->index] = old;
            complexity_error(p, name, d, err_col, err, errsize);
            return 0;
        }
    }
    p->exprs.v[ev->index] = old;
    return 1;
}

static ph_event *define_fail(int *err_col, char *err, size_t errsize,
                             const char *msg)
{
    if (err_col)
        *err_col = 1;
    if (err && errsize)
        snprintf(err, errsize, "%s", msg);
    return NULL;
}

ph_event *ph_event_define(ph_profile *p, const char *name,
                          const char *formula, int *err_col, char *err,
                          size_t errsize)
{
    parser ps;
    ph_expr *e;
    ph_event *ev;
    if (!name || !*name)
        return define_fail(err_col, err, errsize, "empty event name");
    if (!formula)
        formula = "";
    ev = ph_event_find(p, name);
    if (ev && !(ev->flags & PH_EV_DERIVED)) {
        char msg[320];
        snprintf(msg, sizeof msg,
                 "\"%.256s\" is a real event and cannot have a formula", name);
        return define_fail(err_col, err, errsize, msg);
    }
    memset(&ps, 0, sizeof ps);
    ps.p = p;
    ps.s = formula;
    ps.defname = ev ? "" : name;  /* redefinitions: cycles checked below */
    ps.err = err;
    ps.errsize = errsize;
    e = parse_expr(&ps);
    if (e) {
        skip_space(&ps);
        if (ps.s[ps.pos])
            e = fail_expected(&ps, "an operator");
    }
    if (!e) {
        if (err_col)
            *err_col = ps.err_col;
        return NULL;
    }
    if (ev) {
        unsigned char *seen = ph_xcalloc(p->events.n, 1);
        const ph_expr *c = find_cycle(p, e, ev, seen);
        free(seen);
        if (c) {
            if (err_col)
                *err_col = c->col;
            if (err && errsize) {
                if (c->ev == ev)
                    snprintf(err, errsize, "formula of %s refers to itself",
                             name);
                else
                    snprintf(err, errsize,
                             "formula of %s refers to itself through %s",
                             name, ph_str_get(p, c->ev->name));
            }
            return NULL;
        }
        if (!check_complexity(p, ev, e, err_col, err, errsize))
            return NULL;
    } else {
        if (!walk_fits(p, e)) {
            complexity_error(p, name, NULL, err_col, err, errsize);
            return NULL;
        }
        ev = new_event(p, ph_str_intern0(p, name));
        ev->flags |= PH_EV_DERIVED;
    }
    ev->formula = ph_str_intern0(p, formula);
    p->exprs.v[ev->index] = e;
    ph_profile_invalidate(p);
    return ev;
}

/* Evaluation walks the tree, through derived events it names.  Limits on
 * work and depth keep a hostile file (event A2 = A1 + A1, A3 = A2 + A2 ...)
 * from hanging or overflowing the stack: ph_event_define rejects a formula
 * whose walk would pass them, so evaluation never does. */
#define EVAL_MAX_OPS 20000L
#define EVAL_MAX_DEPTH 1000

typedef struct evalctx {
    const ph_profile *p;
    const int64_t *costs;   /* NULL: a trial walk, real events read 0 */
    unsigned char *reads;   /* when not NULL: marks the slots read */
    long ops;
    int depth;
    int over;               /* a limit was passed */
} evalctx;

static double eval_node(evalctx *c, const ph_expr *e)
{
    double a, b, r;
    if (c->over || ++c->ops > EVAL_MAX_OPS || c->depth >= EVAL_MAX_DEPTH) {
        c->over = 1;
        return 0;
    }
    c->depth++;
    switch (e->op) {
    case EX_NUM:
        r = e->num;
        break;
    case EX_EVENT:
        if (!(e->ev->flags & PH_EV_DERIVED)) {
            if (c->reads && e->ev->slot >= 0)
                c->reads[e->ev->slot] = 1;
            r = (c->costs && e->ev->slot >= 0) ? (double)c->costs[e->ev->slot]
                                               : 0;
        } else {
            const ph_expr *x = c->p->exprs.v[e->ev->index];
            r = x ? eval_node(c, x) : 0;
        }
        break;
    case EX_NEG:
        r = -eval_node(c, e->a);
        break;
    default:
        a = eval_node(c, e->a);
        b = eval_node(c, e->b);
        if (e->op == EX_ADD)
            r = a + b;
        else if (e->op == EX_SUB)
            r = a - b;
        else if (e->op == EX_MUL)
            r = a * b;
        else
            r = b == 0 ? 0 : a / b;
    }
    c->depth--;
    return r;
}

/* Whether evaluating e stays within the limits. */
static int walk_fits(const ph_profile *p, const ph_expr *e)
{
    evalctx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    eval_node(&c, e);
    return !c.over;
}

/* ev's value given costs (NULL: a walk that reads 0 for every real
 * event), marking the slots it reads in reads when not NULL. */
static double walk_event(const ph_profile *p, const ph_event *ev,
                         const int64_t *costs, unsigned char *reads)
{
    const ph_expr *e;
    evalctx c;
    if (!ev)
        return 0;
    if (!(ev->flags & PH_EV_DERIVED)) {
        if (ev->slot < 0)
            return 0;
        if (reads)
            reads[ev->slot] = 1;
        return costs ? (double)costs[ev->slot] : 0;
    }
    e = (size_t)ev->index < p->exprs.n ? p->exprs.v[ev->index] : NULL;
    if (!e)
        return 0;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.costs = costs;
    c.reads = reads;
    return eval_node(&c, e);
}

double ph_event_eval(const ph_profile *p, const ph_event *ev,
                     const int64_t *costs)
{
    return walk_event(p, ev, costs, NULL);
}

void ph_event_reads(const ph_profile *p, const ph_event *ev,
                    unsigned char *reads)
{
    (void)walk_event(p, ev, NULL, reads);
}
