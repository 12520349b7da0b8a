/* pprof_in.c -- read pprof profiles (perftools.profiles.Profile, raw or
 * gzipped; ph_input unwraps gzip) into the context-tree shape of the IR.
 * Spec: shared/formats/pprof.md (profile.proto as of 2026-07).  Not
 * supported: legacy gperftools text/binary formats; drop_frames/keep_frames
 * are kept as metadata but not applied (pprof -all_frames behaviour).
 */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/importers.h"
#include "ir/idmap.h"
#include "ir/jobs.h"
#include "ir/stock.h"
#include "proto/pb_read.h"
#include "proto/pb_records.h"
#include "proto/pprof.pb-c.h"

PH_DECLARE_IMPORTER(pprof);

/* Mapping of the file onto the IR:
 *   sample_type[i]   -> real event (name = type, unit); an empty or repeated
 *                       type name becomes "value<i+1>" so every column stays
 *   period, period_type (type in "period_type", unit in "period_unit"),
 *   time_nanos, duration_nanos, comment (one entry each), drop_frames,
 *   keep_frames, default_sample_type, doc_url -> metadata
 *   Mapping          -> ph_object (by file name; first mapping's range wins)
 *   Function         -> ph_func (name, file); system_name -> mangled
 *   Location         -> frames: line[k-1] (outer) ... line[0] (innermost),
 *                       all but the outermost flagged PH_FRAME_INLINED; a
 *                       location without lines is a frame "0x<addr>"
 *   Sample           -> a walk from the root (last location) to the leaf,
 *                       values as the leaf's exclusive cost, labels kept.
 * Ids 0 are accepted for functions and locations (EasyView's fig4 file has
 * a function with id 0; pprof itself rejects it); mapping id 0 in a
 * location means "no mapping".
 * Parts: a sample with a label whose key is "thread", "thread_id", "tid"
 * or "thread_name" goes to a thread part named by that label's value (one
 * part per distinct value); other samples go to one whole-run part. */

typedef Perftools__Profiles__Profile PbProfile;

typedef struct frame {
    ph_func *func;
    uint32_t line;
    uint32_t flags;
    uint32_t index;     /* in the profile's frame table (index_frames) */
} frame;

typedef struct loc_info {
    ph_object *obj;
    uint64_t addr;
    uint32_t first;     /* index of its first frame (outermost) in frames */
    uint32_t nframes;
} loc_info;

typedef struct reader {
    ph_input *in;
    ph_profile *p;
    const PbProfile *pb;
    const unsigned char *data;
    size_t len;
    ph_pb_index ix;
    ph_pb_strtab st;        /* string table -> interned handles */
    ph_idmap maps, funcs, locs;
    ph_object **map_obj;
    ph_func **func_of;      /* made at the first location naming it */
    struct fn_text {
        ph_str name, sys, file;
        int64_t line;
    } *fn_text;
    loc_info *loc;
    frame *frames;
    size_t nframes, capframes;
    int *slot;              /* sample_type index -> event slot */
    size_t nslot;           /* sample types */
    ph_part *whole;
    ph_str thread_keys[4];
    ph_part **tparts;       /* thread parts, parallel to tvals */
    ph_label *tvals;
    size_t ntparts;
} reader;

/* A string index checked against the table; -1 after recording an error. */
static int get_str(reader *r, int64_t idx, size_t off, const char *what,
                   ph_str *out)
{
    return ph_pb_str(&r->st, idx, off, what, out);
}

static const char *str_text(reader *r, ph_str s)
{
    return ph_str_get(r->p, s);
}

static int read_strings(reader *r)
{
    return ph_pb_strtab_load(&r->st, r->in, r->p, &r->ix, r->data, r->len,
                             PH_PPROF_STRING_TABLE);
}

static void add_meta_i64(ph_profile *p, const char *key, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    ph_meta_add(p, key, buf);
}

