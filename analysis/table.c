/* table.c -- the cost table behind every report: one entry per function
 * (or per file, object or C++ class), with self and inclusive costs,
 * calls and cycles; filtered by regular expressions and sorted. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"
#include "ir/jobs.h"

/* Name of the group of f, NULL when unknown.  A class name is made into
 * buf (ph_class_of); the others live in the profile. */
const char *ph_table_group_key(const ph_profile *p, const ph_func *f,
                               ph_group g, char *buf, size_t size)
{
    ph_str s = f->name;
    switch (g) {
    case PH_GROUP_FILE:
    case PH_GROUP_FUNC_FILE:
        s = f->file ? f->file->name : 0;
        break;
    case PH_GROUP_OBJECT:
        s = f->object ? f->object->name : 0;
        break;
    case PH_GROUP_CLASS: {
        const char *c = ph_class_of(ph_str_get(p, f->name), buf, size);
        return *c ? c : NULL;
    }
    case PH_GROUP_FUNCTION:
        break;
    }
    return s ? ph_str_get(p, s) : NULL;
}

/* Groups by name: an open-addressing table of group indices + 1. */
typedef struct group_tab {
    uint32_t *slot;
    size_t mask;
    char **names;           /* by group; names[g] NULL = unknown */
} group_tab;

static uint32_t group_of(group_tab *gt, const char *name, size_t *ng)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *c = name ? name : ""; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    if (!name)
        h = 0;
    size_t j = h & gt->mask;
    for (; gt->slot[j]; j = (j + 1) & gt->mask) {
        const char *g = gt->names[gt->slot[j] - 1];
        if (g == name || (g && name && strcmp(g, name) == 0))
            return gt->slot[j];
    }
    gt->names[*ng] = name ? strcpy(ph_xmalloc(strlen(name) + 1), name)
                          : NULL;
    gt->slot[j] = (uint32_t)++*ng;
    return gt->slot[j];
}

const char *ph_table_own_name(ph_table *t, const char *s)
{
    size_t n = t->nnames;
    if ((n & (n - 1)) == 0)     /* 0, 1, 2, 4, ...: the array is full */
        t->names = ph_xrealloc(t->names, (n ? 2 * n : 1) * sizeof *t->names);
    t->names[t->nnames] = strcpy(ph_xmalloc(strlen(s) + 1), s);
    return t->names[t->nnames++];
}

int ph_table_keeps_name(const ph_table_opts *o, const char *name)
{
    if (o->focus && regexec(o->focus, name, 0, NULL, 0) != 0)
        return 0;
    if (o->ignore && regexec(o->ignore, name, 0, NULL, 0) == 0)
        return 0;
    return 1;
}

/* A new entry whose self and incl are borrowed (NULL: its own, zeroed). */
static ph_entry *push_borrowing(ph_table *t, size_t *cap,
                                const int64_t *self, const int64_t *incl)
{
    if (t->count == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        t->entries = ph_xrealloc(t->entries, *cap * sizeof *t->entries);
    }
    ph_map_ahead(t->entries, sizeof *t->entries, t->count, *cap);
    ph_entry *e = &t->entries[t->count++];
    memset(e, 0, sizeof *e);
    e->self = self;
    e->incl = incl;
    if (!self || !incl)
        ph_entry_self_mut(t, e);
    return e;
}

ph_entry *ph_table_push_entry(ph_table *t, size_t *cap)
{
    return push_borrowing(t, cap, NULL, NULL);
}

/* One block for both vectors: self, then incl at nreal + 1. */
int64_t *ph_entry_self_mut(const ph_table *t, ph_entry *e)
{
    size_t w = t->nreal + 1;
    if (!e->own) {
        int64_t *own = ph_xcalloc(2 * w, sizeof *own);
        if (e->self)
            memcpy(own, e->self, t->nreal * sizeof *own);
        if (e->incl)
            memcpy(own + w, e->incl, t->nreal * sizeof *own);
        e->own = own;
        e->self = own;
        e->incl = own + w;
    }
    return e->own;
}

int64_t *ph_entry_incl_mut(const ph_table *t, ph_entry *e)
{
    return ph_entry_self_mut(t, e) + t->nreal + 1;
}

void ph_entry_release(ph_entry *e)
{
    free(e->own);
    e->own = NULL;
    e->self = e->incl = NULL;
}

