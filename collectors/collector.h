/* collector.h -- the descriptor a collector plugin exports, and the
 * services the runtime (runtime/) offers it inside the target.  Shared by
 * the plugins, the preloaded runtime and profhub's loader; no IR here.
 * A plugin exports exactly one symbol, ph_collector_entry, returning a
 * const descriptor whose abi must equal PH_COLLECTOR_ABI. */
#ifndef PH_COLLECTOR_H
#define PH_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump when the layout of ph_collector or ph_rt_api changes. */
#define PH_COLLECTOR_ABI 1

/* Name of the one symbol a plugin exports. */
#define PH_COLLECTOR_ENTRY "ph_collector_entry"

/* How a collector's records are encoded in a blob (runtime/FORMAT.md). */
enum {
    PH_REC_PC = 1,     /* one word per sample: the interrupted PC */
    PH_REC_STACK = 2,  /* word n, then n PCs leaf first; n = 0: placeholder */
};

/* Collector flags. */
enum {
    /* The runtime arms a per-thread CPU-time timer at `rate` Hz and calls
     * sample() from its signal handler.  Without it the collector raises
     * its own events (hwc: PAPI overflow) and calls rt->append. */
    PH_COLL_TIMER = 1u << 0,
};

/* Longest record a collector may produce, in 64-bit words. */
#define PH_REC_MAX_WORDS 129

typedef struct ph_collector_param {
    const char *name;     /* "rate" */
    const char *def;      /* default value as text */
    const char *help;     /* one line */
} ph_collector_param;

typedef struct ph_collector_metric {
    const char *name;     /* "cpu" */
    const char *unit;     /* "nanoseconds" */
    const char *help;
} ph_collector_metric;

/* What the runtime gives a collector inside the target process. */
typedef struct ph_rt_api {
    unsigned abi;
    /* Value of a parameter (the default when not given); never NULL for a
     * declared parameter.  Normal context only. */
    const char *(*param)(const char *name);
    /* Append one record of n words (n <= PH_REC_MAX_WORDS) to the calling
     * thread's buffer.  Async-signal-safe. */
    void (*append)(const uint64_t *words, size_t n);
    /* Sampling interval in nanoseconds (timer collectors) or the event
     * threshold (hwc); written to the experiment as the sample weight. */
    uint64_t interval;
} ph_rt_api;

/* Parameter lookup used on the host side (profhub, before the run). */
typedef const char *(*ph_param_fn)(void *ctx, const char *name);

typedef struct ph_collector {
    unsigned abi;                     /* PH_COLLECTOR_ABI */
    const char *name;                 /* "pcsamp": also the plugin file name */
    const char *description;          /* one line */
    const ph_collector_param *params;
    size_t nparams;
    const ph_collector_metric *metrics;
    size_t nmetrics;
    unsigned flags;                   /* PH_COLL_* */
    unsigned encoding;                /* PH_REC_* */
    /* Host side, in profhub before the program starts: check the
     * parameters and the machine.  0, or -1 with a message in err (no
     * "profhub:" prefix).  May be NULL. */
    int (*check)(ph_param_fn param, void *ctx, char *err, size_t errsize);
    /* Inside the target, normal context.  start: once per process (and
     * again in a forked child); thread_start/thread_stop: in each thread,
     * main thread included.  -1 from start disables recording.  Any may
     * be NULL. */
    int (*start)(const ph_rt_api *rt);
    void (*thread_start)(const ph_rt_api *rt);
    void (*thread_stop)(const ph_rt_api *rt);
    void (*stop)(const ph_rt_api *rt);
    /* Signal context (PH_COLL_TIMER only): fill at most max words for the
     * sample whose interrupted context is ucontext; return the count (0:
     * no record).  Async-signal-safe: no malloc, no stdio, no locks. */
    size_t (*sample)(void *ucontext, uint64_t *words, size_t max);
} ph_collector;

typedef const ph_collector *(*ph_collector_entry_fn)(void);

/* A plugin file defines its entry with PH_COLLECTOR_DEFINE(desc).  Built
 * into profhub's static table (PH_COLLECTOR_BUILTIN defined), the same
 * source defines ph_builtin_<name>() instead. */
#ifdef PH_COLLECTOR_BUILTIN
#define PH_COLLECTOR_DEFINE(cname, desc)                                 \
    const ph_collector *ph_builtin_##cname(void);                        \
    const ph_collector *ph_builtin_##cname(void) { return &(desc); }
#else
#define PH_COLLECTOR_DEFINE(cname, desc)                                 \
    __attribute__((visibility("default")))                               \
    const ph_collector *ph_collector_entry(void);                        \
    const ph_collector *ph_collector_entry(void) { return &(desc); }
#endif

#ifdef __cplusplus
}
#endif
#endif /* PH_COLLECTOR_H */
