/* drcctprof_in.c -- read DrCCTProf / EasyView profiles (drcctprof.profile,
 * raw protobuf) into the context-tree shape of the IR.  Spec:
 * shared/formats/drcctprof.md (DrCCTProf proto of 2021-03, EasyView's
 * reader).  Supported: metric types int/uint/string, contexts in any order
 * (parents resolved by id), ids 0 for locations, functions and files.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/importers.h"
#include "ir/idmap.h"
#include "ir/stock.h"
#include "proto/drcctprof.pb-c.h"
#include "proto/pb_read.h"
#include "proto/pb_records.h"

PH_DECLARE_IMPORTER(drcctprof);

/* Mapping onto the IR:
 *   MetricType i   -> real event named by des, with unit.  value_type 2
 *                     (string) metrics get a slot too; their text is kept in
 *                     ph_sample.strs[slot] and their value is 0.
 *   Non-additive   -> PH_EV_NONADDITIVE (kept per sample, never summed) for
 *                     string metrics and for names holding the word
 *                     "context", "type", "id" or "handle", or "start"/"end"
 *                     with "time" (enums, context ids, timestamps; see the
 *                     notes, section 3).  "CPUTIME" or "counts" stay additive.
 *   Metric value   -> uint_value when non-zero, else int_value (EasyView
 *                     reads uint_value only; DrCCTProf writes int_value).
 *   Context        -> one node (ph_node_new: equal frames stay distinct),
 *                     ext_id = the context id; a Location with k lines gives
 *                     k nested nodes, the innermost carrying the context.
 *                     A context whose location is absent (a root, or the
 *                     sentinel ids 0 and 0xffffffffffffffff DrCCTProf uses
 *                     for thread roots) gets a frame "<context N>".
 *                     Repeated context records that agree are merged.
 *   Sample         -> ph_sample on its context's node (inner nodes too). */

typedef Drcctprof__Profile__Profile PbProfile;

/* A context's fields the tree is built from, kept for every context
 * record (see unpack). */
typedef struct context {
    uint64_t id, parent_id, location_id;
} context;

typedef struct reader {
    ph_input *in;
    ph_profile *p;
    const unsigned char *data;
    size_t len;
    const PbProfile *pb;
    context *ctx;
    size_t nctx;
    ph_pb_index ix;
    ph_pb_strtab st;
    ph_idmap files, funcs, locs, ctxs;
    ph_func **func_of;
    ph_node **node_of;      /* per context index; NULL until built */
    uint8_t *state;         /* per context: 0 new, 1 on the walk, 2 done */
    int *slot;              /* metric index -> slot */
    int *is_str;
    ph_stock *stock;        /* blocks made ready: contexts, then samples */
} reader;

/* Contexts and samples read: the stock's measure of the reader's work. */
static void progress(reader *r, size_t done)
{
    if ((done & 4095) == 0)
        ph_stock_progress(r->stock, done);
}

static int get_str(reader *r, int64_t idx, size_t off, const char *what,
                   ph_str *out)
{
    return ph_pb_str(&r->st, idx, off, what, out);
}

/* The string table, by the rule both protobuf readers share. */
static int read_strings(reader *r)
{
    return ph_pb_strtab_load(&r->st, r->in, r->p, &r->ix, r->data, r->len,
                             PH_DRCC_STRING_TABLE);
}

static int read_metric_types(reader *r)
{
    const PbProfile *pb = r->pb;
    size_t n = pb->n_metric_type;
    r->slot = ph_xcalloc(n + 1, sizeof *r->slot);
    r->is_str = ph_xcalloc(n + 1, sizeof *r->is_str);
    for (size_t i = 0; i < n; i++) {
        const Drcctprof__Profile__MetricType *mt = pb->metric_type[i];
        size_t off = ph_pb_index_off(&r->ix, PH_DRCC_METRIC_TYPE, i);
        ph_str des, unit;
        if (get_str(r, mt->des, off, "metric name", &des) < 0 ||
            get_str(r, mt->unit, off, "metric unit", &unit) < 0)
            return -1;
        if (mt->value_type < 0 || mt->value_type > 2)
            return ph_input_error_off(r->in, off, "metric %zu has value "
                                      "type %" PRId64 " (expected 0 int, 1 "
                                      "uint or 2 string)", i, mt->value_type);
        const char *name = ph_str_get(r->p, des);
        char buf[48];
        if (!*name || ph_event_find(r->p, name)) {
            snprintf(buf, sizeof buf, "metric%zu", i + 1);
            name = buf;
        }
        ph_event *ev = ph_event_add(r->p, name);
        ev->unit = unit;
        if (mt->value_type != 2 && !strcmp(ph_str_get(r->p, unit), "sec")) {
            /* HPCToolkit's converter writes seconds as integer
             * microseconds and keeps the unit "sec" (formats notes) */
            ev->unit = ph_str_intern0(r->p, "seconds");
            ev->scale = 1e-6;
        }
        r->is_str[i] = mt->value_type == 2;
        if (r->is_str[i] || ph_drcc_name_says_ids(name))
            ev->flags |= PH_EV_NONADDITIVE;
        r->slot[i] = ev->slot;
    }
    return 0;
}

