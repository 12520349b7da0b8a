/* work in progress */
#ifndef PH_PPROF_STACKS_H
#define PH_PPROF_STACKS_H
#endif
