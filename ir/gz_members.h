/* gz_members.h -- the gzip members profhub writes (ir/output.c): each
 * holds a MiB of the output at most and names its own size in an extra
 * field (subfield "PH", as BGZF's "BC" does), so that a reader finds every
 * member without inflating the one before and inflates them side by side
 * (ir/input.c).  Other readers skip the field (RFC 1952).  Internal: not
 * installed.
 */
#ifndef PH_GZ_MEMBERS_H
#define PH_GZ_MEMBERS_H

#include <stddef.h>
#include <stdint.h>

/* The header's bytes, the trailer's (CRC-32, size inflated). */
#define PH_GZ_HEAD 20
#define PH_GZ_TAIL 8

/* The header of a member of `size` bytes in all (header, deflate data,
 * trailer) into h (PH_GZ_HEAD bytes). */
void ph_gz_member_head(unsigned char *h, size_t size);

/* The trailer of a member whose n bytes inflated have CRC-32 crc into t
 * (PH_GZ_TAIL bytes). */
void ph_gz_member_tail(unsigned char *t, uint32_t crc, size_t n);

/* The size in all of the member whose header starts d (len bytes on): 0
 * when it is not one of ours or runs past the end. */
size_t ph_gz_member_size(const unsigned char *d, size_t len);

/* The size inflated that the trailer of the member of `size` bytes at d
 * says (modulo 2^32, as gzip's). */
size_t ph_gz_member_inflated(const unsigned char *d, size_t size);

#endif /* PH_GZ_MEMBERS_H */
