/* coll_priv.h -- small helpers shared by the collector sources (each
 * plugin compiles them in; static inline so a plugin exports nothing but
 * ph_collector_entry). */
#ifndef PH_COLL_PRIV_H
#define PH_COLL_PRIV_H

#include <stdio.h>
#include <stdint.h>
#include <ucontext.h>

/* PC of an interrupted context (x86-64 and aarch64); 0 when unknown.
 * Async-signal-safe. */
static inline uint64_t ph_coll_context_pc(void *ucv)
{
    ucontext_t *uc = ucv;

    if (!uc)
        return 0;
#if defined(__x86_64__)
    return (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uint64_t)uc->uc_mcontext.pc;
#else
    return 0;
#endif
}

/* Check a "rate" parameter: a decimal number of Hz in 1..100000. */
static inline int ph_coll_check_rate(const char *s, char *err,
                                     size_t errsize)
{
    uint64_t v = 0;
    const char *p = s;

    if (!p || !*p)
        goto bad;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || v > 100000)
            goto bad;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (v >= 1 && v <= 100000)
        return 0;
bad:
    snprintf(err, errsize, "rate must be a number of Hz from 1 to 100000, "
             "got \"%s\"", s ? s : "");
    return -1;
}

#endif /* PH_COLL_PRIV_H */
