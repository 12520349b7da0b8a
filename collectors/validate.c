/* validate.c -- checks a collector descriptor returned by a plugin before
 * anything reads through it: the ABI first, then every pointer (the
 * descriptor, its arrays, its strings, its functions) must lie inside the
 * plugin's own loaded segments, every string must end with a NUL inside
 * its segment and be of sane length, and counts, flags and the encoding
 * must have values this profhub knows.  A plugin built against another
 * header or returning garbage is refused with a reason, never printed or
 * called through.  Shared by profhub's loader and the preloaded runtime
 * (normal context only: dl_iterate_phdr takes the loader's lock).
 * Library code: never prints. */
#include "config.h"

#include <link.h>
#include <stdio.h>
#include <string.h>

#include "collectors/collector.h"
#include "collectors/validate.h"

#define MAX_SEGS 16
#define MAX_ITEMS 64       /* parameters or metrics */
#define MAX_NAME 64
#define MAX_TEXT 1024

typedef struct seg {
    uintptr_t lo, hi;      /* [lo, hi) */
    unsigned flags;        /* PF_R, PF_X */
} seg;

typedef struct object {
    uintptr_t probe;       /* an address inside the object */
    seg segs[MAX_SEGS];
    size_t nsegs;
} object;

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    object *o = arg;
    int hit = 0;

    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = (uintptr_t)info->dlpi_addr + ph->p_vaddr;

        if (ph->p_type == PT_LOAD && o->probe >= lo &&
            o->probe - lo < ph->p_memsz)
            hit = 1;
    }
    if (!hit)
        return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum && o->nsegs < MAX_SEGS;
         i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_R))
            continue;
        o->segs[o->nsegs].lo = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
        o->segs[o->nsegs].hi = o->segs[o->nsegs].lo + ph->p_memsz;
        o->segs[o->nsegs].flags = ph->p_flags;
        o->nsegs++;
    }
    return 1;
}

/* The readable segment holding [p, p + n), or NULL. */
static const seg *seg_of(const object *o, const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;

    for (size_t i = 0; i < o->nsegs; i++)
        if (a >= o->segs[i].lo && a < o->segs[i].hi &&
            n <= o->segs[i].hi - a)
            return &o->segs[i];
    return NULL;
}

/* A NUL-terminated string inside the object, shorter than max. */
static int string_ok(const object *o, const char *s, size_t max,
                     int name_only)
{
    const seg *sg = seg_of(o, s, 1);
    size_t room, len;

    if (!sg)
        return 0;
    room = (size_t)(sg->hi - (uintptr_t)s);
    if (room > max)
        room = max;
    len = strnlen(s, room);
    if (len == room)
        return 0;
    if (name_only) {
        if (len == 0)
            return 0;
        for (size_t i = 0; i < len; i++) {
            char c = s[i];

            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '_' || c == '-'))
                return 0;
        }
    }
    return 1;
}

static int code_ok(const object *o, const void *fn)
{
    const seg *sg;

    if (!fn)
        return 1;
    sg = seg_of(o, fn, 1);
    return sg && (sg->flags & PF_X);
}

#define BAD(...) (snprintf(err, errsize, __VA_ARGS__), -1)

int ph_collector_validate(const void *entry, const ph_collector *c,
                          char *err, size_t errsize)
{
    object o;

    memset(&o, 0, sizeof o);
    o.probe = (uintptr_t)entry;
    if (!dl_iterate_phdr(find_object, &o) || o.nsegs == 0)
        return BAD("%s is not inside a loaded object", PH_COLLECTOR_ENTRY);
    if (!c)
        return BAD("%s returned no descriptor", PH_COLLECTOR_ENTRY);
    if (!seg_of(&o, c, sizeof c->abi))
        return BAD("the descriptor (%p) is not inside the plugin",
                   (const void *)c);
    if (c->abi != PH_COLLECTOR_ABI)
        return BAD("collector ABI %u, this profhub needs %u", c->abi,
                   (unsigned)PH_COLLECTOR_ABI);
    if (!seg_of(&o, c, sizeof *c))
        return BAD("the descriptor (%zu bytes at %p) is not inside the "
                   "plugin", sizeof *c, (const void *)c);
    if (!string_ok(&o, c->name, MAX_NAME, 1))
        return BAD("the name is not a string of letters, digits, '_' or "
                   "'-' (at most %d) inside the plugin", MAX_NAME - 1);
    if (!string_ok(&o, c->description, MAX_TEXT, 0))
        return BAD("the description is not a NUL-terminated string of at "
                   "most %d bytes inside the plugin", MAX_TEXT - 1);
    if (c->nparams > MAX_ITEMS || c->nmetrics > MAX_ITEMS)
        return BAD("%zu parameters and %zu metrics (at most %d each)",
                   c->nparams, c->nmetrics, MAX_ITEMS);
    if (c->nparams && !seg_of(&o, c->params, c->nparams * sizeof *c->params))
        return BAD("the parameter table is not inside the plugin");
    for (size_t i = 0; i < c->nparams; i++)
        if (!string_ok(&o, c->params[i].name, MAX_NAME, 1) ||
            !string_ok(&o, c->params[i].def, MAX_TEXT, 0) ||
            !string_ok(&o, c->params[i].help, MAX_TEXT, 0))
            return BAD("parameter %zu: a name, default or help that is not "
                       "a string inside the plugin", i + 1);
    if (c->nmetrics &&
        !seg_of(&o, c->metrics, c->nmetrics * sizeof *c->metrics))
        return BAD("the metric table is not inside the plugin");
    for (size_t i = 0; i < c->nmetrics; i++)
        if (!string_ok(&o, c->metrics[i].name, MAX_NAME, 1) ||
            !string_ok(&o, c->metrics[i].unit, MAX_NAME, 0) ||
            !string_ok(&o, c->metrics[i].help, MAX_TEXT, 0))
            return BAD("metric %zu: a name, unit or help that is not a "
                       "string inside the plugin", i + 1);
    if (c->flags & ~(unsigned)PH_COLL_TIMER)
        return BAD("unknown flags 0x%x", c->flags);
    if (c->encoding != PH_REC_PC && c->encoding != PH_REC_STACK)
        return BAD("unknown record encoding %u (1 = PCs, 2 = stacks)",
                   c->encoding);
    if ((c->flags & PH_COLL_TIMER) && !c->sample)
        return BAD("a timer collector without a sample function");
    if (!code_ok(&o, *(const void *const *)&c->check) ||
        !code_ok(&o, *(const void *const *)&c->start) ||
        !code_ok(&o, *(const void *const *)&c->thread_start) ||
        !code_ok(&o, *(const void *const *)&c->thread_stop) ||
        !code_ok(&o, *(const void *const *)&c->stop) ||
        !code_ok(&o, *(const void *const *)&c->sample))
        return BAD("a function pointer is not inside the plugin's code");
    return 0;
}
