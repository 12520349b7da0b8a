/* fuzz_native.c -- libFuzzer entry for the native experiment reader
 * (runtime/FORMAT.md): the bytes go through an in-memory ph_input and the
 * registry's descriptor; a profile that reads is aggregated and flattened,
 * then freed.  Paths in MAPS chunks are opened as the importer would (ELF
 * and DWARF of local files), so a seed from profhub record also fuzzes the
 * symbol lookups.  Any crash found here becomes a unit test case in
 * tests/unit/native_test.c. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "ir/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ph_format *f = ph_importer_find("native");
    ph_input *in = ph_input_memory(data, size, "fuzz.phx");
    ph_profile *p = ph_profile_new();

    if (f && f->sniff)
        (void)f->sniff(data, size);
    if (f && f->read(in, p) == 0) {
        (void)ph_totals(p, PH_ALL_PARTS);
        ph_profile_flatten(p);
    }
    ph_profile_free(p);
    ph_input_close(in);
    return 0;
}
