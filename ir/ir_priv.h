/* ir_priv.h -- internals shared by the files of ir/ (and the unit tests):
 * the arena, growable vectors, an open-addressing table, the layout of
 * struct ph_profile and the side tables that ir.h's plain records do not
 * show.  Nothing outside ir/ and tests/unit may include it.
 */
#ifndef PH_IR_PRIV_H
#define PH_IR_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"
#include "ir.h"
#include "varint.h"

/* ------------------------------------------------------------------ */
/* Arena (arena.c)                                                     */

/* A chain of blocks, newest first: the first block is a page, each next
 * one twice the previous up to PH_ARENA_MAX_BLOCK; a request larger than
 * that gets a block of its own.  Allocation bumps a pointer. */
#define PH_ARENA_FIRST_BLOCK 4096u
#define PH_ARENA_MAX_BLOCK (2048u * 1024u)

typedef struct ph_arena_block ph_arena_block;
typedef struct ph_stock ph_stock;

typedef struct ph_arena {
    ph_arena_block *head;   /* newest block (the one we bump in) */
    size_t next_size;       /* size of the next block to make */
    size_t total;           /* bytes of all blocks, for statistics */
    ph_stock *stock;        /* full-size blocks made ready, or NULL */
} ph_arena;

/* A position in the arena to rewind to. */
typedef struct ph_arena_pos {
    ph_arena_block *block;
    size_t used;
} ph_arena_pos;

/* The pages of [p, p + n), fresh memory about to be written whole,
 * mapped in one call rather than a fault at a time (alloc.c). */
void ph_prefault(void *p, size_t n);
/* The system's page size, asked once. */
size_t ph_page_size(void);
/* The whole pages within [from, to) handed back to the kernel
 * (MADV_DONTNEED): fresh memory's read as zeros when touched again, a
 * private file mapping's are read from the file.  0, or -1 when there
 * were none or the kernel said no. */
int ph_drop_pages(void *from, void *to);

void ph_arena_init(ph_arena *a);
void ph_arena_free(ph_arena *a);
/* n bytes aligned to align (a power of two), zeroed. */
void *ph_arena_alloc(ph_arena *a, size_t n, size_t align);
/* n bytes aligned to align, NOT zeroed (strings). */
void *ph_arena_alloc_raw(ph_arena *a, size_t n, size_t align);
/* Remember the current position; rewinding drops everything allocated
 * since (blocks made after the mark are freed).  Only for memory that no
 * table of the profile points to yet: interned strings, symbols, events,
 * calls and nodes are registered as they are made, so never rewind a
 * profile's own arena across ph_* add calls. */
ph_arena_pos ph_arena_mark(const ph_arena *a);
void ph_arena_rewind(ph_arena *a, ph_arena_pos pos);
/* The newest allocation, which ends at end (its start + its size), grows
 * by n bytes in place: 1 when it is the last thing bumped in the newest
 * block and that block has room, else 0 and nothing changes. */
int ph_arena_grow_last(ph_arena *a, const void *end, size_t n);
/* The newest allocation, which ends at end, gives back its tail from
 * new_end on (new_end <= end).  Nothing happens if it is not the newest. */
void ph_arena_shrink_last(ph_arena *a, const void *end, const void *new_end);
/* The pages of the newest block past its last byte in use go back to the
 * system; used later, they read as zeros.  A block from the stock is
 * resident whole (stock.h). */
void ph_arena_trim(ph_arena *a);
/* Bytes held by the arena's blocks. */
size_t ph_arena_size(const ph_arena *a);

/* ------------------------------------------------------------------ */
/* Vectors and a hash table (alloc.c)                                  */

/* Growable array of pointers, malloc-owned. */
typedef struct ph_vec {
    void **v;
    size_t n, cap;
} ph_vec;

void ph_vec_grow(ph_vec *x);
void ph_vec_free(ph_vec *x);
static inline void ph_vec_push(ph_vec *x, void *e)
{
    if (x->n == x->cap)
        ph_vec_grow(x);
    ph_map_ahead(x->v, sizeof *x->v, x->n, x->cap);
    x->v[x->n++] = e;
}

/* Grow a malloc'd array of elements of size elsz so that it holds at least
 * need elements; *cap is updated (doubling), new room is zeroed. */
void ph_array_reserve(void **arr, size_t *cap, size_t need, size_t elsz);

/* Open addressing with linear probing; items are non-NULL pointers and the
 * full 64-bit hash of each is kept to skip most comparisons and to rehash.
 * Lookups are written by each user:
 *   for (i = h & t->mask; t->v[i]; i = (i + 1) & t->mask)
 *       if (t->h[i] == h && EQUAL(t->v[i])) return t->v[i];
 * then ph_htab_insert(t, h, item) when absent. */
