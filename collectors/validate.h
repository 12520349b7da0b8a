/* validate.h -- checking a plugin's collector descriptor before use
 * (collectors/validate.c); shared by profhub's loader and the runtime. */
#ifndef PH_VALIDATE_H
#define PH_VALIDATE_H

#include <stddef.h>

#include "collectors/collector.h"

/* 0 when descriptor c, returned by the plugin function at entry, is
 * usable: its ABI is PH_COLLECTOR_ABI and every pointer, string, count
 * and code pointer in it is inside the plugin's own loaded segments and
 * sane.  Otherwise -1 with the reason in err (no path: the caller adds
 * it).  Normal context only. */
int ph_collector_validate(const void *entry, const ph_collector *c,
                          char *err, size_t errsize);

#endif /* PH_VALIDATE_H */
