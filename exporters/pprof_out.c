/* pprof_out.c -- write a profile as gzipped pprof (perftools.profiles,
 * shared/formats/pprof.md) for go tool pprof and friends.  Tree data is
 * written exactly (one Sample per IR sample, labels kept); flat data goes
 * through the stack view's approximation (analysis/), with a warning.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/exporters.h"
#include "exporters/out_events.h"
#include "exporters/out_strings.h"
#include "ir/hash.h"
#include "ir/varint.h"
#include "proto/pb_fields.h"
#include "proto/pb_out.h"
#include "proto/pprof.pb-c.h"

PH_DECLARE_EXPORTER(pprof);

/* Identity of a Location: one per (object, address, chain of (function,
 * line)) when the address is known, else per chain of (function, line).
 * Keys are varints end to end: obj, addr, n, f1, l1, ..., fn, ln (a flat
 * profile's million leaves are a location each: 8-10 bytes a key, not
 * 40).
 *
 * The messages that come by the million (Sample, Location, Function, the
 * string table) are encoded by hand (proto/pb_out.h); the header, the
 * sample types and the mappings go through protobuf-c. */

typedef Perftools__Profiles__Profile PbProfile;

/* Per stack node, once its location is known: the location's id and the
 * index + 1 of the node above the location (0 at a root). */
typedef struct node_loc {
    uint32_t loc, up;
} node_loc;

typedef struct writer {
    const ph_profile *p;
    ph_output *out;
    const ph_stacks *st;
    ph_out_strings tab;
    int64_t thread_key;   /* string index of "thread" (-1 = not yet) */
    uint32_t *func_id;    /* ph_func id -> pprof id */
    const ph_func **funcs;   /* pprof id - 1 -> function */
    size_t nfuncs, capfuncs;
    uint64_t *map_id;     /* ph_object id -> pprof id */
    Perftools__Profiles__Mapping **maps;
    size_t nmaps, capmaps;
    node_loc *loc_of;     /* per stack node (loc 0 = not yet) */
    /* locations: their keys, end to end, and their mappings */
    unsigned char *keys;
    size_t nkeys, keycap;
    size_t *key_at;       /* location index -> key offset; one more: the
                           * end of the last */
    uint32_t *loc_map;    /* location index -> mapping id */
    uint32_t *loc_hash;   /* location index -> its key's hash */
    size_t nlocs, loccap;
    uint32_t *lslots;     /* hash of the keys: location index + 1 */
    size_t lmask;
    int64_t *factor;      /* per sample type: raw value -> written unit */
    size_t inexact;       /* sample types whose scale could not be kept */
    int overflow;
    ph_pb_msg msg, sub;   /* the message being encoded, a nested one */
} writer;

static uint64_t function_id(writer *w, const ph_func *f)
{
    if (w->func_id[f->id])
        return w->func_id[f->id];
    if (w->nfuncs == w->capfuncs) {   /* doubling: 10^5 functions happen */
        w->capfuncs = w->capfuncs ? 2 * w->capfuncs : 1024;
        w->funcs = ph_xrealloc(w->funcs, w->capfuncs * sizeof *w->funcs);
    }
    w->funcs[w->nfuncs++] = f;
    return w->func_id[f->id] = (uint32_t)w->nfuncs;
}

static uint64_t mapping_id(writer *w, const ph_object *o)
{
    if (!o)
        return 0;
    if (w->map_id[o->id])
        return w->map_id[o->id];
    Perftools__Profiles__Mapping *m = ph_xmalloc(sizeof *m);
    perftools__profiles__mapping__init(m);
    m->id = ++w->nmaps;
    m->memory_start = o->start;
    m->memory_limit = o->limit;
    m->file_offset = o->offset;
    m->filename = ph_out_str(&w->tab, o->name);
    m->build_id = ph_out_str(&w->tab, o->build_id);
    m->has_functions = 1;
    m->has_filenames = 1;
    m->has_line_numbers = 1;
    m->has_inline_frames = 1;
    if (w->nmaps > w->capmaps) {
        w->capmaps = 2 * w->nmaps;
        w->maps = ph_xrealloc(w->maps, w->capmaps * sizeof *w->maps);
    }
    w->maps[w->nmaps - 1] = m;
    return w->map_id[o->id] = m->id;
}