static int has_call_graph(const ph_profile *p)
{
    return ph_call_count(p) > 0 || ph_node_count(p) > 0;
}

/* Whether f calls another function in part: a root of the call graph
 * (gprof's <spontaneous> main) has no cost of its own in flat data whose
 * calls carry none, yet is a row of the table. */
static int calls_others(const ph_profile *p, const ph_func *f, int part)
{
    ph_flat_calls it;
    const ph_flat *v = ph_flat_of(p);
    for (const ph_call *c = ph_flat_calls_out(&it, v, p, f); c;
         c = ph_flat_calls_next(&it))
        if (c->callee != f && ph_part_selected(c->part, part) && c->count)
            return 1;
    return 0;
}

int ph_table_lists_func(const ph_profile *p, const ph_func *f, int part,
                        const int64_t *self, const int64_t *incl, size_t w)
{
    /* gprof may credit a function a fraction of a tick that its
     * whole-tick rows round to 0 (a bin shared by two functions): gprof
     * lists it, so do we. */
    if (!ph_costs_zero(self, w) || ph_func_calls(p, f, part) ||
        ph_func_credit(p, f) != 0 ||
        (has_call_graph(p) && calls_others(p, f, part)))
        return 1;
    return !ph_costs_zero(incl ? incl : ph_func_incl(p, f, part), w);
}

/* Whether a table of functions shows cycles (and takes their rule). */
static int wants_cycles(const ph_profile *p, const ph_table_opts *o)
{
    return o->group == PH_GROUP_FUNCTION && o->cycles && ph_call_count(p);
}

/* A table's cycles are found beside the pass over the calls that gives
 * its inclusive costs and call counts (a pass each): in ph_func_sums_of
 * for a table of one event, else beside ph_func_incl's first call, once
 * ph_table_build has made the aggregate cache (ph_func_self).  Both only
 * read the profile, and the calls' iterators take none of its scratch
 * while their costs fit in the iterator. */
typedef struct cycles_side {
    const ph_profile *p;
    int part;
    int find;               /* this side finds the cycles, else the costs */
    ph_cycles *cycles;
} cycles_side;

static void cycles_side_run(void *arg)
{
    cycles_side *s = arg;
    if (s->find)
        s->cycles = ph_cycles_find(s->p, s->part);
    else
        (void)ph_func_incl(s->p, ph_func_at(s->p, 0), s->part);
}

static int cycles_fit_beside(const ph_profile *p)
{
    return ph_iters_apart(p);
}

/* The cycles, when keep_slots did not find them beside its sums. */
static ph_cycles *find_cycles(const ph_table *t, const ph_table_opts *opts)
{
    const ph_profile *p = t->profile;
    cycles_side find = {p, opts->part, 1, NULL}, incl = {p, opts->part, 0,
                                                         NULL};
    if (t->kept || !cycles_fit_beside(p))
        return ph_cycles_find(p, opts->part);
    ph_run_pair(cycles_side_run, &incl, &find);
    return find.cycles;
}

/* The slots a table of one event keeps (o->only), with every function's
 * values in them; t->kept stays NULL (every event) where the table needs
 * more than those values: groups, filters, lines, context trees, gprof's
 * inclusive rule or credits, or an event that is not 0 on zero costs (a
 * function with no cost in the events it reads has a value then). */
static void keep_slots(ph_table *t, const ph_table_opts *o)
{
    const ph_profile *p = t->profile;
    const ph_event *ev = o->only;
    size_t w = t->nreal, nf = ph_func_count(p);
    if (!ev || o->group != PH_GROUP_FUNCTION || o->lines ||
        (o->filter && ph_sample_filter_active(o->filter)) ||
        ph_node_count(p) || ph_sample_count(p) || !ph_calls_have_costs(p) ||
        ph_has_credits(p, ev))
        return;
    t->wide = ph_xcalloc(w + 1, sizeof *t->wide);
    if (ph_event_eval(p, ev, t->wide) != 0) {
        free(t->wide);
        t->wide = NULL;
        return;
    }
    unsigned char *reads = ph_xcalloc(w + 1, 1);
    ph_event_reads(p, ev, reads);
    t->kept = ph_xmalloc((w + 1) * sizeof *t->kept);
    for (size_t s = 0; s < w; s++)
        if (reads[s])
            t->kept[t->nkept++] = s;
    free(reads);
    size_t k = t->nkept;
    if (k && nf > SIZE_MAX / sizeof *t->kept_sums / 2 / k)
        ph_oom();
    t->kept_sums = ph_xcalloc(2 * nf * k + 1, sizeof *t->kept_sums);
    /* no samples here: the cycles read the rows, not the cache */
    cycles_side find = {p, o->part, 1, NULL};
    int beside = wants_cycles(p, o) && cycles_fit_beside(p);
    ph_func_sums_of(p, o->part, t->kept, k, t->kept_sums,
                    t->kept_sums + nf * k, beside ? cycles_side_run : NULL,
                    &find);
    t->cycles = find.cycles;
}

