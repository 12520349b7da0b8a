/* report_traces.c -- "summary --traces": every sample with its labels,
 * its value of the event and its call stack, leaf first, in the layout of
 * go tool pprof -traces (a separator line, "KEY:  VALUES" label lines,
 * then "VALUE   FRAME" with " (inline)" after frames inlined into their
 * caller).  The filters apply as to the table.  Values are plain
 * numbers in the event's unit (pprof scales them: -unit=ns or -unit=B
 * prints the same numbers).  Flat data gives the stacks approximated by
 * gprof's rule, said in the header. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/report.h"

static const char separator[] =
    "-----------+-------------------------------------------------------";

/* pprof's label for a number of bytes: "48B", "256kB", "1.53MB". */
static const char *bytes_label(char *buf, size_t size, int64_t v)
{
    static const char *const unit[] = { "B", "kB", "MB", "GB", "TB", "PB" };
    double x = (double)v;
    size_t u = 0, n;

    while (u < 5 && (x >= 1024 || x <= -1024)) {
        x /= 1024;
        u++;
    }
    snprintf(buf, size, "%.2f", x);
    n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
    snprintf(buf + n, size - n, "%s", unit[u]);
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* String labels, then numeric ones, each "%10s:  values" and sorted, as
 * pprof prints them; values of one key joined by spaces. */
static void print_labels(const ph_profile *p, const ph_sample *s)
{
    char **lines;
    size_t n = 0;

    if (!s || !s->nlabels)
        return;
    lines = ph_xcalloc(s->nlabels, sizeof *lines);
    for (int numeric = 0; numeric < 2; numeric++) {
        size_t first = n;
        for (uint32_t i = 0; i < s->nlabels; i++) {
            const ph_label *l = &s->labels[i];
            const char *key = ph_str_get(p, l->key);
            char val[64], line[1024];
            size_t k;
            if ((l->str == 0) != numeric)
                continue;
            for (k = 0; k < i; k++)   /* first label of its key only */
                if (s->labels[k].key == l->key &&
                    (s->labels[k].str == 0) == numeric)
                    break;
            if (k < i)
                continue;
            int len = snprintf(line, sizeof line, "%10s: ", key);
            for (k = i; k < s->nlabels && len < (int)sizeof line; k++) {
                const ph_label *o = &s->labels[k];
                const char *unit;
                if (o->key != l->key || (o->str == 0) != numeric)
                    continue;
                if (!numeric) {
                    len += snprintf(line + len, sizeof line - (size_t)len,
                                    " %s", ph_str_get(p, o->str));
                    continue;
                }
                unit = ph_str_get(p, o->num_unit ? o->num_unit : o->key);
                if (strcmp(unit, "bytes") == 0)
                    bytes_label(val, sizeof val, o->num);
                else
                    snprintf(val, sizeof val, "%" PRId64, o->num);
                len += snprintf(line + len, sizeof line - (size_t)len,
                                " %s", val);
            }
            lines[n++] = strcpy(ph_xmalloc(strlen(line) + 1), line);
        }
        qsort(lines + first, n - first, sizeof *lines, cmp_str);
    }
    for (size_t i = 0; i < n; i++) {
        printf("%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
}

int ph_report_traces(ph_report *r)
{
    const ph_profile *p = r->p;
    const ph_stacks *s = ph_stacks_of(p);
    ph_stack_filter *sf;
    uint32_t *frames;
    int64_t *buf;
    char num[64];

    if (!r->approx && s->approx)
        r->approx = s->approx;
    if (r->fmt != PH_REPORT_TEXT) {
        return ph_cli_usage_error("summary", "--traces prints text only "
                                  "(pprof's layout)");
    }
    ph_report_print_head(r, stdout);
    if (!r->ev)
        return PH_EXIT_OK;
    sf = ph_stack_filter_new(p, r->topts.filter, r->topts.part);
    frames = ph_xmalloc((s->nnodes + 1) * sizeof *frames);
    buf = ph_xmalloc((s->width + 1) * sizeof *buf);
    putchar('\n');
    for (size_t i = 0; i < s->nsamples; i++) {
        size_t n = ph_stack_filter_sample(sf, i, frames);
        /* pprof merges its input first, which drops all-zero samples */
        const int64_t *cost = ph_stk_cost(s, i, buf);
        if (n == 0 || ph_costs_zero(cost, s->width))
            continue;
        puts(separator);
        print_labels(p, s->samples[i].src);
        double v = ph_event_eval(p, r->ev, cost);
        for (size_t j = 0; j < n; j++) {
            const ph_stk_node *nd = &s->nodes[frames[j]];
            printf("%10s   %s%s\n", j ? "" : ph_cli_number(num, v, 0),
                   ph_str_get(p, nd->func->name),
                   ph_stack_frame_inlined(s, frames, n, j) ? " (inline)"
                                                           : "");
        }
    }
    puts(separator);
    free(frames);
    free(buf);
    ph_stack_filter_free(sf);
    return PH_EXIT_OK;
}