static uint32_t key_hash(const unsigned char *k, size_t n)
{
    return (uint32_t)ph_hash_bytes(k, n, 0);
}

/* Room in the hash for twice `locs` locations, put back by their hashes. */
static void size_loc_hash(writer *w, size_t locs)
{
    size_t cap = 1024;
    while (cap < 2 * locs)
        cap *= 2;
    /* read before written, at random */
    uint32_t *slots = ph_xcalloc_written(cap, sizeof *slots);
    for (size_t i = 0; i < w->nlocs; i++) {
        size_t j = w->loc_hash[i] & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)i + 1;
    }
    free(w->lslots);
    w->lslots = slots;
    w->lmask = cap - 1;
}

/* The outermost node of node i's location (an inlined frame's location
 * is its caller's too) into *top; the location's frames. */
static size_t location_top(const writer *w, uint32_t i, uint32_t *top)
{
    const ph_stk_node *nodes = w->st->nodes;
    uint32_t n = i;
    size_t depth = 1;
    while ((nodes[n].flags & PH_FRAME_INLINED) && nodes[n].parent) {
        n = nodes[n].parent - 1;
        depth++;
    }
    *top = n;
    return depth;
}

/* Bytes a key of depth frames may take. */
#define KEY_ROOM(depth) (30 + 10 * (size_t)(depth))

/* Node i's location key (depth frames, top its outermost node) into k;
 * returns its length.  Its functions are there by ph_func id: their ids in
 * the file are given as write_locations meets them, locations in the
 * order they were made, each innermost frame first. */
static size_t location_key(const writer *w, uint32_t i, uint32_t top,
                           size_t depth, unsigned char *k)
{
    const ph_stk_node *nodes = w->st->nodes;
    unsigned char *e = k;
    e = ph_put_varint(e, nodes[top].addr && nodes[top].obj
                             ? nodes[top].obj->id : 0);
    e = ph_put_varint(e, nodes[top].addr);
    e = ph_put_varint(e, depth);
    for (uint32_t d = 0, m = i; d < depth; d++) {
        e = ph_put_varint(e, nodes[m].func->id);
        e = ph_put_varint(e, nodes[m].line);
        m = nodes[m].parent ? nodes[m].parent - 1 : m;
    }
    return (size_t)(e - k);
}

/* Samples ahead of the one written whose locations are asked for, once
 * there are so many locations that their slots no longer stay in the
 * cache (a Go profile's few thousand do: asking ahead there only makes
 * each key twice). */
#define PREFETCH_AHEAD 8
#define PREFETCH_MIN_LOCS 65536

/* Ask for the cache lines node i's location will be looked up in: most
 * of a flat profile's leaves are new locations, each a miss in a table
 * of millions of slots otherwise. */
static void prefetch_location(const writer *w, uint32_t i)
{
    unsigned char k[KEY_ROOM(4)];
    uint32_t top;
    if (w->nlocs < PREFETCH_MIN_LOCS || w->loc_of[i].loc)
        return;
    size_t depth = location_top(w, i, &top);
    if (KEY_ROOM(depth) > sizeof k)
        return;
    size_t len = location_key(w, i, top, depth, k);
    __builtin_prefetch(&w->lslots[key_hash(k, len) & w->lmask]);
}

/* The id of the Location whose innermost frame is node i; sets *up to the
 * index + 1 of the node above the location (0 at a root). */
