/* tree.c -- the context tree: nodes (one frame each) linked to parent,
 * first child and next sibling, found by (parent, frame) through a hash;
 * samples (exclusive cost vectors with labels) attached to nodes.
 */
#include "config.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"

void ph_tree_free(ph_profile *p)
{
    ph_vec_free(&p->nodes);
    ph_vec_free(&p->samples);
    ph_htab_free(&p->nodemap);
    free(p->nx);
    p->nx = NULL;
    p->nxcap = 0;
}

static uint64_t hash_frame(const ph_profile *p, const ph_node *parent,
                           const ph_func *f, const ph_object *obj,
                           uint64_t addr, uint32_t line, uint32_t flags)
{
    uint64_t h = ph_hash_mix(p->seed, parent ? parent->id : 0);
    h = ph_hash_mix(h, f ? f->id : 0);
    h = ph_hash_mix(h, obj ? obj->id : 0);
    h = ph_hash_mix(h, addr);
    return ph_hash_mix(h, (uint64_t)line << 32 | flags);
}

static ph_node *make_node(ph_profile *p, uint64_t h, ph_node *parent,
                          ph_func *f, ph_object *obj, uint64_t addr,
                          uint32_t line, uint32_t flags)
{
    ph_node *n = ph_arena_alloc(&p->arena, sizeof *n, alignof(ph_node));
    void *arr = p->nx;
    if (p->nodes.n >= UINT32_MAX - 1)
        ph_oom();
    n->parent = parent;
    n->func = f;
    n->object = obj;
    n->addr = addr;
    n->line = line;
    n->flags = flags;
    ph_vec_push(&p->nodes, n);
    n->id = (uint32_t)p->nodes.n;
    ph_array_reserve(&arr, &p->nxcap, n->id, sizeof *p->nx);
    p->nx = arr;
    if (parent) {
        ph_nodex *px = &p->nx[parent->id - 1];
        n->depth = parent->depth + 1;
        if (px->last_child)
            px->last_child->sibling = n;
        else
            parent->child = n;
        px->last_child = n;
    } else {
        if (p->root_last)
            p->root_last->sibling = n;
        else
            p->root_first = n;
        p->root_last = n;
    }
    ph_htab_insert(&p->nodemap, h, n);
    ph_profile_invalidate(p);
    return n;
}

ph_node *ph_node_child(ph_profile *p, ph_node *parent, ph_func *f,
                       ph_object *obj, uint64_t addr, uint32_t line,
                       uint32_t flags)
{
    uint64_t h = hash_frame(p, parent, f, obj, addr, line, flags);
    ph_htab *t = &p->nodemap;
    size_t i;
    for (i = h & t->mask; t->v[i]; i = (i + 1) & t->mask) {
        ph_node *n = t->v[i];
        if (t->h[i] == h && n->parent == parent && n->func == f &&
            n->object == obj && n->addr == addr && n->line == line &&
            n->flags == flags)
            return n;
    }
    return make_node(p, h, parent, f, obj, addr, line, flags);
}

ph_node *ph_node_new(ph_profile *p, ph_node *parent, ph_func *f,
                     ph_object *obj, uint64_t addr, uint32_t line,
                     uint32_t flags)
{
    uint64_t h = hash_frame(p, parent, f, obj, addr, line, flags);
    return make_node(p, h, parent, f, obj, addr, line, flags);
}

size_t ph_node_count(const ph_profile *p)
{
    return p->nodes.n;
}

ph_node *ph_node_at(const ph_profile *p, size_t i)
{
    return i < p->nodes.n ? p->nodes.v[i] : NULL;
}

ph_sample *ph_sample_add(ph_profile *p, ph_node *node, ph_part *part,
                         const int64_t *cost, size_t n,
                         const ph_label *labels, size_t nlabels)
{
    ph_sample *s = ph_arena_alloc(&p->arena, sizeof *s, alignof(ph_sample));
    ph_nodex *x = &p->nx[node->id - 1];
    if (!part)
        part = ph_profile_default_part(p);
    if (n > p->reals.n)
        n = p->reals.n;
    s->node = node;
    s->part = part;
    s->width = (uint32_t)n;
    s->cost = ph_arena_alloc_raw(&p->arena, (n ? n : 1) * sizeof *s->cost,
                                 alignof(int64_t));
    if (n)
        memcpy(s->cost, cost, n * sizeof *cost);
    if (nlabels && labels) {
        if (nlabels > UINT32_MAX)
            nlabels = UINT32_MAX;
        s->labels = ph_arena_alloc_raw(&p->arena, nlabels * sizeof *labels,
                                       alignof(ph_label));
        memcpy(s->labels, labels, nlabels * sizeof *labels);
        s->nlabels = (uint32_t)nlabels;
    }
    if (x->last_sample)
        x->last_sample->next = s;
    else
        node->samples = s;
    x->last_sample = s;
    ph_vec_push(&p->samples, s);
    ph_profile_invalidate(p);
    return s;
}

size_t ph_sample_count(const ph_profile *p)
{
    return p->samples.n;
}

ph_sample *ph_sample_at(const ph_profile *p, size_t i)
{
    return i < p->samples.n ? p->samples.v[i] : NULL;
}
