/* work in progress */
#ifndef PH_PPROF_WIRE_H
#define PH_PPROF_WIRE_H
#endif
