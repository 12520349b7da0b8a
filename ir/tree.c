/* tree.c -- the context tree: nodes of 16 bytes (parent, first child, next
 * sibling as node ids, and a frame index) in aligned chunks; frames (the
 * function, object, address, line and flags a node stands for) interned
 * once; samples (exclusive cost vectors with labels) attached to nodes.
 * While a tree is built, a child is found by (parent, frame) through a
 * table of node ids and appended after its parent's last child; those
 * tables are dropped once the profile is read (ph_tree_settle).
 */
#include "config.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "ir_priv.h"
#include "stock.h"

#define CHUNK_BYTES (PH_NODE_CHUNK * sizeof(ph_node))
/* The first chunks are blocks of their own (a small tree stays small);
 * later ones are cut from blocks of PH_ARENA_MAX_BLOCK, taken from the
 * profile's stock when it has one (their pages written already). */
#define OWN_CHUNKS 32
#define CHUNKS_PER_BLOCK (PH_ARENA_MAX_BLOCK / CHUNK_BYTES)

/* Frames a chunk (32 bytes each); a power of two. */
#define FRAME_CHUNK 4096

static void drop_build_tables(ph_profile *p)
{
    free(p->last_child);
    free(p->last_sample);
    free(p->nodeslots);
    p->last_child = p->last_sample = p->nodeslots = NULL;
    p->nodemask = p->nslotted = 0;
}

/* Whether chunk i starts a block of its own (to free). */
static int starts_block(size_t i)
{
    return i < OWN_CHUNKS || (i - OWN_CHUNKS) % CHUNKS_PER_BLOCK == 0;
}

void ph_tree_free(ph_profile *p)
{
    for (size_t i = 0; i < p->nchunks; i++)
        if (starts_block(i))
            free(p->chunks[i]);
    free(p->chunks);
    p->chunks = NULL;
    p->nchunks = p->capchunks = p->nnodes = 0;
    for (size_t i = 0; i * FRAME_CHUNK < p->nframes; i++)
        free(p->frame_chunks[i]);
    free(p->frame_chunks);
    free(p->frameslots);
    p->frame_chunks = NULL;
    p->frameslots = NULL;
    p->nframes = p->capframechunks = p->framemask = 0;
    free(p->first_sample);
    free(p->ext_ids);
    p->first_sample = NULL;
    p->ext_ids = NULL;
    p->capnodes = 0;
    drop_build_tables(p);
    ph_vec_free(&p->samples);
}

void ph_tree_settle(const ph_profile *p)
{
    /* the tables are the profile's scratch, not its data (ir.h, "Caches
     * beside a loaded profile") */
    drop_build_tables((ph_profile *)p);
}

uint32_t ph_node_id(const ph_profile *p, const ph_node *n)
{
    const ph_node *base = (const ph_node *)((uintptr_t)n &
                                            ~(uintptr_t)(CHUNK_BYTES - 1));
    (void)p;
    return base->parent * PH_NODE_PER_CHUNK + (uint32_t)(n - base);
}

/* ------------------------------------------------------------------ */
/* Frames                                                              */

static uint64_t hash_frame(const ph_profile *p, const ph_frame *f)
{
    uint64_t h = ph_hash_mix(p->seed, f->func ? f->func->id : 0);
    h = ph_hash_mix(h, f->object ? f->object->id : 0);
    h = ph_hash_mix(h, f->addr);
    return ph_hash_mix(h, (uint64_t)f->line << 32 | f->flags);
}

static ph_frame *frame_at(const ph_profile *p, uint32_t i)
{
    return &p->frame_chunks[i / FRAME_CHUNK][i % FRAME_CHUNK];
}

static int same_frame(const ph_frame *a, const ph_frame *b)
{
    return a->func == b->func && a->object == b->object &&
           a->addr == b->addr && a->line == b->line && a->flags == b->flags;
}

/* At most half full: a probe finds an empty slot in a step or two (a
 * slot is 8 bytes, a frame 32). */
static int frameslots_fit(size_t n, size_t cap)
{
    return n <= cap / 2;
}

/* cap slots, every frame put back by its hash (kept in its slot). */
static void resize_frameslots(ph_profile *p, size_t cap)
{
    uint64_t *old = p->frameslots;
    size_t oldcap = old ? p->framemask + 1 : 0;
    p->frameslots = ph_xcalloc_written(cap, sizeof *p->frameslots);
    p->framemask = cap - 1;
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i])
            continue;
        size_t j = (old[i] >> 32) & p->framemask;
        while (p->frameslots[j])
            j = (j + 1) & p->framemask;
        p->frameslots[j] = old[i];
    }
    free(old);
}