/* The kept values of v (a vector of every event) into dst. */
static void keep_values(const ph_table *t, int64_t *dst, const int64_t *v)
{
    for (size_t j = 0; j < t->nkept; j++)
        dst[j] = v[t->kept[j]];
}

static void build_functions(ph_table *t, const ph_table_opts *o, size_t *cap)
{
    const ph_profile *p = t->profile;
    size_t w = t->kept ? t->nkept : t->nreal, nf = ph_func_count(p);
    size_t most = ph_func_count(p) + (t->cycles ? ph_cycles_count(t->cycles)
                                                : 0);
    int graph = has_call_graph(p);
    char *text = NULL;
    size_t room = 0;
    if (most > *cap) {   /* at most an entry each: no copies as it grows */
        *cap = most;
        t->entries = ph_xrealloc(t->entries, *cap * sizeof *t->entries);
    }
    for (size_t i = 0; i < nf; i++) {
        const ph_func *f = ph_func_at(p, i);
        const int64_t *self, *incl = NULL;
        uint32_t cyc = t->cycles ? ph_cycles_of(t->cycles, f) : 0;
        if (cyc)
            incl = ph_cycles_member_incl(t->cycles, f);
        if (t->kept) {
            int64_t *ks = t->kept_sums + i * w, *ki = ks + nf * w;
            if (incl)
                keep_values(t, ki, incl);
            self = ks;
            incl = ki;
        } else {
            self = ph_func_self(p, f, o->part);
            if (!incl)
                incl = ph_func_incl(p, f, o->part);
        }
        if (!ph_table_lists_func(p, f, o->part, self, incl, w))
            continue;
        /* the name's text only for a filter (ph_entry_name) */
        if ((o->focus || o->ignore) &&
            !ph_table_keeps_name(o, ph_str_text(p, f->name, &text, &room)))
            continue;
        ph_entry *e = push_borrowing(t, cap, self, incl);
        e->file = f->file ? ph_str_get(p, f->file->name) : "";
        e->object = f->object ? ph_str_get(p, f->object->name) : "";
        e->func = f;
        e->cycle = cyc;
        e->has_incl = graph;
        e->calls = ph_func_calls(p, f, o->part);
        e->self_calls = ph_func_self_calls(p, f, o->part);
    }
    free(text);
    if (!t->cycles)
        return;
    for (uint32_t k = 1; k <= ph_cycles_count(t->cycles); k++) {
        char name[32];
        snprintf(name, sizeof name, "<cycle %u>", k);
        if (!ph_table_keeps_name(o, name))
            continue;
        const int64_t *cs = ph_cycles_self(t->cycles, k);
        const int64_t *ci = ph_cycles_incl(t->cycles, k);
        ph_entry *e = push_borrowing(t, cap, t->kept ? NULL : cs,
                                     t->kept ? NULL : ci);
        if (t->kept) {
            keep_values(t, ph_entry_self_mut(t, e), cs);
            keep_values(t, ph_entry_incl_mut(t, e), ci);
        }
        e->label = ph_table_own_name(t, name);
        e->file = e->object = "";
        e->cycle = k;
        e->is_cycle = 1;
        e->has_incl = 1;
        e->calls = ph_cycles_calls(t->cycles, k);
        e->self_calls = ph_cycles_inner_calls(t->cycles, k);
    }
}

/* Inclusive cost of groups in the context tree: each stack counts once per
 * group, found by a depth-first walk that tracks groups on the stack. */
