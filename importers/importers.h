/* importers.h -- the read side of every format, for
 * importers/importer_registry.c only.  Each format module exports exactly ph_<name>_sniff and
 * ph_<name>_read (see ir/format.h for their contracts). */
#ifndef PH_IMPORTERS_H
#define PH_IMPORTERS_H

#include "ir/format.h"

#define PH_DECLARE_IMPORTER(name)                                        \
    int ph_##name##_sniff(const unsigned char *data, size_t len);        \
    int ph_##name##_read(ph_input *in, ph_profile *p)

/* One line per format, in registry order (ties in sniffing go to the
 * earlier one). */

PH_DECLARE_IMPORTER(callgrind);
PH_DECLARE_IMPORTER(cachegrind);
PH_DECLARE_IMPORTER(gmon);
int ph_gmon_read_many(ph_input **ins, size_t n, ph_profile *p); /* gprof -s */
PH_DECLARE_IMPORTER(pprof);
PH_DECLARE_IMPORTER(drcctprof);
PH_DECLARE_IMPORTER(folded);
PH_DECLARE_IMPORTER(native);

#endif /* PH_IMPORTERS_H */