static int read_header(reader *r)
{
    const PbProfile *pb = r->pb;
    ph_str s;
    size_t nst = r->nslot = pb->n_sample_type;
    r->slot = ph_xcalloc(nst ? nst : 1, sizeof *r->slot);
    for (size_t i = 0; i < nst; i++) {
        const Perftools__Profiles__ValueType *vt = pb->sample_type[i];
        size_t off = ph_pb_index_off(&r->ix, PH_PPROF_SAMPLE_TYPE, i);
        ph_str name, unit;
        if (get_str(r, vt->type, off, "sample type", &name) < 0 ||
            get_str(r, vt->unit, off, "sample type unit", &unit) < 0)
            return -1;
        char buf[48];
        const char *text = str_text(r, name);
        if (!*text || ph_event_find(r->p, text)) {
            snprintf(buf, sizeof buf, "value%zu", i + 1);
            text = buf;
        }
        ph_event *ev = ph_event_add(r->p, text);
        ev->unit = unit;
        r->slot[i] = ev->slot;
    }
    size_t off = 0;
    if (pb->period_type) {
        ph_str t, u;
        off = ph_pb_index_off(&r->ix, PH_PPROF_PERIOD_TYPE, 0);
        if (get_str(r, pb->period_type->type, off, "period type", &t) < 0 ||
            get_str(r, pb->period_type->unit, off, "period unit", &u) < 0)
            return -1;
        ph_meta_add(r->p, "period_type", str_text(r, t));
        ph_meta_add(r->p, "period_unit", str_text(r, u));
    }
    if (pb->period)
        add_meta_i64(r->p, "period", pb->period);
    if (pb->time_nanos)
        add_meta_i64(r->p, "time_nanos", pb->time_nanos);
    if (pb->duration_nanos)
        add_meta_i64(r->p, "duration_nanos", pb->duration_nanos);
    static const struct { int field; const char *key; } strfields[] = {
        {PH_PPROF_DROP_FRAMES, "drop_frames"},
        {PH_PPROF_KEEP_FRAMES, "keep_frames"},
        {PH_PPROF_DEFAULT_SAMPLE_TYPE, "default_sample_type"},
        {PH_PPROF_DOC_URL, "doc_url"},
    };
    for (size_t i = 0; i < sizeof strfields / sizeof strfields[0]; i++) {
        int f = strfields[i].field;
        int64_t idx = f == PH_PPROF_DROP_FRAMES ? pb->drop_frames
            : f == PH_PPROF_KEEP_FRAMES ? pb->keep_frames
            : f == PH_PPROF_DEFAULT_SAMPLE_TYPE ? pb->default_sample_type
            : pb->doc_url;
        off = ph_pb_index_off(&r->ix, strfields[i].field, 0);
        if (get_str(r, idx, off, strfields[i].key, &s) < 0)
            return -1;
        if (s)
            ph_meta_add(r->p, strfields[i].key, str_text(r, s));
    }
    /* pprof's default: default_sample_type, else the last sample type */
    const char *def = ph_meta_get(r->p, "default_sample_type");
    const ph_event *dev = def ? ph_event_find(r->p, def) : NULL;
    if (!dev && pb->n_sample_type)
        dev = ph_event_real(r->p, (size_t)r->slot[pb->n_sample_type - 1]);
    ph_profile_set_default_event(r->p, dev);
    for (size_t i = 0; i < pb->n_comment; i++) {
        off = ph_pb_index_off(&r->ix, PH_PPROF_COMMENT, 0);
        if (get_str(r, pb->comment[i], off, "comment", &s) < 0)
            return -1;
        ph_meta_add(r->p, "comment", str_text(r, s));
    }
    return 0;
}

static int read_mappings(reader *r)
{
    const PbProfile *pb = r->pb;
    ph_idmap_init(&r->maps, pb->n_mapping);
    r->map_obj = ph_xcalloc(pb->n_mapping + 1, sizeof *r->map_obj);
    for (size_t i = 0; i < pb->n_mapping; i++) {
        const Perftools__Profiles__Mapping *m = pb->mapping[i];
        size_t off = ph_pb_index_off(&r->ix, PH_PPROF_MAPPING, i);
        ph_str name, bid;
        if (get_str(r, m->filename, off, "mapping file name", &name) < 0 ||
            get_str(r, m->build_id, off, "mapping build id", &bid) < 0)
            return -1;
        if (ph_idmap_put(&r->maps, m->id, (uint32_t)i) < 0)
            return ph_input_error_off(r->in, off, "two mappings with id %"
                                      PRIu64, m->id);
        ph_object *o = ph_object_get(r->p, name);
        if (!o->start && !o->limit) {
            o->start = m->memory_start;
            o->limit = m->memory_limit;
            o->offset = m->file_offset;
        }
        if (!o->build_id)
            o->build_id = bid;
        r->map_obj[i] = o;
    }
    return 0;
}

