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

enum { PH_LINE_NAME_MAX = 4096 };

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

/* A new entry of the filtered table: inclusive like the stack view's. */
static ph_entry *new_entry(ph_table *t, size_t *cap)
{
    ph_entry *en = ph_table_push_entry(t, cap);
    en->has_incl = 1;
    en->file = en->object = "";
    return en;
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
            if (strcmp(ph_entry_name(t, &t->entries[e]), key) == 0)
                break;
        if (o->group == PH_GROUP_FUNCTION || e == t->count) {
            ph_entry *en = new_entry(t, &cap);
            if (o->group == PH_GROUP_FUNCTION) {
                en->func = f;
                if (f->file)
                    en->file = ph_str_get(p, f->file->name);
                if (f->object)
                    en->object = ph_str_get(p, f->object->name);
            } else {
                en->label = ph_table_own_name(t, key);
            }
            e = t->count - 1;
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
            ph_entry_release(e);
            continue;
        }
        t->entries[k++] = *e;
    }
    t->count = k;
}

/* ------------------------------------------------------------------ */
/* The walker: which frames of each sample the filters keep            */

struct ph_stack_filter {
    const ph_profile *p;
    const ph_stacks *s;
    ph_sample_filter f;       /* all NULL when none was given */
    int part;
    unsigned char *m;         /* M_* per node */
    unsigned any, tags;
};

ph_stack_filter *ph_stack_filter_new(const ph_profile *p,
                                     const ph_sample_filter *f, int part)
{
    ph_stack_filter *sf = ph_xcalloc(1, sizeof *sf);
    sf->p = p;
    sf->s = ph_stacks_of(p);
    if (f)
        sf->f = *f;
    sf->part = part;
    sf->m = match_nodes(p, sf->s, &sf->f);
    for (size_t i = 0; i < sf->s->nnodes; i++)
        sf->any |= sf->m[i];
    return sf;
}

void ph_stack_filter_free(ph_stack_filter *sf)
{
    if (!sf)
        return;
    free(sf->m);
    free(sf);
}

size_t ph_stack_filter_sample(ph_stack_filter *sf, size_t i, uint32_t *out)
{
    const ph_stacks *s = sf->s;
    const ph_stk_sample *smp = &s->samples[i];
    const ph_sample_filter *f = &sf->f;
    size_t nk = 0;
    int focused = !f->focus;
    uint32_t n;

    if (smp->src && !ph_part_selected(smp->src->part, sf->part))
        return 0;
    if (f->tagfocus && !ph_tag_filter_match(f->tagfocus, sf->p, smp->src))
        return 0;
    if (f->tagfocus)
        sf->tags |= 1;
    if (f->tagignore && ph_tag_filter_match(f->tagignore, sf->p, smp->src)) {
        sf->tags |= 2;
        return 0;
    }
    /* leaf to root: focus and ignore see every frame; hide and show
     * decide which frames stay */
    for (n = smp->node + 1; n; n = s->nodes[n - 1].parent) {
        unsigned char b = sf->m[n - 1];
        if (b & M_IGNORE)
            return 0;
        if (b & M_FOCUS)
            focused = 1;
        if (!(b & M_HIDE) && (!f->show || (b & M_SHOW)))
            out[nk++] = n - 1;
    }
    return focused ? nk : 0;
}

unsigned ph_stack_filter_unmatched(const ph_stack_filter *sf)
{
    const ph_sample_filter *f = &sf->f;
    unsigned u = 0;
    if (f->focus && !(sf->any & M_FOCUS))
        u |= PH_UNMATCHED_FOCUS;
    if (f->ignore && !(sf->any & M_IGNORE))
        u |= PH_UNMATCHED_IGNORE;
    if (f->hide && !(sf->any & M_HIDE))
        u |= PH_UNMATCHED_HIDE;
    if (f->show && !(sf->any & M_SHOW))
        u |= PH_UNMATCHED_SHOW;
    if (f->tagfocus && !(sf->tags & 1))
        u |= PH_UNMATCHED_TAGFOCUS;
    if (f->tagignore && !(sf->tags & 2))
        u |= PH_UNMATCHED_TAGIGNORE;
    return u;
}

