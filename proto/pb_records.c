/* pb_records.c -- the bulk records of both schemas decoded by hand (see
 * pb_records.h): pprof's Sample, Label, Location, Line and Function,
 * DrCCTProf's Context, Sample and Metric.  A repeated number may come
 * packed or one by one, mixed; a scalar field seen twice keeps the last;
 * unknown fields are skipped; what protobuf-c refuses is refused
 * (pb_scan.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir/jobs.h"
#include "proto/pb_fields.h"
#include "proto/pb_read.h"
#include "proto/pb_records.h"
#include "proto/pb_scan.h"

/* ------------------------------------------------------------------ */
/* pprof                                                               */

static int get_label(ph_pbs *c, unsigned wt, ph_pprof_label *l)
{
    uint64_t v[4];      /* key, str, num, num_unit */
    if (ph_pbs_scalars(c, wt, v, 4) < 0)
        return -1;
    *l = (ph_pprof_label){(int64_t)v[0], (int64_t)v[1], (int64_t)v[2],
                          (int64_t)v[3]};
    return 0;
}

static int take_pprof_sample(void *msg, ph_pbs *c, uint64_t field,
                             unsigned wt)
{
    ph_pprof_sample *s = msg;
    switch (field) {
    case PH_PPROF_SAMPLE_LOCATION_ID:
        return ph_pbs_numbers(c, wt, &s->location_id, &s->n_location_id,
                              &s->cap_location_id);
    case PH_PPROF_SAMPLE_VALUE:
        return ph_pbs_numbers(c, wt, &s->value, &s->n_value, &s->cap_value);
    case PH_PPROF_SAMPLE_LABEL:
        s->label = ph_pbs_grow(s->label, &s->cap_label, s->n_label + 1,
                               sizeof *s->label);
        return get_label(c, wt, &s->label[s->n_label++]);
    default:
        return 1;
    }
}

int ph_pprof_sample_decode(ph_pprof_sample *s, const unsigned char *p,
                           size_t len)
{
    ph_pbs c = {p, p + len};
    s->n_location_id = s->n_value = s->n_label = 0;
    return ph_pbs_fields(&c, s, take_pprof_sample);
}

void ph_pprof_sample_free(ph_pprof_sample *s)
{
    free(s->location_id);
    free(s->value);
    free(s->label);
}

static int take_pprof_location(void *msg, ph_pbs *c, uint64_t field,
                               unsigned wt)
{
    ph_pprof_location *l = msg;
    uint64_t v[3];      /* a Line's function_id, line, column */
    switch (field) {
    case PH_PPROF_LOCATION_ID:
        return ph_pbs_scalar(c, wt, &l->id);
    case PH_PPROF_LOCATION_MAPPING_ID:
        return ph_pbs_scalar(c, wt, &l->mapping_id);
    case PH_PPROF_LOCATION_ADDRESS:
        return ph_pbs_scalar(c, wt, &l->address);
    case PH_PPROF_LOCATION_LINE:
        if (ph_pbs_scalars(c, wt, v, 3) < 0)
            return -1;
        l->line = ph_pbs_grow(l->line, &l->cap_line, l->n_line + 1,
                              sizeof *l->line);
        l->line[l->n_line++] = (ph_pprof_line){v[0], (int64_t)v[1]};
        return 0;
    default:
        /* is_folded too: protobuf-c takes a bool of any wire type that
         * reads, as a field it skips */
        return 1;
    }
}

int ph_pprof_location_decode(ph_pprof_location *l, const unsigned char *p,
                             size_t len)
{
    ph_pbs c = {p, p + len};
    l->id = l->mapping_id = l->address = 0;
    l->n_line = 0;
    return ph_pbs_fields(&c, l, take_pprof_location);
}

void ph_pprof_location_free(ph_pprof_location *l)
{
    free(l->line);
}

int ph_pprof_function_decode(ph_pprof_function *f, const unsigned char *p,
                             size_t len)
{
    uint64_t v[5];      /* id, name, system_name, filename, start_line */
    ph_pbs c = {p, p + len};
    ph_pbs_row r = {v, 5};
    memset(v, 0, sizeof v);
    if (ph_pbs_fields(&c, &r, ph_pbs_take_row) < 0)
        return -1;
    *f = (ph_pprof_function){v[0], (int64_t)v[1], (int64_t)v[2],
                             (int64_t)v[3], (int64_t)v[4]};
    return 0;
}

/* ------------------------------------------------------------------ */
/* DrCCTProf                                                           */

static int take_drcc_context(void *msg, ph_pbs *c, uint64_t field,
                             unsigned wt)
{
    ph_drcc_context *x = msg;
    switch (field) {
    case PH_DRCC_CONTEXT_ID:
        return ph_pbs_scalar(c, wt, &x->id);
    case PH_DRCC_CONTEXT_LOCATION_ID:
        return ph_pbs_scalar(c, wt, &x->location_id);
    case PH_DRCC_CONTEXT_PARENT_ID:
        return ph_pbs_scalar(c, wt, &x->parent_id);
    case PH_DRCC_CONTEXT_CHILDREN_ID:
        return ph_pbs_numbers(c, wt, &x->children, &x->n_children,
                              &x->cap_children);
    default:
        return 1;
    }
}