/* The bytes [*p, *p + *n) of record i of top-level field f (a sample,
 * location or function, which the caller decodes); -1 when they are not
 * a record. */
static int record_bytes(const reader *r, int f, size_t i,
                        const unsigned char **p, size_t *n)
{
    size_t a, b;
    if (ph_pb_record(&r->ix, r->data, r->len, f, i, &a, &b) < 0)
        return -1;
    *p = r->data + a;
    *n = b - a;
    return 0;
}

/* Record i of field f, what it is, does not decode: unpack decoded every
 * such record once already, so this cannot happen. */
static int undecodable(reader *r, int f, size_t i, const char *what)
{
    return ph_input_error_off(r->in, ph_pb_index_off(&r->ix, f, i),
                              "%s %zu does not decode", what, i);
}

static int read_functions(reader *r)
{
    size_t n = r->ix.n[PH_PPROF_FUNCTION], len;
    const unsigned char *p;
    ph_idmap_init(&r->funcs, n);
    ph_funcs_reserve(r->p, n);  /* a function per record at most (func_at) */
    r->func_of = ph_xcalloc(n + 1, sizeof *r->func_of);
    r->fn_text = ph_xcalloc(n + 1, sizeof *r->fn_text);
    for (size_t i = 0; i < n; i++) {
        ph_pprof_function fn = {0};
        size_t off = ph_pb_index_off(&r->ix, PH_PPROF_FUNCTION, i);
        ph_str name, sys, file;
        if (record_bytes(r, PH_PPROF_FUNCTION, i, &p, &len) < 0 ||
            ph_pprof_function_decode(&fn, p, len) < 0)
            return undecodable(r, PH_PPROF_FUNCTION, i, "function");
        if (get_str(r, fn.name, off, "function name", &name) < 0 ||
            get_str(r, fn.system_name, off, "function system name",
                    &sys) < 0 ||
            get_str(r, fn.filename, off, "function file name", &file) < 0)
            return -1;
        if (ph_idmap_put(&r->funcs, fn.id, (uint32_t)i) < 0)
            return ph_input_error_off(r->in, off, "two functions with id %"
                                      PRIu64, fn.id);
        r->fn_text[i] = (struct fn_text){name, sys, file, fn.start_line};
    }
    return 0;
}

/* The function of Function i, made at the first location that names it:
 * a pprof Function has no mapping, its locations do, so the function
 * belongs to the object of the first location (go tool pprof shows the
 * mapping's file for it). */
static ph_func *func_at(reader *r, size_t i, ph_object *obj)
{
    const struct fn_text *t = &r->fn_text[i];
    if (!r->func_of[i])
        r->func_of[i] = ph_pb_func(r->p, t->name, t->sys, t->file, t->line,
                                   obj);
    return r->func_of[i];
}

/* Room for n more frames. */
static frame *more_frames(reader *r, size_t n)
{
    if (r->nframes + n > r->capframes) {
        r->capframes = 2 * (r->nframes + n) + 64;
        r->frames = ph_xrealloc(r->frames, r->capframes * sizeof *r->frames);
    }
    ph_map_ahead_bytes(r->frames, r->nframes * sizeof *r->frames,
                       n * sizeof *r->frames, r->capframes * sizeof *r->frames);
    memset(r->frames + r->nframes, 0, n * sizeof *r->frames);
    return r->frames + r->nframes;
}

/* The tables read_locations fills, their pages written (a fault each):
 * made on another thread while this one reads the names (read_names). */
static void make_location_tables(reader *r)
{
    size_t n = r->ix.n[PH_PPROF_LOCATION];
    r->loc = ph_xcalloc_written(n + 1, sizeof *r->loc);
    r->capframes = n + 64;      /* a frame a location at least */
    r->frames = ph_xcalloc_written(r->capframes, sizeof *r->frames);
}

