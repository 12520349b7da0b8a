/* fuzz_gmon.c -- libFuzzer entry for the gmon.out reader: the bytes go
 * through an in-memory ph_input and the registry's descriptor.  Without
 * an executable the reader names functions by address; set
 * PH_FUZZ_GMON_EXE=samples/gmon/recursion-pie/prog to fuzz the mapping onto
 * real symbols too.  A profile that reads also goes through gprof's
 * arithmetic (analysis/gprof_prop.c), then is freed.  Any crash found here
 * becomes a tests/bad/gmon case. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/gprof.h"
#include "ir/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ph_format *f = ph_importer_find("gmon");
    ph_input *in = ph_input_memory(data, size, "fuzz.gmon");
    ph_profile *p = ph_profile_new();
    const char *exe = getenv("PH_FUZZ_GMON_EXE");

    if (exe)
        ph_input_set_exe(in, exe);
    if (f && f->sniff)
        (void)f->sniff(data, size);
    if (f && f->read(in, p) == 0) {
        ph_gprof *g = ph_gprof_compute(p, NULL, PH_ALL_PARTS);
        (void)ph_totals(p, PH_ALL_PARTS);
        ph_gprof_free(g);
    }
    ph_profile_free(p);
    ph_input_close(in);
    return 0;
}
