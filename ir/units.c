/* units.c -- how reports show an event's values, decided once: values
 * counted in ticks of a time unit (gmon's cpu_time is "seconds" with
 * scale 1/rate) are shown as that unit, with the decimals one tick needs
 * (gprof prints 0.16 for 16 ticks at 100 Hz); everything else is shown as
 * its raw count.  Writers with their own unit fields (pprof, speedscope)
 * keep using the event's unit and scale directly.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ir_priv.h"

static int is_time_unit(const char *u)
{
    static const char *const names[] = {
        "seconds", "s", "milliseconds", "ms", "microseconds", "us",
        "nanoseconds", "ns",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(u, names[i]) == 0)
            return 1;
    return 0;
}

double ph_event_shown(const ph_profile *p, const ph_event *ev,
                      const char **unit, int *decimals)
{
    const char *u = ev && ev->unit ? ph_str_get(p, ev->unit) : NULL;
    double s = ev ? ev->scale : 1.0;

    if (unit)
        *unit = NULL;
    if (decimals)
        *decimals = 0;
    if (!u || !is_time_unit(u) || !(s > 0) || s == 1.0 ||
        (ev->flags & PH_EV_DERIVED))
        return 1.0;
    if (unit)
        *unit = u;
    if (decimals) {
        /* enough to show one tick: 0.01 -> 2, 0.004 -> 3 */
        int d = (int)ceil(-log10(s) - 1e-9);
        *decimals = d < 0 ? 0 : d > 9 ? 9 : d;
    }
    return s;
}