static uint32_t location_of(writer *w, uint32_t i, uint32_t *up)
{
    if (w->loc_of[i].loc) {
        *up = w->loc_of[i].up;
        return w->loc_of[i].loc;
    }
    /* Build the key at the end of the pool. */
    uint32_t n;
    size_t depth = location_top(w, i, &n);
    if (w->nkeys + KEY_ROOM(depth) > w->keycap) {
        w->keycap = 2 * (w->nkeys + KEY_ROOM(depth)) + 4096;
        w->keys = ph_xrealloc(w->keys, w->keycap);
    }
    ph_map_ahead_bytes(w->keys, w->nkeys, KEY_ROOM(depth), w->keycap);
    unsigned char *k = w->keys + w->nkeys;
    size_t need = location_key(w, i, n, depth, k);
    *up = w->loc_of[i].up = w->st->nodes[n].parent;
    if (2 * (w->nlocs + 1) > w->lmask)
        size_loc_hash(w, 2 * (w->nlocs + 1));
    uint32_t h = key_hash(k, need);
    size_t j = h & w->lmask;
    while (w->lslots[j]) {
        size_t li = w->lslots[j] - 1;
        if (w->loc_hash[li] == h &&
            w->key_at[li + 1] - w->key_at[li] == need &&
            !memcmp(w->keys + w->key_at[li], k, need))
            return w->loc_of[i].loc = (uint32_t)li + 1;
        j = (j + 1) & w->lmask;
    }
    /* A new location. */
    if (w->nlocs == w->loccap) {
        w->loccap = w->loccap ? 2 * w->loccap : 1024;
        w->key_at = ph_xrealloc(w->key_at,
                                (w->loccap + 1) * sizeof *w->key_at);
        w->loc_map = ph_xrealloc(w->loc_map, w->loccap * sizeof *w->loc_map);
        w->loc_hash = ph_xrealloc(w->loc_hash,
                                  w->loccap * sizeof *w->loc_hash);
    }
    ph_map_ahead(w->key_at, sizeof *w->key_at, w->nlocs + 1, w->loccap + 1);
    ph_map_ahead(w->loc_map, sizeof *w->loc_map, w->nlocs, w->loccap);
    ph_map_ahead(w->loc_hash, sizeof *w->loc_hash, w->nlocs, w->loccap);
    w->loc_map[w->nlocs] = (uint32_t)mapping_id(w, w->st->nodes[n].obj);
    w->loc_hash[w->nlocs] = h;
    w->nkeys += need;
    w->key_at[w->nlocs + 1] = w->nkeys;
    w->lslots[j] = (uint32_t)++w->nlocs;
    return w->loc_of[i].loc = (uint32_t)w->nlocs;
}

static Perftools__Profiles__ValueType *value_type(writer *w, int64_t type,
                                                  const char *unit)
{
    Perftools__Profiles__ValueType *vt = ph_xmalloc(sizeof *vt);
    perftools__profiles__value_type__init(vt);
    vt->type = type;
    vt->unit = ph_out_text(&w->tab, unit && *unit ? unit : "count");
    return vt;
}

static int64_t meta_i64(const ph_profile *p, const char *key)
{
    const char *v = ph_meta_get(p, key);
    int64_t x = 0;
    if (v && ph_parse_i64(v, strlen(v), &x) != strlen(v))
        x = 0;
    return x;
}

static void fill_header(writer *w, PbProfile *pb, ph_event **evs, size_t ne)
{
    const ph_profile *p = w->p;
    pb->n_sample_type = ne;
    pb->sample_type = ph_xcalloc(ne + 1, sizeof *pb->sample_type);
    w->factor = ph_xcalloc(ne + 1, sizeof *w->factor);
    for (size_t i = 0; i < ne; i++) {
        int exact;
        const char *u = ph_out_unit(p, evs[i], &w->factor[i], &exact);
        w->inexact += !exact;
        pb->sample_type[i] = value_type(w, ph_out_str(&w->tab, evs[i]->name),
                                        u);
    }
    const char *pt = ph_meta_get(p, "period_type");
    if (pt)
        pb->period_type = value_type(w, ph_out_text(&w->tab, pt),
                                     ph_meta_get(p, "period_unit"));
    pb->period = meta_i64(p, "period");
    pb->time_nanos = meta_i64(p, "time_nanos");
    pb->duration_nanos = meta_i64(p, "duration_nanos");
    pb->drop_frames = ph_out_text(&w->tab, ph_meta_get(p, "drop_frames"));
    pb->keep_frames = ph_out_text(&w->tab, ph_meta_get(p, "keep_frames"));
    pb->doc_url = ph_out_text(&w->tab, ph_meta_get(p, "doc_url"));
    int pick = ph_out_pick(p, NULL, evs, ne);
    if (pick >= 0)
        pb->default_sample_type = ph_out_str(&w->tab, evs[pick]->name);
    size_t nm = ph_meta_count(p), nc = 0;
    pb->comment = ph_xcalloc(nm + 2, sizeof *pb->comment);
    for (size_t i = 0; i < nm; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        if (!strcmp(k, "comment"))
            pb->comment[nc++] = ph_out_text(&w->tab, v);
    }
    if (w->st->approx)
        pb->comment[nc++] = ph_out_text(&w->tab, w->st->approx);
    pb->n_comment = nc;
}