int ph_stack_frame_inlined(const ph_stacks *s, const uint32_t *frames,
                           size_t n, size_t j)
{
    const ph_stk_node *nd = &s->nodes[frames[j]];
    return (nd->flags & PH_FRAME_INLINED) && j + 1 < n &&
           nd->parent == frames[j + 1] + 1;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

/* pprof -lines: an entry per (function, line) of the view's nodes, named
 * "function file:line"; entry index + 1 per node. */
static uint32_t *make_line_entries(ph_table *t, const ph_stacks *s)
{
    const ph_profile *p = t->profile;
    size_t cap = 0, hcap = 64;
    uint32_t *eon = ph_xcalloc(s->nnodes + 1, sizeof *eon);
    while (hcap < 2 * s->nnodes + 2)
        hcap *= 2;
    uint32_t *slot = ph_xcalloc(hcap, sizeof *slot);   /* node index + 1 */
    for (size_t i = 0; i < s->nnodes; i++) {
        const ph_stk_node *n = &s->nodes[i];
        uint64_t key = ((uint64_t)n->func->id << 32) | n->line;
        size_t h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (hcap - 1);
        for (; slot[h]; h = (h + 1) & (hcap - 1)) {
            const ph_stk_node *o = &s->nodes[slot[h] - 1];
            if (o->func == n->func && o->line == n->line)
                break;
        }
        if (slot[h]) {
            eon[i] = eon[slot[h] - 1];
            continue;
        }
        slot[h] = (uint32_t)i + 1;
        ph_entry *en = new_entry(t, &cap);
        const ph_func *f = n->func;
        const char *file = f->file ? ph_str_get(p, f->file->name) : "";
        char buf[PH_LINE_NAME_MAX];
        snprintf(buf, sizeof buf, "%s %s:%u", ph_str_get(p, f->name),
                 *file ? file : "??", n->line);
        en->label = ph_table_own_name(t, buf);
        en->func = f;
        en->file = file;
        if (f->object)
            en->object = ph_str_get(p, f->object->name);
        eon[i] = (uint32_t)t->count;
    }
    free(slot);
    return eon;
}

/* Entry index + 1 per node, through the entry of each function. */
static uint32_t *node_entries(const ph_stacks *s, const uint32_t *eof)
{
    uint32_t *eon = ph_xcalloc(s->nnodes + 1, sizeof *eon);
    for (size_t i = 0; i < s->nnodes; i++)
        eon[i] = eof[s->nodes[i].func->id - 1];
    return eon;
}

/* pprof's edge marks: bit 1 an inlined call into the entry, bit 2 a
 * call that is not; kept[] is leaf first. */
static void mark_edges(const ph_stacks *s, const uint32_t *eon,
                       const uint32_t *kept, size_t nk, unsigned char *marks)
{
    for (size_t j = 0; j + 1 < nk; j++) {
        uint32_t ec = eon[kept[j]], ep = eon[kept[j + 1]];
        if (ec && ec != ep)
            marks[ec - 1] |= ph_stack_frame_inlined(s, kept, nk, j) ? 1 : 2;
    }
}

static void apply_marks(ph_table *t, const unsigned char *marks)
{
    for (size_t e = 0; e < t->count; e++)
        t->entries[e].inlined = marks[e] == 1   ? PH_INLINE_ALL
                                : marks[e] == 3 ? PH_INLINE_SOME : 0;
}

/* The marks of the unfiltered table, from the context tree itself rather
 * than the stack view (which would mirror every node): each edge from a
 * node to its nearest ancestor with a function, taken when a sample of the
 * part with a nonzero cost lies under the node -- the pairs of frames the
 * view's walk of every such sample meets. */
void ph_table_mark_inline(ph_table *t, const ph_table_opts *o)
{
    const ph_profile *p = t->profile;
    size_t nn = ph_node_count(p), w = t->nreal;
    if (!nn || !t->count)
        return;
    uint32_t *eof = ph_xcalloc(ph_func_count(p) + 1, sizeof *eof);
    unsigned char *live = ph_xcalloc(nn + 1, 1);
    unsigned char *marks = ph_xcalloc(t->count + 1, 1);
    for (size_t e = 0; e < t->count; e++)
        if (t->entries[e].func)
            eof[t->entries[e].func->id - 1] = (uint32_t)e + 1;
    for (size_t i = 0; i < ph_sample_count(p); i++) {
        const ph_sample *smp = ph_sample_at(p, i);
        if (!smp->node || !ph_part_selected(smp->part, o->part))
            continue;
        for (size_t k = 0; k < w; k++)
            if (ph_sample_value(smp, k)) {
                live[ph_node_id(p, smp->node) - 1] = 1;
                break;
            }
    }
    /* ids put parents before children */
    for (size_t i = nn; i-- > 0;) {
        const ph_node *n = ph_node_at(p, i);
        if (!live[i] || !n->parent)
            continue;
        live[n->parent - 1] = 1;
        const ph_frame *fr = ph_node_frame(p, n);
        if (!fr->func)
            continue;
        const ph_func *upf = NULL;
        for (uint32_t up = n->parent; up && !upf;
             up = ph_node_at(p, up - 1)->parent)
            upf = ph_node_func(p, ph_node_at(p, up - 1));
        uint32_t ec = eof[fr->func->id - 1];
        if (upf && ec && ec != eof[upf->id - 1])
            marks[ec - 1] |= (fr->flags & PH_FRAME_INLINED) ? 1 : 2;
    }
    apply_marks(t, marks);
    free(marks);
    free(live);
    free(eof);
}

void ph_table_build_filtered(ph_table *t, const ph_table_opts *o)
{
    const ph_profile *p = t->profile;
    ph_stack_filter *sf = ph_stack_filter_new(p, o->filter, o->part);
    const ph_stacks *s = sf->s;
    size_t w = t->nreal;
    uint32_t *eon;
    unsigned char *additive = ph_xmalloc(w + 1), *marks;
    uint64_t *seen;        /* per entry: last sample (+ 1) counted */
    uint32_t *kept = ph_xmalloc((s->nnodes + 1) * sizeof *kept);
    int64_t *buf = ph_xmalloc((w + 1) * sizeof *buf);

    if (o->lines) {
        eon = make_line_entries(t, s);
    } else {
        uint32_t *eof = make_entries(t, o);
        eon = node_entries(s, eof);
        free(eof);
    }
    t->filtered = 1;
    t->approx = s->approx;
    seen = ph_xcalloc(t->count + 1, sizeof *seen);
    marks = ph_xcalloc(t->count + 1, 1);
    for (size_t k = 0; k < w; k++)
        additive[k] = !(ph_event_real(p, k)->flags & PH_EV_NONADDITIVE);
    for (size_t i = 0; i < s->nsamples; i++) {
        const ph_stk_sample *smp = &s->samples[i];
        size_t nk = ph_stack_filter_sample(sf, i, kept);
        if (nk == 0)
            continue;
        const int64_t *cost = ph_stk_cost(s, i, buf);
        if (smp->src && !ph_costs_zero(cost, w))
            mark_edges(s, eon, kept, nk, marks);
        int64_t *leaf = ph_entry_self_mut(t, &t->entries[eon[kept[0]] - 1]);
        for (size_t k = 0; k < w; k++)
            if (additive[k])
                leaf[k] = ph_cost_add(leaf[k], cost[k]);
        for (size_t j = 0; j < nk; j++) {
            uint32_t e = eon[kept[j]] - 1;
            if (seen[e] == i + 1)
                continue;
            seen[e] = i + 1;
            int64_t *incl = ph_entry_incl_mut(t, &t->entries[e]);
            for (size_t k = 0; k < w; k++)
                if (additive[k])
                    incl[k] = ph_cost_add(incl[k], cost[k]);
        }
    }
    t->unmatched = ph_stack_filter_unmatched(sf);
    apply_marks(t, marks);
    drop_empty(t);
    ph_stack_filter_free(sf);
    free(eon);
    free(marks);
    free(additive);
    free(seen);
    free(kept);
    free(buf);
}
