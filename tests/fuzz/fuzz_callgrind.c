/* fuzz_callgrind.c -- libFuzzer entry for the callgrind reader: the bytes
 * go through an in-memory ph_input (no path, so no sibling files) and the
 * registry's descriptor; a profile that reads is summed (totals, self and
 * inclusive per function), then freed.  Any crash found here becomes a
 * tests/bad/callgrind case. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "ir/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ph_format *f = ph_importer_find("callgrind");
    ph_input *in = ph_input_memory(data, size, "fuzz.callgrind");
    ph_profile *p = ph_profile_new();

    if (f && f->sniff)
        (void)f->sniff(data, size);
    if (f && f->read(in, p) == 0) {
        (void)ph_totals(p, PH_ALL_PARTS);
        for (size_t i = 0; i < ph_func_count(p); i++) {
            (void)ph_func_self(p, ph_func_at(p, i), PH_ALL_PARTS);
            (void)ph_func_incl(p, ph_func_at(p, i), PH_ALL_PARTS);
        }
    }
    ph_profile_free(p);
    ph_input_close(in);
    return 0;
}
