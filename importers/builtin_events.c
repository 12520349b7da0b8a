/* builtin_events.c -- KCachegrind's built-in derived events (L1m, L2m,
 * LLm, Bm and the cycle estimation CEst) over cachegrind and callgrind
 * event names, defined on a profile whose file does not define them, so
 * summary and diff offer them alike.  Writers leave them out (PH_EV_BUILTIN).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "importers/importers.h"

/* KCachegrind's built-in formulas, added when their inputs exist.  CEst
 * keeps the terms whose event exists (KCachegrind skips unknown names). */
static const struct {
    const char *name, *long_name, *inputs[3];
} builtins[] = {
    { "L1m", "L1 Miss Sum", { "I1mr", "D1mr", "D1mw" } },
    { "L2m", "L2 Miss Sum", { "I2mr", "D2mr", "D2mw" } },
    { "LLm", "Last-level Miss Sum", { "ILmr", "DLmr", "DLmw" } },
    { "Bm", "Branch Misprediction Sum", { "Bim", "Bcm", NULL } },
};

static void define_builtin(ph_profile *p, const char *name,
                           const char *long_name, const char *formula)
{
    char err[256];
    int col = 0;
    ph_event *ev;

    if (ph_event_find(p, name))
        return;   /* the file defines or measures it */
    ev = ph_event_define(p, name, formula, &col, err, sizeof err);
    if (!ev)
        return;
    ev->flags |= PH_EV_BUILTIN;
    ev->long_name = ph_str_intern0(p, long_name);
}

void ph_events_add_builtins(ph_profile *p)
{
    static const struct { const char *name; int weight; } cest[] = {
        { "Bm", 10 }, { "L1m", 10 }, { "Ge", 20 }, { "L2m", 100 },
        { "LLm", 100 },
    };
    char formula[128];
    size_t i, k, n;

    for (i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        char *w = formula;
        for (k = 0; k < 3 && builtins[i].inputs[k]; k++)
            if (!ph_event_find(p, builtins[i].inputs[k]))
                break;
        if (k < 3 && builtins[i].inputs[k])
            continue;
        for (k = 0; k < 3 && builtins[i].inputs[k]; k++)
            w += sprintf(w, "%s%s", k ? " + " : "", builtins[i].inputs[k]);
        define_builtin(p, builtins[i].name, builtins[i].long_name, formula);
    }
    if (!ph_event_find(p, "Ir"))
        return;
    n = (size_t)sprintf(formula, "Ir");
    for (i = 0, k = 0; i < sizeof cest / sizeof cest[0]; i++) {
        if (!ph_event_find(p, cest[i].name))
            continue;
        n += (size_t)sprintf(formula + n, " + %d %s", cest[i].weight,
                             cest[i].name);
        k++;
    }
    if (k)
        define_builtin(p, "CEst", "Cycle Estimation", formula);
}

