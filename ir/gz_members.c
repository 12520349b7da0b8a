/* gz_members.c -- the header and trailer of profhub's gzip members
 * (gz_members.h). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "ir/gz_members.h"

/* ID1 ID2, deflate, FLG with FEXTRA only, MTIME 0, XFL 4 (fastest), OS
 * 255 (unknown), XLEN 8; the subfield "PH" of 4 bytes: the size. */
static const unsigned char head[PH_GZ_HEAD - 4] = {
    0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 4, 255, 8, 0, 'P', 'H', 4, 0,
};

/* n in 4 bytes at d, least significant first. */
static void put_le32(unsigned char *d, uint64_t n)
{
    for (int i = 0; i < 4; i++)
        d[i] = (unsigned char)(n >> (8 * i));
}

static size_t get_le32(const unsigned char *d)
{
    return (size_t)d[0] | (size_t)d[1] << 8 | (size_t)d[2] << 16 |
           (size_t)d[3] << 24;
}

void ph_gz_member_head(unsigned char *h, size_t size)
{
    memcpy(h, head, sizeof head);
    put_le32(h + sizeof head, size);
}

void ph_gz_member_tail(unsigned char *t, uint32_t crc, size_t n)
{
    put_le32(t, crc);
    put_le32(t + 4, n);
}

size_t ph_gz_member_inflated(const unsigned char *d, size_t size)
{
    return get_le32(d + size - 4);
}

size_t ph_gz_member_size(const unsigned char *d, size_t len)
{
    if (len < PH_GZ_HEAD + PH_GZ_TAIL ||
        memcmp(d, head, 8) || memcmp(d + 10, head + 10, sizeof head - 10))
        return 0;
    size_t size = get_le32(d + sizeof head);
    return size >= PH_GZ_HEAD + PH_GZ_TAIL && size <= len ? size : 0;
}
