/* idmap.c -- uint64 key -> uint32 index.  Profilers number their records
 * from 0 or 1 up, so while the keys are dense they index the values
 * directly (no hashing, a third of the memory, one cache miss a look-up
 * where a table of a few million keys took two); the first key that
 * would make that array sparse turns it into open addressing with linear
 * probing, kept at most half full. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ir/hash.h"
#include "ir/idmap.h"
#include "ir/ir.h"

/* A direct array holds at most this many slots a key (and a few more). */
#define DENSE 4

/* The power of two at or above n, at least 16: the slots of a map. */
static size_t slots_for(size_t n)
{
    size_t cap = 16;
    while (cap < n)
        cap *= 2;
    return cap;
}

/* A hashed map of n keys is at most half full. */
static size_t hashed_slots(size_t n)
{
    return slots_for(2 * n + 1);
}

static void alloc_slots(ph_idmap *m, size_t cap, int hashed)
{
    m->keys = hashed ? ph_xcalloc_written(cap, sizeof *m->keys) : NULL;
    m->vals = ph_xcalloc_written(cap, sizeof *m->vals);
    m->mask = cap - 1;
}

void ph_idmap_init(ph_idmap *m, size_t n)
{
    alloc_slots(m, slots_for(n + 1), 0);   /* keys 0..n, directly */
    m->count = 0;
}

void ph_idmap_free(ph_idmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* The slot of id in a hashed map, or the empty one where it goes. */
static size_t slot_of(const ph_idmap *m, uint64_t id)
{
    size_t i = ph_hash64(id) & m->mask;
    while (m->vals[i] && m->keys[i] != id)
        i = (i + 1) & m->mask;
    return i;
}

/* Every entry moved into cap slots, hashed or direct. */
static void rebuild(ph_idmap *m, size_t cap, int hashed)
{
    ph_idmap old = *m;
    alloc_slots(m, cap, hashed);
    for (size_t i = 0; i <= old.mask; i++) {
        if (!old.vals[i])
            continue;
        uint64_t key = old.keys ? old.keys[i] : i;
        size_t j = hashed ? slot_of(m, key) : (size_t)key;
        if (hashed)
            m->keys[j] = key;
        m->vals[j] = old.vals[i];
    }
    free(old.keys);
    free(old.vals);
}

/* Room for one more key, id: a direct array grows to hold it while it
 * stays dense, else becomes hashed; a hashed map stays half empty. */
static void make_room(ph_idmap *m, uint64_t id)
{
    if (!m->keys) {
        if (id <= m->mask)
            return;
        if (id < (uint64_t)DENSE * (m->count + 1) + 64) {
            rebuild(m, slots_for((size_t)id + 1), 0);
            return;
        }
        rebuild(m, hashed_slots(m->count + 1), 1);
    }
    if (2 * (m->count + 1) > m->mask + 1)
        rebuild(m, 2 * (m->mask + 1), 1);
}

int ph_idmap_put(ph_idmap *m, uint64_t id, uint32_t idx)
{
    if (ph_idmap_get(m, id) >= 0)
        return -1;
    make_room(m, id);
    size_t i = m->keys ? slot_of(m, id) : (size_t)id;
    if (m->keys)
        m->keys[i] = id;
    m->vals[i] = idx + 1;
    m->count++;
    return 0;
}

int64_t ph_idmap_get(const ph_idmap *m, uint64_t id)
{
    size_t i;
    if (m->keys)
        i = slot_of(m, id);
    else if (id <= m->mask)
        i = (size_t)id;
    else
        return -1;
    return m->vals[i] ? (int64_t)m->vals[i] - 1 : -1;
}