static int read_symbols(reader *r)
{
    const PbProfile *pb = r->pb;
    ph_idmap_init(&r->files, pb->n_source_file);
    for (size_t i = 0; i < pb->n_source_file; i++) {
        const Drcctprof__Profile__SourceFile *sf = pb->source_file[i];
        if (ph_idmap_put(&r->files, sf->id, (uint32_t)i) < 0)
            return ph_input_error_off(r->in,
                                      ph_pb_index_off(&r->ix,
                                                      PH_DRCC_SOURCE_FILE, i),
                                      "two source files with id %" PRIu64,
                                      sf->id);
    }
    ph_idmap_init(&r->funcs, pb->n_function);
    r->func_of = ph_xcalloc(pb->n_function + 1, sizeof *r->func_of);
    for (size_t i = 0; i < pb->n_function; i++) {
        const Drcctprof__Profile__Function *fn = pb->function[i];
        size_t off = ph_pb_index_off(&r->ix, PH_DRCC_FUNCTION, i);
        ph_str name, sys, fname = 0;
        if (get_str(r, fn->name, off, "function name", &name) < 0 ||
            get_str(r, fn->system_name, off, "function system name",
                    &sys) < 0)
            return -1;
        if (ph_idmap_put(&r->funcs, fn->id, (uint32_t)i) < 0)
            return ph_input_error_off(r->in, off, "two functions with id %"
                                      PRIu64, fn->id);
        int64_t sfi = ph_idmap_get(&r->files, fn->source_file_id);
        if (sfi >= 0) {
            const Drcctprof__Profile__SourceFile *sf = pb->source_file[sfi];
            size_t soff = ph_pb_index_off(&r->ix, PH_DRCC_SOURCE_FILE,
                                          (size_t)sfi);
            ph_str path;
            if (get_str(r, sf->filename, soff, "source file name",
                        &fname) < 0 ||
                get_str(r, sf->location_path, soff, "source file path",
                        &path) < 0)
                return -1;
            if (!fname)
                fname = path;
        } else if (fn->source_file_id != 0) {
            return ph_input_error_off(r->in, off, "function %" PRIu64
                                      " names unknown source file id %"
                                      PRIu64, fn->id, fn->source_file_id);
        }
        r->func_of[i] = ph_pb_func(r->p, name, sys, fname, fn->start_line,
                                   NULL);
    }
    ph_idmap_init(&r->locs, pb->n_location);
    for (size_t i = 0; i < pb->n_location; i++) {
        const Drcctprof__Profile__Location *l = pb->location[i];
        size_t off = ph_pb_index_off(&r->ix, PH_DRCC_LOCATION, i);
        if (ph_idmap_put(&r->locs, l->id, (uint32_t)i) < 0)
            return ph_input_error_off(r->in, off, "two locations with id %"
                                      PRIu64, l->id);
        for (size_t k = 0; k < l->n_line; k++)
            if (ph_idmap_get(&r->funcs, l->line[k]->function_id) < 0)
                return ph_input_error_off(r->in, off, "location %" PRIu64
                                          " names unknown function id %"
                                          PRIu64, l->id,
                                          l->line[k]->function_id);
    }
    return 0;
}

/* Make the node(s) of context ci under parent. */
static int make_context_node(reader *r, size_t ci, ph_node *parent)
{
    const context *c = &r->ctx[ci];
    size_t off = ph_pb_index_off(&r->ix, PH_DRCC_CONTEXT, ci);
    int64_t li = ph_idmap_get(&r->locs, c->location_id);
    ph_node *node = parent;
    if (li < 0 || r->pb->location[li]->n_line == 0) {
        if (li < 0 && c->parent_id != 0 && c->location_id != 0 &&
            c->location_id != UINT64_MAX)
            return ph_input_error_off(r->in, off, "context %" PRIu64
                                      " names unknown location id %" PRIu64,
                                      c->id, c->location_id);
        char buf[48];
        snprintf(buf, sizeof buf, "<context %" PRIu64 ">", c->id);
        ph_func *f = ph_func_get(r->p, ph_str_intern0(r->p, buf), NULL, NULL);
        node = ph_node_new(r->p, parent, f, NULL, 0, 0, 0);
    } else {
        const Drcctprof__Profile__Location *l = r->pb->location[li];
        for (size_t k = l->n_line; k-- > 0;) {
            const Drcctprof__Profile__Line *ln = l->line[k];
            ph_func *f = r->func_of[ph_idmap_get(&r->funcs,
                                                 ln->function_id)];
            node = ph_node_new(r->p, node, f, NULL, 0, ph_pb_line(ln->line),
                               k + 1 < l->n_line ? PH_FRAME_INLINED : 0);
        }
    }
    ph_node_set_ext_id(r->p, node, c->id);
    r->node_of[ci] = node;
    r->state[ci] = 2;
    return 0;
}