static int read_locations(reader *r)
{
    size_t n = r->ix.n[PH_PPROF_LOCATION], len;
    const unsigned char *p;
    ph_pprof_location l = {0};
    int rc = 0;
    ph_idmap_init(&r->locs, n);
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t off = ph_pb_index_off(&r->ix, PH_PPROF_LOCATION, i);
        loc_info *li = &r->loc[i];
        if (record_bytes(r, PH_PPROF_LOCATION, i, &p, &len) < 0 ||
            ph_pprof_location_decode(&l, p, len) < 0) {
            rc = undecodable(r, PH_PPROF_LOCATION, i, "location");
            break;
        }
        if (ph_idmap_put(&r->locs, l.id, (uint32_t)i) < 0) {
            rc = ph_input_error_off(r->in, off, "two locations with id %"
                                    PRIu64, l.id);
            break;
        }
        if (l.mapping_id) {
            int64_t m = ph_idmap_get(&r->maps, l.mapping_id);
            if (m < 0) {
                rc = ph_input_error_off(r->in, off, "location %" PRIu64
                                        " names unknown mapping id %" PRIu64,
                                        l.id, l.mapping_id);
                break;
            }
            li->obj = r->map_obj[m];
        }
        li->addr = l.address;
        li->first = (uint32_t)r->nframes;
        if (l.n_line == 0) {
            char buf[32];
            snprintf(buf, sizeof buf, "0x%" PRIx64, l.address);
            frame *fr = more_frames(r, 1);
            fr->func = ph_func_get(r->p, ph_str_intern0(r->p, buf), NULL,
                                   li->obj);
            r->nframes++;
            li->nframes = 1;
            continue;
        }
        frame *fr = more_frames(r, l.n_line);
        for (size_t k = l.n_line; k-- > 0; fr++) {
            const ph_pprof_line *ln = &l.line[k];
            int64_t f = ph_idmap_get(&r->funcs, ln->function_id);
            if (f < 0) {
                rc = ph_input_error_off(r->in, off, "location %" PRIu64
                                        " names unknown function id %"
                                        PRIu64, l.id, ln->function_id);
                break;
            }
            fr->func = func_at(r, (size_t)f, li->obj);
            fr->line = ph_pb_line(ln->line);
            fr->flags = k + 1 < l.n_line ? PH_FRAME_INLINED : 0;
        }
        r->nframes += l.n_line;
        li->nframes = (uint32_t)l.n_line;
    }
    ph_pprof_location_free(&l);
    return rc;
}

static int is_thread_key(reader *r, ph_str key)
{
    for (int i = 0; i < 4; i++)
        if (key == r->thread_keys[i])
            return 1;
    return 0;
}

/* The part of a sample, from its thread label if it has one. */
static ph_part *part_for(reader *r, const ph_label *lab, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!lab[i].key || !is_thread_key(r, lab[i].key))
            continue;
        for (size_t k = 0; k < r->ntparts; k++)
            if (r->tvals[k].str == lab[i].str &&
                r->tvals[k].num == lab[i].num)
                return r->tparts[k];
        r->tparts = ph_xrealloc(r->tparts, (r->ntparts + 1) *
                                sizeof *r->tparts);
        r->tvals = ph_xrealloc(r->tvals, (r->ntparts + 1) * sizeof *r->tvals);
        ph_part *pt = ph_part_add(r->p, PH_PART_THREAD);
        char buf[64];
        if (lab[i].str) {
            snprintf(buf, sizeof buf, "thread %s", str_text(r, lab[i].str));
        } else {
            snprintf(buf, sizeof buf, "thread %" PRId64, lab[i].num);
            pt->tid = lab[i].num;
        }
        pt->name = ph_str_intern0(r->p, buf);
        r->tparts[r->ntparts] = pt;
        r->tvals[r->ntparts++] = lab[i];
        return pt;
    }
    if (!r->whole)
        r->whole = ph_part_add(r->p, PH_PART_WHOLE);
    return r->whole;
}

