/* calls.c -- call records and jumps, stored without a struct per record:
 * one byte block per calling (jumping) function, records appended in the
 * order they were added and decoded by iterators into one ph_call
 * (ph_jump) that lives in the iterator.  Calls into a function are found
 * through an index built on first request.
 */
#include "config.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"

/* Record encoding, LEB128 varints, signed ones zigzagged.  Each record
 * stands alone (no state carried from the previous one), so that the
 * index of calls into a function can point into the middle of a block:
 * positions are deltas against the block's base, the first record's
 * position.
 *
 *   call  head      part index << 1 | incl known
 *         addr      zigzag(addr - base addr)        (mod 2^64)
 *         line      zigzag(line - base line)
 *         file      file id, 0 = none
 *         callee    function id
 *         target    zigzag(target addr - addr), zigzag(target line - line)
 *         count
 *         [width, then costs as in rows.c]          when incl is known
 *
 *   jump  head      part index << 1 | conditional
 *         addr, line, file                          as for calls
 *         to        function id, 0 = none
 *         to file   file id, 0 = none
 *         target    as for calls
 *         executed, followed
 *
 * A call with 13 inclusive costs takes about 50 bytes, a jump about 15. */
struct ph_recblock {
    uint64_t base_addr;
    uint32_t base_line;
    uint32_t heap;          /* malloc'd (it grew again), not in the arena */
    size_t len, cap;
    unsigned char data[];
};

void ph_calls_free(ph_profile *p)
{
    size_t i;
    /* the blocks live in the profile's record arena, are staged, or grew
     * on the heap */
    for (i = 0; i < p->funcs.n && p->fx; i++) {
        ph_funcx *x = &p->fx[i];
        if (x->calls && x->calls->heap)
            free(x->calls);
        if (x->jumps && x->jumps->heap)
            free(x->jumps);
        x->calls = x->jumps = NULL;
    }
    for (i = 0; i < 2; i++) {
        free(p->stage[i]);
        p->stage[i] = NULL;
        p->stage_fid[i] = 0;
    }
    free(p->call_in);
    free(p->call_in_start);
    p->call_in = NULL;
    p->call_in_start = NULL;
}

/* Where record blocks live.  Readers add one function's records together,
 * calls and jumps interleaved.  A function's new calls block and jumps
 * block are written in two staging buffers of the profile (reused, grown
 * by doubling); when another function starts a block of the same kind,
 * the staged one moves into the record arena at its exact length.  So
 * there is no malloc per block (a big profile has hundreds of thousands,
 * and realloc churned the heap) and no slack.  A block that takes records
 * again after that (parts, merges) moves to the heap with twice its room
 * and grows there by realloc (moved to the arena's top instead, each move
 * left the old copy unused: 2,300 dumps of one program held three times
 * their records). */
static ph_recblock **block_ref(ph_profile *p, uint32_t fid, int k)
{
    ph_funcx *x = &p->fx[fid - 1];
    return k ? &x->jumps : &x->calls;
}

static void flush_stage(ph_profile *p, int k)
{
    ph_recblock *s = p->stage[k], *b;
    b = ph_arena_alloc_raw(&p->rec_arena, sizeof *b + s->len,
                           alignof(ph_recblock));
    memcpy(b, s, sizeof *b + s->len);
    b->cap = b->len;
    b->heap = 0;
    *block_ref(p, p->stage_fid[k], k) = b;
    p->stage_fid[k] = 0;
}

/* A block of at least cap bytes at the start of stage k, for function
 * fid (its records move there when it has some: copied, len kept). */
static ph_recblock *stage_block(ph_profile *p, int k, uint32_t fid,
                                size_t cap)
{
    ph_recblock *s = p->stage[k];
    if (cap > UINT32_MAX)   /* the calls-in index holds 32-bit offsets */
        ph_oom();
    if (!s || s->cap < cap) {
        size_t c = s ? 2 * s->cap : 4096;
        if (c < cap)
            c = cap;
        s = ph_xrealloc(s, sizeof *s + c);
        s->cap = c;
        s->heap = 0;    /* the stage's own: freed with the stage */
        p->stage[k] = s;
    }
    p->stage_fid[k] = fid;
    *block_ref(p, fid, k) = s;
    return s;
}

