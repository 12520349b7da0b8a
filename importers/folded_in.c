/* importers/folded_in.c -- work in progress (proto). */
#include "config.h"

typedef int ph_placeholder_folded_in;