/* Every location's frames given their index in the profile's frame table,
 * in location order, on a thread of their own while this one reads the
 * samples (ph_frame_index writes only the frame table): a fifth of the
 * tree's time on a big profile, taken off its thread.  Nothing is ordered
 * by the indices, so the order they are made in does not show. */
typedef struct frame_indexer {
    reader *r;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t done;            /* locations indexed: atomic, raised under mu */
} frame_indexer;

#define INDEX_STEP 1024     /* locations indexed between two reports */

static void index_frames(frame_indexer *x)
{
    const reader *r = x->r;
    size_t n = r->ix.n[PH_PPROF_LOCATION];
    ph_frames_reserve(r->p, r->nframes);   /* its pages written here */
    for (size_t i = 0; i < n;) {
        size_t end = n - i > INDEX_STEP ? i + INDEX_STEP : n;
        for (; i < end; i++) {
            const loc_info *L = &r->loc[i];
            for (uint32_t j = 0; j < L->nframes; j++) {
                frame *fr = &r->frames[L->first + j];
                fr->index = ph_frame_index(r->p, fr->func, L->obj, L->addr,
                                           fr->line, fr->flags);
            }
        }
        pthread_mutex_lock(&x->mu);
        __atomic_store_n(&x->done, end, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&x->cv);
        pthread_mutex_unlock(&x->mu);
    }
}

/* Until the frames of the first n locations have their index. */
static void wait_indexed(frame_indexer *x, size_t n)
{
    if (__atomic_load_n(&x->done, __ATOMIC_ACQUIRE) >= n)
        return;
    pthread_mutex_lock(&x->mu);
    while (x->done < n)
        pthread_cond_wait(&x->cv, &x->mu);
    pthread_mutex_unlock(&x->mu);
}

/* The previous sample's stack from the root, location by location, with
 * the node each reached: the samples of a profile share their first
 * frames, and a node found again needs no look-up in the tree. */
typedef struct path_cache {
    uint64_t *loc;
    ph_node **node;
    size_t n, cap;
} path_cache;

static void path_set(path_cache *c, size_t depth, uint64_t loc,
                     ph_node *node)
{
    if (depth >= c->cap) {
        c->cap = 2 * depth + 64;
        c->loc = ph_xrealloc(c->loc, c->cap * sizeof *c->loc);
        c->node = ph_xrealloc(c->node, c->cap * sizeof *c->node);
    }
    c->loc[depth] = loc;
    c->node[depth] = node;
}