/* Room for need more bytes at the end of the record block of function f
 * (jumps or calls), made with the base of the record about to be
 * written. */
static ph_recblock *reserve(ph_profile *p, const ph_func *f, int jumps,
                            size_t need, uint64_t addr, uint32_t line)
{
    ph_recblock **bp = block_ref(p, f->id, jumps), *b = *bp, *top;
    size_t cap;
    if (b && b->cap - b->len >= need)
        return b;
    if (b && p->stage_fid[jumps] == f->id)      /* a staged block grows */
        return stage_block(p, jumps, f->id, b->len + need);
    if (!b) {
        if (p->stage_fid[jumps])
            flush_stage(p, jumps);
        b = stage_block(p, jumps, f->id, need);
        b->base_addr = addr;
        b->base_line = line;
        b->len = 0;
        return b;
    }
    cap = 2 * b->cap;
    if (cap - b->len < need)
        cap = b->len + need;
    if (cap > UINT32_MAX)   /* the calls-in index holds 32-bit offsets */
        ph_oom();
    if (b->heap) {
        b = ph_xrealloc(b, sizeof *b + cap);
    } else {
        top = ph_xmalloc(sizeof *top + cap);
        memcpy(top, b, sizeof *b + b->len);
        b = top;
        b->heap = 1;
    }
    b->cap = cap;
    *bp = b;
    return b;
}

static unsigned char *put_site(unsigned char *d, uint64_t base_addr,
                               uint32_t base_line, uint64_t addr,
                               uint32_t line, const ph_file *file)
{
    d = ph_put_varint(d, ph_zigzag((int64_t)(addr - base_addr)));
    d = ph_put_varint(d, ph_zigzag((int64_t)line - (int64_t)base_line));
    return ph_put_varint(d, file ? file->id : 0);
}

static unsigned char *put_target(unsigned char *d, uint64_t addr,
                                 uint32_t line, uint64_t taddr,
                                 uint32_t tline)
{
    d = ph_put_varint(d, ph_zigzag((int64_t)(taddr - addr)));
    return ph_put_varint(d, ph_zigzag((int64_t)tline - (int64_t)line));
}

static void drop_in_index(ph_profile *p)
{
    free(p->call_in);
    free(p->call_in_start);
    p->call_in = NULL;
    p->call_in_start = NULL;
}

/* A record is encoded first (into buf, room bytes), then copied into
 * its block with exactly its length reserved: the bound on a record is
 * several times its usual size, and a block that is not the newest keeps
 * what it reserved. */
#define REC_STACK 256

/* The base a record of f (calls or jumps) is encoded against: its block's,
 * or its own site when it starts the block. */
static void rec_base(const ph_profile *p, const ph_func *f, int jumps,
                     uint64_t *addr, uint32_t *line)
{
    const ph_funcx *x = &p->fx[f->id - 1];
    const ph_recblock *b = jumps ? x->jumps : x->calls;
    if (b) {
        *addr = b->base_addr;
        *line = b->base_line;
    }
}

static void append(ph_profile *p, const ph_func *f, int jumps,
                   const unsigned char *rec, size_t len, uint64_t addr,
                   uint32_t line)
{
    ph_recblock *b = reserve(p, f, jumps, len, addr, line);
    memcpy(b->data + b->len, rec, len);
    b->len += len;
}

