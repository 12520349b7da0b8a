/* drcctprof_out.c -- write a profile as a DrCCTProf / EasyView profile
 * (drcctprof.profile, raw protobuf, no gzip; shared/formats/drcctprof.md).
 * Follows what EasyView relies on: context ids (those read when they
 * qualify, else from 1) with every parent smaller than its children,
 * parent_id and children_id both filled, one
 * Line per Location, values in uint_value (value_type 1) when no value is
 * negative.  Flat data goes through the stack view's approximation (analysis/).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/exporters.h"
#include "ir/hash.h"
#include "exporters/out_events.h"
#include "exporters/out_strings.h"
#include "proto/drcctprof.pb-c.h"
#include "proto/pb_fields.h"
#include "proto/pb_out.h"
#include "proto/pb_wire.h"

PH_DECLARE_EXPORTER(drcctprof);

typedef Drcctprof__Profile__Profile PbProfile;

/* What a Function message says, its strings' indexes given out when the
 * function is first named (the order the table has always had). */
typedef struct func_rec {
    int64_t name, system_name;
    uint64_t file_id;
    int64_t start_line;
} func_rec;

/* Contexts, locations, functions, source files and samples are written
 * by hand (proto/pb_out.h), from these arrays: a protobuf-c struct per
 * context and location held more than the profile. */
typedef struct writer {
    const ph_profile *p;
    const ph_stacks *st;
    ph_out_strings tab;
    uint64_t *func_id;       /* ph_func id -> our id */
    func_rec *funcs;         /* our id - 1 -> its message */
    size_t nfuncs;
    uint64_t *file_id;       /* ph_file id -> our id */
    int64_t *file_name;      /* our id - 1 -> its name's index */
    size_t nfiles;
    uint64_t *loc_key;       /* location id - 1 -> function id << 32 | line */
    size_t nlocs;
    uint64_t *ctx_id;        /* stack node -> context id */
    uint64_t *ctx_loc;       /* stack node -> location id */
    uint64_t *kids;          /* every node's children's ids, node by node */
    size_t *kids_at;         /* stack node -> its first in kids; [nn] = end */
    int64_t *factor;         /* per metric: raw value -> written unit */
    PbProfile pb;            /* the metric types */
    ph_pb_msg msg, sub;      /* the message being encoded, a nested one */
} writer;

static uint64_t file_id(writer *w, ph_file *f)
{
    if (!f)
        return 0;
    if (!w->file_id[f->id]) {
        w->file_name[w->nfiles] = ph_out_str(&w->tab, f->name);
        w->file_id[f->id] = ++w->nfiles;
    }
    return w->file_id[f->id];
}

static uint64_t function_id(writer *w, const ph_func *f)
{
    if (!w->func_id[f->id]) {
        func_rec *r = &w->funcs[w->nfuncs];
        r->name = ph_out_str(&w->tab, f->name);
        r->system_name = ph_out_str(&w->tab, f->mangled ? f->mangled
                                                        : f->name);
        r->file_id = file_id(w, f->file);
        r->start_line = f->line;
        w->func_id[f->id] = ++w->nfuncs;
    }
    return w->func_id[f->id];
}

/* One Location per (function, line), found through a small hash. */
typedef struct lochash {
    uint64_t *key;      /* func id << 32 | line */
    uint64_t *val;
    size_t mask;
} lochash;

static uint64_t location_id(writer *w, lochash *h, const ph_func *f,
                            uint32_t line)
{
    uint64_t key = function_id(w, f) << 32 | line;
    size_t i = (size_t)ph_hash64(key) & h->mask;
    while (h->val[i]) {
        if (h->key[i] == key)
            return h->val[i];
        i = (i + 1) & h->mask;
    }
    w->loc_key[w->nlocs] = key;
    h->key[i] = key;
    return h->val[i] = ++w->nlocs;
}

