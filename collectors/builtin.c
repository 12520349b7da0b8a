/* builtin.c -- the static table of built-in collectors (elfutils keeps
 * its backends in a table, not behind dlopen): the plugin sources built
 * with PH_COLLECTOR_BUILTIN.  profhub lists and checks collectors from
 * here when no plugin file is found; the unit tests use it too. */
#include "config.h"

#include <string.h>

#include "collectors/loader.h"

const ph_collector *ph_builtin_pcsamp(void);
const ph_collector *ph_builtin_usertime(void);
const ph_collector *ph_builtin_hwc(void);

static const ph_collector *(*const table[])(void) = {
    ph_builtin_pcsamp,
    ph_builtin_usertime,
    ph_builtin_hwc,
};

size_t ph_collector_builtin_count(void)
{
    return sizeof table / sizeof table[0];
}

const ph_collector *ph_collector_builtin_at(size_t i)
{
    return i < ph_collector_builtin_count() ? table[i]() : NULL;
}

const ph_collector *ph_collector_builtin_find(const char *name)
{
    for (size_t i = 0; i < ph_collector_builtin_count(); i++)
        if (strcmp(table[i]()->name, name) == 0)
            return table[i]();
    return NULL;
}
