/* event_config.c -- derived events a user writes: the YAML configuration
 * file ("derived: {NAME: FORMULA, ...}", or a list of such one-entry maps),
 * read with libyaml's parser from a ph_input, and one "NAME = FORMULA"
 * definition (a --define argument).  Other top-level keys of the file are
 * left for later versions and skipped, and so is an entry whose formula
 * names an event the profile lacks (one file serves every profile).  Default location:
 * $XDG_CONFIG_HOME/profhub/config.yaml, else ~/.config/profhub/config.yaml.
 * Errors are recorded on the input (file:line:col) or in err (column). */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "ir/format.h"

typedef struct reader {
    yaml_parser_t y;
    yaml_event_t ev;
    int have;            /* ev holds an event */
    ph_input *in;
    ph_profile *p;
} reader;

static int fail_at(reader *r, yaml_mark_t m, const char *msg)
{
    return ph_input_error_at(r->in, m.line + 1, m.column + 1, "%s", msg);
}

/* Next event into r->ev; -1 on a YAML syntax error (recorded). */
static int next(reader *r)
{
    if (r->have)
        yaml_event_delete(&r->ev);
    r->have = 0;
    if (!yaml_parser_parse(&r->y, &r->ev)) {
        yaml_mark_t m = r->y.problem_mark;
        const char *prob = r->y.problem ? r->y.problem : "YAML syntax error";
        return fail_at(r, m, prob);
    }
    r->have = 1;
    return 0;
}

/* Skip the node that starts with the current event. */
static int skip_node(reader *r)
{
    int depth = 0;
    do {
        switch (r->ev.type) {
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT: depth++; break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT: depth--; break;
        default: break;
        }
        if (depth > 0 && next(r) < 0)
            return -1;
    } while (depth > 0);
    return 0;
}

static const char *scalar(reader *r)
{
    return (const char *)r->ev.data.scalar.value;
}

/* Whether the formula's failure at at is a name the profile lacks (not
 * the defined name itself): one config file serves every profile, so such
 * an entry is skipped, as KCachegrind skips a built-in's unknown terms. */
static int names_missing_event(const ph_profile *p, const char *defname,
                               const char *at)
{
    char buf[256];
    size_t n = 0;

    if (!isalpha((unsigned char)at[0]) && at[0] != '_')
        return 0;
    while (n < sizeof buf - 1 && (isalnum((unsigned char)at[n]) ||
                                  at[n] == '_' || at[n] == '.'))
        n++;
    memcpy(buf, at, n);
    buf[n] = '\0';
    return strcmp(buf, defname) != 0 && !ph_event_find(p, buf);
}

/* One NAME: FORMULA pair; the current event is the NAME scalar.  An entry
 * naming an event the profile lacks is skipped (names_missing_event). */
static int define_one(reader *r)
{
    char name[256], err[256];
    yaml_mark_t fm;
    int col = 0;

    if (r->ev.type != YAML_SCALAR_EVENT)
        return fail_at(r, r->ev.start_mark, "expected an event name");
    snprintf(name, sizeof name, "%s", scalar(r));
    if (next(r) < 0)
        return -1;
    if (r->ev.type != YAML_SCALAR_EVENT)
        return fail_at(r, r->ev.start_mark, "expected a formula");
    fm = r->ev.start_mark;
    if (!ph_event_define(r->p, name, scalar(r), &col, err, sizeof err)) {
        if (col > 0 && names_missing_event(r->p, name, scalar(r) + col - 1))
            return 0;
        /* Plain scalars start at the mark; quoted ones one column later. */
        if (col > 0)
            fm.column += (size_t)col - 1 +
                         (r->ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE);
        return fail_at(r, fm, err);
    }
    return 0;
}

/* The value of "derived": a map of NAME: FORMULA, or a list of them. */
static int read_derived(reader *r)
{
    int list = r->ev.type == YAML_SEQUENCE_START_EVENT;

    if (r->ev.type != YAML_MAPPING_START_EVENT && !list)
        return fail_at(r, r->ev.start_mark,
                       "\"derived\" must be a map of NAME: FORMULA");
    for (;;) {
        if (next(r) < 0)
            return -1;
        if (r->ev.type == YAML_MAPPING_END_EVENT ||
            r->ev.type == YAML_SEQUENCE_END_EVENT)
            return 0;
        if (list) {
            if (r->ev.type != YAML_MAPPING_START_EVENT)
                return fail_at(r, r->ev.start_mark,
                               "expected NAME: FORMULA");
            for (;;) {
                if (next(r) < 0)
                    return -1;
                if (r->ev.type == YAML_MAPPING_END_EVENT)
                    break;
                if (define_one(r) < 0)
                    return -1;
            }
        } else if (define_one(r) < 0) {
            return -1;
        }
    }
}

