/* fuzz_formula.c -- libFuzzer target for the formulas and rules a user
 * types: each line of the input is tried as a --define ("NAME = FORMULA",
 * importers/event_config.c over ir/events.c) and as a diff --fail-if rule
 * (cgview/fail_rule.c), and the whole input as a derived-events config
 * file (YAML).  The profile has the events of a cachegrind run with cache
 * and branch simulation plus KCachegrind's built-ins, as the front end
 * sets them up; every event that results is evaluated on cost vectors
 * that reach zero and the int64 extremes.  Aborts when a parser breaks
 * its contract: an error without a message or with a column outside the
 * argument, a rule with a bound that is not finite or an empty event. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/fail_rule.h"
#include "ir/format.h"

static const char *const real_events[] = {
    "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
    "Bc", "Bcm", "Bi", "Bim",
};
#define NREAL (sizeof real_events / sizeof real_events[0])

static ph_profile *new_profile(void)
{
    ph_profile *p = ph_profile_new();

    for (size_t i = 0; i < NREAL; i++)
        ph_event_add(p, real_events[i]);
    ph_events_add_builtins(p);
    return p;
}

/* Evaluate every event on a few cost vectors. */
static void evaluate(const ph_profile *p)
{
    static const int64_t fill[] = { 0, 1, -7, INT64_MAX, INT64_MIN };
    int64_t costs[NREAL];

    for (size_t k = 0; k < sizeof fill / sizeof fill[0]; k++) {
        for (size_t i = 0; i < NREAL; i++)
            costs[i] = i % 2 ? fill[k] : (int64_t)i * 1000;
        for (size_t e = 0; e < ph_event_count(p); e++)
            (void)ph_event_eval(p, ph_event_at(p, e), costs);
    }
}

static void try_define(ph_profile *p, const char *line)
{
    char err[256];
    size_t col = 0;

    err[0] = '\0';
    if (ph_event_define_arg(p, line, &col, err, sizeof err) == 0)
        return;
    if (!err[0] || col < 1 || col > strlen(line) + 1)
        abort();        /* the message must say what and where */
}

static void try_rule(const char *line)
{
    ph_fail_rule r;

    if (ph_fail_rule_parse(&r, line) < 0)
        return;
    if (!isfinite(r.bound) || !r.event[0] || (r.op != '<' && r.op != '>'))
        abort();        /* a gate that could never fire, or on nothing */
}

static void try_config(const unsigned char *data, size_t size)
{
    ph_input *in = ph_input_memory(data, size, "fuzz.yaml");
    ph_profile *p = new_profile();

    if (ph_events_read_config(in, p) < 0 && !ph_input_error(in))
        abort();        /* failed without saying why */
    evaluate(p);
    ph_profile_free(p);
    ph_input_close(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *line, *nl;
    ph_profile *p = new_profile();

    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    /* a NUL ends the text: the command line cannot carry one */
    for (line = text; line && *line; line = nl) {
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        try_define(p, line);
        try_rule(line);
    }
    evaluate(p);
    ph_profile_free(p);
    free(text);
    try_config(data, size);
    return 0;
}
