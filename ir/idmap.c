/* idmap.c -- uint64 key -> uint32 index, open addressing with linear
 * probing, kept at most half full. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ir/hash.h"
#include "ir/idmap.h"
#include "ir/ir.h"

static void alloc_slots(ph_idmap *m, size_t cap)
{
    m->keys = ph_xcalloc(cap, sizeof *m->keys);
    m->vals = ph_xcalloc(cap, sizeof *m->vals);
    m->mask = cap - 1;
}

void ph_idmap_init(ph_idmap *m, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 1)
        cap *= 2;
    alloc_slots(m, cap);
    m->count = 0;
}

void ph_idmap_free(ph_idmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* The slot of id, or the empty one where it goes. */
static size_t slot_of(const ph_idmap *m, uint64_t id)
{
    size_t i = ph_hash64(id) & m->mask;
    while (m->vals[i] && m->keys[i] != id)
        i = (i + 1) & m->mask;
    return i;
}

static void grow(ph_idmap *m)
{
    ph_idmap old = *m;
    alloc_slots(m, 2 * (old.mask + 1));
    for (size_t i = 0; i <= old.mask; i++)
        if (old.vals[i]) {
            size_t j = slot_of(m, old.keys[i]);
            m->keys[j] = old.keys[i];
            m->vals[j] = old.vals[i];
        }
    free(old.keys);
    free(old.vals);
}

int ph_idmap_put(ph_idmap *m, uint64_t id, uint32_t idx)
{
    size_t i = slot_of(m, id);
    if (m->vals[i])
        return -1;
    if (2 * (m->count + 1) > m->mask + 1) {
        grow(m);
        i = slot_of(m, id);
    }
    m->keys[i] = id;
    m->vals[i] = idx + 1;
    m->count++;
    return 0;
}

int64_t ph_idmap_get(const ph_idmap *m, uint64_t id)
{
    size_t i = slot_of(m, id);
    return m->vals[i] ? (int64_t)m->vals[i] - 1 : -1;
}