typedef struct ph_htab {
    uint64_t *h;
    void **v;
    size_t mask;    /* capacity - 1; capacity is a power of two */
    size_t n;
} ph_htab;

void ph_htab_init(ph_htab *t, size_t cap);
void ph_htab_free(ph_htab *t);
void ph_htab_insert(ph_htab *t, uint64_t h, void *item);
/* Room for n more items without growing step by step. */
void ph_htab_reserve(ph_htab *t, size_t n);

/* Mixing of integers into a hash (ph_hash_bytes: hash.h). */
static inline uint64_t ph_hash_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

/* Sums of costs saturate instead of overflowing (costs come from untrusted
 * files; signed overflow would be undefined, and a wrapped sum turned a
 * huge total negative) and set the flag ph_cost_overflowed() reports. */
extern int ph_cost_overflow_flag;   /* alloc.c */
static inline int64_t ph_add_sat(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        __atomic_store_n(&ph_cost_overflow_flag, 1, __ATOMIC_RELAXED);
        return b > 0 ? INT64_MAX : INT64_MIN;
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* Profile layout                                                      */

typedef struct ph_strent {
    const char *s;          /* NULL: a compound string not yet asked for */
    const ph_str *parts;    /* a compound string's parts (strtab.c) */
    uint32_t len;           /* (its hash is kept in the slot, strtab.c) */
    uint32_t nparts;        /* 0: a plain string */
} ph_strent;

typedef struct ph_expr ph_expr;       /* events.c */
typedef struct ph_rowblock ph_rowblock; /* rows.c */
typedef struct ph_agg ph_agg;         /* aggregate.c */
typedef struct ph_recblock ph_recblock; /* calls.c */

/* Per-function side table, indexed by id - 1. */
typedef struct ph_funcx {
    /* Its blocks with rows, sorted by part index (ph_funcx_blocks): one
     * in place, more in an array; most functions have one part, and
     * 153,000 arrays of one pointer were 4 MiB of malloc's chunks. */
    union {
        ph_rowblock *one;
        ph_rowblock **many;
    } blocks;
    uint32_t nblocks;
    ph_recblock *calls;     /* calls made by the function, NULL if none */
    ph_recblock *jumps;     /* its jumps */
} ph_funcx;

static inline ph_rowblock *const *ph_funcx_blocks(const ph_funcx *x)
{
    return x->nblocks > 1 ? x->blocks.many : &x->blocks.one;
}

/* Context nodes live in chunks of PH_NODE_CHUNK slots of 16 bytes, each
 * chunk aligned to its size; slot 0 holds the chunk's number, so a node's
 * id follows from its address (tree.c). */
#define PH_NODE_CHUNK_BITS 12
#define PH_NODE_CHUNK (1u << PH_NODE_CHUNK_BITS)
#define PH_NODE_PER_CHUNK (PH_NODE_CHUNK - 1)

#define PH_ROW_SCRATCH 8

struct ph_profile {
    ph_arena arena;
    uint64_t seed;

    /* strings (strtab.c): handle -> entry; table of handles */
    ph_strent *strs;
    size_t nstrs, capstrs;
    uint64_t *strslots;     /* hash << 32 | handle, 0 = empty (strtab.c) */
    size_t strmask;
    struct ph_part_slot *part_cache;    /* compounds' parts (strtab.c) */

    ph_vec meta;            /* pairs: key, value (const char *) */
    const char *approx;
    const char *format;

    /* events (events.c) */
    ph_vec events;          /* ph_event *, by index */
    ph_vec reals;           /* ph_event *, by slot */
    ph_vec exprs;           /* ph_expr *, by event index (NULL for real) */
    ph_htab eventmap;       /* ph_event * by name handle */

    /* symbols (symbols.c) */
    ph_vec objects, files, funcs;
    ph_htab objmap, filemap, funcmap;
    ph_funcx *fx;
    size_t fxcap;

    ph_vec parts;

    /* rows (rows.c) */
    uint64_t nrows;
    ph_arena row_arena;     /* row chunks only, so the newest can grow */
    void *row_top;          /* the newest chunk of row_arena, or NULL */
    int row_sums;           /* new blocks keep their rows' sums
                               (ph_rows_keep_sums) */
    int64_t *scratch[PH_ROW_SCRATCH];   /* for nreal > 64 */
    size_t scratch_width[PH_ROW_SCRATCH];
    unsigned scratch_next;

    /* calls and jumps (calls.c) */
    size_t ncalls, njumps;
    ph_arena rec_arena;     /* call and jump blocks only (calls.c) */
    ph_recblock *stage[2];  /* the blocks being written: calls, jumps */
    uint32_t stage_fid[2];  /* whose they are (function id), 0 = none */
    uint64_t *call_in;      /* index of calls into each function, built */
    size_t *call_in_start;  /* on first use; see build_in_index */

    /* context tree (tree.c) */
    ph_stock *stock;        /* blocks made ready while it is read (stock.h) */
    ph_node **chunks;       /* node chunks, by number */
    size_t nchunks, capchunks;
    size_t nnodes;
    /* frames by index, in chunks (tree.c's FRAME_CHUNK; they stay where
     * they are), found by a table of slots: the frame's hash in the high 32
     * bits, its index + 1 in the low; 0 empty.  Only ph_frame_index
     * writes them (a reader may make frames on one thread while another
     * makes nodes and samples: importers/pprof_in.c) */
    ph_frame **frame_chunks;
    size_t nframes, capframechunks;
    uint64_t *frameslots;
    size_t framemask;
    uint32_t *first_sample; /* per node: sample index + 1; 0 none */
    size_t capnodes;        /* room of the per-node arrays */
    uint64_t *ext_ids;      /* per node, made when one is set */
    uint32_t root_first;    /* roots are linked by sibling */
    /* Only for adding: the last child (index 0: the last root) and the
     * last sample of each node, and the child lookup table (node ids,
     * found by hashing (parent, frame); tree.c says which); dropped by
     * ph_tree_settle and made again from the nodes when something is
     * added afterwards. */
    uint32_t *last_child;   /* capnodes + 1 entries */
    uint32_t *last_sample;
    uint32_t *nodeslots;    /* the children of parents with many */
    size_t nodemask;        /* 0 when there is no lookup table */
    size_t nslotted;        /* node ids in it */
    ph_vec samples;

    /* aggregates (aggregate.c) */
    ph_agg **agg;           /* per selection: 0 = all parts, i+1 = part i */
    int64_t *part_totals;   /* nparts x nreal, filled in one pass */
    uint64_t part_totals_gen;
    size_t nagg;
    uint64_t generation;    /* bumped by ph_profile_invalidate */

    /* caches of derived data (profile.c): views, filled through a const
     * profile; an entry made at an older generation is stale */
    struct ph_cache_ent *caches;
    size_t ncaches;

    const ph_event *default_event;  /* set by the reader; NULL = rule */

    /* fractional self costs of one event (credit.c), by function id - 1 */
    const ph_event *credit_event;
    double *credits;
    size_t ncredits;
    /* gprof -l's line symbols of the credit event (credit.c) */
    ph_line_credit *line_credits;
    size_t nline_credits, line_credits_cap;
};

/* The part used when an add function gets part NULL: the first part,
 * created (PH_PART_WHOLE) when the profile has none. */
ph_part *ph_profile_default_part(ph_profile *p);

/* The handle of a string already interned, 0 if it is not (strtab.c). */
ph_str ph_str_lookup(const ph_profile *p, const char *s, size_t len);

/* Setup and teardown of each file's part of the profile. */
void ph_strtab_init(ph_profile *p);
void ph_strtab_free(ph_profile *p);
void ph_events_free(ph_profile *p);
void ph_credits_free(ph_profile *p);
void ph_rows_free(ph_profile *p);
void ph_agg_free(ph_profile *p);
void ph_symbols_free(ph_profile *p);
void ph_tree_free(ph_profile *p);
/* Drop the tables that only adding nodes and samples needs (the profile
 * is read, not built, from here on; they come back when something is
 * added).  Called by the aggregates. */
void ph_tree_settle(const ph_profile *p);
/* The node with this id (1-based; 0 gives NULL). */
static inline ph_node *ph_node_by_id(const ph_profile *p, uint32_t id)
{
    if (!id)
        return NULL;
    id--;
    return p->chunks[id / PH_NODE_PER_CHUNK] + 1 + id % PH_NODE_PER_CHUNK;
}
void ph_calls_free(ph_profile *p);
/* Make sure p->fx holds an entry for new function id, zero. */
void ph_funcx_reserve(ph_profile *p, uint32_t id);

/* Add every row of f in part index part (PH_ALL_PARTS: every part) to
 * acc, nreal values (rows.c). */
void ph_rows_sum(const ph_profile *p, const ph_func *f, int part,
                 int64_t *acc);
/* Add every row of f to table, nparts x nreal values, at its part's row. */
void ph_rows_sum_parts(const ph_profile *p, const ph_func *f, int64_t *table);

/* The bytes ph_costs_put may take for this cost (rows.c). */
size_t ph_costs_room(const int64_t *cost, size_t n);
/* Profile-owned scratch of n values, handed out round robin (up to
 * PH_ROW_SCRATCH live at once), for iterators wider than their buffer. */
int64_t *ph_scratch_take(const ph_profile *p, size_t n);

#endif /* PH_IR_PRIV_H */