/* The labels of one sample, appended to the Sample being encoded; the
 * part goes in as a "thread" label when the profile has several parts
 * and the sample has no thread label yet. */
static void add_labels(writer *w, const ph_sample *s, int many_parts)
{
    ph_pb_msg *l = &w->sub;
    ph_out_strings *t = &w->tab;
    int has_thread = 0;
    for (size_t i = 0; s && i < s->nlabels; i++) {
        const ph_label *lb = &s->labels[i];
        l->n = 0;
        ph_pb_msg_varint(l, PH_PPROF_LABEL_KEY,
                         (uint64_t)ph_out_str(t, lb->key));
        ph_pb_msg_varint(l, PH_PPROF_LABEL_STR,
                         (uint64_t)ph_out_str(t, lb->str));
        ph_pb_msg_varint(l, PH_PPROF_LABEL_NUM, (uint64_t)lb->num);
        ph_pb_msg_varint(l, PH_PPROF_LABEL_NUM_UNIT,
                         (uint64_t)ph_out_str(t, lb->num_unit));
        ph_pb_msg_bytes(&w->msg, PH_PPROF_SAMPLE_LABEL, l->b, l->n);
        if (!strncmp(ph_str_get(w->p, s->labels[i].key), "thread", 6))
            has_thread = 1;
    }
    if (many_parts && s && s->part && !has_thread) {
        if (w->thread_key < 0)
            w->thread_key = ph_out_text(&w->tab, "thread");
        int64_t num = s->part->tid >= 0 && s->part->kind == PH_PART_THREAD
                      ? s->part->tid : (int64_t)s->part->index;
        l->n = 0;
        ph_pb_msg_varint(l, PH_PPROF_LABEL_KEY, (uint64_t)w->thread_key);
        ph_pb_msg_varint(l, PH_PPROF_LABEL_NUM, (uint64_t)num);
        ph_pb_msg_bytes(&w->msg, PH_PPROF_SAMPLE_LABEL, l->b, l->n);
    }
}

/* Bytes of a varint of 64 bits. */
#define VARINT_ROOM 10

/* Write the samples of the stack view, one at a time.  A sample whose
 * location has the same node above it as the sample before (the lines of
 * a function's node, one after the other) has the same locations above:
 * their ids are kept encoded, after room for the leaf's id (six in ten of
 * the cc1 file's samples, 27 ids deep). */
