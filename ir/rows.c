/* rows.c -- flat cost rows, stored without a struct per row: one byte
 * block per (function, part), each row delta-encoded against the previous
 * row of its block, with zero costs left out.  Decoded on demand by
 * ph_row_iter and summed by ph_rows_sum.
 */
#include "config.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "costs_pack.h"
#include "ir_priv.h"

/* Row encoding, all numbers LEB128 varints, signed ones zigzagged:
 *
 *   head      zigzag(line - previous line) << 1 | file_changed
 *   addr      zigzag(addr - previous addr)      (mod 2^64)
 *   [file]    id of the new file (0 = none), only when file_changed
 *   costs     per 7 columns, up to the last nonzero one: a mask byte
 *             (bit k = column 7g+k is nonzero, bit 7 = another group
 *             follows), then zigzag(value) of each nonzero column of the
 *             group; a row of zeros is one 0 byte.  Any width fits
 *             (costs_pack.h).
 *
 * A block starts with previous addr = 0, line = 0, file = the function's
 * file.  A row of 3 small costs at the next line takes 6 or 7 bytes.
 *
 * A block's bytes live in a chain of chunks that never move, from the
 * profile's row arena, where nothing else is allocated: the newest chunk
 * there grows in place while its block takes rows (readers add a
 * function's rows together), and gives back what it did not use when
 * another block starts a chunk.  A block that needs a second chunk after
 * that (its rows come interleaved with another's) keeps its chunks, of
 * 64 bytes first, doubling up to 64 KiB.  A row never straddles two
 * chunks; the decoding state carries over from one chunk to the next. */
#define CHUNK_FIRST 64u
#define CHUNK_MAX (64u * 1024u)

typedef struct rowchunk rowchunk;
struct rowchunk {
    rowchunk *next;
    ph_rowblock *owner;
    size_t len, cap;
    unsigned char data[];
};

struct ph_rowblock {
    rowchunk *first, *last;
    uint64_t last_addr;
    uint32_t last_line;
    uint32_t part;          /* part index */
    ph_file *last_file;
    uint32_t next_cap;      /* data bytes of the next chunk or growth */
    uint8_t cut;            /* its chunk was cut to size when another
                               block took rows: it is not cut again */
    uint8_t elsewhere;      /* a row lies in another file than the
                               function's (fi=, fe= in callgrind) */
    uint8_t summed;         /* a summed_block: ph_rows_keep_sums */
    uint8_t sums_lost;      /* its sums cannot stand for the rows */
};

/* A block of a profile whose reader gives the rows' sums: those sums
 * (ph_rows_add_sums: sums[0] columns from sums[1], or NULL) covering
 * nsummed of its nrows rows; ph_rows_sum reads them instead of the rows
 * when they cover all.  Other blocks are left without the room. */
typedef struct summed_block {
    ph_rowblock b;
    int64_t *sums;
    uint32_t nrows, nsummed;
} summed_block;

void ph_rows_free(ph_profile *p)
{
    size_t i;
    for (i = 0; i < p->funcs.n && p->fx; i++) {
        ph_funcx *x = &p->fx[i];
        /* blocks live in the profile's arena, chunks in its row arena */
        if (x->nblocks > 1)
            free(x->blocks.many);
        x->blocks.one = NULL;
        x->nblocks = 0;
    }
    p->row_top = NULL;
    for (i = 0; i < PH_ROW_SCRATCH; i++) {
        free(p->scratch[i]);
        p->scratch[i] = NULL;
        p->scratch_width[i] = 0;
    }
}

/* ------------------------------------------------------------------ */
/* Adding                                                              */

/* Index of the first block of x whose part index is >= part (its blocks
 * are sorted by part index, and all have rows). */