static void tree_group_incl(const ph_profile *p, int part, const uint32_t *gof,
                            size_t ngroups, int64_t *incl, size_t w)
{
    int64_t *sub = ph_subtree_sums(p, part, NULL);
    if (!sub)
        return;
    uint32_t *on = ph_xcalloc(ngroups + 1, sizeof *on);
    size_t n = ph_node_count(p);
    uint32_t *stack = ph_xmalloc((n + 1) * sizeof *stack);
    for (uint32_t root = n ? 1 : 0; root;
         root = ph_node_at(p, root - 1)->sibling) {
        /* Enter a node, then its first child; leave it when it has no
         * unvisited child left, then go to its sibling. */
        size_t sp = 0;
        uint32_t cur = root;
        while (cur) {
            const ph_node *nd = ph_node_at(p, cur - 1);
            const ph_func *f = ph_node_func(p, nd);
            uint32_t g = f ? gof[f->id - 1] : 0;
            if (g && on[g]++ == 0)
                ph_vec_add(incl + (g - 1) * w, sub + (cur - 1) * w, w);
            stack[sp++] = cur;
            if (nd->child) {
                cur = nd->child;
                continue;
            }
            cur = 0;
            while (sp) {
                uint32_t done = stack[--sp];
                const ph_node *dn = ph_node_at(p, done - 1);
                const ph_func *df = ph_node_func(p, dn);
                uint32_t dg = df ? gof[df->id - 1] : 0;
                if (dg)
                    on[dg]--;
                if (done == root)
                    break;
                if (dn->sibling) {
                    cur = dn->sibling;
                    break;
                }
            }
        }
    }
    free(stack);
    free(on);
    free(sub);
}

/* Grouped by the file of the code (callgrind fi=/fe=, as callgrind_annotate
 * and cg_annotate do): rows of code inlined from another file move from
 * the function's file to that file. */
static void move_inlined_rows(const ph_profile *p, int part,
                              const uint32_t *gof, const uint32_t *gfile,
                              int64_t *self, size_t w)
{
    const ph_part *only = part == PH_ALL_PARTS ? NULL : ph_part_at(p, part);
    for (size_t i = 0; i < ph_func_count(p); i++) {
        const ph_func *f = ph_func_at(p, i);
        ph_row_iter it;
        ph_row r;
        ph_row_iter_init(&it, p, f, only);
        while (ph_row_next(&it, &r)) {
            if (!r.file || r.file == f->file)
                continue;
            int64_t *from = self + (gof[i] - 1) * w;
            int64_t *to = self + (gfile[r.file->id] - 1) * w;
            for (size_t k = 0; k < w; k++) {
                from[k] = ph_cost_add(from[k], -r.cost[k]);
                to[k] = ph_cost_add(to[k], r.cost[k]);
            }
        }
    }
}