void ph_call_add(ph_profile *p, ph_func *caller, ph_part *part,
                 uint64_t addr, uint32_t line, ph_file *file,
                 ph_func *callee, uint64_t target_addr,
                 uint32_t target_line, uint64_t count, const int64_t *incl,
                 size_t n)
{
    unsigned char stack[REC_STACK], *buf = stack, *d;
    size_t room;
    uint64_t base_addr = addr;
    uint32_t base_line = line;
    if (!part)
        part = ph_profile_default_part(p);
    if (n > p->reals.n)
        n = p->reals.n;
    room = 80 + (incl ? ph_costs_room(incl, n) : 0);
    if (room > sizeof stack)
        buf = ph_xmalloc(room);
    rec_base(p, caller, 0, &base_addr, &base_line);
    d = ph_put_varint(buf, (uint64_t)part->index << 1 | (incl != NULL));
    d = put_site(d, base_addr, base_line, addr, line, file);
    d = ph_put_varint(d, callee->id);
    d = put_target(d, addr, line, target_addr, target_line);
    d = ph_put_varint(d, count);
    if (incl) {
        d = ph_put_varint(d, n);
        d = ph_costs_put(d, incl, n);
    }
    append(p, caller, 0, buf, (size_t)(d - buf), addr, line);
    if (buf != stack)
        free(buf);
    p->ncalls++;
    if (p->call_in)
        drop_in_index(p);
    ph_profile_invalidate(p);
}

size_t ph_call_count(const ph_profile *p)
{
    return p->ncalls;
}

/* ------------------------------------------------------------------ */
/* Reading calls                                                       */

static ph_func *func_by_id(const ph_profile *p, uint64_t id)
{
    return (id && id <= p->funcs.n) ? p->funcs.v[id - 1] : NULL;
}

static ph_file *file_by_id(const ph_profile *p, uint64_t id)
{
    return (id && id <= p->files.n) ? p->files.v[id - 1] : NULL;
}

static ph_part *part_by_index(const ph_profile *p, uint64_t i)
{
    return i < p->parts.n ? p->parts.v[i] : NULL;
}

/* Decode the site (addr, line, file) of a record at s. */
static const unsigned char *get_site(const ph_profile *p,
                                     const ph_recblock *b,
                                     const unsigned char *s,
                                     const unsigned char *end,
                                     uint64_t *addr, uint32_t *line,
                                     ph_file **file)
{
    uint64_t v;
    s = ph_get_varint(s, end, &v);
    *addr = b->base_addr + (uint64_t)ph_unzigzag(v);
    s = ph_get_varint(s, end, &v);
    *line = (uint32_t)((int64_t)b->base_line + ph_unzigzag(v));
    s = ph_get_varint(s, end, &v);
    *file = file_by_id(p, v);
    return s;
}

static const unsigned char *get_target(const unsigned char *s,
                                       const unsigned char *end,
                                       uint64_t addr, uint32_t line,
                                       uint64_t *taddr, uint32_t *tline)
{
    uint64_t v;
    s = ph_get_varint(s, end, &v);
    *taddr = addr + (uint64_t)ph_unzigzag(v);
    s = ph_get_varint(s, end, &v);
    *tline = (uint32_t)((int64_t)line + ph_unzigzag(v));
    return s;
}

/* The fields of the call record at s (ph_call_add's layout) up to its
 * costs into c, its head (part index << 1 | has costs) into *head;
 * returns where its costs begin. */
static inline const unsigned char *
call_fields(const ph_profile *p, const ph_recblock *b, const unsigned char *s,
            const unsigned char *end, ph_call *c, uint64_t *head)
{
    uint64_t v;
    s = ph_get_varint(s, end, head);
    c->part = part_by_index(p, *head >> 1);
    s = get_site(p, b, s, end, &c->addr, &c->line, &c->file);
    s = ph_get_varint(s, end, &v);
    c->callee = func_by_id(p, v);
    s = get_target(s, end, c->addr, c->line, &c->target_addr,
                   &c->target_line);
    return ph_get_varint(s, end, &c->count);
}

/* Decode the call of function fid at byte offset pos into it->call;
 * returns the offset after it. */
