/* fuzz_format.c -- one libFuzzer driver for every importer, compiled once
 * per format with -DPH_FUZZ_FORMAT='"name"' (tests/fuzz/local.mk).  The
 * bytes go through an in-memory ph_input (no path, so no sibling files)
 * and the registry's descriptor (sniff, then read); a profile that reads
 * is summed (totals, self and inclusive per function), both views are
 * built, and it is freed.  Two formats get a little more (see prepare/analyse):
 *   native: chunk CRCs are recomputed on a copy, so mutations reach the
 *           chunk parsers instead of stopping at the checksum;
 *   gmon:   PH_FUZZ_GMON_EXE=prog maps addresses onto a real program's
 *           symbols, and a profile that reads goes through gprof's
 *           arithmetic (analysis/gprof_prop.c).
 * Any crash found here becomes a tests/bad/<format> case. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "analysis/analysis.h"
#include "analysis/gprof.h"
#include "ir/format.h"
#include "runtime/expfmt.h"

#ifndef PH_FUZZ_FORMAT
#error "compile with -DPH_FUZZ_FORMAT='\"name\"'"
#endif

/* Give every whole chunk of a native experiment d a matching CRC. */
static void fix_native_crcs(unsigned char *d, size_t size)
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

/* Adjust the private copy of the input before it is read. */
static void prepare(unsigned char *copy, size_t size, ph_input *in)
{
    const char *exe;

    if (strcmp(PH_FUZZ_FORMAT, "native") == 0)
        fix_native_crcs(copy, size);
    if (strcmp(PH_FUZZ_FORMAT, "gmon") == 0
        && (exe = getenv("PH_FUZZ_GMON_EXE")) != NULL && *exe)
        ph_input_set_exe(in, exe);
    /* without an executable, reach the model by address names */
    ph_input_set_raw_addresses(in, 1);
}

/* Run what a report would run on a profile that read. */
static void analyse(ph_profile *p)
{
    (void)ph_totals(p, PH_ALL_PARTS);
    for (size_t i = 0; i < ph_func_count(p); i++) {
        (void)ph_func_self(p, ph_func_at(p, i), PH_ALL_PARTS);
        (void)ph_func_incl(p, ph_func_at(p, i), PH_ALL_PARTS);
    }
    if (strcmp(PH_FUZZ_FORMAT, "gmon") == 0)
        ph_gprof_free(ph_gprof_compute(p, NULL, PH_ALL_PARTS));
    (void)ph_flat_of(p);      /* both views, as writers build them */
    (void)ph_stacks_of(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ph_format *f = ph_importer_find(PH_FUZZ_FORMAT);
    unsigned char *copy = ph_xmalloc(size ? size : 1);
    ph_input *in;
    ph_profile *p;

    if (!f)
        abort();        /* a target for a format that is not registered */
    memcpy(copy, data, size);
    in = ph_input_memory(copy, size, "fuzz." PH_FUZZ_FORMAT);
    prepare(copy, size, in);
    if (f->sniff)
        (void)f->sniff(copy, size);
    p = ph_profile_new();
    if (f->read(in, p) == 0)
        analyse(p);
    ph_profile_free(p);
    ph_input_close(in);
    free(copy);
    return 0;
}
