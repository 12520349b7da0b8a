/* hash.h -- one integer hash for the library's open-addressing tables.
 * A table indexed by the low bits of a key times a constant sees only the
 * key's low bits, so keys that differ in their high half (a parent id
 * shifted up) collide in long runs; this finalizer mixes every bit into
 * every bit.  Internal: not installed.
 */
#ifndef PH_HASH_H
#define PH_HASH_H

#include <stdint.h>

static inline uint64_t ph_hash64(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

#endif