static size_t decode_call(ph_call_iter *it, uint32_t fid, size_t pos)
{
    const ph_profile *p = it->p;
    const ph_recblock *b = p->fx[fid - 1].calls;
    const unsigned char *s = b->data + pos, *end = b->data + b->len;
    ph_call *c = &it->call;
    uint64_t v, head;
    s = call_fields(p, b, s, end, c, &head);
    c->caller = p->funcs.v[fid - 1];
    c->incl = NULL;
    c->width = 0;
    if (head & 1) {
        size_t nreal = p->reals.n, w;
        int64_t *vals;
        s = ph_get_varint(s, end, &v);
        w = v < nreal ? (size_t)v : nreal;
        vals = w <= PH_CALL_INLINE ? it->buf : ph_scratch_take(p, w);
        memset(vals, 0, (w ? w : 1) * sizeof *vals);
        s = ph_costs_get(s, end, vals, w);
        c->incl = vals;
        c->width = (uint32_t)w;
    }
    return (size_t)(s - b->data);
}

/* The callee (NULL: none) of the call record at pos of block b, with the
 * offset after the record in *next; the costs are stepped over, not
 * read. */
static const ph_func *callee_at(const ph_profile *p, const ph_recblock *b,
                                size_t pos, size_t *next)
{
    const unsigned char *s = b->data + pos, *end = b->data + b->len;
    ph_call c;
    uint64_t head, v;
    s = call_fields(p, b, s, end, &c, &head);
    if (head & 1) {
        s = ph_get_varint(s, end, &v);
        s = ph_costs_get(s, end, NULL, 0);
    }
    *next = (size_t)(s - b->data);
    return c.callee;
}

enum { ITER_OUT, ITER_ALL, ITER_IN };

/* Step an out/all iterator to the next record, moving to the next
 * function's block in ITER_ALL mode. */
static const ph_call *step_block(ph_call_iter *it)
{
    const ph_profile *p = it->p;
    for (;;) {
        const ph_recblock *b;
        if (it->fid == 0 || it->fid > p->funcs.n)
            return NULL;
        b = p->fx[it->fid - 1].calls;
        if (b && it->pos < b->len) {
            it->pos = decode_call(it, it->fid, it->pos);
            return &it->call;
        }
        if (it->mode != ITER_ALL)
            return NULL;
        it->fid++;
        it->pos = 0;
    }
}

const ph_call *ph_calls_out(ph_call_iter *it, const ph_profile *p,
                            const ph_func *f)
{
    memset(it, 0, offsetof(ph_call_iter, call));
    it->p = p;
    it->mode = ITER_OUT;
    it->fid = (f && f->id <= p->funcs.n) ? f->id : 0;
    return step_block(it);
}

const ph_call *ph_calls_all(ph_call_iter *it, const ph_profile *p)
{
    memset(it, 0, offsetof(ph_call_iter, call));
    it->p = p;
    it->mode = ITER_ALL;
    it->fid = 1;
    return step_block(it);
}

/* Build the index of calls into each function: for callee id i, entries
 * call_in[call_in_start[i - 1] .. call_in_start[i]) are (caller id << 32
 * | offset of the record in the caller's block), in caller id order, then
 * order added. */
static void build_in_index(ph_profile *p)
{
    size_t nf = p->funcs.n, i, pos, next, *start;
    uint64_t *in;
    const ph_func *callee;
    start = ph_xcalloc(nf + 2, sizeof *start);
    in = ph_xmalloc((p->ncalls ? p->ncalls : 1) * sizeof *in);
    for (i = 1; i <= nf; i++) {
        const ph_recblock *b = p->fx[i - 1].calls;
        for (pos = 0; b && pos < b->len; pos = next)
            if ((callee = callee_at(p, b, pos, &next)))
                start[callee->id + 1]++;
    }
    for (i = 1; i <= nf + 1; i++)
        start[i] += start[i - 1];
    /* start[id] is now the fill position of callee id */
    for (i = 1; i <= nf; i++) {
        const ph_recblock *b = p->fx[i - 1].calls;
        for (pos = 0; b && pos < b->len; pos = next)
            if ((callee = callee_at(p, b, pos, &next)))
                in[start[callee->id]++] = (uint64_t)i << 32 | pos;
    }
    p->call_in = in;
    p->call_in_start = start;
}