void ph_frames_reserve(ph_profile *p, size_t n)
{
    size_t cap = p->frameslots ? p->framemask + 1 : 64;
    if (n > UINT32_MAX - p->nframes)
        ph_oom();
    while (!frameslots_fit(p->nframes + n, cap))
        cap *= 2;
    if (!p->frameslots || cap > p->framemask + 1)
        resize_frameslots(p, cap);
}

static uint32_t frame_index(ph_profile *p, const ph_frame *f)
{
    uint32_t h = (uint32_t)hash_frame(p, f);
    size_t i;
    if (!p->frameslots || !frameslots_fit(p->nframes + 1, p->framemask + 1))
        ph_frames_reserve(p, 1);
    for (i = h & p->framemask; p->frameslots[i]; i = (i + 1) & p->framemask) {
        uint64_t s = p->frameslots[i];
        uint32_t index = (uint32_t)s - 1;
        if ((uint32_t)(s >> 32) == h && same_frame(frame_at(p, index), f))
            return index;
    }
    if (p->nframes >= UINT32_MAX - 1)
        ph_oom();
    uint32_t index = (uint32_t)p->nframes;
    if (index % FRAME_CHUNK == 0) {
        size_t k = index / FRAME_CHUNK;
        if (k == p->capframechunks) {
            p->capframechunks = p->capframechunks ? 2 * k : 16;
            p->frame_chunks = ph_xrealloc(p->frame_chunks,
                                          p->capframechunks *
                                          sizeof *p->frame_chunks);
        }
        p->frame_chunks[k] = ph_xmalloc(FRAME_CHUNK * sizeof(ph_frame));
    }
    *frame_at(p, index) = *f;
    p->nframes++;
    p->frameslots[i] = (uint64_t)h << 32 | (index + 1);
    return index;
}

const ph_frame *ph_node_frame(const ph_profile *p, const ph_node *n)
{
    return frame_at(p, n->frame);
}

ph_func *ph_node_func(const ph_profile *p, const ph_node *n)
{
    return ph_node_frame(p, n)->func;
}

/* ------------------------------------------------------------------ */
/* The tables for adding                                               */

static uint64_t hash_child(const ph_profile *p, uint32_t parent,
                           uint32_t frame)
{
    return ph_hash64(p->seed ^ ((uint64_t)parent << 32 | frame));
}

/* A parent's first NARROW children are found by walking its list, the
 * others through a table of node ids hashed by (parent, frame).  Most
 * parents of a context tree have one child or a few, so the table holds a
 * small part of the nodes (a table of every node, probed for every frame
 * of every sample, was a third of a big heap profile's summary). */
#define NARROW 4

static uint32_t first_child(const ph_profile *p, uint32_t pid)
{
    return pid ? ph_node_by_id(p, pid)->child : p->root_first;
}

/* Children of pid, counted up to NARROW. */
static unsigned count_children(const ph_profile *p, uint32_t pid)
{
    unsigned k = 0;
    for (uint32_t c = first_child(p, pid); c && k < NARROW; k++)
        c = ph_node_by_id(p, c)->sibling;
    return k;
}

/* Children of pid past its first NARROW: those the table holds. */
static size_t count_past_narrow(const ph_profile *p, uint32_t pid)
{
    size_t n = 0;
    for (uint32_t c = first_child(p, pid); c; c = ph_node_by_id(p, c)->sibling)
        n++;
    return n > NARROW ? n - NARROW : 0;
}

static void slot_insert(ph_profile *p, uint32_t id)
{
    const ph_node *n = ph_node_by_id(p, id);
    size_t i = hash_child(p, n->parent, n->frame) & p->nodemask;
    while (p->nodeslots[i])
        i = (i + 1) & p->nodemask;
    p->nodeslots[i] = id;
    p->nslotted++;
}

static void alloc_slots(ph_profile *p, size_t need)
{
    size_t cap = 64;
    while (cap < 2 * need + 2)
        cap *= 2;
    p->nodeslots = ph_xcalloc_written(cap, sizeof *p->nodeslots);
    p->nodemask = cap - 1;
    p->nslotted = 0;
}

/* The table made from the tree, at most half full; a parent's children
 * go in in the order of its list: of equal children the first is found
 * first, as by the walk. */
static void make_slots(ph_profile *p)
{
    size_t need = 0;
    for (uint32_t pid = 0; pid <= p->nnodes; pid++)
        need += count_past_narrow(p, pid);
    free(p->nodeslots);
    alloc_slots(p, need);
    for (uint32_t pid = 0; pid <= p->nnodes; pid++)
        for (uint32_t c = first_child(p, pid), k = 0; c;
             c = ph_node_by_id(p, c)->sibling)
            if (k < NARROW)
                k++;
            else
                slot_insert(p, c);
}

/* Twice the room, the ids put back from the old table: from just after
 * an empty slot, so that equal children keep their order in a run. */
