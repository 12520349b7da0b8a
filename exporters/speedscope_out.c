/* exporters/speedscope_out.c -- work in progress (proto). */
#include "config.h"

typedef int ph_placeholder_speedscope_out;