const ph_call *ph_calls_in(ph_call_iter *it, const ph_profile *p,
                           const ph_func *f)
{
    memset(it, 0, offsetof(ph_call_iter, call));
    it->p = p;
    it->mode = ITER_IN;
    if (!f || f->id == 0 || f->id > p->funcs.n || !p->ncalls)
        return NULL;
    if (!p->call_in)
        build_in_index((ph_profile *)p);   /* a cache, like the aggregates */
    /* after the fill loop, start[id] is the end of callee id's entries and
     * start[id - 1] (the end of the previous one) is their beginning */
    it->pos = p->call_in_start[f->id - 1];
    it->end = p->call_in_start[f->id];
    return ph_call_next(it);
}

const ph_call *ph_call_next(ph_call_iter *it)
{
    if (it->mode == ITER_IN) {
        uint64_t e;
        if (it->pos >= it->end)
            return NULL;
        e = it->p->call_in[it->pos++];
        decode_call(it, (uint32_t)(e >> 32), (size_t)(e & 0xffffffffu));
        return &it->call;
    }
    return step_block(it);
}

/* ------------------------------------------------------------------ */
/* Jumps                                                               */

void ph_jump_add(ph_profile *p, const ph_jump *j)
{
    const ph_part *part = j->part ? j->part : ph_profile_default_part(p);
    unsigned char buf[90], *d;
    uint64_t base_addr = j->addr;
    uint32_t base_line = j->line;
    rec_base(p, j->from, 1, &base_addr, &base_line);
    d = ph_put_varint(buf, (uint64_t)part->index << 1 | (j->conditional != 0));
    d = put_site(d, base_addr, base_line, j->addr, j->line, j->file);
    d = ph_put_varint(d, j->to ? j->to->id : 0);
    d = ph_put_varint(d, j->to_file ? j->to_file->id : 0);
    d = put_target(d, j->addr, j->line, j->target_addr, j->target_line);
    d = ph_put_varint(d, j->executed);
    d = ph_put_varint(d, j->followed);
    append(p, j->from, 1, buf, (size_t)(d - buf), j->addr, j->line);
    p->njumps++;
    ph_profile_invalidate(p);
}

size_t ph_jump_count(const ph_profile *p)
{
    return p->njumps;
}

static const ph_jump *step_jump(ph_jump_iter *it)
{
    const ph_profile *p = it->p;
    for (;;) {
        const ph_recblock *b;
        const unsigned char *s, *end;
        ph_jump *j = &it->jump;
        uint64_t v, head;
        if (it->fid == 0 || it->fid > p->funcs.n)
            return NULL;
        b = p->fx[it->fid - 1].jumps;
        if (!b || it->pos >= b->len) {
            if (!it->all)
                return NULL;
            it->fid++;
            it->pos = 0;
            continue;
        }
        s = b->data + it->pos;
        end = b->data + b->len;
        s = ph_get_varint(s, end, &head);
        j->from = p->funcs.v[it->fid - 1];
        j->part = part_by_index(p, head >> 1);
        j->conditional = (int)(head & 1);
        s = get_site(p, b, s, end, &j->addr, &j->line, &j->file);
        s = ph_get_varint(s, end, &v);
        j->to = func_by_id(p, v);
        s = ph_get_varint(s, end, &v);
        j->to_file = file_by_id(p, v);
        s = get_target(s, end, j->addr, j->line, &j->target_addr,
                       &j->target_line);
        s = ph_get_varint(s, end, &j->executed);
        s = ph_get_varint(s, end, &j->followed);
        it->pos = (size_t)(s - b->data);
        return j;
    }
}

const ph_jump *ph_jumps_from(ph_jump_iter *it, const ph_profile *p,
                             const ph_func *f)
{
    memset(it, 0, sizeof *it);
    it->p = p;
    it->fid = (f && f->id <= p->funcs.n) ? f->id : 0;
    return step_jump(it);
}

const ph_jump *ph_jumps_all(ph_jump_iter *it, const ph_profile *p)
{
    memset(it, 0, sizeof *it);
    it->p = p;
    it->all = 1;
    it->fid = 1;
    return step_jump(it);
}

const ph_jump *ph_jump_next(ph_jump_iter *it)
{
    return step_jump(it);
}
