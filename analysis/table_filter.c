/* table_filter.c -- the cost table of the samples that pprof's filters
 * keep (-focus, -ignore, -hide, -show, -tagfocus, -tagignore; the rules
 * are in analysis.h at ph_sample_filter).  It walks the stack view, so a
 * context tree is filtered exactly and flat data through the stacks
 * approximated by gprof's rule (the table says so in t->approx).  An
 * entry's self cost is the cost of the kept samples whose leaf frame (after
 * hide/show) is in it; its inclusive cost counts each kept sample once when
 * the entry is anywhere on its stack, as pprof's flat and cum. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"

int ph_sample_filter_active(const ph_sample_filter *f)
{
    return f && (f->focus || f->ignore || f->hide || f->show ||
                 f->tagfocus || f->tagignore);
}

enum { M_FOCUS = 1, M_IGNORE = 2, M_HIDE = 4, M_SHOW = 8 };

static int name_matches(const regex_t *re, const char *s)
{
    return s && *s && regexec(re, s, 0, NULL, 0) == 0;
}

/* A frame matches when its function's name, file or object does
 * (pprof's Location.matchesName). */
static int frame_matches(const ph_profile *p, const ph_stk_node *n,
                         const regex_t *re)
{
    const ph_func *f = n->func;
    const ph_object *o = n->obj ? n->obj : f->object;
    return name_matches(re, ph_str_get(p, f->name)) ||
           (f->file && name_matches(re, ph_str_get(p, f->file->name))) ||
           (o && name_matches(re, ph_str_get(p, o->name)));
}

/* M_* bits of every node of the view. */
static unsigned char *match_nodes(const ph_profile *p, const ph_stacks *s,
                                  const ph_sample_filter *f)
{
    unsigned char *m = ph_xcalloc(s->nnodes + 1, 1);
    for (size_t i = 0; i < s->nnodes; i++) {
        const ph_stk_node *n = &s->nodes[i];
        if (f->focus && frame_matches(p, n, f->focus))
            m[i] |= M_FOCUS;
        if (f->ignore && frame_matches(p, n, f->ignore))
            m[i] |= M_IGNORE;
        if (f->hide && frame_matches(p, n, f->hide))
            m[i] |= M_HIDE;
        if (f->show && frame_matches(p, n, f->show))
            m[i] |= M_SHOW;
    }
    return m;
}

/* Entry index + 1 of every function (0: no entry), grouped by the table's
 * grouping; the entries are made here, empty. */
static uint32_t *make_entries(ph_table *t, const ph_table_opts *o)
{
    const ph_profile *p = t->profile;
    size_t nf = ph_func_count(p), cap = 0;
    uint32_t *eof = ph_xcalloc(nf + 1, sizeof *eof);

    for (size_t i = 0; i < nf; i++) {
        const ph_func *f = ph_func_at(p, i);
        char buf[1024];
        const char *key = ph_table_group_key(p, f, o->group, buf, sizeof buf);
        size_t e;
        if (!key)
            key = o->group == PH_GROUP_CLASS ? "(no class)" : "???";
        /* functions keep one entry each; groups share one per name */
        for (e = 0; o->group != PH_GROUP_FUNCTION && e < t->count; e++)
            if (strcmp(t->entries[e].name, key) == 0)
                break;
        if (o->group == PH_GROUP_FUNCTION || e == t->count) {
            if (t->count == cap) {
                cap = cap ? 2 * cap : 64;
                t->entries = ph_xrealloc(t->entries,
                                         cap * sizeof *t->entries);
            }
            ph_entry *en = &t->entries[t->count];
            memset(en, 0, sizeof *en);
            en->self = ph_xcalloc(t->nreal + 1, sizeof *en->self);
            en->incl = ph_xcalloc(t->nreal + 1, sizeof *en->incl);
            en->has_incl = 1;
            en->file = en->object = "";
            if (o->group == PH_GROUP_FUNCTION) {
                en->name = ph_str_get(p, f->name);
                en->func = f;
                if (f->file)
                    en->file = ph_str_get(p, f->file->name);
                if (f->object)
                    en->object = ph_str_get(p, f->object->name);
            } else {
                t->names = ph_xrealloc(t->names,
                                       (t->nnames + 1) * sizeof *t->names);
                t->names[t->nnames] = strcpy(ph_xmalloc(strlen(key) + 1),
                                             key);
                en->name = t->names[t->nnames++];
            }
            e = t->count++;
        }
        eof[i] = (uint32_t)e + 1;
    }
    return eof;
}