static void build_groups(ph_table *t, const ph_table_opts *o, size_t *cap)
{
    const ph_profile *p = t->profile;
    size_t w = t->nreal, nf = ph_func_count(p);
    size_t nfiles = o->group == PH_GROUP_FILE ? ph_file_count(p) : 0;
    uint32_t *gof = ph_xcalloc(nf + 1, sizeof *gof);   /* group index + 1 */
    group_tab gt;
    size_t ng = 0, cap2 = 64;
    while (cap2 < 2 * (nf + nfiles) + 2)
        cap2 *= 2;
    gt.slot = ph_xcalloc(cap2, sizeof *gt.slot);
    gt.mask = cap2 - 1;
    gt.names = ph_xcalloc(nf + nfiles + 2, sizeof *gt.names);
    /* group index + 1 of each file, by file id */
    uint32_t *gfile = ph_xcalloc(nfiles + 1, sizeof *gfile);
    for (size_t i = 0; i < nf; i++) {
        char buf[1024];
        gof[i] = group_of(&gt, ph_table_group_key(p, ph_func_at(p, i),
                                                  o->group, buf, sizeof buf),
                          &ng);
    }
    for (size_t i = 0; i < nfiles; i++) {
        const ph_file *fl = ph_file_at(p, i);
        gfile[fl->id] = group_of(&gt, fl->name ? ph_str_get(p, fl->name)
                                               : NULL, &ng);
    }
    int64_t *self = ph_xcalloc(ng * w + 1, sizeof *self);
    int64_t *in = ph_xcalloc(ng * w + 1, sizeof *in);
    int64_t *out = ph_xcalloc(ng * w + 1, sizeof *out);
    int64_t *tree = ph_xcalloc(ng * w + 1, sizeof *tree);
    unsigned char *has_in = ph_xcalloc(ng + 1, 1);
    uint64_t *calls = ph_xcalloc(ng + 1, sizeof *calls);
    for (size_t i = 0; i < nf; i++) {
        const ph_func *f = ph_func_at(p, i);
        ph_vec_add(self + (gof[i] - 1) * w, ph_func_self(p, f, o->part), w);
    }
    if (nfiles)
        move_inlined_rows(p, o->part, gof, gfile, self, w);
    ph_call_iter it;
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it)) {
        if (!ph_part_selected(c->part, o->part))
            continue;
        uint32_t gc = nfiles && c->file ? gfile[c->file->id]
                                        : gof[c->caller->id - 1];
        uint32_t ge = gof[c->callee->id - 1];
        if (gc == ge)
            continue;
        ph_vec_add_call(in + (ge - 1) * w, c, w);
        ph_vec_add_call(out + (gc - 1) * w, c, w);
        has_in[ge - 1] = 1;
        calls[ge - 1] += c->count;
    }
    /* Roots (functions no other function calls with a known cost) bring
     * their whole inclusive cost into their group: calls into the group
     * from outside miss it. */
    unsigned char *called = ph_xcalloc(nf + 1, 1);
    int64_t *roots = ph_xcalloc(ng * w + 1, sizeof *roots);
    unsigned char *has_root = ph_xcalloc(ng + 1, 1);
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it)) {
        if (ph_part_selected(c->part, o->part) && c->caller != c->callee &&
            c->incl)
            called[c->callee->id - 1] = 1;
    }
    for (size_t i = 0; i < nf && ph_call_count(p); i++) {
        if (called[i])
            continue;
        const ph_func *f = ph_func_at(p, i);
        has_root[gof[i] - 1] = 1;
        ph_vec_add(roots + (gof[i] - 1) * w, ph_func_incl(p, f, o->part), w);
    }
    tree_group_incl(p, o->part, gof, ng, tree, w);
    int graph = has_call_graph(p);
    for (size_t g = 0; g < ng; g++) {
        int64_t *gs = self + g * w;
        const char *name = gt.names[g] ? gt.names[g]
                           : o->group == PH_GROUP_CLASS ? "(no class)" : "???";
        if (!ph_table_keeps_name(o, name))
            continue;
        ph_entry *e = ph_table_push_entry(t, cap);
        e->label = name;
        e->file = e->object = "";
        e->has_incl = graph;
        e->calls = calls[g];
        int64_t *es = ph_entry_self_mut(t, e), *ei = ph_entry_incl_mut(t, e);
        memcpy(es, gs, w * sizeof *gs);
        if (ph_call_count(p)) {
            if (has_in[g] || has_root[g]) {
                /* An estimate when a root's callees call back into the
                 * group: kept between the group's self cost and the
                 * total. */
                memcpy(ei, in + g * w, w * sizeof *ei);
                ph_vec_add(ei, roots + g * w, w);
                for (size_t k = 0; k < w; k++) {
                    if (ei[k] > t->totals[k] && t->totals[k] >= 0)
                        ei[k] = t->totals[k];
                    if (ei[k] < gs[k])
                        ei[k] = gs[k];
                }
            } else {
                memcpy(ei, gs, w * sizeof *ei);
                ph_vec_add(ei, out + g * w, w);
            }
        } else if (!ph_node_count(p)) {
            memcpy(ei, gs, w * sizeof *ei);
        }
        ph_vec_add(ei, tree + g * w, w);
        if (ph_costs_zero(es, w) && ph_costs_zero(ei, w) && !e->calls) {
            ph_entry_release(e);
            t->count--;
        }
    }
    free(gof);
    free(gfile);
    free(gt.slot);
    /* the group names belong to the table now */
    t->names = gt.names;
    t->nnames = ng;
    free(self);
    free(in);
    free(out);
    free(tree);
    free(has_in);
    free(calls);
    free(called);
    free(roots);
    free(has_root);
}