static int read_contexts(reader *r)
{
    const context *ctx = r->ctx;
    size_t n = r->nctx;
    ph_idmap_init(&r->ctxs, n);
    r->node_of = ph_xcalloc(n + 1, sizeof *r->node_of);
    r->state = ph_xcalloc(n + 1, 1);
    /* Real files repeat a context record (fig7: 3,234 records, 781 ids);
     * repeats that agree are one context, others are an error. */
    for (size_t i = 0; i < n; i++) {
        const context *c = &ctx[i];
        if (ph_idmap_put(&r->ctxs, c->id, (uint32_t)i) == 0)
            continue;
        const context *first = &ctx[ph_idmap_get(&r->ctxs, c->id)];
        if (first->location_id != c->location_id ||
            first->parent_id != c->parent_id)
            return ph_input_error_off(r->in,
                                      ph_pb_index_off(&r->ix,
                                                      PH_DRCC_CONTEXT, i),
                                      "two contexts with id %" PRIu64
                                      " differ in location or parent",
                                      c->id);
        r->state[i] = 2;                 /* a repeat: nothing to build */
    }
    /* Parents first: walk up from each context to the first one built,
     * then build back down.  The walk reuses one index stack. */
    size_t *chain = ph_xmalloc((n + 1) * sizeof *chain);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t depth = 0, ci = i;
        ph_node *parent = NULL;
        progress(r, i);
        while (r->state[ci] == 0) {
            r->state[ci] = 1;
            chain[depth++] = ci;
            uint64_t pid = ctx[ci].parent_id;
            if (pid == 0)
                break;
            int64_t pi = ph_idmap_get(&r->ctxs, pid);
            size_t off = ph_pb_index_off(&r->ix, PH_DRCC_CONTEXT, ci);
            if (pi < 0) {
                rc = ph_input_error_off(r->in, off, "context %" PRIu64
                                        " names unknown parent id %" PRIu64,
                                        ctx[ci].id, pid);
                break;
            }
            if (r->state[pi] == 1) {
                rc = ph_input_error_off(r->in, off, "context %" PRIu64
                                        " is its own ancestor (parent id %"
                                        PRIu64 ")", ctx[ci].id, pid);
                break;
            }
            ci = (size_t)pi;
        }
        if (rc)
            break;
        if (r->state[ci] == 2)
            parent = r->node_of[ci];
        while (depth-- > 0 && rc == 0) {
            rc = make_context_node(r, chain[depth], parent);
            parent = r->node_of[chain[depth]];
        }
    }
    free(chain);
    return rc;
}

static int read_samples(reader *r)
{
    const PbProfile *pb = r->pb;
    size_t nm = pb->n_metric_type, width = ph_event_nreal(r->p);
    int64_t *vals = ph_xcalloc(width + 1, sizeof *vals);
    ph_part *part = ph_part_add(r->p, PH_PART_WHOLE);
    int rc = 0;
    ph_drcc_sample sample = {0}, *s = &sample;
    for (size_t i = 0; i < r->ix.n[PH_DRCC_SAMPLE] && rc == 0; i++) {
        size_t off = ph_pb_index_off(&r->ix, PH_DRCC_SAMPLE, i), a, b;
        if (ph_pb_record(&r->ix, r->data, r->len, PH_DRCC_SAMPLE, i, &a,
                         &b) < 0 ||
            ph_drcc_sample_decode(s, r->data + a, b - a) < 0) {
            /* checked once already in unpack: cannot happen */
            rc = ph_input_error_off(r->in, off, "sample %zu does not "
                                    "decode", i);
            break;
        }
        int64_t ci = ph_idmap_get(&r->ctxs, s->context_id);
        if (ci < 0) {
            rc = ph_input_error_off(r->in, off, "sample %zu names unknown "
                                    "context id %" PRIu64, i, s->context_id);
            break;
        }
        if (s->n_metric != nm) {
            rc = ph_input_error_off(r->in, off, "sample %zu has %zu metrics "
                                    "but the profile has %zu metric types",
                                    i, s->n_metric, nm);
            break;
        }
        memset(vals, 0, (width + 1) * sizeof *vals);
        ph_str *strs = NULL;
        for (size_t k = 0; k < nm && rc == 0; k++) {
            const ph_drcc_metric *m = &s->metric[k];
            if (r->is_str[k]) {
                if (!strs)
                    strs = ph_profile_alloc(r->p, (width + 1) * sizeof *strs);
                rc = get_str(r, m->str_value, off, "string metric",
                             &strs[r->slot[k]]);
            } else {
                vals[r->slot[k]] = m->uint_value ? (int64_t)m->uint_value
                                                 : m->int_value;
            }
        }
        if (rc)
            break;
        ph_sample *smp = ph_sample_add(r->p, r->node_of[ci], part, vals,
                                       width, NULL, 0);
        smp->strs = strs;
        progress(r, r->nctx + i);
    }
    ph_drcc_sample_free(&sample);
    free(vals);
    return rc;
}