static void grow_slots(ph_profile *p)
{
    uint32_t *old = p->nodeslots;
    size_t cap = p->nodemask + 1, e = 0;
    while (old[e])
        e++;
    alloc_slots(p, cap / 2);    /* twice cap */
    for (size_t k = 1; k <= cap; k++) {
        uint32_t id = old[(e + k) & (cap - 1)];
        if (id)
            slot_insert(p, id);
    }
    free(old);
}

/* Room for per-node entries up to id n (+1: last_child[0] is the roots'). */
static void reserve_nodes(ph_profile *p, size_t n)
{
    void *a;
    size_t cap;
    if (n + 1 <= p->capnodes && p->last_child)
        return;
    cap = p->capnodes;
    a = p->first_sample;
    ph_array_reserve(&a, &cap, n + 1, sizeof *p->first_sample);
    p->first_sample = a;
    if (p->ext_ids) {
        size_t c2 = p->capnodes;
        a = p->ext_ids;
        ph_array_reserve(&a, &c2, n + 1, sizeof *p->ext_ids);
        p->ext_ids = a;
    }
    if (p->last_child) {
        size_t c2 = p->capnodes;
        a = p->last_child;
        ph_array_reserve(&a, &c2, n + 1, sizeof *p->last_child);
        p->last_child = a;
        c2 = p->capnodes;
        a = p->last_sample;
        ph_array_reserve(&a, &c2, n + 1, sizeof *p->last_sample);
        p->last_sample = a;
    } else {
        /* made again after ph_tree_settle: children are linked in order
         * of creation, so a node's last child has the largest id, and its
         * last sample comes last in the sample table */
        p->last_child = ph_xcalloc(cap, sizeof *p->last_child);
        p->last_sample = ph_xcalloc(cap, sizeof *p->last_sample);
        for (uint32_t id = 1; id <= p->nnodes; id++)
            p->last_child[ph_node_by_id(p, id)->parent] = id;
        for (size_t i = 0; i < p->samples.n; i++) {
            const ph_sample *s = p->samples.v[i];
            p->last_sample[ph_node_id(p, s->node)] = (uint32_t)i + 1;
        }
        make_slots(p);
    }
    p->capnodes = cap;
}

/* ------------------------------------------------------------------ */
/* Nodes                                                               */

static ph_node *new_slot(ph_profile *p, uint32_t *id)
{
    size_t i = p->nnodes;
    if (i >= UINT32_MAX - 1)
        ph_oom();
    if (i % PH_NODE_PER_CHUNK == 0) {
        void *c = NULL;
        size_t k = p->nchunks;
        if (k < OWN_CHUNKS) {
            if (!ph_mem_allows(CHUNK_BYTES) ||
                posix_memalign(&c, CHUNK_BYTES, CHUNK_BYTES) != 0)
                ph_oom();
        } else if (starts_block(k)) {
            c = ph_stock_block(p->stock);
        } else {
            c = (char *)p->chunks[k - 1] + CHUNK_BYTES;
        }
        if (p->nchunks == p->capchunks) {
            p->capchunks = p->capchunks ? 2 * p->capchunks : 16;
            p->chunks = ph_xrealloc(p->chunks,
                                    p->capchunks * sizeof *p->chunks);
        }
        memset(c, 0, sizeof(ph_node));
        p->chunks[p->nchunks] = c;
        p->chunks[p->nchunks]->parent = (uint32_t)p->nchunks;
        p->nchunks++;
    }
    *id = (uint32_t)++p->nnodes;
    return ph_node_by_id(p, *id);
}

/* The per-node entries of new node id mapped ahead of it (ph_map_ahead):
 * the arrays' fresh room would fault a page at a time as the ids reach it
 * (3% of a heap profile's summary). */
static void map_nodes_ahead(ph_profile *p, uint32_t id)
{
    size_t cap = p->capnodes;
    ph_map_ahead(p->first_sample, sizeof *p->first_sample, id, cap);
    ph_map_ahead(p->last_child, sizeof *p->last_child, id, cap);
    ph_map_ahead(p->last_sample, sizeof *p->last_sample, id, cap);
    if (p->ext_ids)
        ph_map_ahead(p->ext_ids, sizeof *p->ext_ids, id, cap);
}

/* A new last child of parent; had: its children before, counted up to
 * NARROW (count_children). */