ph_table *ph_table_build(const ph_profile *p, const ph_table_opts *opts)
{
    ph_table *t = ph_xcalloc(1, sizeof *t);
    size_t cap = 0;
    t->profile = p;
    t->nreal = ph_event_nreal(p);
    if (opts->totals_only) {
        t->totals = ph_totals(p, opts->part);
        return t;
    }
    keep_slots(t, opts);
    if (!t->kept && !opts->lines && ph_func_count(p) &&
        !(opts->filter && ph_sample_filter_active(opts->filter)))
        /* every function's sums are asked below and carry the totals:
         * asked first, one pass over the rows gives both (the totals of
         * a profile of one part are a pass of their own otherwise) */
        (void)ph_func_self(p, ph_func_at(p, 0), opts->part);
    t->totals = ph_totals(p, opts->part);
    if (opts->lines && ph_table_has_line_credits(p) &&
        !(opts->filter && ph_sample_filter_active(opts->filter))) {
        ph_table_build_line_credits(t, opts);
        return t;
    }
    if (opts->lines ||
        (opts->filter && ph_sample_filter_active(opts->filter))) {
        ph_table_build_filtered(t, opts);
        return t;
    }
    if (opts->group == PH_GROUP_FUNCTION) {
        if (wants_cycles(p, opts) && !t->cycles)
            t->cycles = find_cycles(t, opts);
        build_functions(t, opts, &cap);
        ph_table_mark_inline(t, opts);
    } else {
        build_groups(t, opts, &cap);
    }
    return t;
}

void ph_table_free(ph_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->count; i++)
        ph_entry_release(&t->entries[i]);
    free(t->entries);
    for (size_t i = 0; i < t->nnames; i++)
        free(t->names[i]);
    free(t->names);
    ph_cycles_free(t->cycles);
    free(t->kept);
    free(t->kept_sums);
    free(t->wide);
    free(t);
}

const char *ph_entry_name(const ph_table *t, const ph_entry *e)
{
    if (e->label || !e->func)
        return e->label ? e->label : "";
    return ph_str_get(t->profile, e->func->name);
}

const char *ph_entry_text(const ph_table *t, const ph_entry *e, char **buf,
                          size_t *cap)
{
    if (e->label || !e->func)
        return e->label ? e->label : "";
    return ph_str_text(t->profile, e->func->name, buf, cap);
}

double ph_entry_value(const ph_table *t, const ph_entry *e,
                      const ph_event *ev, int inclusive)
{
    if (e->credited && !inclusive && ph_has_credits(t->profile, ev))
        return e->credit;
    const int64_t *v = inclusive ? e->incl : e->self;
    if (t->kept) {   /* a table of one event: its values where it reads */
        for (size_t j = 0; j < t->nkept; j++)
            t->wide[t->kept[j]] = v[j];
        v = t->wide;
    }
    return ph_event_eval(t->profile, ev, v);
}

/* qsort has no context argument: the sort keys are computed first, one
 * small record per entry (a big profile's table is sorted whole). */
typedef struct keyed {
    double key;
    uint64_t calls;        /* gprof -l's second key (0 elsewhere) */
    size_t index;
} keyed;

/* The names of a run of entries of equal values, made only for the runs
 * that reach the entries shown. */
typedef struct named {
    const ph_profile *p;
    const char *label;     /* the entry's, or NULL: name's text */
    ph_str name;
    size_t index;
} named;

/* Names compared without making a function's compound name into text. */
static int cmp_names(const named *x, const named *y)
{
    if (!x->label && !y->label)
        return ph_str_cmp(x->p, x->name, y->name);
    return strcmp(x->label ? x->label : ph_str_get(x->p, x->name),
                  y->label ? y->label : ph_str_get(y->p, y->name));
}

/* The order without names: value, then calls, descending. */
static int cmp_values(const keyed *x, const keyed *y)
{
    if (x->key != y->key)
        return x->key < y->key ? 1 : -1;
    if (x->calls != y->calls)
        return x->calls < y->calls ? 1 : -1;
    return 0;
}

static int cmp_index(size_t x, size_t y)
{
    return x < y ? -1 : x > y;
}

static int cmp_by_values(const void *a, const void *b)
{
    int c = cmp_values(a, b);
    return c ? c : cmp_index(((const keyed *)a)->index,
                             ((const keyed *)b)->index);
}

static int cmp_by_names(const void *a, const void *b)
{
    int c = cmp_names(a, b);
    return c ? c : cmp_index(((const named *)a)->index,
                             ((const named *)b)->index);
}

