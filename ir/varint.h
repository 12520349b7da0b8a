/* varint.h -- LEB128 varints and zigzag for signed values: the encoding
 * of the row and call records (ir/rows.c, ir/calls.c) and of protobuf's
 * wire format, which the protobuf writers (proto/pb_out.c) share.
 * Internal: not installed.
 */
#ifndef PH_VARINT_H
#define PH_VARINT_H

#include <stdint.h>

static inline uint64_t ph_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t ph_unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline unsigned char *ph_put_varint(unsigned char *d, uint64_t v)
{
    while (v >= 0x80) {
        *d++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *d++ = (unsigned char)v;
    return d;
}

static inline const unsigned char *ph_get_varint(const unsigned char *s,
                                                 const unsigned char *end,
                                                 uint64_t *v)
{
    uint64_t r = 0;
    unsigned shift = 0;
    if (s < end && *s < 0x80) {   /* the common one-byte case */
        *v = *s;
        return s + 1;
    }
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

#endif /* PH_VARINT_H */
