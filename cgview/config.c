/* config.c -- the summary's YAML configuration file, read with libyaml's
 * parser: derived events ("derived: {NAME: FORMULA, ...}", or a list of
 * such one-entry maps) defined in the profile.  Other top-level keys are
 * left for later versions and skipped.  Default location:
 * $XDG_CONFIG_HOME/profhub/config.yaml, else ~/.config/profhub/config.yaml. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cgview/report.h"

typedef struct reader {
    yaml_parser_t y;
    yaml_event_t ev;
    int have;            /* ev holds an event */
    const char *path;
    ph_profile *p;
} reader;

static int fail_at(reader *r, yaml_mark_t m, const char *msg)
{
    ph_cli_file_error(r->path, ":%zu:%zu: %s", m.line + 1, m.column + 1, msg);
    return -1;
}

/* Next event into r->ev; -1 on a YAML syntax error (printed). */
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

/* One NAME: FORMULA pair; the current event is the NAME scalar. */
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

int ph_report_config(ph_profile *p, const char *path, int must_exist)
{
    reader r;
    FILE *f = fopen(path, "rb");
    int rc;

    if (!f) {
        if (!must_exist && errno == ENOENT)
            return 0;
        ph_cli_file_error(path, "%s", strerror(errno));
        return -1;
    }
    memset(&r, 0, sizeof r);
    r.path = path;
    r.p = p;
    if (!yaml_parser_initialize(&r.y))
        ph_oom();
    yaml_parser_set_input_file(&r.y, f);
    rc = read_document(&r);
    if (r.have)
        yaml_event_delete(&r.ev);
    yaml_parser_delete(&r.y);
    fclose(f);
    return rc;
}

const char *ph_report_config_default(char *buf, size_t size)
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
