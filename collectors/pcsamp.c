/* pcsamp.c -- the pcsamp collector: program-counter sampling.  The
 * runtime's per-thread CPU-time timer fires `rate` times per second of
 * thread CPU time; each sample records the interrupted PC (one word).
 * Built as the plugin collectors/pcsamp.la and into profhub's static
 * table.  sample() runs inside the target in the signal handler: no
 * malloc, no stdio, no locks. */
#include "config.h"

#include <stdlib.h>
#include <ucontext.h>

#include "collectors/collector.h"
#include "collectors/coll_priv.h"

static const ph_collector_param params[] = {
    { "rate", "200", "samples per second of CPU time per thread (1-100000)" },
};

static const ph_collector_metric metrics[] = {
    { "samples", "count", "timer samples whose PC fell here" },
    { "cpu", "nanoseconds", "CPU time: samples x sampling interval" },
};

static int check(ph_param_fn param, void *ctx, char *err, size_t errsize)
{
    return ph_coll_check_rate(param(ctx, "rate"), err, errsize);
}

static size_t sample(void *uc, uint64_t *words, size_t max)
{
    uint64_t pc = ph_coll_context_pc(uc);

    if (max < 1 || pc == 0)
        return 0;
    words[0] = pc;
    return 1;
}

static const ph_collector desc = {
    .abi = PH_COLLECTOR_ABI,
    .name = "pcsamp",
    .description = "program counter sampling on per-thread CPU-time timers",
    .params = params,
    .nparams = sizeof params / sizeof params[0],
    .metrics = metrics,
    .nmetrics = sizeof metrics / sizeof metrics[0],
    .flags = PH_COLL_TIMER,
    .encoding = PH_REC_PC,
    .check = check,
    .sample = sample,
};

PH_COLLECTOR_DEFINE(pcsamp, desc)
