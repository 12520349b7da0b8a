/* bad_plugin.c -- collector plugins that must be refused, one per macro,
 * for tests/e2e/record_plugins.sh (gcc -shared -fPIC -DBAD_x):
 *   BAD_NOENTRY   no ph_collector_entry, a constructor that creates the
 *                 file $PH_TEST_MARK: must never be loaded
 *   BAD_NULL      the entry returns NULL
 *   BAD_ABI       ABI 99
 *   BAD_NAME      the name pointer is garbage
 *   BAD_COUNT     2^40 parameters
 *   BAD_PARAMS    a parameter table outside the plugin
 *   BAD_LONG      a description without a NUL in its first 4096 bytes
 *   BAD_CODE      a sample function pointer into the data
 * NAME (-DNAME=\"x\") is the collector's name, the file's base name. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "collectors/collector.h"

#ifdef BAD_NOENTRY
__attribute__((constructor)) static void mark(void)
{
    const char *f = getenv("PH_TEST_MARK");

    if (f)
        close(open(f, O_WRONLY | O_CREAT, 0644));
}
#else

static const char long_text[4096] = { [0 ... 4095] = 'x' };
static const ph_collector_param params[] = {
    { "rate", "100", "help" },
};

static size_t sample(void *uc, uint64_t *w, size_t max)
{
    (void)uc;
    (void)w;
    (void)max;
    return 0;
}

static const ph_collector desc = {
#ifdef BAD_ABI
    .abi = 99,
#else
    .abi = PH_COLLECTOR_ABI,
#endif
#ifdef BAD_NAME
    .name = (const char *)(uintptr_t)0x10,
#else
    .name = NAME,
#endif
#ifdef BAD_LONG
    .description = long_text,
#else
    .description = "a bad plugin",
#endif
#if defined(BAD_COUNT)
    .params = params,
    .nparams = (size_t)1 << 40,
#elif defined(BAD_PARAMS)
    .params = (const ph_collector_param *)(uintptr_t)0x1000,
    .nparams = 1,
#else
    .params = params,
    .nparams = 1,
#endif
    .flags = PH_COLL_TIMER,
    .encoding = PH_REC_PC,
#ifdef BAD_CODE
    .sample = (size_t (*)(void *, uint64_t *, size_t))(uintptr_t)long_text,
#else
    .sample = sample,
#endif
};

__attribute__((visibility("default"))) const ph_collector *
ph_collector_entry(void);
const ph_collector *ph_collector_entry(void)
{
#ifdef BAD_NULL
    return NULL;
#else
    return &desc;
#endif
}
#endif
