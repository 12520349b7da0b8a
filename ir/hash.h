/* hash.h -- the library's hashes for its open-addressing tables: one of
 * bytes, one of integers.  A table indexed by the low bits of a key times
 * a constant sees only the key's low bits, so keys that differ in their
 * high half (a parent id shifted up) collide in long runs; ph_hash64 mixes
 * every bit into every bit.  Internal: not installed.
 */
#ifndef PH_HASH_H
#define PH_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Bytes with a seed, 8 a step (strtab.c). */
uint64_t ph_hash_bytes(const void *data, size_t len, uint64_t seed);

static inline uint64_t ph_hash64(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

#endif