static void write_samples(writer *w, ph_pb_out *ob, ph_event **evs, size_t ne)
{
    const ph_profile *p = w->p;
    int many_parts = ph_part_count(p) > 1;
    /* room for the leaf's id, then the ids above it */
    size_t cap = 64 * VARINT_ROOM, len = 0;
    unsigned char *ids = ph_xmalloc(cap);
    unsigned char *above_ids = ids + VARINT_ROOM;
    uint64_t *vals = ph_xcalloc(ne + 1, sizeof *vals);
    int64_t *buf = ph_xmalloc((w->st->width + 1) * sizeof *buf);
    uint32_t above = UINT32_MAX;   /* the node above the last leaf's */
    for (size_t i = 0; i < w->st->nsamples; i++) {
        const ph_stk_sample *ss = &w->st->samples[i];
        if (i + PREFETCH_AHEAD < w->st->nsamples)
            prefetch_location(w, w->st->samples[i + PREFETCH_AHEAD].node);
        const int64_t *cost = ph_stk_cost(w->st, i, buf);
        uint32_t up;
        unsigned char leaf[VARINT_ROOM];
        size_t leaf_len = (size_t)(ph_put_varint(leaf,
                                   location_of(w, ss->node, &up)) - leaf);
        if (up != above) {
            above = up;
            for (len = 0; up;) {
                if (VARINT_ROOM + len + VARINT_ROOM > cap) {
                    ids = ph_xrealloc(ids, cap *= 2);
                    above_ids = ids + VARINT_ROOM;
                }
                len = (size_t)(ph_put_varint(above_ids + len,
                                             location_of(w, up - 1, &up)) -
                               above_ids);
            }
        }
        memcpy(above_ids - leaf_len, leaf, leaf_len);
        for (size_t k = 0; k < ne; k++)
            vals[k] = (uint64_t)ph_out_scale(ph_out_value(p, evs[k], cost),
                                             w->factor[k], &w->overflow);
        w->msg.n = 0;
        /* packed: the ids' varints end to end, as a bytes field */
        ph_pb_msg_bytes(&w->msg, PH_PPROF_SAMPLE_LOCATION_ID,
                        above_ids - leaf_len, leaf_len + len);
        ph_pb_msg_packed(&w->msg, PH_PPROF_SAMPLE_VALUE, vals, ne);
        add_labels(w, ss->src, many_parts);
        ph_pb_out_bytes(ob, PH_PPROF_SAMPLE, w->msg.b, w->msg.n);
    }
    free(ids);
    free(vals);
    free(buf);
}

static void write_locations(writer *w, ph_pb_out *ob)
{
    ph_pb_msg *m = &w->msg, *line = &w->sub;
    for (size_t i = 0; i < w->nlocs; i++) {
        const unsigned char *k = w->keys + w->key_at[i];
        const unsigned char *end = w->keys + w->key_at[i + 1];
        uint64_t obj, addr, depth, fid, ln;
        k = ph_get_varint(k, end, &obj);
        k = ph_get_varint(k, end, &addr);
        k = ph_get_varint(k, end, &depth);
        m->n = 0;
        ph_pb_msg_varint(m, PH_PPROF_LOCATION_ID, i + 1);
        ph_pb_msg_varint(m, PH_PPROF_LOCATION_MAPPING_ID, w->loc_map[i]);
        ph_pb_msg_varint(m, PH_PPROF_LOCATION_ADDRESS, addr);
        for (uint64_t d = 0; d < depth; d++) {
            k = ph_get_varint(k, end, &fid);
            k = ph_get_varint(k, end, &ln);
            line->n = 0;
            ph_pb_msg_varint(line, PH_PPROF_LINE_FUNCTION_ID,
                             function_id(w, ph_func_at(w->p, fid - 1)));
            ph_pb_msg_varint(line, PH_PPROF_LINE_LINE, ln);
            ph_pb_msg_bytes(m, PH_PPROF_LOCATION_LINE, line->b, line->n);
        }
        ph_pb_out_bytes(ob, PH_PPROF_LOCATION, m->b, m->n);
    }
}

static void write_functions(writer *w, ph_pb_out *ob)
{
    ph_pb_msg *m = &w->msg;
    for (size_t i = 0; i < w->nfuncs; i++) {
        const ph_func *f = w->funcs[i];
        m->n = 0;
        ph_pb_msg_varint(m, PH_PPROF_FUNCTION_ID, i + 1);
        ph_pb_msg_varint(m, PH_PPROF_FUNCTION_NAME,
                         (uint64_t)ph_out_str(&w->tab, f->name));
        /* system_name only when a mangled name is known: pprof rewrites a
         * name equal to its system name ("f(int) const" -> "f const"). */
        ph_pb_msg_varint(m, PH_PPROF_FUNCTION_SYSTEM_NAME,
                         (uint64_t)ph_out_str(&w->tab, f->mangled));
        ph_pb_msg_varint(m, PH_PPROF_FUNCTION_FILENAME, f->file
                         ? (uint64_t)ph_out_str(&w->tab, f->file->name) : 0);
        ph_pb_msg_varint(m, PH_PPROF_FUNCTION_START_LINE, f->line);
        ph_pb_out_bytes(ob, PH_PPROF_FUNCTION, m->b, m->n);
    }
}