/* k[0..n), entries of equal values, in the order of their names. */
static void sort_by_names(const ph_table *t, keyed *k, size_t n)
{
    named *v = ph_xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        const ph_entry *e = &t->entries[k[i].index];
        v[i] = (named){t->profile, e->label,
                       e->label || !e->func ? 0 : e->func->name, k[i].index};
    }
    ph_qsort(v, n, sizeof *v, cmp_by_names);
    for (size_t i = 0; i < n; i++)
        k[i].index = v[i].index;
    free(v);
}

static void swap_keyed(keyed *a, keyed *b)
{
    keyed x = *a;
    *a = *b;
    *b = x;
}

/* Entry k[j].index moves to j: in place, one cycle of the permutation at
 * a time (k[j].index = j marks j as placed). */
static void place_all(ph_table *t, keyed *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (k[i].index == i)
            continue;
        ph_entry first = t->entries[i];
        size_t j = i;
        while (k[j].index != i) {
            size_t from = k[j].index;
            t->entries[j] = t->entries[from];
            k[j].index = j;
            j = from;
        }
        t->entries[j] = first;
        k[j].index = j;
    }
}

/* Entries k[0..top).index move to the front in that order, the others
 * after them in the order they were: one pass from the end, each entry
 * read in sequence (following the permutation's cycles reads them at
 * random, a cache miss each). */
static void place_top(ph_table *t, const keyed *k, size_t n, size_t top)
{
    ph_entry *front = ph_xmalloc((top + 1) * sizeof *front);
    unsigned char *taken = ph_xcalloc(n + 1, 1);
    for (size_t j = 0; j < top; j++) {
        front[j] = t->entries[k[j].index];
        taken[k[j].index] = 1;
    }
    for (size_t i = n, to = n; i-- > 0;)
        if (!taken[i])
            t->entries[--to] = t->entries[i];
    memcpy(t->entries, front, top * sizeof *front);
    free(taken);
    free(front);
}

size_t ph_table_keep(ph_table *t, size_t n,
                     int (*keep)(const ph_table *t, const ph_entry *e,
                                 void *ctx),
                     void *ctx)
{
    size_t k = 0;
    if (n > t->count)
        n = t->count;
    for (size_t i = 0; i < n; i++) {
        if (!keep(t, &t->entries[i], ctx))
            continue;
        if (i != k) {
            ph_entry e = t->entries[k];
            t->entries[k] = t->entries[i];
            t->entries[i] = e;
        }
        k++;
    }
    return k;
}

void ph_table_sort(ph_table *t, const ph_event *ev, ph_sort by)
{
    ph_table_sort_top(t, t->count, ev, by, 0);
}

/* Sorted by values first, then each run of equal values that reaches into
 * the first `top` by name: names are the slow comparison (a compound name
 * is walked piece by piece), and most functions of a big profile share
 * their value with others. */
void ph_table_sort_top(ph_table *t, size_t n, const ph_event *ev, ph_sort by,
                       size_t top)
{
    if (n > t->count)
        n = t->count;
    if (top == 0 || top > n)
        top = n;
    keyed *k = ph_xmalloc_written((n + 1) * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        const ph_entry *e = &t->entries[i];
        double v = by == PH_SORT_CALLS ? (double)e->calls
                   : ev ? ph_entry_value(t, e, ev, by == PH_SORT_INCL) : 0;
        k[i] = (keyed){fabs(v), t->gprof_lines ? e->calls + e->self_calls : 0,
                       i};
    }
    if (top < n) {
        /* a quickselect in place: qsort sorted all n with a buffer as
         * big as k, the summary's peak on a big profile */
        ph_qsort_top(k, n, sizeof *k, top, cmp_by_values);
        /* the entries not shown whose value equals the last one shown
         * follow it: names order that run */
        for (size_t i = top, j = top; i < n; i++)
            if (cmp_values(&k[i], &k[top - 1]) == 0)
                swap_keyed(&k[i], &k[j++]);
    } else {
        ph_qsort(k, n, sizeof *k, cmp_by_values);
    }
    for (size_t i = 0, j; i < top; i = j) {
        for (j = i + 1; j < n && cmp_values(&k[i], &k[j]) == 0; j++)
            ;
        if (j - i > 1)
            sort_by_names(t, k + i, j - i);
    }
    if (top < n)
        place_top(t, k, n, top);
    else
        place_all(t, k, n);
    free(k);
}
