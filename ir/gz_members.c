/* gz_members.c -- the header of profhub's gzip members (gz_members.h). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "ir/gz_members.h"

/* ID1 ID2, deflate, FLG with FEXTRA only, MTIME 0, XFL 4 (fastest), OS
 * 255 (unknown), XLEN 8; the subfield "PH" of 4 bytes: the size. */
static const unsigned char head[PH_GZ_HEAD - 4] = {
    0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 4, 255, 8, 0, 'P', 'H', 4, 0,
};

void ph_gz_member_head(unsigned char *h, size_t size)
{
    memcpy(h, head, sizeof head);
    for (int i = 0; i < 4; i++)
        h[sizeof head + i] = (unsigned char)(size >> (8 * i));
}

size_t ph_gz_member_size(const unsigned char *d, size_t len)
{
    size_t size = 0;
    if (len < PH_GZ_HEAD + PH_GZ_TAIL ||
        memcmp(d, head, 8) || memcmp(d + 10, head + 10, sizeof head - 10))
        return 0;
    for (int i = 0; i < 4; i++)
        size |= (size_t)d[sizeof head + i] << (8 * i);
    return size >= PH_GZ_HEAD + PH_GZ_TAIL && size <= len ? size : 0;
}
