/* merge_stream.c -- many profiles summed into one with memory bounded by
 * the result: the sum is compacted (records that land on one place summed
 * into one) every few inputs and at the end, so a thousand inputs of one
 * program take about the memory and output size of a few.
 */
#include "config.h"

#include <string.h>

#include "analysis_priv.h"

/* Inputs between compactions: each compaction copies the sum once, so the
 * time stays linear and the sum holds at most this many inputs' records
 * beyond the result. */
#define MERGE_BATCH 8

static void compact(ph_merge_stream *s)
{
    ph_profile *q = ph_profile_new();
    ph_merge_opts o = {.scale = 1, .coalesce = 1,
                       .fold_parts = s->opts.fold_parts};
    ph_merge_into(q, s->sum, &o);
    ph_profile_free(s->sum);
    s->sum = q;
    if (!s->opts.fold_parts)
        s->opts.into = ph_part_count(q) ? ph_part_at(q, 0)
                                        : ph_part_add(q, PH_PART_WHOLE);
    s->pending = 0;
}

void ph_merge_stream_init(ph_merge_stream *s, const ph_merge_opts *o)
{
    memset(s, 0, sizeof *s);
    s->sum = ph_profile_new();
    if (o)
        s->opts = *o;
    s->opts.scale = s->opts.scale ? s->opts.scale : 1;
    /* fold_parts: the parts come from the inputs, records on the first */
    s->opts.into = s->opts.fold_parts ? NULL
                                      : ph_part_add(s->sum, PH_PART_WHOLE);
    s->opts.coalesce = 0;
}

void ph_merge_stream_add(ph_merge_stream *s, ph_profile *src,
                         ph_func **func_map)
{
    if (s->pending >= MERGE_BATCH)
        compact(s);
    s->opts.func_map = func_map;
    ph_merge_into(s->sum, src, &s->opts);
    s->opts.func_map = NULL;
    s->pending++;
    s->inputs++;
}

ph_profile *ph_merge_stream_finish(ph_merge_stream *s)
{
    if (s->inputs > 1)
        compact(s);
    ph_profile *p = s->sum;
    memset(s, 0, sizeof *s);
    return p;
}
