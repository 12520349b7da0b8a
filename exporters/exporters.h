/* exporters.h -- the write side of every format, for
 * exporters/exporter_registry.c only.  Each format module exports exactly ph_<name>_write. */
#ifndef PH_EXPORTERS_H
#define PH_EXPORTERS_H

#include "ir/format.h"

#define PH_DECLARE_EXPORTER(name)                                        \
    int ph_##name##_write(const ph_profile *p, ph_output *out)

/* One line per format, in registry order. */

PH_DECLARE_EXPORTER(callgrind);
PH_DECLARE_EXPORTER(cachegrind);
PH_DECLARE_EXPORTER(pprof);
PH_DECLARE_EXPORTER(drcctprof);
PH_DECLARE_EXPORTER(folded);
PH_DECLARE_EXPORTER(speedscope);
PH_DECLARE_EXPORTER(dot);
PH_DECLARE_EXPORTER(svg);

#endif /* PH_EXPORTERS_H */