static int read_samples(reader *r, frame_indexer *x)
{
    path_cache path = {0};
    size_t nst = r->nslot;
    int64_t *vals = ph_xcalloc(ph_event_nreal(r->p) + 1, sizeof *vals);
    ph_label *labs = NULL;
    size_t labcap = 0;
    int rc = 0;
    static const char *const tkeys[4] = {"thread", "thread_id", "tid",
                                         "thread_name"};
    for (int i = 0; i < 4; i++)
        r->thread_keys[i] = ph_str_intern0(r->p, tkeys[i]);
    ph_stock *stock = ph_stock_start(r->ix.n[PH_PPROF_SAMPLE]);
    ph_profile_set_stock(r->p, stock);
    ph_pprof_sample sample = {0}, *s = &sample;
    for (size_t i = 0; i < r->ix.n[PH_PPROF_SAMPLE] && rc == 0; i++) {
        size_t off = ph_pb_index_off(&r->ix, PH_PPROF_SAMPLE, i), len;
        const unsigned char *p;
        if (record_bytes(r, PH_PPROF_SAMPLE, i, &p, &len) < 0 ||
            ph_pprof_sample_decode(s, p, len) < 0) {
            rc = undecodable(r, PH_PPROF_SAMPLE, i, "sample");
            break;
        }
        if (s->n_value != nst) {
            rc = ph_input_error_off(r->in, off, "sample %zu has %zu values "
                                    "but the profile has %zu sample types",
                                    i, s->n_value, nst);
            break;
        }
        memset(vals, 0, (ph_event_nreal(r->p) + 1) * sizeof *vals);
        for (size_t k = 0; k < nst; k++)
            vals[r->slot[k]] = (int64_t)s->value[k];
        if (s->n_label > labcap) {
            labcap = s->n_label;
            labs = ph_xrealloc(labs, labcap * sizeof *labs);
        }
        for (size_t k = 0; k < s->n_label && rc == 0; k++) {
            const ph_pprof_label *l = &s->label[k];
            ph_label *o = &labs[k];
            o->num = l->num;
            if (get_str(r, l->key, off, "label key", &o->key) < 0 ||
                get_str(r, l->str, off, "label value", &o->str) < 0 ||
                get_str(r, l->num_unit, off, "label unit", &o->num_unit) < 0)
                rc = -1;
        }
        if (rc)
            break;
        ph_node *node = NULL;
        size_t depth = 0, same = 1;
        for (size_t k = s->n_location_id; k-- > 0; depth++) {
            uint64_t id = s->location_id[k];
            if (same && depth < path.n && path.loc[depth] == id) {
                node = path.node[depth];
                continue;
            }
            same = 0;
            int64_t li = ph_idmap_get(&r->locs, id);
            if (li < 0) {
                rc = ph_input_error_off(r->in, off, "sample %zu names "
                                        "unknown location id %" PRIu64, i,
                                        id);
                break;
            }
            const loc_info *L = &r->loc[li];
            wait_indexed(x, (size_t)li + 1);
            for (uint32_t j = 0; j < L->nframes; j++)
                node = ph_node_child_at(r->p, node,
                                        r->frames[L->first + j].index);
            path_set(&path, depth, id, node);
        }
        path.n = rc ? 0 : depth;
        if (rc)
            break;
        if (!node) {
            /* A sample without a stack: keep its value on a frame that
             * says so, as pprof does not drop it either (a frame made
             * here, once the other side has made all of theirs). */
            wait_indexed(x, r->ix.n[PH_PPROF_LOCATION]);
            ph_func *f = ph_func_get(r->p, ph_str_intern0(r->p, "<no stack>"),
                                     NULL, NULL);
            node = ph_node_child(r->p, NULL, f, NULL, 0, 0, 0);
        }
        ph_sample_add(r->p, node, part_for(r, labs, s->n_label), vals,
                      ph_event_nreal(r->p), labs, s->n_label);
        if ((i & 4095) == 0) {
            /* the samples are read last: the bytes before are done */
            ph_input_release(r->in, off);
            ph_input_progress(r->in, off);
            ph_stock_progress(stock, i);
        }
    }
    ph_profile_set_stock(r->p, NULL);
    ph_stock_free(stock);
    ph_pprof_sample_free(&sample);
    free(vals);
    free(labs);
    free(path.loc);
    free(path.node);
    return rc;
}

typedef struct read_side {
    frame_indexer *x;
    int samples;            /* this side reads the samples, the other
                               indexes the frames */
    int rc;
} read_side;

static void read_side_run(void *arg)
{
    read_side *s = arg;
    if (s->samples)
        s->rc = read_samples(s->x->r, s->x);
    else
        index_frames(s->x);
}

/* The samples' context tree, the frames indexed beside it (alone: all of
 * them first). */
static int read_tree(reader *r)
{
    frame_indexer x = {.r = r};
    read_side frames = {&x, 0, 0}, samples = {&x, 1, 0};
    pthread_mutex_init(&x.mu, NULL);
    pthread_cond_init(&x.cv, NULL);
    ph_run_beside(read_side_run, &frames, &samples);
    pthread_mutex_destroy(&x.mu);
    pthread_cond_destroy(&x.cv);
    return samples.rc;
}

/* The part protobuf-c decoded (the header and mappings), once read. */
static void free_message(reader *r)
{
    if (r->pb)
        perftools__profiles__profile__free_unpacked((PbProfile *)r->pb,
                                                    ph_pb_allocator());
    r->pb = NULL;
}

typedef struct names_side {
    reader *r;
    int tables;             /* this side makes the locations' tables, the
                               other reads the names */
    int rc;
} names_side;

