/* hwc.c -- the hwc collector: hardware-counter overflow sampling through
 * PAPI.  Every `threshold` occurrences of `event` PAPI interrupts the
 * thread and hands us the PC, recorded as one word.  The check run by
 * profhub before the program starts refuses machines whose PAPI reports
 * no counters (virtual machines often have none), so an experiment is
 * never empty for that reason.
 * Inside the target: start/thread_start/thread_stop in normal context;
 * on_overflow runs in PAPI's signal handler: no malloc, no stdio, no
 * locks.  Built into profhub's static table (PH_COLLECTOR_BUILTIN) only
 * the descriptor is kept, so profhub itself does not load PAPI. */
#include "config.h"

#ifndef PH_COLLECTOR_BUILTIN
#include <papi.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/collector.h"
#include "collectors/coll_priv.h"

static const ph_collector_param params[] = {
    { "event", "PAPI_TOT_CYC", "PAPI event to count (see papi_avail)" },
    { "threshold", "20000000", "events between two samples" },
};

static const ph_collector_metric metrics[] = {
    { "overflows", "count", "counter overflows whose PC fell here" },
    { "events", "count", "events: overflows x threshold" },
};

#ifndef PH_COLLECTOR_BUILTIN
static const ph_rt_api *api;
static __thread int evset = PAPI_NULL;

static int parse_threshold(const char *s, long long *out)
{
    long long v = 0;

    if (!s || !*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 1000000000000LL)
            return -1;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return v > 0 ? 0 : -1;
}

static int check(ph_param_fn param, void *ctx, char *err, size_t errsize)
{
    const char *ev = param(ctx, "event");
    const char *th = param(ctx, "threshold");
    long long t;
    int rc, n, code;

    if (parse_threshold(th, &t) != 0) {
        snprintf(err, errsize, "threshold must be a positive number of "
                 "events, got \"%s\"", th ? th : "");
        return -1;
    }
    rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) {
        snprintf(err, errsize, "PAPI_library_init failed: %s",
                 rc > 0 ? "version mismatch" : PAPI_strerror(rc));
        return -1;
    }
    n = PAPI_num_cmp_hwctrs(0);
    if (n <= 0) {
        snprintf(err, errsize, "PAPI reports no hardware counters on this "
                 "machine (PAPI_num_cmp_hwctrs(0) = %d)", n);
        return -1;
    }
    if (PAPI_event_name_to_code(ev, &code) != PAPI_OK ||
        PAPI_query_event(code) != PAPI_OK) {
        snprintf(err, errsize, "event \"%s\" is not available here "
                 "(see papi_avail)", ev ? ev : "");
        return -1;
    }
    return 0;
}

static void on_overflow(int set, void *address, long long vector,
                        void *context)
{
    uint64_t pc = (uint64_t)(uintptr_t)address;

    (void)set;
    (void)vector;
    (void)context;
    if (api && pc)
        api->append(&pc, 1);
}

static unsigned long thread_id(void)
{
    return (unsigned long)pthread_self();
}

static int start(const ph_rt_api *rt)
{
    api = rt;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return -1;
    if (PAPI_thread_init(thread_id) != PAPI_OK)
        return -1;
    return 0;
}

static void thread_start(const ph_rt_api *rt)
{
    int code;
    long long t;

    if (parse_threshold(rt->param("threshold"), &t) != 0 ||
        PAPI_event_name_to_code(rt->param("event"), &code) != PAPI_OK)
        return;
    evset = PAPI_NULL;
    if (PAPI_create_eventset(&evset) != PAPI_OK)
        return;
    if (PAPI_add_event(evset, code) != PAPI_OK ||
        PAPI_overflow(evset, code, (int)t, 0, on_overflow) != PAPI_OK ||
        PAPI_start(evset) != PAPI_OK) {
        PAPI_cleanup_eventset(evset);
        PAPI_destroy_eventset(&evset);
        evset = PAPI_NULL;
    }
}

static void thread_stop(const ph_rt_api *rt)
{
    long long v;

    (void)rt;
    if (evset == PAPI_NULL)
        return;
    PAPI_stop(evset, &v);
    PAPI_cleanup_eventset(evset);
    PAPI_destroy_eventset(&evset);
    evset = PAPI_NULL;
}

static void stop(const ph_rt_api *rt)
{
    thread_stop(rt);
}

#endif /* PH_COLLECTOR_BUILTIN */

static const ph_collector desc = {
    .abi = PH_COLLECTOR_ABI,
    .name = "hwc",
    .description = "hardware counter overflow sampling (PAPI)",
    .params = params,
    .nparams = sizeof params / sizeof params[0],
    .metrics = metrics,
    .nmetrics = sizeof metrics / sizeof metrics[0],
    .flags = 0,
    .encoding = PH_REC_PC,
#ifndef PH_COLLECTOR_BUILTIN
    .check = check,
    .start = start,
    .thread_start = thread_start,
    .thread_stop = thread_stop,
    .stop = stop,
#endif
};

PH_COLLECTOR_DEFINE(hwc, desc)