/* Drop the entries the kept samples never reached. */
static void drop_empty(ph_table *t)
{
    size_t k = 0;
    for (size_t i = 0; i < t->count; i++) {
        ph_entry *e = &t->entries[i];
        int zero = 1;
        for (size_t j = 0; j < t->nreal && zero; j++)
            zero = !e->self[j] && !e->incl[j];
        if (zero) {
            free(e->self);
            free(e->incl);
            continue;
        }
        t->entries[k++] = *e;
    }
    t->count = k;
}

void ph_table_build_filtered(ph_table *t, const ph_table_opts *o)
{
    const ph_profile *p = t->profile;
    const ph_sample_filter *f = o->filter;
    const ph_stacks *s = ph_stacks_of(p);
    size_t w = t->nreal, nent;
    unsigned char *m = match_nodes(p, s, f);
    uint32_t *eof = make_entries(t, o);
    unsigned char *additive = ph_xmalloc(w + 1);
    uint64_t *seen;        /* per entry: last sample (+ 1) counted */
    uint32_t *kept = ph_xmalloc((s->nnodes + 1) * sizeof *kept);
    unsigned any = 0, tags = 0;

    t->filtered = 1;
    t->approx = s->approx;
    nent = t->count;
    seen = ph_xcalloc(nent + 1, sizeof *seen);
    for (size_t k = 0; k < w; k++)
        additive[k] = !(ph_event_real(p, k)->flags & PH_EV_NONADDITIVE);
    for (size_t i = 0; i < s->nnodes; i++)
        any |= m[i];
    for (size_t i = 0; i < s->nsamples; i++) {
        const ph_stk_sample *smp = &s->samples[i];
        size_t nk = 0;
        int focused = !f->focus;
        if (smp->src && !ph_part_selected(smp->src->part, o->part))
            continue;
        if (f->tagfocus && !ph_tag_filter_match(f->tagfocus, p, smp->src))
            continue;
        if (f->tagfocus)
            tags |= 1;
        if (f->tagignore && ph_tag_filter_match(f->tagignore, p, smp->src)) {
            tags |= 2;
            continue;
        }
        /* leaf to root: focus and ignore first, then the frames kept */
        uint32_t n = smp->node + 1;
        for (; n; n = s->nodes[n - 1].parent) {
            unsigned char b = m[n - 1];
            if (b & M_IGNORE)
                break;
            if (b & M_FOCUS)
                focused = 1;
            if (!(b & M_HIDE) && (!f->show || (b & M_SHOW)))
                kept[nk++] = n - 1;
        }
        if (n || !focused || nk == 0)
            continue;
        ph_entry *leaf = &t->entries[eof[s->nodes[kept[0]].func->id -
                                                1] - 1];
        for (size_t k = 0; k < w; k++)
            if (additive[k])
                leaf->self[k] = ph_cost_add(leaf->self[k], smp->cost[k]);
        for (size_t j = 0; j < nk; j++) {
            uint32_t e = eof[s->nodes[kept[j]].func->id - 1] - 1;
            if (seen[e] == i + 1)
                continue;
            seen[e] = i + 1;
            for (size_t k = 0; k < w; k++)
                if (additive[k])
                    t->entries[e].incl[k] =
                        ph_cost_add(t->entries[e].incl[k], smp->cost[k]);
        }
    }
    if (f->focus && !(any & M_FOCUS))
        t->unmatched |= PH_UNMATCHED_FOCUS;
    if (f->ignore && !(any & M_IGNORE))
        t->unmatched |= PH_UNMATCHED_IGNORE;
    if (f->hide && !(any & M_HIDE))
        t->unmatched |= PH_UNMATCHED_HIDE;
    if (f->show && !(any & M_SHOW))
        t->unmatched |= PH_UNMATCHED_SHOW;
    if (f->tagfocus && !(tags & 1))
        t->unmatched |= PH_UNMATCHED_TAGFOCUS;
    if (f->tagignore && !(tags & 2))
        t->unmatched |= PH_UNMATCHED_TAGIGNORE;
    drop_empty(t);
    free(m);
    free(eof);
    free(additive);
    free(seen);
    free(kept);
}