static int read_document(reader *r)
{
    do {
        if (next(r) < 0)
            return -1;
    } while (r->ev.type == YAML_STREAM_START_EVENT ||
             r->ev.type == YAML_DOCUMENT_START_EVENT);
    if (r->ev.type == YAML_STREAM_END_EVENT ||
        r->ev.type == YAML_DOCUMENT_END_EVENT)
        return 0;   /* empty file */
    if (r->ev.type == YAML_SCALAR_EVENT && scalar(r)[0] == '\0')
        return 0;
    if (r->ev.type != YAML_MAPPING_START_EVENT)
        return fail_at(r, r->ev.start_mark,
                       "expected a map at the top (derived: ...)");
    for (;;) {
        int derived;
        if (next(r) < 0)
            return -1;
        if (r->ev.type == YAML_MAPPING_END_EVENT)
            return 0;
        if (r->ev.type != YAML_SCALAR_EVENT)
            return fail_at(r, r->ev.start_mark, "expected a key");
        derived = strcmp(scalar(r), "derived") == 0;
        if (next(r) < 0)
            return -1;
        if (derived ? read_derived(r) < 0 : skip_node(r) < 0)
            return -1;
    }
}

int ph_events_read_config(ph_input *in, ph_profile *p)
{
    reader r;
    int rc;

    memset(&r, 0, sizeof r);
    r.in = in;
    r.p = p;
    if (!yaml_parser_initialize(&r.y))
        ph_oom();
    yaml_parser_set_input_string(&r.y, ph_input_data(in), ph_input_size(in));
    rc = read_document(&r);
    if (r.have)
        yaml_event_delete(&r.ev);
    yaml_parser_delete(&r.y);
    return rc;
}

const char *ph_events_config_path(char *buf, size_t size)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int n;

    if (xdg && xdg[0] == '/')
        n = snprintf(buf, size, "%s/profhub/config.yaml", xdg);
    else if (home && home[0])
        n = snprintf(buf, size, "%s/.config/profhub/config.yaml", home);
    else
        return NULL;
    return n > 0 && (size_t)n < size ? buf : NULL;
}

/* Record a message and its 1-based column in arg; returns -1. */
static int define_error(size_t *col, size_t c, char *err, size_t errsize,
                        const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int define_error(size_t *col, size_t c, char *err, size_t errsize,
                        const char *fmt, ...)
{
    va_list ap;

    *col = c;
    va_start(ap, fmt);
    vsnprintf(err, errsize, fmt, ap);
    va_end(ap);
    return -1;
}

int ph_event_define_arg(ph_profile *p, const char *arg, size_t *col,
                        char *err, size_t errsize)
{
    const char *eq = strchr(arg, '='), *f;
    char name[256], ferr[256];
    size_t a, b;
    int fcol = 0;

    if (!eq)
        return define_error(col, strlen(arg) + 1, err, errsize, "%s",
                            "expected NAME = FORMULA");
    for (a = 0; arg[a] == ' ' || arg[a] == '\t'; a++)
        ;
    for (b = (size_t)(eq - arg); b > a && (arg[b - 1] == ' ' ||
                                           arg[b - 1] == '\t'); b--)
        ;
    if (b == a || b - a >= sizeof name)
        return define_error(col, a + 1, err, errsize, "%s",
                            "expected an event name before \"=\"");
    memcpy(name, arg + a, b - a);
    name[b - a] = '\0';
    for (size_t i = 0; name[i]; i++)
        if (name[i] == ' ' || strchr("+-*/()", name[i]) ||
            (i == 0 && name[i] >= '0' && name[i] <= '9'))
            return define_error(col, a + i + 1, err, errsize,
                                "bad event name \"%s\"", name);
    const ph_event *real = ph_event_find(p, name);
    if (real && !(real->flags & PH_EV_DERIVED))
        return define_error(col, a + 1, err, errsize, "\"%s\" is a real "
                            "event and cannot have a formula", name);
    for (f = eq + 1; *f == ' ' || *f == '\t'; f++)
        ;
    if (!ph_event_define(p, name, f, &fcol, ferr, sizeof ferr))
        return define_error(col, fcol > 0 ? (size_t)(f - arg) + (size_t)fcol
                                          : a + 1,
                            err, errsize, "%s", ferr);
    return 0;
}
