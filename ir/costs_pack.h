/* costs_pack.h -- a cost vector packed as the rows keep theirs (rows.c):
 * per 7 columns, up to the last nonzero one, a mask byte (bit k: column
 * 7g+k is nonzero, bit 7: another group follows), then zigzag varints of
 * the group's nonzero values; a vector of zeros is one 0 byte.  Built one
 * value at a time, for ph_costs_put and for a reader that packs while it
 * parses (importers/callgrind_scan.c).  Internal: not installed.
 */
#ifndef PH_COSTS_PACK_H
#define PH_COSTS_PACK_H

#include <stdint.h>

#include "varint.h"

typedef struct ph_costs_packer {
    unsigned char *start, *d;   /* the packing's first byte, the next */
    unsigned char *mask;        /* the open group's mask byte */
    unsigned char *last_mask;   /* the last group with a nonzero value */
    unsigned char *end;         /* the end of that group */
    unsigned m, k;              /* the open group's mask, its columns */
} ph_costs_packer;

static inline void ph_costs_pack_begin(ph_costs_packer *pk, unsigned char *d)
{
    pk->start = pk->mask = d;
    pk->d = d + 1;
    pk->last_mask = pk->end = NULL;
    pk->m = pk->k = 0;
}

/* The group just filled: its mask, "another follows" set for now. */
static inline void ph_costs_pack_close(ph_costs_packer *pk)
{
    *pk->mask = (unsigned char)(pk->m | 0x80);
    if (pk->m) {
        pk->last_mask = pk->mask;
        pk->end = pk->d;
    }
}

/* The next column's value, zigzagged.  One byte is written either way
 * where it fits in one (at most one past what the packing takes: the
 * rooms of ph_costs_room count it) and kept when it is not 0: no branch
 * on the commonest values. */
static inline void ph_costs_pack_zigzag(ph_costs_packer *pk, uint64_t z)
{
    if (pk->k == 7) {
        ph_costs_pack_close(pk);
        pk->mask = pk->d++;
        pk->m = pk->k = 0;
    }
    if (z < 0x80) {
        *pk->d = (unsigned char)z;
        pk->d += z != 0;
    } else {
        pk->d = ph_put_varint(pk->d, z);
    }
    pk->m |= (unsigned)(z != 0) << pk->k++;
}

static inline void ph_costs_pack_put(ph_costs_packer *pk, int64_t v)
{
    ph_costs_pack_zigzag(pk, ph_zigzag(v));
}

/* A count (at most INT64_MAX): its zigzag is twice it. */
static inline void ph_costs_pack_count(ph_costs_packer *pk, uint64_t x)
{
    ph_costs_pack_zigzag(pk, 2 * x);
}

/* The packing's end; the groups after the last nonzero value cut off. */
static inline unsigned char *ph_costs_pack_end(ph_costs_packer *pk)
{
    ph_costs_pack_close(pk);
    if (!pk->last_mask) {
        *pk->start = 0;     /* a vector of zeros */
        return pk->start + 1;
    }
    *pk->last_mask &= 0x7f;
    return pk->end;
}

#endif /* PH_COSTS_PACK_H */
