/* fuzz_native.c -- libFuzzer entry for the native experiment reader
 * (runtime/FORMAT.md): the bytes go through an in-memory ph_input and the
 * registry's descriptor; a profile that reads is aggregated and flattened,
 * then freed.  Paths in MAPS chunks are opened as the importer would (ELF
 * and DWARF of local files), so a seed from profhub record also fuzzes the
 * symbol lookups.  Chunk CRCs are recomputed on a copy before reading,
 * so mutations reach the chunk parsers instead of stopping at the
 * checksum.  Any crash found here becomes a unit test case in
 * tests/unit/native_test.c. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ir/format.h"
#include "runtime/expfmt.h"

/* Give every whole chunk of d a matching CRC. */
static void fix_crcs(unsigned char *d, size_t size)
{
    size_t off;

    if (size < PH_EXP_HEADER_FIXED)
        return;
    off = ph_get32(d + 12);
    while (off < size && size - off >= PH_CHUNK_HEADER) {
        uint32_t len = ph_get32(d + off + 4);

        if (len > size - off - PH_CHUNK_HEADER)
            break;
        ph_put32(d + off + 8, (uint32_t)crc32(crc32(0L, Z_NULL, 0),
                                              d + off + PH_CHUNK_HEADER,
                                              len));
        off += PH_CHUNK_HEADER + len;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ph_format *f = ph_importer_find("native");
    unsigned char *copy = ph_xmalloc(size ? size : 1);
    ph_input *in;
    ph_profile *p = ph_profile_new();

    memcpy(copy, data, size);
    fix_crcs(copy, size);
    in = ph_input_memory(copy, size, "fuzz.phx");
    if (f && f->sniff)
        (void)f->sniff(data, size);
    if (f && f->read(in, p) == 0) {
        (void)ph_totals(p, PH_ALL_PARTS);
        ph_profile_flatten(p);
    }
    ph_profile_free(p);
    ph_input_close(in);
    free(copy);
    return 0;
}
