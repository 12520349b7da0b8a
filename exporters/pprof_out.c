/* exporters/pprof_out.c -- work in progress (proto). */
#include "config.h"

typedef int ph_placeholder_pprof_out;
