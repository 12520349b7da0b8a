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
#include "proto/drcctprof.pb-c.h"
#include "proto/pb_fields.h"
#include "proto/pb_out.h"
#include "proto/pb_wire.h"

PH_DECLARE_EXPORTER(drcctprof);

typedef Drcctprof__Profile__Profile PbProfile;

typedef struct writer {
    const ph_profile *p;
    const ph_stacks *st;
    char **strs;
    size_t nstrs;
    int64_t *by_str;         /* ph_str -> index + 1 */
    uint64_t *func_id;       /* ph_func id -> our id */
    uint64_t *file_id;       /* ph_file id -> our id */
    uint64_t *ctx_id;        /* stack node -> context id */
    int64_t *factor;         /* per metric: raw value -> written unit */
    PbProfile pb;
} writer;

static int64_t str_of(writer *w, ph_str s)
{
    if (!s)
        return 0;
    if (!w->by_str[s]) {
        w->strs[w->nstrs] = (char *)ph_str_get(w->p, s);
        w->by_str[s] = (int64_t)++w->nstrs;
    }
    return w->by_str[s] - 1;
}

/* A string of our own (a unit name): one more table entry; the table has
 * room for one per metric beyond the profile's strings. */
static int64_t text_of(writer *w, const char *t)
{
    w->strs[w->nstrs] = (char *)t;
    return (int64_t)w->nstrs++;
}

static uint64_t file_id(writer *w, ph_file *f)
{
    if (!f)
        return 0;
    if (!w->file_id[f->id]) {
        Drcctprof__Profile__SourceFile *sf = ph_xmalloc(sizeof *sf);
        drcctprof__profile__source_file__init(sf);
        sf->id = w->pb.n_source_file + 1;
        sf->filename = str_of(w, f->name);
        sf->location_path = sf->filename;
        w->pb.source_file[w->pb.n_source_file++] = sf;
        w->file_id[f->id] = sf->id;
    }
    return w->file_id[f->id];
}

static uint64_t function_id(writer *w, const ph_func *f)
{
    if (!w->func_id[f->id]) {
        Drcctprof__Profile__Function *fn = ph_xmalloc(sizeof *fn);
        drcctprof__profile__function__init(fn);
        fn->id = w->pb.n_function + 1;
        fn->name = str_of(w, f->name);
        fn->system_name = str_of(w, f->mangled ? f->mangled : f->name);
        fn->source_file_id = file_id(w, f->file);
        fn->start_line = f->line;
        w->pb.function[w->pb.n_function++] = fn;
        w->func_id[f->id] = fn->id;
    }
    return w->func_id[f->id];
}

/* One Location per (function, line), found through a small hash. */
typedef struct lochash {
    uint64_t *key;      /* func id << 32 | line */
    uint64_t *val;
    size_t mask;
} lochash;

static uint64_t location_id(writer *w, lochash *h, const ph_func *f, uint32_t line)
{
    uint64_t fid = function_id(w, f);
    uint64_t key = fid << 32 | line;
    size_t i = (size_t)ph_hash64(key) & h->mask;
    while (h->val[i]) {
        if (h->key[i] == key)
            return h->val[i];
        i = (i + 1) & h->mask;
    }
    Drcctprof__Profile__Location *l = ph_xmalloc(sizeof *l);
    Drcctprof__Profile__Line *ln = ph_xmalloc(sizeof *ln);
    drcctprof__profile__location__init(l);
    drcctprof__profile__line__init(ln);
    ln->function_id = fid;
    ln->line = line;
    l->id = w->pb.n_location + 1;
    l->n_line = 1;
    l->line = ph_xmalloc(sizeof *l->line);
    l->line[0] = ln;
    w->pb.location[w->pb.n_location++] = l;
    h->key[i] = key;
    return h->val[i] = l->id;
}

