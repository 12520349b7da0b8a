/* rows.c -- flat cost rows, stored without a struct per row: one growable
 * byte block per (function, part), each row delta-encoded against the
 * previous row of its block, with zero costs left out.  Decoded on demand
 * by ph_row_iter.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"

/* Row encoding, all numbers LEB128 varints, signed ones zigzagged:
 *
 *   head      zigzag(line - previous line) << 1 | file_changed
 *   addr      zigzag(addr - previous addr)      (mod 2^64)
 *   [file]    id of the new file (0 = none), only when file_changed
 *   groups    per 7 columns, up to the last nonzero one: a mask byte
 *             (bit k = column 7g+k is nonzero, bit 7 = another group
 *             follows), then zigzag(value) of each nonzero column of the
 *             group; a row of zeros is one 0 byte.  Any width fits.
 *
 * A block starts with previous addr = 0, line = 0, file = the function's
 * file.  A row of 3 small costs at the next line takes 6 or 7 bytes. */
struct ph_rowblock {
    unsigned char *data;
    size_t len, cap;
    uint64_t last_addr;
    uint32_t last_line;
    uint32_t part;          /* part index */
    ph_file *last_file;
};

void ph_rows_free(ph_profile *p)
{
    size_t i, j;
    for (i = 0; i < p->funcs.n && p->fx; i++) {
        ph_funcx *x = &p->fx[i];
        for (j = 0; j < x->nblocks; j++) {
            if (x->blocks[j]) {
                free(x->blocks[j]->data);
                free(x->blocks[j]);
            }
        }
        free(x->blocks);
        x->blocks = NULL;
        x->nblocks = 0;
    }
    for (i = 0; i < PH_ROW_SCRATCH; i++) {
        free(p->scratch[i]);
        p->scratch[i] = NULL;
        p->scratch_width[i] = 0;
    }
}

static inline uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline unsigned char *put_varint(unsigned char *d, uint64_t v)
{
    while (v >= 0x80) {
        *d++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *d++ = (unsigned char)v;
    return d;
}

static inline const unsigned char *get_varint(const unsigned char *s,
                                              const unsigned char *end,
                                              uint64_t *v)
{
    uint64_t r = 0;
    unsigned shift = 0;
    while (s < end) {
        unsigned char c = *s++;
        if (shift < 64)
            r |= (uint64_t)(c & 0x7f) << shift;
        shift += 7;
        if (!(c & 0x80))
            break;
    }
    *v = r;
    return s;
}

static ph_rowblock *get_block(ph_profile *p, ph_func *f, ph_part *part)
{
    ph_funcx *x = &p->fx[f->id - 1];
    ph_rowblock *b;
    if (part->index >= x->nblocks) {
        uint32_t n = part->index + 1, i;
        x->blocks = ph_xrealloc(x->blocks, n * sizeof *x->blocks);
        for (i = x->nblocks; i < n; i++)
            x->blocks[i] = NULL;
        x->nblocks = n;
    }
    b = x->blocks[part->index];
    if (!b) {
        b = ph_xcalloc(1, sizeof *b);
        b->part = part->index;
        b->last_file = f->file;
        x->blocks[part->index] = b;
    }
    return b;
}

void ph_row_add(ph_profile *p, ph_func *f, ph_part *part, uint64_t addr,
                uint32_t line, ph_file *file, const int64_t *cost, size_t n)
{
    ph_rowblock *b;
    unsigned char *d;
    size_t need, i, hi;
    int changed;
    if (!part)
        part = ph_profile_default_part(p);
    if (n > p->reals.n)
        n = p->reals.n;
    if (!file)
        file = f->file;
    b = get_block(p, f, part);
    need = 32 + n / 7 + 11 * n;
    if (b->cap - b->len < need) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap - b->len < need) {
            if (cap > SIZE_MAX / 2)
                ph_oom();
            cap *= 2;
        }
        b->data = ph_xrealloc(b->data, cap);
        b->cap = cap;
    }
    d = b->data + b->len;
    changed = file != b->last_file;
    d = put_varint(d, zigzag((int64_t)line - (int64_t)b->last_line) << 1 |
                          (uint64_t)changed);
    d = put_varint(d, zigzag((int64_t)(addr - b->last_addr)));
    if (changed) {
        d = put_varint(d, file ? file->id : 0);
        b->last_file = file;
    }
    b->last_addr = addr;
    b->last_line = line;
    /* mask: groups of 7 columns up to the last nonzero one */
    hi = n;
    while (hi > 0 && cost[hi - 1] == 0)
        hi--;
    if (hi == 0) {
        *d++ = 0;
    } else {
        for (i = 0; i < hi; i += 7) {
            unsigned m = 0, k;
            for (k = 0; k < 7 && i + k < hi; k++)
                if (cost[i + k])
                    m |= 1u << k;
            if (i + 7 < hi)
                m |= 0x80;
            *d++ = (unsigned char)m;
            for (k = 0; k < 7 && i + k < hi; k++)
                if (cost[i + k])
                    d = put_varint(d, zigzag(cost[i + k]));
        }
    }
    b->len = (size_t)(d - b->data);
    p->nrows++;
    ph_profile_invalidate(p);
}

