/* arena.c -- the per-profile arena: a chain of blocks (a page first, then
 * doubling up to 2 MiB), bump allocation with alignment, and mark/rewind
 * so a half-built record can be dropped.  Freed in one go with the profile.
 * Full-size blocks come from the profile's stock when it has one
 * (stock.h: their pages written by another thread).
 */
#include "config.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"
#include "stock.h"

struct ph_arena_block {
    ph_arena_block *prev;   /* older block */
    size_t size;            /* bytes in data[] */
    size_t used;
    alignas(max_align_t) unsigned char data[];
};

void ph_arena_init(ph_arena *a)
{
    a->head = NULL;
    a->next_size = PH_ARENA_FIRST_BLOCK - sizeof(ph_arena_block);
    a->total = 0;
    a->stock = NULL;
}

void ph_arena_free(ph_arena *a)
{
    ph_arena_block *b = a->head;
    while (b) {
        ph_arena_block *prev = b->prev;
        free(b);
        b = prev;
    }
    ph_arena_init(a);
}

static ph_arena_block *new_block(ph_arena *a, size_t bytes)
{
    if (bytes == PH_ARENA_MAX_BLOCK)
        return ph_stock_block(a->stock);
    return ph_xmalloc(bytes);
}

/* Start a new block able to hold n bytes at alignment align. */
static void add_block(ph_arena *a, size_t n, size_t align)
{
    size_t size = a->next_size;
    ph_arena_block *b;
    if (n > SIZE_MAX - align - sizeof *b)
        ph_oom();
    if (size < n + align)
        size = n + align;   /* oversized request: a block of its own */
    else if (a->next_size < PH_ARENA_MAX_BLOCK - sizeof *b) {
        a->next_size = (a->next_size + sizeof *b) * 2 - sizeof *b;
    }
    b = new_block(a, sizeof *b + size);
    b->size = size;
    b->used = 0;
    b->prev = a->head;
    a->head = b;
    a->total += size;
}

void *ph_arena_alloc_raw(ph_arena *a, size_t n, size_t align)
{
    ph_arena_block *b = a->head;
    size_t off;
    if (align < 1)
        align = 1;
    if (b) {
        uintptr_t base = (uintptr_t)b->data;
        off = (size_t)(((base + b->used + align - 1) & ~(uintptr_t)(align - 1))
                       - base);
        if (off <= b->size && b->size - off >= n) {
            b->used = off + n;
            return b->data + off;
        }
    }
    add_block(a, n, align);
    b = a->head;
    off = 0;   /* data[] is max_align_t aligned */
    if (align > alignof(max_align_t))
        off = (size_t)(-(uintptr_t)b->data & (align - 1));
    b->used = off + n;
    return b->data + off;
}

void *ph_arena_alloc(ph_arena *a, size_t n, size_t align)
{
    void *q = ph_arena_alloc_raw(a, n, align);
    memset(q, 0, n);
    return q;
}

/* Whether end is where the newest block's bumped bytes end. */
static int ends_last(const ph_arena *a, const void *end)
{
    return a->head && (const unsigned char *)end == a->head->data + a->head->used;
}

int ph_arena_grow_last(ph_arena *a, const void *end, size_t n)
{
    if (!ends_last(a, end) || a->head->size - a->head->used < n)
        return 0;
    a->head->used += n;
    return 1;
}

void ph_arena_shrink_last(ph_arena *a, const void *end, const void *new_end)
{
    if (ends_last(a, end))
        a->head->used -= (size_t)((const unsigned char *)end -
                                  (const unsigned char *)new_end);
}

ph_arena_pos ph_arena_mark(const ph_arena *a)
{
    ph_arena_pos pos;
    pos.block = a->head;
    pos.used = a->head ? a->head->used : 0;
    return pos;
}

void ph_arena_rewind(ph_arena *a, ph_arena_pos pos)
{
    while (a->head && a->head != pos.block) {
        ph_arena_block *prev = a->head->prev;
        a->total -= a->head->size;
        free(a->head);
        a->head = prev;
    }
    if (a->head)
        a->head->used = pos.used;
}

void ph_arena_trim(ph_arena *a)
{
    ph_arena_block *b = a->head;
    if (!b)
        return;
    (void)ph_drop_pages(b->data + b->used, b->data + b->size);
}

size_t ph_arena_size(const ph_arena *a)
{
    return a->total;
}