static ph_node *make_node(ph_profile *p, ph_node *parent, uint32_t frame,
                          unsigned had)
{
    uint32_t pid = parent ? ph_node_id(p, parent) : 0, id, last;
    reserve_nodes(p, p->nnodes + 1);
    ph_node *n = new_slot(p, &id);
    map_nodes_ahead(p, id);
    n->parent = pid;
    n->child = n->sibling = 0;
    n->frame = frame;
    p->first_sample[id] = 0;
    last = p->last_child[pid];
    if (last)
        ph_node_by_id(p, last)->sibling = id;
    else if (parent)
        parent->child = id;
    else
        p->root_first = id;
    p->last_child[pid] = id;
    p->last_child[id] = 0;
    p->last_sample[id] = 0;
    if (had >= NARROW) {
        if (2 * (p->nslotted + 1) > p->nodemask)
            grow_slots(p);
        slot_insert(p, id);
    }
    ph_profile_invalidate(p);
    return n;
}

uint32_t ph_frame_index(ph_profile *p, ph_func *f, ph_object *obj,
                        uint64_t addr, uint32_t line, uint32_t flags)
{
    ph_frame fr = {f, obj, addr, line, flags};
    return frame_index(p, &fr);
}

ph_node *ph_node_child(ph_profile *p, ph_node *parent, ph_func *f,
                       ph_object *obj, uint64_t addr, uint32_t line,
                       uint32_t flags)
{
    return ph_node_child_at(p, parent,
                            ph_frame_index(p, f, obj, addr, line, flags));
}

ph_node *ph_node_child_at(ph_profile *p, ph_node *parent, uint32_t frame)
{
    uint32_t pid = parent ? ph_node_id(p, parent) : 0;
    uint32_t c = first_child(p, pid);
    unsigned had = 0;
    for (; c && had < NARROW; had++) {
        ph_node *n = ph_node_by_id(p, c);
        if (n->frame == frame)
            return n;
        c = n->sibling;
    }
    if (c) {
        if (!p->nodeslots)
            reserve_nodes(p, p->nnodes + 1);
        for (size_t i = hash_child(p, pid, frame) & p->nodemask;
             p->nodeslots[i]; i = (i + 1) & p->nodemask) {
            ph_node *n = ph_node_by_id(p, p->nodeslots[i]);
            if (n->parent == pid && n->frame == frame)
                return n;
        }
    }
    return make_node(p, parent, frame, had);
}

ph_node *ph_node_new(ph_profile *p, ph_node *parent, ph_func *f,
                     ph_object *obj, uint64_t addr, uint32_t line,
                     uint32_t flags)
{
    return make_node(p, parent, ph_frame_index(p, f, obj, addr, line, flags),
                     count_children(p, parent ? ph_node_id(p, parent) : 0));
}

size_t ph_node_count(const ph_profile *p)
{
    return p->nnodes;
}

ph_node *ph_node_at(const ph_profile *p, size_t i)
{
    return i < p->nnodes ? ph_node_by_id(p, (uint32_t)i + 1) : NULL;
}

uint32_t ph_node_depth(const ph_profile *p, const ph_node *n)
{
    uint32_t d = 0;
    for (uint32_t up = n->parent; up; up = ph_node_by_id(p, up)->parent)
        d++;
    return d;
}

ph_sample *ph_node_samples(const ph_profile *p, const ph_node *n)
{
    uint32_t s = p->first_sample[ph_node_id(p, n)];
    return s ? p->samples.v[s - 1] : NULL;
}

uint64_t ph_node_ext_id(const ph_profile *p, const ph_node *n)
{
    return p->ext_ids ? p->ext_ids[ph_node_id(p, n)] : 0;
}

void ph_node_set_ext_id(ph_profile *p, const ph_node *n, uint64_t ext_id)
{
    if (!p->ext_ids) {
        if (!ext_id)
            return;
        p->ext_ids = ph_xcalloc(p->capnodes, sizeof *p->ext_ids);
    }
    p->ext_ids[ph_node_id(p, n)] = ext_id;
}

/* ------------------------------------------------------------------ */
/* Samples                                                             */

ph_sample *ph_sample_add(ph_profile *p, ph_node *node, ph_part *part,
                         const int64_t *cost, size_t n,
                         const ph_label *labels, size_t nlabels)
{
    uint32_t id = ph_node_id(p, node), last;
    reserve_nodes(p, p->nnodes);
    if (!part)
        part = ph_profile_default_part(p);
    if (n > p->reals.n)
        n = p->reals.n;
    while (n && cost[n - 1] == 0)   /* trailing zeros are not kept */
        n--;
    if (p->samples.n >= UINT32_MAX - 1)
        ph_oom();
    ph_sample *s = ph_arena_alloc_raw(&p->arena, sizeof *s + n * sizeof *cost,
                                      alignof(ph_sample));
    *s = (ph_sample){.node = node, .part = part, .width = (uint32_t)n};
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
    ph_vec_push(&p->samples, s);
    last = p->last_sample[id];
    if (last)
        ((ph_sample *)p->samples.v[last - 1])->next = s;
    else
        p->first_sample[id] = (uint32_t)p->samples.n;
    p->last_sample[id] = (uint32_t)p->samples.n;
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