int ph_func_has_rows(const ph_profile *p, const ph_func *f)
{
    const ph_funcx *x = &p->fx[f->id - 1];
    uint32_t i;
    for (i = 0; i < x->nblocks; i++)
        if (x->blocks[i] && x->blocks[i]->len)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Iteration                                                           */

/* First block of f at part index >= from (any part) or exactly part. */
static const ph_rowblock *find_block(const ph_profile *p, const ph_func *f,
                                     const ph_part *part, uint32_t from)
{
    const ph_funcx *x;
    uint32_t i;
    if (!f || f->id == 0 || f->id > p->funcs.n)
        return NULL;
    x = &p->fx[f->id - 1];
    if (part) {
        if (from > part->index || part->index >= x->nblocks)
            return NULL;
        return x->blocks[part->index];
    }
    for (i = from; i < x->nblocks; i++)
        if (x->blocks[i] && x->blocks[i]->len)
            return x->blocks[i];
    return NULL;
}

static void start_block(ph_row_iter *it, const ph_rowblock *b)
{
    it->block = b;
    it->pos = 0;
    it->addr = 0;
    it->line = 0;
    it->file = it->f->file;
}

void ph_row_iter_init(ph_row_iter *it, const ph_profile *p, const ph_func *f,
                      const ph_part *part)
{
    size_t nreal = p->reals.n;
    it->p = p;
    it->f = f;
    it->part = part;
    it->wide = NULL;
    if (nreal > 64) {
        /* Profile-owned scratch, handed out round robin: up to
         * PH_ROW_SCRATCH wide iterators may be live at once. */
        ph_profile *mp = (ph_profile *)p;
        unsigned k = mp->scratch_next++ % PH_ROW_SCRATCH;
        if (mp->scratch_width[k] < nreal) {
            mp->scratch[k] = ph_xrealloc(mp->scratch[k],
                                         nreal * sizeof *mp->scratch[k]);
            mp->scratch_width[k] = nreal;
        }
        it->wide = mp->scratch[k];
    }
    start_block(it, find_block(p, f, part, 0));
}

int ph_row_next(ph_row_iter *it, ph_row *out)
{
    const ph_rowblock *b = it->block;
    const unsigned char *s, *end;
    size_t nreal = it->p->reals.n, col;
    int64_t *v = it->wide ? it->wide : it->buf;
    uint64_t x;
    while (b && it->pos >= b->len) {
        if (it->part)
            b = NULL;
        else
            b = find_block(it->p, it->f, NULL, b->part + 1);
        start_block(it, b);
    }
    if (!b)
        return 0;
    s = b->data + it->pos;
    end = b->data + b->len;
    s = get_varint(s, end, &x);
    it->line = (uint32_t)((int64_t)it->line + unzigzag(x >> 1));
    if (x & 1) {
        uint64_t id;
        s = get_varint(s, end, &x);
        it->addr += (uint64_t)unzigzag(x);
        s = get_varint(s, end, &id);
        it->file = (id && id <= it->p->files.n) ? it->p->files.v[id - 1]
                                                : NULL;
    } else {
        s = get_varint(s, end, &x);
        it->addr += (uint64_t)unzigzag(x);
    }
    memset(v, 0, nreal * sizeof *v);
    for (col = 0; s < end; col += 7) {
        unsigned m = *s++, k;
        for (k = 0; k < 7; k++) {
            if (m & (1u << k)) {
                s = get_varint(s, end, &x);
                if (col + k < nreal)
                    v[col + k] = unzigzag(x);
            }
        }
        if (!(m & 0x80))
            break;
    }
    it->pos = (size_t)(s - b->data);
    out->addr = it->addr;
    out->line = it->line;
    out->file = it->file;
    out->cost = v;
    return 1;
}

/* Add every row of f in part index `part` (PH_ALL_PARTS: all) to acc
 * (nreal values): the aggregation's hot loop, without the iterator's
 * per-row clearing. */
void ph_rows_sum(const ph_profile *p, const ph_func *f, int part,
                 int64_t *acc)
{
    const ph_funcx *x = &p->fx[f->id - 1];
    size_t nreal = p->reals.n;
    uint32_t i;
    for (i = 0; i < x->nblocks; i++) {
        const ph_rowblock *b = x->blocks[i];
        const unsigned char *s, *end;
        if (!b || (part != PH_ALL_PARTS && (uint32_t)part != i))
            continue;
        s = b->data;
        end = s + b->len;
        while (s < end) {
            uint64_t v;
            size_t col;
            s = get_varint(s, end, &v);
            if (v & 1) {
                s = get_varint(s, end, &v);
                s = get_varint(s, end, &v);
            } else {
                s = get_varint(s, end, &v);
            }
            for (col = 0; s < end; col += 7) {
                unsigned m = *s++, k;
                for (k = 0; k < 7; k++) {
                    if (m & (1u << k)) {
                        s = get_varint(s, end, &v);
                        if (col + k < nreal)
                            acc[col + k] = ph_add_wrap(acc[col + k], unzigzag(v));
                    }
                }
                if (!(m & 0x80))
                    break;
            }
        }
    }
}