static void free_writer(writer *w)
{
    PbProfile *pb = &w->pb;
    for (size_t i = 0; i < pb->n_metric_type; i++)
        free(pb->metric_type[i]);
    for (size_t i = 0; i < pb->n_location; i++) {
        free(pb->location[i]->line[0]);
        free(pb->location[i]->line);
        free(pb->location[i]);
    }
    for (size_t i = 0; i < pb->n_function; i++)
        free(pb->function[i]);
    for (size_t i = 0; i < pb->n_source_file; i++)
        free(pb->source_file[i]);
    if (pb->n_context) {
        free(pb->context[0]->children_id);
        free(pb->context[0]);
    }
    free(pb->metric_type);
    free(pb->context);
    free(pb->location);
    free(pb->function);
    free(pb->source_file);
    free(w->strs);
    free(w->factor);
    free(w->by_str);
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
    for (size_t k = 0; k < nr; k++) {
        const ph_event *ev = ph_event_real(p, k);
        Drcctprof__Profile__MetricType *mt = ph_xmalloc(sizeof *mt);
        drcctprof__profile__metric_type__init(mt);
        mt->des = str_of(w, ev->name);
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
        mt->unit = unit == ph_str_get(p, ev->unit) ? str_of(w, ev->unit)
                                                   : text_of(w, unit);
        mt->value_type = 1;
        for (size_t i = 0; i < w->st->nsamples; i++) {
            const ph_stk_sample *s = &w->st->samples[i];
            if (s->src && s->src->strs && s->src->strs[k]) {
                mt->value_type = 2;
                break;
            }
            if (s->cost[k] < 0)
                mt->value_type = 0;
        }
        pb->metric_type[k] = mt;
    }
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
    uint64_t *id = ph_xcalloc(nn + 1, sizeof *id);
    int keep = nn > 0;
    for (size_t i = 0; i < nn && keep; i++) {
        const ph_stk_node *n = &st->nodes[i];
        keep = n->ext_id != 0 &&
               (!n->parent || st->nodes[n->parent - 1].ext_id < n->ext_id);
    }
    if (keep) {
        uint64_t *sorted = ph_xmalloc(nn * sizeof *sorted);
        for (size_t i = 0; i < nn; i++)
            sorted[i] = st->nodes[i].ext_id;
        ph_qsort(sorted, nn, sizeof *sorted, cmp_u64);
        for (size_t i = 1; i < nn && keep; i++)
            keep = sorted[i] != sorted[i - 1];
        free(sorted);
    }
    for (size_t i = 0; i < nn; i++)
        id[i] = keep ? st->nodes[i].ext_id : i + 1;
    return id;
}

static void write_contexts(writer *w, ph_output *out)
{
    PbProfile *pb = &w->pb;
    size_t nn = w->st->nnodes, nlocs = 0, inl = 0, addrs = 0;
    lochash h;
    size_t cap = 16;
    while (cap < 2 * nn + 2)
        cap *= 2;
    h.key = ph_xcalloc(cap, sizeof *h.key);
    h.val = ph_xcalloc(cap, sizeof *h.val);
    h.mask = cap - 1;
    pb->location = ph_xcalloc(nn + 1, sizeof *pb->location);
    pb->context = ph_xcalloc(nn + 1, sizeof *pb->context);
    pb->n_context = nn;
    Drcctprof__Profile__Context *ctx = ph_xcalloc(nn + 1, sizeof *ctx);
    size_t *nkids = ph_xcalloc(nn + 1, sizeof *nkids);
    uint64_t *kids = ph_xcalloc(nn + 1, sizeof *kids);
    w->ctx_id = context_ids(w->st);
    for (size_t i = 0; i < nn; i++)
        if (w->st->nodes[i].parent)
            nkids[w->st->nodes[i].parent - 1]++;
    size_t at = 0;
    for (size_t i = 0; i < nn; i++) {
        const ph_stk_node *n = &w->st->nodes[i];
        Drcctprof__Profile__Context *c = &ctx[i];
        drcctprof__profile__context__init(c);
        c->id = w->ctx_id[i];
        c->parent_id = n->parent ? w->ctx_id[n->parent - 1] : 0;
        c->location_id = location_id(w, &h, n->func, n->line);
        c->children_id = kids + at;
        at += nkids[i];
        pb->context[i] = c;
        inl += (n->flags & PH_FRAME_INLINED) != 0;
        addrs += n->addr != 0;
    }
    for (size_t i = 0; i < nn; i++) {
        uint32_t par = w->st->nodes[i].parent;
        if (par) {
            Drcctprof__Profile__Context *c = &ctx[par - 1];
            c->children_id[c->n_children_id++] = w->ctx_id[i];
        }
    }
    (void)nlocs;
    free(nkids);
    free(h.key);
    free(h.val);
    if (nn == 0) {
        free(ctx);
        free(kids);
    }
    if (inl)
        ph_output_drop(out, "inline", inl, "inline marks "
                       "(inlined frames written as ordinary contexts)");
    if (addrs)
        ph_output_drop(out, "addrs", addrs, "instruction "
                       "addresses (the format has none)");
}