static void names_side_run(void *arg)
{
    names_side *s = arg;
    reader *r = s->r;
    if (s->tables) {
        make_location_tables(r);
        return;
    }
    s->rc = read_strings(r);
    if (!s->rc)
        s->rc = read_header(r);
    if (!s->rc)
        s->rc = read_mappings(r);
    free_message(r);
    if (!s->rc)
        s->rc = read_functions(r);
}

/* The strings, header, mappings and functions, the locations' tables
 * made beside them (they write different fields of r). */
static int read_names(reader *r)
{
    names_side tables = {.r = r, .tables = 1}, names = {.r = r};
    ph_run_beside(names_side_run, &tables, &names);
    return names.rc;
}

static void free_reader(reader *r)
{
    ph_pb_index_free(&r->ix);
    ph_pb_strtab_free(&r->st);
    ph_idmap_free(&r->maps);
    ph_idmap_free(&r->funcs);
    ph_idmap_free(&r->locs);
    free(r->map_obj);
    free(r->func_of);
    free(r->fn_text);
    free(r->loc);
    free(r->frames);
    free(r->slot);
    free(r->tparts);
    free(r->tvals);
    free_message(r);
}

/* The message without its samples, locations, functions and strings,
 * which are most of a big profile's bytes and, decoded all at once, took
 * a block or more of memory for each: the other fields are copied out and
 * decoded by protobuf-c, those records are decoded by hand one at a time
 * as they are read (proto/pb_records.h; the strings interned from the
 * message's bytes, proto/pb_read.h).  Every one of them is decoded once here
 * too (its two halves side by side), so a profile that does not decode is
 * refused before anything else is checked, as when the whole message was
 * decoded.  Such a field that is not a message does not decode either. */
static PbProfile *unpack(reader *r)
{
    static const ph_pb_record_kind kinds[] = {
        PH_PB_PPROF_SAMPLE, PH_PB_PPROF_LOCATION, PH_PB_PPROF_FUNCTION };
    int by_hand[4];
    size_t keep;
    for (size_t k = 0; k < 3; k++)
        by_hand[k] = ph_pb_record_field(kinds[k]);
    by_hand[3] = PH_PPROF_STRING_TABLE;
    unsigned char *rest = ph_pb_without(&r->ix, r->data, r->len, by_hand, 4,
                                        &keep);
    if (!rest)
        return NULL;
    PbProfile *pb = perftools__profiles__profile__unpack(ph_pb_allocator(),
                                                         keep, rest);
    free(rest);
    for (size_t k = 0; pb && k < 3; k++)
        if (!ph_pb_records_check(&r->ix, r->data, r->len, kinds[k])) {
            perftools__profiles__profile__free_unpacked(pb,
                                                        ph_pb_allocator());
            return NULL;
        }
    return pb;
}

int ph_pprof_read(ph_input *in, ph_profile *p)
{
    const unsigned char *data = ph_input_data(in);
    size_t len = ph_input_size(in);
    reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.p = p;
    r.data = data;
    r.len = len;
    ph_profile_set_format(p, "pprof");
    if (ph_pb_open(&r.ix, in, data, len) < 0) {
        free_reader(&r);
        return -1;
    }
    if (r.ix.n[PH_PPROF_TIME_NANOS] > 1) {
        int rc = ph_input_error_off(in, ph_pb_index_off(&r.ix,
                                                        PH_PPROF_TIME_NANOS,
                                                        1),
                                    "concatenated profiles detected "
                                    "(time_nanos appears twice)");
        free_reader(&r);
        return rc;
    }
    r.pb = unpack(&r);
    if (!r.pb) {
        free_reader(&r);
        return ph_input_error_off(in, 0, "not a valid pprof profile "
                                  "(protobuf decoding failed)");
    }
    int rc = read_names(&r);
    if (!rc)
        rc = read_locations(&r);
    if (!rc)
        rc = read_tree(&r);
    if (!rc && ph_part_count(p) == 0)
        ph_part_add(p, PH_PART_WHOLE);
    free_reader(&r);
    return rc ? -1 : 0;
}

int ph_pprof_sniff(const unsigned char *data, size_t len)
{
    int kind;
    int score = ph_pb_sniff_vote(data, len, &kind);
    if (score == 0 || kind == 'd')
        return 0;
    return kind == 'p' ? score + 20 : score;
}
