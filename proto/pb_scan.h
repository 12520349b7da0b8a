/* pb_scan.h -- the wire format read by hand, for the bulk messages the
 * readers decode without protobuf-c (pprof's Sample, DrCCTProf's Context
 * and Sample): a cursor over a message's bytes, varints, keys, nested
 * messages, unknown fields skipped, repeated numbers packed or not.
 * Each refuses what protobuf-c refuses (tests/unit/pb_decode_test.c
 * holds the decoders against it): a truncated or over-long varint or
 * key, a field that runs past its message, a group.  The index of a
 * message's top-level fields (pb_wire.c) reads by the same rules. */
#ifndef PH_PB_SCAN_H
#define PH_PB_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

typedef struct ph_pbs {
    const unsigned char *p, *end;
} ph_pbs;

/* A varint of at most 10 bytes; -1 when truncated or longer. */
static inline int ph_pbs_varint(ph_pbs *c, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->p == c->end)
            return -1;
        unsigned char b = *c->p++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* A field's key: its number and wire type, as protobuf-c reads them: at
 * most 5 bytes (a number of 32 bits), and a first byte that holds number
 * bits (number 0 in one byte is refused; a number of no use to the
 * message, 0 in longer form included, is an unknown field). */
static inline int ph_pbs_key(ph_pbs *c, uint64_t *field, unsigned *wt)
{
    if (c->p == c->end || (*c->p & 0xf8) == 0)
        return -1;
    uint32_t n = (*c->p & 0x7f) >> 3;
    *wt = *c->p & 7;
    if (!(*c->p++ & 0x80)) {
        *field = n;
        return 0;
    }
    for (int k = 1, shift = 4; k < 5 && c->p < c->end; k++, shift += 7) {
        unsigned char b = *c->p++;
        n |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *field = n;
            return 0;
        }
    }
    return -1;
}

/* The payload of a length-delimited field (wire type wt), as a cursor of
 * its own. */
static inline int ph_pbs_bytes(ph_pbs *c, unsigned wt, ph_pbs *in)
{
    uint64_t n;
    if (wt != 2 || ph_pbs_varint(c, &n) < 0 ||
        n > (uint64_t)(c->end - c->p))
        return -1;
    in->p = c->p;
    in->end = c->p + n;
    c->p += n;
    return 0;
}

/* A scalar varint field (int64, uint64): wire type 0 only. */
static inline int ph_pbs_scalar(ph_pbs *c, unsigned wt, uint64_t *v)
{
    return wt == 0 ? ph_pbs_varint(c, v) : -1;
}

/* Skip the value of an unknown field; groups (3, 4) and wire types 6, 7
 * are refused. */
static inline int ph_pbs_skip(ph_pbs *c, unsigned wt)
{
    uint64_t v;
    ph_pbs in;
    size_t fixed = wt == 1 ? 8 : 4;
    switch (wt) {
    case 0:
        return ph_pbs_varint(c, &v);
    case 2:
        return ph_pbs_bytes(c, wt, &in);
    case 1:
    case 5:
        if ((size_t)(c->end - c->p) < fixed)
            return -1;
        c->p += fixed;
        return 0;
    default:
        return -1;
    }
}

/* The fields of the message in c, each given to take(msg, c, field, wt):
 * it reads the value of a field it knows and returns 0 (-1: refused), or
 * returns 1 for one it does not know, which is skipped. */
static inline int ph_pbs_fields(ph_pbs *c, void *msg,
                                int (*take)(void *msg, ph_pbs *c,
                                            uint64_t field, unsigned wt))
{
    uint64_t field;
    unsigned wt;
    while (c->p < c->end) {
        if (ph_pbs_key(c, &field, &wt) < 0)
            return -1;
        int rc = take(msg, c, field, wt);
        if (rc > 0)
            rc = ph_pbs_skip(c, wt);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* n scalar varint fields numbered 1 .. n (ph_pbs_scalars) */
typedef struct ph_pbs_row {
    uint64_t *v;
    size_t n;
} ph_pbs_row;

static inline int ph_pbs_take_row(void *msg, ph_pbs *c, uint64_t field,
                                  unsigned wt)
{
    ph_pbs_row *r = msg;
    return field >= 1 && field <= r->n ? ph_pbs_scalar(c, wt, &r->v[field - 1])
                                       : 1;
}

/* A nested message (wire type wt) of n scalar varint fields numbered
 * 1 .. n, into v[0 .. n), zeroed first; other fields skipped. */
static inline int ph_pbs_scalars(ph_pbs *c, unsigned wt, uint64_t *v,
                                 size_t n)
{
    ph_pbs in;
    ph_pbs_row r = {v, n};
    for (size_t k = 0; k < n; k++)
        v[k] = 0;
    if (ph_pbs_bytes(c, wt, &in) < 0)
        return -1;
    return ph_pbs_fields(&in, &r, ph_pbs_take_row);
}

/* Room for need items of size bytes in *a, which holds *cap. */
static inline void *ph_pbs_grow(void *a, size_t *cap, size_t need,
                                size_t size)
{
    if (need <= *cap)
        return a;
    *cap = need > 2 * *cap ? need : 2 * *cap;
    return ph_xrealloc(a, *cap * size);
}

/* The values of a repeated varint field (wire type 0: one; 2: packed)
 * added to *v, of *n (room *cap). */
static inline int ph_pbs_numbers(ph_pbs *c, unsigned wt, uint64_t **v,
                                 size_t *n, size_t *cap)
{
    ph_pbs in;
    uint64_t x;
    if (wt == 0) {
        if (ph_pbs_varint(c, &x) < 0)
            return -1;
        *v = ph_pbs_grow(*v, cap, *n + 1, sizeof **v);
        (*v)[(*n)++] = x;
        return 0;
    }
    if (ph_pbs_bytes(c, wt, &in) < 0)
        return -1;
    /* at most a value a byte; locals, since the values and their count
     * are both unsigned longs to the compiler (they could alias) */
    uint64_t *to = *v = ph_pbs_grow(*v, cap, *n + (size_t)(in.end - in.p),
                                    sizeof **v);
    size_t k = *n;
    while (in.p < in.end) {
        if (*in.p < 0x80) {        /* most ids and values: one byte */
            to[k++] = *in.p++;
            continue;
        }
        if (ph_pbs_varint(&in, &x) < 0)
            return -1;
        to[k++] = x;
    }
    *n = k;
    return 0;
}

#endif /* PH_PB_SCAN_H */