static void free_writer(writer *w, PbProfile *pb)
{
    for (size_t i = 0; i < pb->n_sample_type; i++)
        free(pb->sample_type[i]);
    free(pb->sample_type);
    free(pb->period_type);
    free(pb->comment);
    for (size_t i = 0; i < w->nmaps; i++)
        free(w->maps[i]);
    free(w->maps);
    free(w->funcs);
    free(w->func_id);
    free(w->map_id);
    free(w->factor);
    free(w->loc_of);
    free(w->keys);
    free(w->key_at);
    free(w->loc_map);
    free(w->loc_hash);
    free(w->lslots);
    ph_pb_msg_free(&w->msg);
    ph_pb_msg_free(&w->sub);
    ph_out_strings_free(&w->tab);
}

int ph_pprof_write(const ph_profile *p, ph_output *out)
{
    writer w;
    PbProfile pb;
    size_t ne;
    memset(&w, 0, sizeof w);
    perftools__profiles__profile__init(&pb);
    w.p = p;
    w.out = out;
    w.thread_key = -1;
    ph_out_strings_init(&w.tab, p);
    /* the functions' names, then the rest of the message and the other
     * strings: a repeated field's occurrences may come anywhere in a
     * message */
    ph_output_set_gzip(out);
    ph_pb_out ob;
    ph_pb_out_init(&ob, out);
    w.st = ph_out_names_and_view(&w.tab, &ob, PH_PPROF_STRING_TABLE);
    ph_stacks_warn(w.st, out);
    ph_event **evs = ph_out_events(p, out, &ne);
    w.func_id = ph_xcalloc(ph_func_count(p) + 1, sizeof *w.func_id);
    w.map_id = ph_xcalloc(ph_object_count(p) + 1, sizeof *w.map_id);
    w.loc_of = ph_xcalloc_written(w.st->nnodes + 1, sizeof *w.loc_of);
    /* room for a location per node without inlined frames, so that the
     * arrays are not copied as they grow (pages never used are never
     * touched) */
    w.loccap = w.st->nnodes + 1;
    w.key_at = ph_xmalloc((w.loccap + 1) * sizeof *w.key_at);
    w.key_at[0] = 0;
    w.loc_map = ph_xmalloc(w.loccap * sizeof *w.loc_map);
    w.loc_hash = ph_xmalloc(w.loccap * sizeof *w.loc_hash);
    size_loc_hash(&w, w.loccap);
    w.keycap = KEY_ROOM(1) * w.loccap;
    w.keys = ph_xmalloc(w.keycap);
    mapping_id(&w, ph_main_object(p));   /* pprof's main binary comes first */
    fill_header(&w, &pb, evs, ne);

    /* The sample types, the samples, the locations and functions they
     * named, the rest of the message, and the other strings. */
    for (size_t i = 0; i < pb.n_sample_type; i++)
        ph_pb_out_field(&ob, PH_PPROF_SAMPLE_TYPE, &pb.sample_type[i]->base);
    write_samples(&w, &ob, evs, ne);
    write_locations(&w, &ob);
    write_functions(&w, &ob);
    pb.n_mapping = w.nmaps;
    pb.mapping = w.maps;

    if (w.inexact)
        ph_output_drop(out, "scale", w.inexact, "event scales (values "
                       "written as raw counts: no integer factor to the unit)");
    if (w.overflow)
        ph_output_drop(out, "overflow", 1, "values saturated when scaled "
                       "to the unit");
    size_t ntypes = pb.n_sample_type;
    pb.n_sample_type = 0;         /* written first */
    ph_pb_out_message(&ob, &pb.base);
    pb.n_sample_type = ntypes;
    ph_out_strings_write(&w.tab, &ob, PH_PPROF_STRING_TABLE);
    free_writer(&w, &pb);
    free(evs);
    return 0;
}