static uint32_t lower_block(const ph_funcx *x, uint32_t part)
{
    ph_rowblock *const *v = ph_funcx_blocks(x);
    uint32_t lo = 0, hi = x->nblocks;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[mid]->part < part)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static ph_rowblock *get_block(ph_profile *p, ph_func *f, ph_part *part)
{
    ph_funcx *x = &p->fx[f->id - 1];
    ph_rowblock *const *v = ph_funcx_blocks(x);
    uint32_t n = x->nblocks, k;
    ph_rowblock *b, **many;
    if (n && v[n - 1]->part == part->index)
        return v[n - 1];        /* the usual case */
    k = lower_block(x, part->index);
    if (k < n && v[k]->part == part->index)
        return v[k];
    if (p->row_sums) {
        summed_block *s = ph_arena_alloc(&p->arena, sizeof *s,
                                         alignof(summed_block));
        memset(s, 0, sizeof *s);
        b = &s->b;
        b->summed = 1;
    } else {
        b = ph_arena_alloc(&p->arena, sizeof *b, alignof(ph_rowblock));
    }
    b->part = part->index;
    b->last_file = f->file;
    b->next_cap = CHUNK_FIRST - sizeof(rowchunk);
    if (n == 0) {
        x->blocks.one = b;
        x->nblocks = 1;
        return b;
    }
    /* a sparse sorted list: a function in part 90000 of a run does not
     * get 90000 slots */
    if (n == 1) {
        many = ph_xmalloc(2 * sizeof *many);
        many[0] = x->blocks.one;
    } else {
        many = x->blocks.many;
        if ((n & (n - 1)) == 0)   /* 2, 4, 8, ...: the array is full */
            many = ph_xrealloc(many, 2 * (size_t)n * sizeof *many);
    }
    memmove(many + k + 1, many + k, (n - k) * sizeof *many);
    many[k] = b;
    x->blocks.many = many;
    x->nblocks = n + 1;
    return b;
}

/* Grow c, the newest chunk of the row arena, in place by step bytes or,
 * when its arena block lacks that, by need; 1 when it grew. */
static int grow_top(ph_profile *p, rowchunk *c, size_t step, size_t need)
{
    unsigned char *end = c->data + c->cap;
    if (ph_arena_grow_last(&p->row_arena, end, step))
        c->cap += step;
    else if (ph_arena_grow_last(&p->row_arena, end, need))
        c->cap += need;
    else
        return 0;
    return 1;
}

/* Room for need more bytes at the end of b's last chunk, which grows in
 * place or is followed by a new one; returns that chunk. */
static rowchunk *room_for(ph_profile *p, ph_rowblock *b, size_t need)
{
    rowchunk *c = b->last, *top = p->row_top;
    size_t step = b->next_cap < need ? need : b->next_cap;
    if (b->next_cap < CHUNK_MAX - sizeof *c)
        b->next_cap = (b->next_cap + (uint32_t)sizeof *c) * 2 -
                      (uint32_t)sizeof *c;
    if (c && c == top && grow_top(p, c, step, need))
        return c;
    if (top && !top->owner->cut) {
        /* the newest chunk is done: give back its slack; its block, if
         * another one took rows in between, is not cut again */
        ph_arena_shrink_last(&p->row_arena, top->data + top->cap,
                             top->data + top->len);
        top->cap = top->len;
        if (top->owner != b)
            top->owner->cut = 1;
    }
    /* From an arena, not malloc: a big profile has a million chunks,
     * never freed one by one, and malloc was a tenth of the load time. */
    c = ph_arena_alloc_raw(&p->row_arena, sizeof *c + step, alignof(rowchunk));
    c->next = NULL;
    c->owner = b;
    c->len = 0;
    c->cap = step;
    if (b->last)
        b->last->next = c;
    else
        b->first = c;
    b->last = c;
    p->row_top = c;
    return c;
}

size_t ph_costs_room(const int64_t *cost, size_t n)
{
    /* at most 10 bytes per nonzero value, and while they are written one
     * mask byte per 7 columns (ph_costs_put) */
    size_t i, need = 1 + (n + 6) / 7;
    for (i = 0; i < n; i++)
        if (cost[i])
            need += 10;
    return need;
}

size_t ph_costs_room_max(size_t n)
{
    return 1 + (n + 6) / 7 + 10 * n;
}

