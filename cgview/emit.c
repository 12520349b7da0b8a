/* emit.c -- JSON, YAML and key,value CSV output of the reports from one
 * sequence of calls (see emit.h).  JSON is written here, indented two
 * spaces, with flow maps on one line; YAML goes through libyaml's emitter
 * (yaml_emitter_*), which takes care of quoting and escaping; CSV names
 * each scalar by its path of keys and list indexes. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "cgview/emit.h"

enum { MAX_DEPTH = 64 };

typedef struct level {
    int is_map;
    int flow;
    size_t count;      /* items written so far */
} level;

struct ph_emit {
    FILE *out;
    ph_report_format fmt;
    level stack[MAX_DEPTH];
    int depth;
    int after_key;     /* JSON: a key was written, its value comes next */
    int failed;
    yaml_emitter_t y;
    /* CSV: the path of the current collection ("events.0") and, per
     * depth, its length; the key given for the next value. */
    char path[1024];
    size_t plen[MAX_DEPTH + 1];
    char key[256];
};

/* ------------------------------------------------------------------ */
/* Numbers                                                             */

const char *ph_emit_format_num(char *buf, double v)
{
    if (v == floor(v) && fabs(v) < 9.2e18) {
        snprintf(buf, 40, "%" PRId64, (int64_t)v);
        return buf;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 40, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* ------------------------------------------------------------------ */
/* YAML through libyaml                                                */

static void emit_yaml(ph_emit *e, yaml_event_t *ev)
{
    if (e->failed) {
        yaml_event_delete(ev);
        return;
    }
    if (!yaml_emitter_emit(&e->y, ev))
        e->failed = 1;
}

/* A plain scalar that YAML would read as something other than this string
 * (a number, null, a boolean, nothing) must be quoted. */
static int looks_special(const char *s)
{
    static const char *const words[] = {
        "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n",
        ".nan", ".inf", "-.inf", "+.inf",
    };
    char *end;

    if (!*s)
        return 1;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcasecmp(s, words[i]) == 0)
            return 1;
    strtod(s, &end);
    if (end != s && *end == '\0')
        return 1;
    return strchr("0123456789+-.", s[0]) != NULL;
}

/* libyaml refuses bytes that are not UTF-8 (and the document ends there):
 * names are bytes, so invalid ones become U+FFFD first. */
static void yaml_scalar(ph_emit *e, const char *s, int plain)
{
    yaml_event_t ev;
    char *text = ph_utf8_fix(s, strlen(s), NULL);

    int ok = yaml_scalar_event_initialize(&ev, NULL, NULL,
                                          (yaml_char_t *)text,
                                          (int)strlen(text), plain, 1,
                                          plain ? YAML_PLAIN_SCALAR_STYLE
                                                : YAML_ANY_SCALAR_STYLE);
    free(text);
    if (!ok) {
        e->failed = 1;
        return;
    }
    emit_yaml(e, &ev);
}

static int write_yaml(void *data, unsigned char *buf, size_t size)
{
    FILE *f = data;
    return fwrite(buf, 1, size, f) == size;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */

static void json_indent(ph_emit *e)
{
    fputc('\n', e->out);
    for (int i = 0; i < e->depth; i++)
        fputs("  ", e->out);
}

/* Separator and indentation before a value (or a key in a map). */
static void json_before(ph_emit *e, int is_key)
{
    level *l;

    if (e->depth == 0)
        return;
    l = &e->stack[e->depth - 1];
    if (!is_key && l->is_map && e->after_key) {
        e->after_key = 0;
        return;
    }
    if (l->count++)
        fputc(',', e->out);
    if (l->flow) {
        if (l->count > 1)
            fputc(' ', e->out);
    } else {
        json_indent(e);
    }
}

/* ------------------------------------------------------------------ */
/* CSV: "key,value" rows                                               */

/* The path of the next value into buf: the collection's path, then the
 * key given (in a map) or the item's index (in a list). */
static const char *csv_next_path(ph_emit *e, char *buf, size_t size)
{
    const char *dot = e->path[0] ? "." : "";
    level *l = e->depth ? &e->stack[e->depth - 1] : NULL;

    if (!l)
        snprintf(buf, size, "%s", e->key);
    else if (l->is_map)
        snprintf(buf, size, "%s%s%s", e->path, dot, e->key);
    else
        snprintf(buf, size, "%s%s%zu", e->path, dot, l->count);
    if (l)
        l->count++;
    return buf;
}

static void csv_scalar(ph_emit *e, const char *text)
{
    char buf[sizeof e->path + sizeof e->key + 2];

    ph_cli_csv_field(e->out, csv_next_path(e, buf, sizeof buf));
    fputc(',', e->out);
    ph_cli_csv_field(e->out, text);
    fputc('\n', e->out);
}

/* ------------------------------------------------------------------ */
/* The calls                                                           */

ph_emit *ph_emit_new(FILE *out, ph_report_format fmt)
{
    ph_emit *e = ph_xcalloc(1, sizeof *e);
    yaml_event_t ev;

    e->out = out;
    e->fmt = fmt;
    if (fmt == PH_REPORT_CSV)
        fputs("key,value\n", out);
    if (fmt != PH_REPORT_YAML)
        return e;
    if (!yaml_emitter_initialize(&e->y))
        ph_oom();
    yaml_emitter_set_output(&e->y, write_yaml, out);
    yaml_emitter_set_unicode(&e->y, 1);
    yaml_emitter_set_width(&e->y, -1);
    yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
    emit_yaml(e, &ev);
    yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
    emit_yaml(e, &ev);
    return e;
}

int ph_emit_free(ph_emit *e)
{
    int rc;
    yaml_event_t ev;

    if (e->fmt == PH_REPORT_YAML) {
        yaml_document_end_event_initialize(&ev, 1);
        emit_yaml(e, &ev);
        yaml_stream_end_event_initialize(&ev);
        emit_yaml(e, &ev);
        if (!yaml_emitter_flush(&e->y))
            e->failed = 1;
        yaml_emitter_delete(&e->y);
    } else if (e->fmt == PH_REPORT_JSON) {
        fputc('\n', e->out);
    }
    rc = e->failed || ferror(e->out) ? -1 : 0;
    free(e);
    return rc;
}

static void open_level(ph_emit *e, int is_map, int flow)
{
    if (e->depth > 0 && e->stack[e->depth - 1].flow)
        flow = 1;   /* nothing block-style inside a flow collection */
    if (e->fmt == PH_REPORT_YAML) {
        yaml_event_t ev;
        if (is_map)
            yaml_mapping_start_event_initialize(
                &ev, NULL, NULL, 1,
                flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
        else
            yaml_sequence_start_event_initialize(
                &ev, NULL, NULL, 1,
                flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
        emit_yaml(e, &ev);
    } else if (e->fmt == PH_REPORT_CSV) {
        char buf[sizeof e->path + sizeof e->key + 2];
        if (e->depth > 0 || e->key[0]) {
            /* the keys are ours: a path never nears the bound */
            size_t n = strlen(csv_next_path(e, buf, sizeof buf));
            if (n >= sizeof e->path)
                n = sizeof e->path - 1;
            memcpy(e->path, buf, n);
            e->path[n] = '\0';
        }
        if (e->depth < MAX_DEPTH)
            e->plen[e->depth + 1] = strlen(e->path);
    } else {
        json_before(e, 0);
        fputc(is_map ? '{' : '[', e->out);
    }
    if (e->depth < MAX_DEPTH)
        e->stack[e->depth] = (level){is_map, flow, 0};
    e->depth++;
}

void ph_emit_map(ph_emit *e, int flow)
{
    open_level(e, 1, flow);
}

void ph_emit_list(ph_emit *e, int flow)
{
    open_level(e, 0, flow);
}

void ph_emit_end(ph_emit *e)
{
    level l;

    if (e->depth == 0)
        return;
    l = e->stack[--e->depth];
    if (e->fmt == PH_REPORT_YAML) {
        yaml_event_t ev;
        if (l.is_map)
            yaml_mapping_end_event_initialize(&ev);
        else
            yaml_sequence_end_event_initialize(&ev);
        emit_yaml(e, &ev);
        return;
    }
    if (e->fmt == PH_REPORT_CSV) {
        e->path[e->depth < MAX_DEPTH ? e->plen[e->depth] : 0] = '\0';
        return;
    }
    if (l.count && !l.flow)
        json_indent(e);
    fputc(l.is_map ? '}' : ']', e->out);
}

void ph_emit_key(ph_emit *e, const char *key)
{
    if (e->fmt == PH_REPORT_YAML) {
        yaml_scalar(e, key, !looks_special(key));
        return;
    }
    if (e->fmt == PH_REPORT_CSV) {
        snprintf(e->key, sizeof e->key, "%s", key);
        return;
    }
    json_before(e, 1);
    ph_cli_json_string(e->out, key);
    fputs(": ", e->out);
    e->after_key = 1;
}

void ph_emit_str(ph_emit *e, const char *s)
{
    if (!s) {
        ph_emit_null(e);
        return;
    }
    if (e->fmt == PH_REPORT_YAML) {
        yaml_scalar(e, s, !looks_special(s));
        return;
    }
    if (e->fmt == PH_REPORT_CSV) {
        csv_scalar(e, s);
        return;
    }
    json_before(e, 0);
    ph_cli_json_string(e->out, s);
}

static void emit_raw(ph_emit *e, const char *text)
{
    if (e->fmt == PH_REPORT_YAML) {
        yaml_scalar(e, text, 1);
        return;
    }
    if (e->fmt == PH_REPORT_CSV) {
        csv_scalar(e, strcmp(text, "null") ? text : "");
        return;
    }
    json_before(e, 0);
    fputs(text, e->out);
}

void ph_emit_number_text(ph_emit *e, const char *text)
{
    emit_raw(e, text);
}

void ph_emit_null(ph_emit *e)
{
    emit_raw(e, "null");
}

void ph_emit_bool(ph_emit *e, int v)
{
    emit_raw(e, v ? "true" : "false");
}

void ph_emit_int(ph_emit *e, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    emit_raw(e, buf);
}

void ph_emit_uint(ph_emit *e, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    emit_raw(e, buf);
}

void ph_emit_num(ph_emit *e, double v)
{
    char buf[40];
    if (!isfinite(v)) {
        ph_emit_null(e);
        return;
    }
    emit_raw(e, ph_emit_format_num(buf, v));
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */

void ph_csv_str(FILE *out, const char *s, int first)
{
    if (!first)
        fputc(',', out);
    ph_cli_csv_field(out, s ? s : "");
}
