/* usertime.c -- the usertime collector: call-stack sampling through
 * libunwind (UNW_LOCAL_ONLY).  Each sample unwinds the interrupted
 * context (unw_init_local2 with UNW_INIT_SIGNAL_FRAME) and records the
 * PCs, leaf first, up to PH_STACK_MAX_DEPTH frames.  When the thread did
 * not run since its last sample the runtime writes a placeholder instead
 * and the importer repeats the last full stack.
 * sample() runs inside the target in the signal handler: no malloc, no
 * stdio, no locks.  libunwind's per-thread cache is chosen at start and
 * warmed in every thread so that the handler only reads it.  In
 * profhub's static table (PH_COLLECTOR_BUILTIN) only the descriptor and
 * the parameter check are kept: profhub does not load libunwind. */
#include "config.h"

#ifndef PH_COLLECTOR_BUILTIN
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#endif
#include <stdlib.h>

#include "collectors/collector.h"
#include "collectors/coll_priv.h"
#include "runtime/expfmt.h"

static const ph_collector_param params[] = {
    { "rate", "100", "stack samples per second of CPU time per thread "
      "(1-100000)" },
};

static const ph_collector_metric metrics[] = {
    { "samples", "count", "stack samples (exclusive at the leaf, "
      "inclusive along the stack)" },
    { "cpu", "nanoseconds", "CPU time: samples x sampling interval" },
};

static int check(ph_param_fn param, void *ctx, char *err, size_t errsize)
{
    return ph_coll_check_rate(param(ctx, "rate"), err, errsize);
}

#ifndef PH_COLLECTOR_BUILTIN
/* Unwind from the current frame once: fills libunwind's caches for this
 * thread outside any handler. */
static void warm(const ph_rt_api *rt)
{
    unw_context_t ctx;
    unw_cursor_t cur;
    int n = 0;

    (void)rt;
    if (unw_getcontext(&ctx) != 0 || unw_init_local(&cur, &ctx) != 0)
        return;
    while (n++ < PH_STACK_MAX_DEPTH && unw_step(&cur) > 0)
        ;
}

static int start(const ph_rt_api *rt)
{
    unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
    warm(rt);
    return 0;
}

static size_t sample(void *uc, uint64_t *words, size_t max)
{
    unw_cursor_t cur;
    size_t n = 0;

    if (max < 2)
        return 0;
    if (unw_init_local2(&cur, (unw_context_t *)uc,
                        UNW_INIT_SIGNAL_FRAME) != 0) {
        uint64_t pc = ph_coll_context_pc(uc);

        if (!pc)
            return 0;
        words[0] = 1;
        words[1] = pc;
        return 2;
    }
    do {
        unw_word_t ip;

        if (unw_get_reg(&cur, UNW_REG_IP, &ip) != 0 || ip == 0)
            break;
        words[1 + n++] = (uint64_t)ip;
    } while (n + 1 < max && n < PH_STACK_MAX_DEPTH && unw_step(&cur) > 0);
    if (n == 0)
        return 0;
    words[0] = n;
    return n + 1;
}

#endif /* PH_COLLECTOR_BUILTIN */

static const ph_collector desc = {
    .abi = PH_COLLECTOR_ABI,
    .name = "usertime",
    .description = "call-stack sampling (libunwind) on per-thread CPU-time "
                   "timers",
    .params = params,
    .nparams = sizeof params / sizeof params[0],
    .metrics = metrics,
    .nmetrics = sizeof metrics / sizeof metrics[0],
    .flags = PH_COLL_TIMER,
    .encoding = PH_REC_STACK,
    .check = check,
#ifndef PH_COLLECTOR_BUILTIN
    .start = start,
    .thread_start = warm,
    .sample = sample,
#endif
};

PH_COLLECTOR_DEFINE(usertime, desc)
