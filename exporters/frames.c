/* frames.c -- the frame tree of the stack writers and pictures: the
 * profile's stacks (exact for a context tree, approximated for flat data)
 * folded into one frame per distinct call path of functions, with self and
 * inclusive cost vectors.  ph_frames_build is the one place the folded
 * writer and the svg module read stacks.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "ir/hash.h"
#include "exporters/frames.h"

static size_t hash_key(uint32_t parent, const ph_func *f, int inlined,
                       size_t mask)
{
    uint64_t h = ((uint64_t)parent << 32 | (uint64_t)(inlined != 0) << 31) ^
                 (uint64_t)(uintptr_t)f;
    return (size_t)ph_hash64(h) & mask;
}

static void rehash(ph_frames *fr)
{
    free(fr->slots);
    fr->nslots = fr->nslots ? 2 * fr->nslots : 1024;
    fr->slots = ph_xcalloc(fr->nslots, sizeof *fr->slots);
    for (size_t i = 1; i < fr->n; i++) {
        size_t h = hash_key(fr->f[i].parent, fr->f[i].func, fr->f[i].inlined,
                            fr->nslots - 1);
        while (fr->slots[h])
            h = (h + 1) & (fr->nslots - 1);
        fr->slots[h] = (uint32_t)i + 1;
    }
}

static uint32_t new_frame(ph_frames *fr, uint32_t parent, const ph_func *f,
                          int inlined)
{
    if (fr->n == fr->cap) {
        fr->cap = fr->cap ? 2 * fr->cap : 1024;
        fr->f = ph_xrealloc(fr->f, fr->cap * sizeof *fr->f);
    }
    uint32_t i = (uint32_t)fr->n++;
    ph_path_frame *o = &fr->f[i];
    memset(o, 0, sizeof *o);
    o->func = f;
    o->parent = parent;
    o->inlined = inlined;
    if (i) {
        o->depth = fr->f[parent].depth + 1;
        o->next = fr->f[parent].child;   /* reversed; fixed at the end */
        fr->f[parent].child = i;
    }
    return i;
}

/* The child of parent for function f (inlined or not), made when new. */
static uint32_t child_of(ph_frames *fr, uint32_t parent, const ph_func *f,
                         int inlined)
{
    if (2 * (fr->n + 1) > fr->nslots)
        rehash(fr);
    size_t h = hash_key(parent, f, inlined, fr->nslots - 1);
    for (; fr->slots[h]; h = (h + 1) & (fr->nslots - 1)) {
        const ph_path_frame *o = &fr->f[fr->slots[h] - 1];
        if (o->parent == parent && o->func == f && o->inlined == inlined)
            return fr->slots[h] - 1;
    }
    uint32_t i = new_frame(fr, parent, f, inlined);
    fr->slots[h] = i + 1;
    return i;
}

/* Children were pushed in front; put them back in order of appearance. */
static void order_children(ph_frames *fr)
{
    for (size_t i = 0; i < fr->n; i++) {
        uint32_t prev = 0, c = fr->f[i].child;
        while (c) {
            uint32_t next = fr->f[c].next;
            fr->f[c].next = prev;
            prev = c;
            c = next;
        }
        fr->f[i].child = prev;
    }
}

void ph_frames_build(const ph_profile *p, ph_output *out, ph_frames *fr)
{
    memset(fr, 0, sizeof *fr);
    const ph_stacks *sp = ph_stacks_of(p);
    ph_stacks st = *sp;
    if (out)
        ph_stacks_warn(sp, out);
    fr->width = st.width;
    fr->approx = st.approx != NULL;
    new_frame(fr, 0, NULL, 0);
    uint32_t *map = ph_xmalloc((st.nnodes + 1) * sizeof *map);
    for (size_t i = 0; i < st.nnodes; i++) {
        const ph_stk_node *n = &st.nodes[i];
        uint32_t parent = n->parent ? map[n->parent - 1] : 0;
        map[i] = child_of(fr, parent, n->func,
                          (n->flags & PH_FRAME_INLINED) != 0);
    }
    size_t w = fr->width;
    fr->self = ph_xcalloc(fr->n * w + 1, sizeof *fr->self);
    fr->total = ph_xcalloc(fr->n * w + 1, sizeof *fr->total);
    int64_t *buf = ph_xmalloc((w + 1) * sizeof *buf);
    for (size_t i = 0; i < st.nsamples; i++) {
        int64_t *s = fr->self + (size_t)map[st.samples[i].node] * w;
        const int64_t *cost = ph_stk_cost(sp, i, buf);
        for (size_t k = 0; k < w; k++)
            s[k] = ph_cost_add(s[k], cost[k]);
    }
    free(buf);
    memcpy(fr->total, fr->self, fr->n * w * sizeof *fr->total);
    for (size_t i = fr->n; i-- > 1;) {
        int64_t *t = fr->total + (size_t)fr->f[i].parent * w;
        for (size_t k = 0; k < w; k++)
            t[k] = ph_cost_add(t[k], fr->total[i * w + k]);
    }
    order_children(fr);
    free(map);
    free(fr->slots);
    fr->slots = NULL;
    fr->nslots = 0;
}

void ph_frames_free(ph_frames *fr)
{
    free(fr->f);
    free(fr->self);
    free(fr->total);
    free(fr->slots);
    memset(fr, 0, sizeof *fr);
}

const char *ph_frame_name(const ph_profile *p, const ph_frames *fr, size_t i)
{
    const ph_func *f = fr->f[i].func;
    return f ? ph_str_get(p, f->name) : "all";
}

double ph_frames_value(const ph_profile *p, const ph_event *ev,
                       const int64_t *cost)
{
    if (ev->slot >= 0)
        return (double)cost[ev->slot];
    return ph_event_eval(p, ev, cost);
}