/* ph_costs_put, each value also added to sum[i] when sum is not NULL
 * (inlined: the test goes away where sum is NULL). */
static inline unsigned char *pack_costs(unsigned char *d, const int64_t *cost,
                                        size_t n, uint64_t *sum)
{
    ph_costs_packer pk;
    ph_costs_pack_begin(&pk, d);
    for (size_t i = 0; i < n; i++) {
        if (sum)
            sum[i] += (uint64_t)cost[i];
        ph_costs_pack_put(&pk, cost[i]);
    }
    return ph_costs_pack_end(&pk);
}

unsigned char *ph_costs_put(unsigned char *d, const int64_t *cost, size_t n)
{
    return pack_costs(d, cost, n, NULL);
}

/* The head of a row of f in part (NULL: the default part) written to its
 * block, with room after it for costs of at most room_max bytes, or, when
 * that does not fit, of what the n costs at cost take (cost NULL: still
 * room_max); returns where the costs go, and the chunk in *cp. */
static inline unsigned char *start_row(ph_profile *p, ph_func *f,
                                       ph_part *part, uint64_t addr,
                                       uint32_t line, ph_file *file,
                                       size_t room_max, const int64_t *cost,
                                       size_t n, rowchunk **cp)
{
    ph_rowblock *b;
    rowchunk *c;
    unsigned char *d;
    int changed;
    if (!part)
        part = ph_profile_default_part(p);
    if (!file)
        file = f->file;
    b = get_block(p, f, part);
    c = b->last;
    /* the head takes up to 31 bytes */
    if (!c || c->cap - c->len < 32 + room_max) {
        size_t room = cost ? ph_costs_room(cost, n) : room_max;
        if (!c || c->cap - c->len < 32 + room)
            c = room_for(p, b, 32 + room);
    }
    d = c->data + c->len;
    changed = file != b->last_file;
    d = ph_put_varint(d, ph_zigzag((int64_t)line - (int64_t)b->last_line) << 1 |
                          (uint64_t)changed);
    d = ph_put_varint(d, ph_zigzag((int64_t)(addr - b->last_addr)));
    if (changed) {
        d = ph_put_varint(d, file ? file->id : 0);
        b->last_file = file;
        b->elsewhere = 1;
    }
    b->last_addr = addr;
    b->last_line = line;
    if (b->summed && ++((summed_block *)b)->nrows == UINT32_MAX)
        b->sums_lost = 1;
    *cp = c;
    return d;
}

/* The row's end at d in chunk c. */
static inline void end_row(ph_profile *p, rowchunk *c, unsigned char *d)
{
    c->len = (size_t)(d - c->data);
    p->nrows++;
    ph_profile_invalidate(p);
}

/* A row of n costs (sum: see pack_costs). */
static inline void add_row(ph_profile *p, ph_func *f, ph_part *part,
                           uint64_t addr, uint32_t line, ph_file *file,
                           const int64_t *cost, size_t n, uint64_t *sum)
{
    rowchunk *c;
    unsigned char *d;
    if (n > p->reals.n)
        n = p->reals.n;
    d = start_row(p, f, part, addr, line, file, ph_costs_room_max(n), cost, n,
                  &c);
    end_row(p, c, pack_costs(d, cost, n, sum));
}

void ph_row_add(ph_profile *p, ph_func *f, ph_part *part, uint64_t addr,
                uint32_t line, ph_file *file, const int64_t *cost, size_t n)
{
    add_row(p, f, part, addr, line, file, cost, n, NULL);
}

void ph_row_add_counts(ph_profile *p, ph_func *f, ph_part *part,
                       uint64_t addr, uint32_t line, ph_file *file,
                       const uint64_t *count, size_t n, uint64_t *sum)
{
    /* counts of at most INT64_MAX are the same values as int64_t */
    add_row(p, f, part, addr, line, file, (const int64_t *)count, n, sum);
}

