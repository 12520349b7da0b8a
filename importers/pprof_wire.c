/* importers/pprof_wire.c -- work in progress (proto). */
#include "config.h"

typedef int ph_placeholder_pprof_wire;