static void free_reader(reader *r)
{
    ph_pb_index_free(&r->ix);
    ph_pb_strtab_free(&r->st);
    ph_idmap_free(&r->files);
    ph_idmap_free(&r->funcs);
    ph_idmap_free(&r->locs);
    ph_idmap_free(&r->ctxs);
    free(r->func_of);
    free(r->node_of);
    free(r->state);
    free(r->slot);
    free(r->is_str);
    free(r->ctx);
    if (r->pb)
        drcctprof__profile__profile__free_unpacked((PbProfile *)r->pb, ph_pb_allocator());
}

/* The message without its contexts, samples and strings, which are most
 * of a big profile's bytes and, decoded all at once, took 15 times the
 * file: the other fields are decoded by protobuf-c, each context's id,
 * parent and location kept (24 bytes), the samples decoded one at a time
 * as they are read, both by hand (proto/pb_records.h), the strings
 * interned from the message's bytes (ph_pb_strtab_load).  Every context
 * and sample is decoded here (the samples' two halves side by side), so a
 * profile that does not decode is refused before anything else is
 * checked, as when the whole message was decoded.  A context, sample or
 * string field that is not length-delimited does not decode either. */
static int unpack(reader *r)
{
    static const int bulk[] = { PH_DRCC_CONTEXT, PH_DRCC_SAMPLE,
                                PH_DRCC_STRING_TABLE };
    size_t keep;
    unsigned char *rest = ph_pb_without(&r->ix, r->data, r->len, bulk, 3,
                                        &keep);
    if (!rest)
        return -1;
    r->pb = drcctprof__profile__profile__unpack(ph_pb_allocator(), keep,
                                                rest);
    free(rest);
    if (!r->pb)
        return -1;
    r->nctx = r->ix.n[PH_DRCC_CONTEXT];
    r->ctx = ph_xmalloc((r->nctx + 1) * sizeof *r->ctx);
    ph_drcc_context c = {0};
    int rc = 0;
    for (size_t i = 0; i < r->nctx; i++) {
        size_t a, b;
        if (ph_pb_record(&r->ix, r->data, r->len, PH_DRCC_CONTEXT, i, &a,
                         &b) < 0 ||
            ph_drcc_context_decode(&c, r->data + a, b - a) < 0) {
            rc = -1;
            break;
        }
        r->ctx[i] = (context){c.id, c.parent_id, c.location_id};
    }
    ph_drcc_context_free(&c);
    if (rc < 0 ||
        !ph_pb_records_check(&r->ix, r->data, r->len,
                             PH_PB_DRCC_SAMPLE))
        return -1;
    return 0;
}

int ph_drcctprof_read(ph_input *in, ph_profile *p)
{
    const unsigned char *data = ph_input_data(in);
    size_t len = ph_input_size(in);
    reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.p = p;
    r.data = data;
    r.len = len;
    ph_profile_set_format(p, "drcctprof");
    if (ph_pb_open(&r.ix, in, data, len) < 0) {
        free_reader(&r);
        return -1;
    }
    if (unpack(&r) < 0) {
        free_reader(&r);
        return ph_input_error_off(in, 0, "not a valid drcctprof profile "
                                  "(protobuf decoding failed)");
    }
    int rc = read_strings(&r);
    if (!rc)
        rc = read_metric_types(&r);
    if (!rc)
        rc = read_symbols(&r);
    if (!rc) {
        r.stock = ph_stock_start(r.nctx + r.ix.n[PH_DRCC_SAMPLE]);
        ph_profile_set_stock(p, r.stock);
        rc = read_contexts(&r);
    }
    if (!rc)
        rc = read_samples(&r);
    ph_profile_set_stock(p, NULL);
    ph_stock_free(r.stock);
    free_reader(&r);
    return rc ? -1 : 0;
}

int ph_drcctprof_sniff(const unsigned char *data, size_t len)
{
    int kind;
    int score = ph_pb_sniff_vote(data, len, &kind);
    if (score == 0 || kind != 'd')
        return 0;
    return score + 20;
}