void ph_row_add_packed(ph_profile *p, ph_func *f, ph_part *part,
                       uint64_t addr, uint32_t line, ph_file *file,
                       const unsigned char *costs, size_t len)
{
    rowchunk *c;
    unsigned char *d = start_row(p, f, part, addr, line, file, len, NULL, 0,
                                 &c);
    memcpy(d, costs, len);
    end_row(p, c, d + len);
}

void ph_row_add_run(ph_profile *p, ph_func *f, ph_part *part,
                    uint64_t addr, uint32_t line, ph_file *file,
                    const unsigned char *costs, size_t len,
                    const unsigned char *rows, size_t rows_len, size_t nrows,
                    uint64_t last_addr, uint32_t last_line)
{
    rowchunk *c;
    unsigned char *d = start_row(p, f, part, addr, line, file,
                                 len + rows_len, NULL, 0, &c);
    ph_rowblock *b = c->owner;
    memcpy(d, costs, len);
    memcpy(d + len, rows, rows_len);
    b->last_addr = last_addr;
    b->last_line = last_line;
    if (b->summed) {
        summed_block *s = (summed_block *)b;
        if (nrows >= UINT32_MAX - s->nrows)
            b->sums_lost = 1;
        else
            s->nrows += (uint32_t)nrows;
    }
    p->nrows += nrows;
    end_row(p, c, d + len + rows_len);
}

static const ph_rowblock *find_block(const ph_profile *p, const ph_func *f,
                                     const ph_part *part, uint32_t from);

void ph_rows_keep_sums(ph_profile *p)
{
    p->row_sums = 1;
}

void ph_rows_add_sums(ph_profile *p, ph_func *f, ph_part *part,
                      const uint64_t *sum, size_t n, uint32_t nrows)
{
    /* the profile's own block: find_block gives it as read-only */
    ph_rowblock *b = (ph_rowblock *)find_block(p, f, part ? part
                                               : ph_profile_default_part(p),
                                               0);
    summed_block *s = (summed_block *)b;
    size_t k;
    if (!b || !b->summed)
        return;     /* no rows there, or no room for their sums */
    if (!s->sums) {
        size_t w = p->reals.n;
        s->sums = ph_arena_alloc(&p->arena, (w + 1) * sizeof *s->sums,
                                 alignof(int64_t));
        memset(s->sums, 0, (w + 1) * sizeof *s->sums);
        s->sums[0] = (int64_t)w;
    }
    if (n > (size_t)s->sums[0])
        b->sums_lost = 1;   /* events added since: not worth keeping */
    for (k = 0; k < n && !b->sums_lost; k++) {
        /* counts, so a sum past INT64_MAX saturated in the rows' own */
        uint64_t v = (uint64_t)s->sums[k + 1] + sum[k];
        if (sum[k] > INT64_MAX || v > INT64_MAX)
            b->sums_lost = 1;
        s->sums[k + 1] = (int64_t)v;
    }
    s->nsummed += nrows;
}

int ph_func_has_rows(const ph_profile *p, const ph_func *f)
{
    return p->fx[f->id - 1].nblocks > 0;
}

