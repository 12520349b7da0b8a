/* speedscope_out.c -- write speedscope's JSON file format (schema
 * https://www.speedscope.app/file-format-schema.json): shared frames (one
 * per function: name, file, line) and one "sampled" profile per additive
 * event, whose samples are stacks of frame indices, root first, with their
 * weights.  Identical stacks are summed.  Flat data goes through
 * the stack view's approximation (analysis/).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/exporters.h"
#include "exporters/out_events.h"

PH_DECLARE_EXPORTER(speedscope);

static void put_json_string(ph_output *out, const char *s)
{
    ph_output_write(out, "\"", 1);
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        size_t k = 1;
        if (c >= 0x80) {
            k = ph_utf8_seq((const unsigned char *)s, strlen(s));
            if (k) {
                s += k - 1;
                continue;
            }
        }
        if (c >= 0x20 && c != '"' && c != '\\' && k)
            continue;
        ph_output_write(out, run, (size_t)(s - run));
        if (!k) {
            /* names are bytes: invalid UTF-8 becomes U+FFFD */
            ph_output_puts(out, "\\ufffd");
        } else if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            ph_output_write(out, e, 2);
        } else {
            ph_output_printf(out, "\\u%04x", c);
        }
        run = s + 1;
    }
    ph_output_write(out, run, (size_t)(s - run));
    ph_output_write(out, "\"", 1);
}

/* speedscope's units: none, nanoseconds, microseconds, milliseconds,
 * seconds, bytes. */
static const char *unit_name(const char *u)
{
    static const struct { const char *from, *to; } map[] = {
        {"nanoseconds", "nanoseconds"}, {"ns", "nanoseconds"},
        {"microseconds", "microseconds"}, {"us", "microseconds"},
        {"milliseconds", "milliseconds"}, {"ms", "milliseconds"},
        {"seconds", "seconds"}, {"s", "seconds"},
        {"bytes", "bytes"}, {"B", "bytes"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(u, map[i].from))
            return map[i].to;
    return "none";
}

static void write_frames(const ph_profile *p, ph_output *out, const ph_stacks *st,
                         uint32_t *frame_of)
{
    size_t nf = ph_func_count(p);
    uint32_t *index = ph_xcalloc(nf + 1, sizeof *index);
    uint32_t next = 0;
    ph_output_puts(out, "  \"shared\": {\"frames\": [");
    for (size_t i = 0; i < st->nnodes; i++) {
        const ph_func *f = st->nodes[i].func;
        if (!index[f->id]) {
            index[f->id] = ++next;
            ph_output_puts(out, next > 1 ? ",\n    {\"name\": " : "\n    {\"name\": ");
            put_json_string(out, ph_str_get(p, f->name));
            if (f->file && f->file->name) {
                ph_output_puts(out, ", \"file\": ");
                put_json_string(out, ph_str_get(p, f->file->name));
            }
            if (f->line)
                ph_output_printf(out, ", \"line\": %u", f->line);
            ph_output_puts(out, "}");
        }
        frame_of[i] = index[f->id] - 1;
    }
    ph_output_puts(out, "\n  ]},\n");
    free(index);
}

int ph_speedscope_write(const ph_profile *p, ph_output *out)
{
    const ph_stacks *st = ph_stacks_of(p);
    size_t ne;
    ph_stacks_warn(st, out);
    ph_event **evs = ph_out_events(p, out, &ne);
    if (ne == 0) {
        free(evs);
        return ph_output_error_set(out, "the profile has no additive "
                                   "event to write");
    }
    int active = ph_out_pick(p, out, evs, ne);
    uint32_t *frame_of = ph_xcalloc(st->nnodes + 1, sizeof *frame_of);
    uint32_t *path = ph_xmalloc((st->nnodes + 1) * sizeof *path);
    int64_t *sum = ph_xcalloc(st->nnodes + 1, sizeof *sum);
    int64_t *buf = ph_xmalloc((st->width + 1) * sizeof *buf);
    const char *name = ph_meta_get(p, "cmd");
    ph_output_puts(out, "{\n  \"$schema\": \"https://www.speedscope.app/"
                   "file-format-schema.json\",\n  \"exporter\": \""
                   PACKAGE_NAME " " PACKAGE_VERSION "\",\n  \"name\": ");
    put_json_string(out, name ? name : ph_output_path(out));
    ph_output_printf(out, ",\n  \"activeProfileIndex\": %d,\n", active);
    write_frames(p, out, st, frame_of);
    ph_output_puts(out, "  \"profiles\": [");
    uint64_t negative = 0;
    for (size_t e = 0; e < ne; e++) {
        int64_t total = 0, factor;
        int exact, overflow = 0;
        const char *unit = ph_out_unit(p, evs[e], &factor, &exact);
        memset(sum, 0, (st->nnodes + 1) * sizeof *sum);
        for (size_t i = 0; i < st->nsamples; i++)
            sum[st->samples[i].node] = ph_cost_add(sum[st->samples[i].node],
                ph_out_value(p, evs[e], ph_stk_cost(st, i, buf)));
        for (size_t i = 0; i < st->nnodes; i++)
            sum[i] = ph_out_scale(sum[i], factor, &overflow);
        ph_output_puts(out, e ? ",\n    {\"type\": \"sampled\", \"name\": "
                       : "\n    {\"type\": \"sampled\", \"name\": ");
        put_json_string(out, ph_str_get(p, evs[e]->name));
        ph_output_printf(out, ", \"unit\": \"%s\", \"startValue\": 0,\n",
                         unit_name(unit));
        ph_output_puts(out, "     \"samples\": [");
        int first = 1;
        for (size_t i = 0; i < st->nnodes; i++) {
            if (sum[i] <= 0) {
                negative += sum[i] < 0;
                continue;
            }
            size_t depth = 0;
            for (uint32_t n = (uint32_t)i + 1; n; n = st->nodes[n - 1].parent)
                path[depth++] = n - 1;
            ph_output_puts(out, first ? "\n      [" : ",\n      [");
            first = 0;
            while (depth-- > 0) {
                ph_output_u64(out, frame_of[path[depth]]);
                if (depth)
                    ph_output_puts(out, ",");
            }
            ph_output_puts(out, "]");
            total = ph_cost_add(total, sum[i]);
        }
        ph_output_puts(out, "],\n     \"weights\": [");
        first = 1;
        for (size_t i = 0; i < st->nnodes; i++) {
            if (sum[i] <= 0)
                continue;
            if (!first)
                ph_output_puts(out, ",");
            first = 0;
            ph_output_i64(out, sum[i]);
        }
        ph_output_printf(out, "],\n     \"endValue\": %lld}",
                         (long long)total);
    }
    ph_output_puts(out, "\n  ]\n}\n");
    if (negative)
        ph_output_drop(out, "negative", negative, "stacks with "
                       "negative values (weights must not be negative)");
    if (ph_part_count(p) > 1 && !st->approx)
        ph_output_drop(out, "parts", ph_part_count(p), "parts "
                       "merged into one");
    free(frame_of);
    free(path);
    free(sum);
    free(buf);
    free(evs);
    return 0;
}