/* The samples, written one at a time (ph_pb_out_field). */
static void write_samples(writer *w, ph_pb_out *ob, ph_output *out)
{
    PbProfile *pb = &w->pb;
    size_t ns = w->st->nsamples, nm = pb->n_metric_type, labelled = 0;
    int over = 0;
    Drcctprof__Profile__Metric *met = ph_xcalloc(nm + 1, sizeof *met);
    Drcctprof__Profile__Metric **ptr = ph_xcalloc(nm + 1, sizeof *ptr);
    for (size_t i = 0; i < ns; i++) {
        const ph_stk_sample *s = &w->st->samples[i];
        Drcctprof__Profile__Sample o;
        drcctprof__profile__sample__init(&o);
        o.context_id = w->ctx_id[s->node];
        o.n_metric = nm;
        o.metric = ptr;
        for (size_t k = 0; k < nm; k++) {
            Drcctprof__Profile__Metric *m = &met[k];
            drcctprof__profile__metric__init(m);
            if (pb->metric_type[k]->value_type == 2)
                m->str_value = s->src && s->src->strs
                    ? str_of(w, s->src->strs[k]) : 0;
            else if (s->cost[k] >= 0)
                m->uint_value = (uint64_t)ph_out_scale(s->cost[k],
                                                       w->factor[k], &over);
            else
                m->int_value = ph_out_scale(s->cost[k], w->factor[k], &over);
            ptr[k] = m;
        }
        ph_pb_out_field(ob, PH_DRCC_SAMPLE, &o.base);
        labelled += s->src && s->src->nlabels;
    }
    free(met);
    free(ptr);
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

int ph_drcctprof_write(const ph_profile *p, ph_output *out)
{
    writer w;
    memset(&w, 0, sizeof w);
    w.p = p;
    drcctprof__profile__profile__init(&w.pb);
    w.st = ph_stacks_of(p);
    ph_stacks_warn(w.st, out);
    /* Every string the file can name comes from the profile: the table
     * needs at most one slot per handle, plus "". */
    w.strs = ph_xcalloc(ph_str_count(p) + ph_event_nreal(p) + 2,
                        sizeof *w.strs);
    w.factor = ph_xcalloc(ph_event_nreal(p) + 1, sizeof *w.factor);
    w.strs[w.nstrs++] = "";
    w.by_str = ph_xcalloc(ph_str_count(p) + 1, sizeof *w.by_str);
    w.func_id = ph_xcalloc(ph_func_count(p) + 1, sizeof *w.func_id);
    w.file_id = ph_xcalloc(ph_file_count(p) + 1, sizeof *w.file_id);
    w.pb.function = ph_xcalloc(ph_func_count(p) + 1, sizeof *w.pb.function);
    w.pb.source_file = ph_xcalloc(ph_file_count(p) + 1,
                                  sizeof *w.pb.source_file);
    write_metric_types(&w, out);
    write_contexts(&w, out);
    /* The metric types, the samples, then the rest of the message. */
    ph_pb_out ob;
    ph_pb_out_init(&ob, out);
    for (size_t i = 0; i < w.pb.n_metric_type; i++)
        ph_pb_out_field(&ob, PH_DRCC_METRIC_TYPE, &w.pb.metric_type[i]->base);
    write_samples(&w, &ob, out);
    w.pb.string_table = w.strs;
    w.pb.n_string_table = w.nstrs;
    size_t ntypes = w.pb.n_metric_type;
    w.pb.n_metric_type = 0;       /* written first */
    ph_pb_out_message(&ob, &w.pb.base);
    w.pb.n_metric_type = ntypes;
    free_writer(&w);
    return 0;
}