int ph_func_rows_elsewhere(const ph_profile *p, const ph_func *f)
{
    const ph_funcx *x = &p->fx[f->id - 1];
    for (uint32_t i = 0; i < x->nblocks; i++)
        if (ph_funcx_blocks(x)[i]->elsewhere)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Decoding                                                            */

/* Decode the costs of one row at s into v (zeroed by the caller; columns
 * at or beyond nreal are skipped); ADD sums into v instead.  *span (when
 * not NULL) gets a bound on the columns written.  Returns the position
 * after the row. */
static inline const unsigned char *
decode_costs(const unsigned char *s, const unsigned char *end, int64_t *v,
             size_t nreal, int add, int64_t *span)
{
    size_t col;
    uint64_t x;
    if (span)
        *span = 0;
    for (col = 0; s < end; col += 7) {
        if (span)
            *span = (int64_t)(col + 7);
        unsigned m = *s++, bits, k;
        /* only the nonzero columns of the group, lowest first */
        for (bits = m & 0x7f; bits; bits &= bits - 1) {
            k = (unsigned)__builtin_ctz(bits);
            s = ph_get_varint(s, end, &x);
            if (col + k < nreal)
                v[col + k] = add ? ph_add_sat(v[col + k], ph_unzigzag(x))
                                 : ph_unzigzag(x);
        }
        if (!(m & 0x80))
            break;
    }
    return s;
}

const unsigned char *ph_costs_get(const unsigned char *s,
                                  const unsigned char *end, int64_t *v,
                                  size_t nreal)
{
    return decode_costs(s, end, v, nreal, 0, NULL);
}

int64_t *ph_scratch_take(const ph_profile *p, size_t n)
{
    ph_profile *mp = (ph_profile *)p;   /* scratch, not the profile's data */
    unsigned k = mp->scratch_next++ % PH_ROW_SCRATCH;
    if (mp->scratch_width[k] < n + 1) {
        mp->scratch[k] = ph_xrealloc(mp->scratch[k],
                                     (n + 1) * sizeof *mp->scratch[k]);
        mp->scratch_width[k] = n + 1;
    }
    return mp->scratch[k];
}

/* First block of f at part index >= from (part NULL) or exactly part. */
static const ph_rowblock *find_block(const ph_profile *p, const ph_func *f,
                                     const ph_part *part, uint32_t from)
{
    const ph_funcx *x;
    uint32_t k;
    if (!f || f->id == 0 || f->id > p->funcs.n)
        return NULL;
    x = &p->fx[f->id - 1];
    if (part) {
        if (from > part->index)
            return NULL;
        from = part->index;
    }
    k = lower_block(x, from);
    if (k == x->nblocks ||
        (part && ph_funcx_blocks(x)[k]->part != part->index))
        return NULL;
    return ph_funcx_blocks(x)[k];
}

/* Position the iterator at the start of block b (NULL: the end). */
static void start_block(ph_row_iter *it, const ph_rowblock *b)
{
    it->block = b ? b->first : NULL;
    it->pos = 0;
    it->addr = 0;
    it->line = 0;
    it->file = it->f ? it->f->file : NULL;
}

void ph_row_iter_init(ph_row_iter *it, const ph_profile *p, const ph_func *f,
                      const ph_part *part)
{
    size_t nreal = p->reals.n;
    it->p = p;
    it->f = f;
    it->part = part;
    it->wide = NULL;
    if (nreal > PH_ROW_INLINE) {
        /* Up to PH_ROW_SCRATCH wide iterators may be live at once. */
        it->wide = ph_scratch_take(p, nreal);
        /* wide[nreal]: columns the previous row may have set, so that a
         * narrow row of a wide profile does not clear every column */
        memset(it->wide, 0, nreal * sizeof *it->wide);
        it->wide[nreal] = 0;
    }
    start_block(it, find_block(p, f, part, 0));
}

/* A row's position at s, from the row before it (*line, *addr, *file);
 * returns where its costs start. */
static inline const unsigned char *
decode_head(const ph_profile *p, const unsigned char *s,
            const unsigned char *end, uint32_t *line, uint64_t *addr,
            ph_file **file)
{
    uint64_t x, a, id;
    s = ph_get_varint(s, end, &x);
    *line = (uint32_t)((int64_t)*line + ph_unzigzag(x >> 1));
    s = ph_get_varint(s, end, &a);
    *addr += (uint64_t)ph_unzigzag(a);
    if (x & 1) {
        s = ph_get_varint(s, end, &id);
        *file = (id && id <= p->files.n) ? p->files.v[id - 1] : NULL;
    }
    return s;
}

int ph_row_next(ph_row_iter *it, ph_row *out)
{
    const rowchunk *c = it->block;
    const unsigned char *s, *end;
    size_t nreal = it->p->reals.n;
    int64_t *v = it->wide ? it->wide : it->buf;
    while (c && it->pos >= c->len) {
        if (c->next) {              /* same block: the state carries on */
            c = c->next;
            it->block = c;
            it->pos = 0;
        } else {
            start_block(it, it->part ? NULL
                                     : find_block(it->p, it->f, NULL,
                                                  c->owner->part + 1));
            c = it->block;
        }
    }
    if (!c)
        return 0;
    s = c->data + it->pos;
    end = c->data + c->len;
    s = decode_head(it->p, s, end, &it->line, &it->addr, &it->file);
    if (it->wide) {
        size_t dirty = (size_t)it->wide[nreal];
        memset(v, 0, (dirty < nreal ? dirty : nreal) * sizeof *v);
    } else {
        memset(v, 0, nreal * sizeof *v);
    }
    s = decode_costs(s, end, v, nreal, 0, it->wide ? &it->wide[nreal] : NULL);
    it->pos = (size_t)(s - c->data);
    out->addr = it->addr;
    out->line = it->line;
    out->file = it->file;
    out->cost = v;
    return 1;
}

int ph_row_next_line(ph_row_iter *it, ph_row *out)
{
    const rowchunk *c;
    int64_t *v;
    size_t nreal = it->p->reals.n;

    if (!ph_row_next(it, out))
        return 0;
    c = it->block;
    v = it->wide ? it->wide : it->buf;
    /* a run ends at its chunk's end too: the caller adds equal lines */
    while (it->pos < c->len) {
        const unsigned char *s = c->data + it->pos, *end = c->data + c->len;
        uint32_t line = it->line;
        uint64_t addr = it->addr;
        ph_file *file = it->file;
        int64_t span;
        s = decode_head(it->p, s, end, &line, &addr, &file);
        if (line != it->line || file != it->file)
            break;
        it->addr = addr;
        s = decode_costs(s, end, v, nreal, 1, it->wide ? &span : NULL);
        if (it->wide && span > it->wide[nreal])
            it->wide[nreal] = span;   /* every column the run set */
        it->pos = (size_t)(s - c->data);
    }
    return 1;
}

ph_part *ph_row_iter_part(const ph_row_iter *it)
{
    const rowchunk *c = it->block;
    return c ? ph_part_at(it->p, c->owner->part) : NULL;
}

/* Add the rows of one block to acc (nreal values). */
static void sum_block(const ph_rowblock *b, size_t nreal, int64_t *acc)
{
    const rowchunk *c;
    const summed_block *sb = (const summed_block *)b;
    if (b->summed && sb->sums && !b->sums_lost && sb->nsummed == sb->nrows) {
        /* the rows' costs are counts: added one by one, they saturate
         * only where their sum does */
        size_t w = (size_t)sb->sums[0];
        for (size_t k = 0; k < w && k < nreal; k++)
            acc[k] = ph_add_sat(acc[k], sb->sums[k + 1]);
        return;
    }
    for (c = b->first; c; c = c->next) {
        const unsigned char *s = c->data, *end = s + c->len;
        while (s < end) {
            uint64_t v;
            int changed;
            s = ph_get_varint(s, end, &v);
            changed = (int)(v & 1);
            s = ph_get_varint(s, end, &v);
            if (changed)
                s = ph_get_varint(s, end, &v);
            s = decode_costs(s, end, acc, nreal, 1, NULL);
        }
    }
}

void ph_rows_sum_parts(const ph_profile *p, const ph_func *f, int64_t *table)
{
    const ph_funcx *x = &p->fx[f->id - 1];
    size_t nreal = p->reals.n;
    uint32_t i;
    ph_rowblock *const *v = ph_funcx_blocks(x);
    for (i = 0; i < x->nblocks; i++)
        sum_block(v[i], nreal, table + v[i]->part * nreal);
}

void ph_rows_sum(const ph_profile *p, const ph_func *f, int part,
                 int64_t *acc)
{
    const ph_funcx *x = &p->fx[f->id - 1];
    size_t nreal = p->reals.n;
    uint32_t i;
    for (i = 0; i < x->nblocks; i++) {
        const ph_rowblock *b = ph_funcx_blocks(x)[i];
        if (part == PH_ALL_PARTS || (uint32_t)part == b->part)
            sum_block(b, nreal, acc);
    }
}