static void free_writer(writer *w)
{
    PbProfile *pb = &w->pb;
    for (size_t i = 0; i < pb->n_metric_type; i++)
        free(pb->metric_type[i]);
    free(pb->metric_type);
    ph_out_strings_free(&w->tab);
    ph_pb_msg_free(&w->msg);
    ph_pb_msg_free(&w->sub);
    free(w->funcs);
    free(w->file_name);
    free(w->loc_key);
    free(w->ctx_loc);
    free(w->kids);
    free(w->kids_at);
    free(w->factor);
    free(w->func_id);
    free(w->file_id);
    free(w->ctx_id);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Metric types: every real event; value_type 2 for events that carry
 * strings, 1 when no value is negative, else 0. */
static void write_metric_types(writer *w, ph_output *out)
{
    const ph_profile *p = w->p;
    size_t nr = w->st->width, nd = 0, inexact = 0, like_ids = 0;
    PbProfile *pb = &w->pb;
    pb->metric_type = ph_xcalloc(nr + 1, sizeof *pb->metric_type);
    pb->n_metric_type = nr;
    /* per event: 2 when a sample has a string, else 0 when a value is
     * negative, else 1 */
    uint32_t *value_type = ph_xmalloc((nr + 1) * sizeof *value_type);
    int64_t *buf = ph_xmalloc((nr + 1) * sizeof *buf);
    for (size_t k = 0; k < nr; k++)
        value_type[k] = 1;
    for (size_t i = 0; i < w->st->nsamples; i++) {
        const ph_sample *src = w->st->samples[i].src;
        const int64_t *cost = ph_stk_cost(w->st, i, buf);
        for (size_t k = 0; k < nr; k++)
            if (src && src->strs && src->strs[k])
                value_type[k] = 2;
            else if (cost[k] < 0 && value_type[k] == 1)
                value_type[k] = 0;
    }
    for (size_t k = 0; k < nr; k++) {
        const ph_event *ev = ph_event_real(p, k);
        Drcctprof__Profile__MetricType *mt = ph_xmalloc(sizeof *mt);
        drcctprof__profile__metric_type__init(mt);
        mt->des = ph_out_str(&w->tab, ev->name);
        like_ids += !(ev->flags & PH_EV_NONADDITIVE) &&
                    ph_drcc_name_says_ids(ph_str_get(p, ev->name));
        /* The format has units, no scale: gmon's ticks of 0.01 s are
         * written as nanoseconds (x 10^7), as the pprof writer does. */
        int exact = 1;
        const char *unit;
        if (!strcmp(ph_str_get(p, ev->unit), "seconds") &&
            ev->scale > 0.999999e-6 && ev->scale < 1.000001e-6) {
            /* HPCToolkit's "sec": integer microseconds (formats notes),
             * as EasyView's files have it and our reader takes it */
            unit = "sec";
            w->factor[k] = 1;
        } else {
            unit = ph_out_unit(p, ev, &w->factor[k], &exact);
        }
        inexact += !exact;
        mt->unit = unit == ph_str_get(p, ev->unit)
                   ? ph_out_str(&w->tab, ev->unit)
                   : ph_out_text(&w->tab, unit);
        mt->value_type = value_type[k];
        pb->metric_type[k] = mt;
    }
    free(value_type);
    free(buf);
    for (size_t i = 0; i < ph_event_count(p); i++)
        if ((ph_event_at(p, i)->flags & (PH_EV_DERIVED | PH_EV_BUILTIN)) ==
            PH_EV_DERIVED)
            nd++;
    if (nd)
        ph_output_drop(out, "derived", nd, "derived events "
                       "(the format has no formulas)");
    if (like_ids)
        ph_output_drop(out, "id-names", like_ids, "event sums (events named "
                       "like ids, with a word 'type', 'id', 'context' or "
                       "'handle', or 'start' or 'end' with 'time', are read "
                       "from drcctprof as ids, not costs)");
    if (inexact)
        ph_output_drop(out, "scale", inexact, "event scales (values "
                       "written as raw counts: no integer factor to the unit)");
}

/* Context ids: the ids the profile was read with when every node has one,
 * they are unique and each parent's is smaller than its children's (so
 * metrics holding context ids keep their meaning); else 1, 2, ... in
 * parent-first order.  Returns a malloc'ed array indexed by node. */
static uint64_t *context_ids(const ph_stacks *st)
{
    size_t nn = st->nnodes;
    const uint64_t *ext = st->ext_ids;
    uint64_t *id = ph_xcalloc(nn + 1, sizeof *id);
    int keep = nn > 0 && ext;
    for (size_t i = 0; i < nn && keep; i++) {
        uint32_t up = st->nodes[i].parent;
        keep = ext[i] != 0 && (!up || ext[up - 1] < ext[i]);
    }
    if (keep) {
        uint64_t *sorted = ph_xmalloc(nn * sizeof *sorted);
        memcpy(sorted, ext, nn * sizeof *sorted);
        ph_qsort(sorted, nn, sizeof *sorted, cmp_u64);
        for (size_t i = 1; i < nn && keep; i++)
            keep = sorted[i] != sorted[i - 1];
        free(sorted);
    }
    for (size_t i = 0; i < nn; i++)
        id[i] = keep ? ext[i] : i + 1;
    return id;
}

/* Every node's context id, location and children; the locations,
 * functions and files they name. */
static void make_contexts(writer *w, ph_output *out)
{
    size_t nn = w->st->nnodes, inl = 0, addrs = 0;
    lochash h;
    size_t cap = 16;
    while (cap < 2 * nn + 2)
        cap *= 2;
    h.key = ph_xcalloc(cap, sizeof *h.key);
    h.val = ph_xcalloc(cap, sizeof *h.val);
    h.mask = cap - 1;
    w->loc_key = ph_xcalloc(nn + 1, sizeof *w->loc_key);
    w->ctx_loc = ph_xcalloc(nn + 1, sizeof *w->ctx_loc);
    w->kids = ph_xcalloc(nn + 1, sizeof *w->kids);
    w->kids_at = ph_xcalloc(nn + 2, sizeof *w->kids_at);
    w->ctx_id = context_ids(w->st);
    for (size_t i = 0; i < nn; i++)
        if (w->st->nodes[i].parent)
            w->kids_at[w->st->nodes[i].parent]++;   /* counts, one up */
    for (size_t i = 0; i < nn; i++)
        w->kids_at[i + 1] += w->kids_at[i];
    size_t *fill = ph_xmalloc((nn + 1) * sizeof *fill);
    memcpy(fill, w->kids_at, (nn + 1) * sizeof *fill);
    for (size_t i = 0; i < nn; i++) {
        const ph_stk_node *n = &w->st->nodes[i];
        w->ctx_loc[i] = location_id(w, &h, n->func, n->line);
        if (n->parent)
            w->kids[fill[n->parent - 1]++] = w->ctx_id[i];
        inl += (n->flags & PH_FRAME_INLINED) != 0;
        addrs += n->addr != 0;
    }
    free(fill);
    free(h.key);
    free(h.val);
    if (inl)
        ph_output_drop(out, "inline", inl, "inline marks "
                       "(inlined frames written as ordinary contexts)");
    if (addrs)
        ph_output_drop(out, "addrs", addrs, "instruction "
                       "addresses (the format has none)");
}

/* The samples, one message at a time. */
static void write_samples(writer *w, ph_pb_out *ob, ph_output *out)
{
    PbProfile *pb = &w->pb;
    size_t ns = w->st->nsamples, nm = pb->n_metric_type, labelled = 0;
    int over = 0;
    ph_pb_msg *m = &w->msg, *met = &w->sub;
    int64_t *buf = ph_xmalloc((w->st->width + 1) * sizeof *buf);
    for (size_t i = 0; i < ns; i++) {
        const ph_stk_sample *s = &w->st->samples[i];
        const int64_t *cost = ph_stk_cost(w->st, i, buf);
        m->n = 0;
        ph_pb_msg_varint(m, PH_DRCC_SAMPLE_CONTEXT_ID, w->ctx_id[s->node]);
        for (size_t k = 0; k < nm; k++) {
            met->n = 0;
            if (pb->metric_type[k]->value_type == 2) {
                ph_pb_msg_varint(met, PH_DRCC_METRIC_STR_VALUE,
                                 s->src && s->src->strs ? (uint64_t)
                                 ph_out_str(&w->tab, s->src->strs[k]) : 0);
            } else {
                int64_t v = ph_out_scale(cost[k], w->factor[k], &over);
                ph_pb_msg_varint(met, v >= 0 ? PH_DRCC_METRIC_UINT_VALUE
                                             : PH_DRCC_METRIC_INT_VALUE,
                                 (uint64_t)v);
            }
            ph_pb_msg_bytes(m, PH_DRCC_SAMPLE_METRIC, met->b, met->n);
        }
        ph_pb_out_bytes(ob, PH_DRCC_SAMPLE, m->b, m->n);
        labelled += s->src && s->src->nlabels;
    }
    free(buf);
    if (over)
        ph_output_drop(out, "overflow", 1, "values saturated when scaled "
                       "to the unit (beyond 64 bits)");
    if (labelled)
        ph_output_drop(out, "labels", labelled, "sample labels "
                       "(the format has none)");
    if (ph_part_count(w->p) > 1 && !w->st->approx)
        ph_output_drop(out, "parts", ph_part_count(w->p), "parts "
                       "merged into one (the format has no threads)");
}

/* Contexts, locations, functions and source files, in the order of their
 * field numbers as protobuf-c wrote them. */
static void write_tables(writer *w, ph_pb_out *ob)
{
    ph_pb_msg *m = &w->msg, *sub = &w->sub;
    for (size_t i = 0; i < w->st->nnodes; i++) {
        uint32_t par = w->st->nodes[i].parent;
        m->n = 0;
        ph_pb_msg_varint(m, PH_DRCC_CONTEXT_ID, w->ctx_id[i]);
        ph_pb_msg_varint(m, PH_DRCC_CONTEXT_LOCATION_ID, w->ctx_loc[i]);
        ph_pb_msg_varint(m, PH_DRCC_CONTEXT_PARENT_ID,
                         par ? w->ctx_id[par - 1] : 0);
        ph_pb_msg_packed(m, PH_DRCC_CONTEXT_CHILDREN_ID,
                         w->kids + w->kids_at[i],
                         w->kids_at[i + 1] - w->kids_at[i]);
        ph_pb_out_bytes(ob, PH_DRCC_CONTEXT, m->b, m->n);
    }
    for (size_t i = 0; i < w->nlocs; i++) {
        sub->n = 0;
        ph_pb_msg_varint(sub, PH_DRCC_LINE_FUNCTION_ID, w->loc_key[i] >> 32);
        ph_pb_msg_varint(sub, PH_DRCC_LINE_LINE, w->loc_key[i] & 0xffffffffu);
        m->n = 0;
        ph_pb_msg_varint(m, PH_DRCC_LOCATION_ID, i + 1);
        ph_pb_msg_bytes(m, PH_DRCC_LOCATION_LINE, sub->b, sub->n);
        ph_pb_out_bytes(ob, PH_DRCC_LOCATION, m->b, m->n);
    }
    for (size_t i = 0; i < w->nfuncs; i++) {
        const func_rec *r = &w->funcs[i];
        m->n = 0;
        ph_pb_msg_varint(m, PH_DRCC_FUNCTION_ID, i + 1);
        ph_pb_msg_varint(m, PH_DRCC_FUNCTION_NAME, (uint64_t)r->name);
        ph_pb_msg_varint(m, PH_DRCC_FUNCTION_SYSTEM_NAME,
                         (uint64_t)r->system_name);
        ph_pb_msg_varint(m, PH_DRCC_FUNCTION_SOURCE_FILE_ID, r->file_id);
        ph_pb_msg_varint(m, PH_DRCC_FUNCTION_START_LINE,
                         (uint64_t)r->start_line);
        ph_pb_out_bytes(ob, PH_DRCC_FUNCTION, m->b, m->n);
    }
    for (size_t i = 0; i < w->nfiles; i++) {
        m->n = 0;
        ph_pb_msg_varint(m, PH_DRCC_SOURCE_FILE_ID, i + 1);
        ph_pb_msg_varint(m, PH_DRCC_SOURCE_FILE_FILENAME,
                         (uint64_t)w->file_name[i]);
        ph_pb_msg_varint(m, PH_DRCC_SOURCE_FILE_LOCATION_PATH,
                         (uint64_t)w->file_name[i]);
        ph_pb_out_bytes(ob, PH_DRCC_SOURCE_FILE, m->b, m->n);
    }
}

int ph_drcctprof_write(const ph_profile *p, ph_output *out)
{
    writer w;
    memset(&w, 0, sizeof w);
    w.p = p;
    drcctprof__profile__profile__init(&w.pb);
    ph_out_strings_init(&w.tab, p);
    /* the functions' names, the metric types, the samples, the tables,
     * then the other strings */
    ph_pb_out ob;
    ph_pb_out_init(&ob, out);
    w.st = ph_out_names_and_view(&w.tab, &ob, PH_DRCC_STRING_TABLE);
    ph_stacks_warn(w.st, out);
    w.factor = ph_xcalloc(ph_event_nreal(p) + 1, sizeof *w.factor);
    w.func_id = ph_xcalloc(ph_func_count(p) + 1, sizeof *w.func_id);
    w.funcs = ph_xcalloc(ph_func_count(p) + 1, sizeof *w.funcs);
    w.file_id = ph_xcalloc(ph_file_count(p) + 1, sizeof *w.file_id);
    w.file_name = ph_xcalloc(ph_file_count(p) + 1, sizeof *w.file_name);
    write_metric_types(&w, out);
    make_contexts(&w, out);
    for (size_t i = 0; i < w.pb.n_metric_type; i++)
        ph_pb_out_field(&ob, PH_DRCC_METRIC_TYPE, &w.pb.metric_type[i]->base);
    write_samples(&w, &ob, out);
    write_tables(&w, &ob);
    ph_out_strings_write(&w.tab, &ob, PH_DRCC_STRING_TABLE);
    free_writer(&w);
    return 0;
}