int ph_drcc_context_decode(ph_drcc_context *x, const unsigned char *p,
                           size_t len)
{
    ph_pbs c = {p, p + len};
    x->id = x->location_id = x->parent_id = 0;
    x->n_children = 0;
    return ph_pbs_fields(&c, x, take_drcc_context);
}

static int get_metric(ph_pbs *c, unsigned wt, ph_drcc_metric *m)
{
    uint64_t v[3];      /* int_value, uint_value, str_value */
    if (ph_pbs_scalars(c, wt, v, 3) < 0)
        return -1;
    *m = (ph_drcc_metric){(int64_t)v[0], v[1], (int64_t)v[2]};
    return 0;
}

static int take_drcc_sample(void *msg, ph_pbs *c, uint64_t field,
                            unsigned wt)
{
    ph_drcc_sample *s = msg;
    switch (field) {
    case PH_DRCC_SAMPLE_CONTEXT_ID:
        return ph_pbs_scalar(c, wt, &s->context_id);
    case PH_DRCC_SAMPLE_METRIC:
        s->metric = ph_pbs_grow(s->metric, &s->cap_metric, s->n_metric + 1,
                                sizeof *s->metric);
        return get_metric(c, wt, &s->metric[s->n_metric++]);
    default:
        return 1;
    }
}

int ph_drcc_sample_decode(ph_drcc_sample *s, const unsigned char *p,
                          size_t len)
{
    ph_pbs c = {p, p + len};
    s->context_id = 0;
    s->n_metric = 0;
    return ph_pbs_fields(&c, s, take_drcc_sample);
}

void ph_drcc_context_free(ph_drcc_context *c)
{
    free(c->children);
}

void ph_drcc_sample_free(ph_drcc_sample *s)
{
    free(s->metric);
}

/* ------------------------------------------------------------------ */
/* Every record checked before any is read                             */

typedef union any_record {
    ph_pprof_sample pprof;
    ph_pprof_location loc;
    ph_pprof_function fn;
    ph_drcc_sample drcc;
} any_record;

static int decode_any(any_record *r, ph_pb_record_kind kind,
                      const unsigned char *p, size_t len)
{
    switch (kind) {
    case PH_PB_PPROF_SAMPLE:
        return ph_pprof_sample_decode(&r->pprof, p, len);
    case PH_PB_PPROF_LOCATION:
        return ph_pprof_location_decode(&r->loc, p, len);
    case PH_PB_PPROF_FUNCTION:
        return ph_pprof_function_decode(&r->fn, p, len);
    default:
        return ph_drcc_sample_decode(&r->drcc, p, len);
    }
}

static void free_any(any_record *r, ph_pb_record_kind kind)
{
    switch (kind) {
    case PH_PB_PPROF_SAMPLE:
        ph_pprof_sample_free(&r->pprof);
        break;
    case PH_PB_PPROF_LOCATION:
        ph_pprof_location_free(&r->loc);
        break;
    case PH_PB_PPROF_FUNCTION:
        break;
    default:
        ph_drcc_sample_free(&r->drcc);
    }
}

int ph_pb_record_field(ph_pb_record_kind kind)
{
    switch (kind) {
    case PH_PB_PPROF_SAMPLE:
        return PH_PPROF_SAMPLE;
    case PH_PB_PPROF_LOCATION:
        return PH_PPROF_LOCATION;
    case PH_PB_PPROF_FUNCTION:
        return PH_PPROF_FUNCTION;
    default:
        return PH_DRCC_SAMPLE;
    }
}

/* Records [from, to) of a field to check, for ph_pb_records_check: each
 * half on a thread with a record of its own. */
typedef struct half_check {
    const ph_pb_index *ix;
    const unsigned char *data;
    size_t len;
    int f;
    ph_pb_record_kind kind;
    size_t from, to;
    int ok;
} half_check;

static void check_half(void *arg)
{
    half_check *h = arg;
    any_record rec;
    size_t a, b;
    memset(&rec, 0, sizeof rec);
    h->ok = 1;
    for (size_t i = h->from; i < h->to && h->ok; i++)
        h->ok = ph_pb_record(h->ix, h->data, h->len, h->f, i, &a, &b) == 0 &&
                decode_any(&rec, h->kind, h->data + a, b - a) == 0;
    free_any(&rec, h->kind);
}

int ph_pb_records_check(const ph_pb_index *ix, const unsigned char *data,
                        size_t len, ph_pb_record_kind kind)
{
    int f = ph_pb_record_field(kind);
    size_t n = ix->n[f];
    half_check half[2] = {
        {ix, data, len, f, kind, 0, n / 2, 0},
        {ix, data, len, f, kind, n / 2, n, 0},
    };
    ph_run_pair(check_half, &half[0], &half[1]);
    return half[0].ok && half[1].ok;
}
