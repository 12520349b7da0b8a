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
#include "proto/pb_fields.h"
#include "proto/pb_out.h"
#include "proto/pprof.pb-c.h"

PH_DECLARE_EXPORTER(pprof);

/* Identity of a Location: one per (object, address, chain of (function,
 * line)) when the address is known, else per chain of (function, line).
 * Keys are uint64 sequences: [obj, addr, n, f1, l1, ..., fn, ln]. */

typedef Perftools__Profiles__Profile PbProfile;
typedef Perftools__Profiles__Location PbLocation;
typedef Perftools__Profiles__Line PbLine;

typedef struct strtab {
    char **s;             /* pointers into the profile or static text */
    size_t n, cap;
    uint32_t *slots;      /* hash: index + 1 */
    size_t mask;
    int64_t *by_str;      /* ph_str -> index + 1 (0 = not yet) */
} strtab;

typedef struct writer {
    const ph_profile *p;
    ph_output *out;
    const ph_stacks *st;
    strtab tab;
    uint64_t *func_id;    /* ph_func id -> pprof id */
    uint64_t *map_id;     /* ph_object id -> pprof id */
    Perftools__Profiles__Function **funcs;
    size_t nfuncs, capfuncs;
    Perftools__Profiles__Mapping **maps;
    size_t nmaps, capmaps;
    PbLocation **locs;
    size_t nlocs, loccap;
    uint64_t *loc_of;     /* stack node -> location id (0 = not yet) */
    /* location dedup */
    uint64_t *keys;
    size_t nkeys, keycap;
    size_t *key_at;       /* location index -> key offset */
    int64_t *factor;      /* per sample type: raw value -> written unit */
    size_t inexact;       /* sample types whose scale could not be kept */
    int overflow;
    uint32_t *lslots;
    size_t lmask;
    /* one sample's labels, reused from sample to sample */
    Perftools__Profiles__Label *labels, **label_at;
    size_t label_cap;
} writer;

static uint64_t hash_bytes(const void *d, size_t n)
{
    const unsigned char *b = d;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static void strtab_grow(strtab *t)
{
    size_t cap = t->mask ? 2 * (t->mask + 1) : 1024;
    uint32_t *slots = ph_xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < t->n; i++) {
        size_t j = hash_bytes(t->s[i], strlen(t->s[i])) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->mask = cap - 1;
}

static int64_t str_index(strtab *t, const char *s)
{
    if (!s || !*s)
        return 0;
    if (2 * (t->n + 1) > t->mask)
        strtab_grow(t);
    size_t j = hash_bytes(s, strlen(s)) & t->mask;
    while (t->slots[j]) {
        if (!strcmp(t->s[t->slots[j] - 1], s))
            return t->slots[j] - 1;
        j = (j + 1) & t->mask;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->s = ph_xrealloc(t->s, t->cap * sizeof *t->s);
    }
    t->s[t->n] = (char *)s;
    t->slots[j] = (uint32_t)++t->n;
    return (int64_t)t->n - 1;
}

static int64_t str_of(writer *w, ph_str s)
{
    if (!s)
        return 0;
    if (!w->tab.by_str[s])
        w->tab.by_str[s] = str_index(&w->tab, ph_str_get(w->p, s)) + 1;
    return w->tab.by_str[s] - 1;
}

static uint64_t function_id(writer *w, const ph_func *f)
{
    if (w->func_id[f->id])
        return w->func_id[f->id];
    Perftools__Profiles__Function *pf = ph_xmalloc(sizeof *pf);
    perftools__profiles__function__init(pf);
    pf->id = ++w->nfuncs;
    pf->name = str_of(w, f->name);
    /* system_name only when a mangled name is known: pprof rewrites a
     * name equal to its system name ("f(int) const" -> "f const"). */
    pf->system_name = str_of(w, f->mangled);
    pf->filename = f->file ? str_of(w, f->file->name) : 0;
    pf->start_line = f->line;
    if (w->nfuncs > w->capfuncs) {   /* doubling: 10^5 functions happen */
        w->capfuncs = 2 * w->nfuncs;
        w->funcs = ph_xrealloc(w->funcs, w->capfuncs * sizeof *w->funcs);
    }
    w->funcs[w->nfuncs - 1] = pf;
    return w->func_id[f->id] = pf->id;
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
    m->filename = str_of(w, o->name);
    m->build_id = str_of(w, o->build_id);
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

static void grow_loc_hash(writer *w)
{
    size_t cap = w->lmask ? 2 * (w->lmask + 1) : 1024;
    uint32_t *slots = ph_xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < w->nlocs; i++) {
        const uint64_t *k = w->keys + w->key_at[i];
        size_t j = hash_bytes(k, (3 + 2 * k[2]) * 8) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)i + 1;
    }
    free(w->lslots);
    w->lslots = slots;
    w->lmask = cap - 1;
}

/* The Location whose innermost frame is node i; sets *up to the index + 1
 * of the node above the location (0 at a root). */
static uint64_t location_of(writer *w, uint32_t i, uint32_t *up)
{
    const ph_stk_node *nodes = w->st->nodes;
    uint32_t n = i, depth = 1;
    while ((nodes[n].flags & PH_FRAME_INLINED) && nodes[n].parent) {
        n = nodes[n].parent - 1;
        depth++;
    }
    *up = nodes[n].parent;
    if (w->loc_of[i])
        return w->loc_of[i];
    /* Build the key at the end of the pool. */
    size_t need = 3 + 2 * (size_t)depth;
    if (w->nkeys + need > w->keycap) {
        w->keycap = 2 * (w->nkeys + need) + 1024;
        w->keys = ph_xrealloc(w->keys, w->keycap * sizeof *w->keys);
    }
    uint64_t *k = w->keys + w->nkeys;
    const ph_stk_node *top = &nodes[n];
    k[0] = top->addr && top->obj ? top->obj->id : 0;
    k[1] = top->addr;
    k[2] = depth;
    uint32_t m = i;
    for (uint32_t d = 0; d < depth; d++) {
        k[3 + 2 * d] = function_id(w, nodes[m].func);
        k[4 + 2 * d] = nodes[m].line;
        m = nodes[m].parent ? nodes[m].parent - 1 : m;
    }
    if (2 * (w->nlocs + 1) > w->lmask)
        grow_loc_hash(w);
    size_t j = hash_bytes(k, need * 8) & w->lmask;
    while (w->lslots[j]) {
        size_t li = w->lslots[j] - 1;
        if (!memcmp(w->keys + w->key_at[li], k, need * 8))
            return w->loc_of[i] = li + 1;
        j = (j + 1) & w->lmask;
    }
    /* New location. */
    if (w->nlocs == w->loccap) {
        w->loccap = w->loccap ? 2 * w->loccap : 1024;
        w->locs = ph_xrealloc(w->locs, w->loccap * sizeof *w->locs);
        w->key_at = ph_xrealloc(w->key_at, w->loccap * sizeof *w->key_at);
    }
    PbLocation *L = ph_xmalloc(sizeof *L);
    perftools__profiles__location__init(L);
    L->id = w->nlocs + 1;
    L->mapping_id = mapping_id(w, top->obj);
    L->address = top->addr;
    L->n_line = depth;
    L->line = ph_xcalloc(depth, sizeof *L->line);
    PbLine *lines = ph_xcalloc(depth, sizeof *lines);
    for (uint32_t d = 0; d < depth; d++) {
        perftools__profiles__line__init(&lines[d]);
        lines[d].function_id = k[3 + 2 * d];
        lines[d].line = (int64_t)k[4 + 2 * d];
        L->line[d] = &lines[d];
    }
    w->locs[w->nlocs] = L;
    w->key_at[w->nlocs] = w->nkeys;
    w->nkeys += need;
    w->lslots[j] = (uint32_t)++w->nlocs;
    return w->loc_of[i] = L->id;
}

static Perftools__Profiles__ValueType *value_type(writer *w, const char *t,
                                                  const char *u)
{
    Perftools__Profiles__ValueType *vt = ph_xmalloc(sizeof *vt);
    perftools__profiles__value_type__init(vt);
    vt->type = str_index(&w->tab, t);
    vt->unit = str_index(&w->tab, u && *u ? u : "count");
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
        pb->sample_type[i] = value_type(w, ph_str_get(p, evs[i]->name), u);
    }
    const char *pt = ph_meta_get(p, "period_type");
    if (pt)
        pb->period_type = value_type(w, pt, ph_meta_get(p, "period_unit"));
    pb->period = meta_i64(p, "period");
    pb->time_nanos = meta_i64(p, "time_nanos");
    pb->duration_nanos = meta_i64(p, "duration_nanos");
    pb->drop_frames = str_index(&w->tab, ph_meta_get(p, "drop_frames"));
    pb->keep_frames = str_index(&w->tab, ph_meta_get(p, "keep_frames"));
    pb->doc_url = str_index(&w->tab, ph_meta_get(p, "doc_url"));
    int pick = ph_out_pick(p, NULL, evs, ne);
    if (pick >= 0)
        pb->default_sample_type = str_index(&w->tab,
                                            ph_str_get(p, evs[pick]->name));
    size_t nm = ph_meta_count(p), nc = 0;
    pb->comment = ph_xcalloc(nm + 2, sizeof *pb->comment);
    for (size_t i = 0; i < nm; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        if (!strcmp(k, "comment"))
            pb->comment[nc++] = str_index(&w->tab, v);
    }
    if (w->st->approx)
        pb->comment[nc++] = str_index(&w->tab, w->st->approx);
    pb->n_comment = nc;
}

/* Labels of one sample (in the writer's label buffer, valid until the
 * next call); the part goes in as a "thread" label when the profile has
 * several parts and the sample has no thread label yet. */
static Perftools__Profiles__Label **make_labels(writer *w, const ph_sample *s,
                                                size_t *n, int many_parts)
{
    size_t nl = s ? s->nlabels : 0;
    Perftools__Profiles__Label *l;
    int has_thread = 0;
    if (nl + 1 > w->label_cap) {
        w->label_cap = 2 * (nl + 1);
        w->labels = ph_xrealloc(w->labels, w->label_cap * sizeof *w->labels);
        w->label_at = ph_xrealloc(w->label_at,
                                  w->label_cap * sizeof *w->label_at);
    }
    l = w->labels;
    for (size_t i = 0; i < nl; i++) {
        perftools__profiles__label__init(&l[i]);
        l[i].key = str_of(w, s->labels[i].key);
        l[i].str = str_of(w, s->labels[i].str);
        l[i].num = s->labels[i].num;
        l[i].num_unit = str_of(w, s->labels[i].num_unit);
        w->label_at[i] = &l[i];
        if (!strncmp(ph_str_get(w->p, s->labels[i].key), "thread", 6))
            has_thread = 1;
    }
    if (many_parts && s && s->part && !has_thread) {
        perftools__profiles__label__init(&l[nl]);
        l[nl].key = str_index(&w->tab, "thread");
        if (s->part->tid >= 0 && s->part->kind == PH_PART_THREAD)
            l[nl].num = s->part->tid;
        else
            l[nl].num = s->part->index;
        w->label_at[nl] = &l[nl];
        nl++;
    }
    *n = nl;
    return nl ? w->label_at : NULL;
}

/* Write the samples of the stack view, one at a time. */
static void write_samples(writer *w, ph_pb_out *ob, ph_event **evs, size_t ne)
{
    const ph_profile *p = w->p;
    int many_parts = ph_part_count(p) > 1;
    size_t cap = 64;
    uint64_t *ids = ph_xmalloc(cap * sizeof *ids);
    int64_t *vals = ph_xcalloc(ne + 1, sizeof *vals);
    for (size_t i = 0; i < w->st->nsamples; i++) {
        const ph_stk_sample *ss = &w->st->samples[i];
        Perftools__Profiles__Sample s;
        perftools__profiles__sample__init(&s);
        for (uint32_t up = ss->node + 1; up;) {
            uint32_t next;
            if (s.n_location_id == cap)
                ids = ph_xrealloc(ids, (cap *= 2) * sizeof *ids);
            ids[s.n_location_id++] = location_of(w, up - 1, &next);
            up = next;
        }
        s.location_id = ids;
        s.value = vals;
        s.n_value = ne;
        for (size_t k = 0; k < ne; k++)
            vals[k] = ph_out_scale(ph_out_value(p, evs[k], ss->cost),
                                   w->factor[k], &w->overflow);
        s.label = make_labels(w, ss->src, &s.n_label, many_parts);
        ph_pb_out_field(ob, PH_PPROF_SAMPLE, &s.base);
    }
    free(ids);
    free(vals);
}

static void free_writer(writer *w, PbProfile *pb)
{
    for (size_t i = 0; i < pb->n_sample_type; i++)
        free(pb->sample_type[i]);
    free(pb->sample_type);
    free(pb->period_type);
    free(pb->comment);
    for (size_t i = 0; i < w->nlocs; i++) {
        free(w->locs[i]->line[0]);
        free(w->locs[i]->line);
        free(w->locs[i]);
    }
    for (size_t i = 0; i < w->nfuncs; i++)
        free(w->funcs[i]);
    for (size_t i = 0; i < w->nmaps; i++)
        free(w->maps[i]);
    free(w->locs);
    free(w->funcs);
    free(w->maps);
    free(w->func_id);
    free(w->map_id);
    free(w->factor);
    free(w->loc_of);
    free(w->keys);
    free(w->key_at);
    free(w->lslots);
    free(w->labels);
    free(w->label_at);
    free(w->tab.s);
    free(w->tab.slots);
    free(w->tab.by_str);
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
    w.st = ph_stacks_of(p);
    ph_stacks_warn(w.st, out);
    ph_event **evs = ph_out_events(p, out, &ne);
    w.tab.by_str = ph_xcalloc(ph_str_count(p) + 1, sizeof *w.tab.by_str);
    w.tab.cap = 1024;             /* entry 0 is "" */
    w.tab.s = ph_xmalloc(w.tab.cap * sizeof *w.tab.s);
    w.tab.s[w.tab.n++] = "";
    w.func_id = ph_xcalloc(ph_func_count(p) + 1, sizeof *w.func_id);
    w.map_id = ph_xcalloc(ph_object_count(p) + 1, sizeof *w.map_id);
    w.loc_of = ph_xcalloc(w.st->nnodes + 1, sizeof *w.loc_of);
    mapping_id(&w, ph_main_object(p));   /* pprof's main binary comes first */
    fill_header(&w, &pb, evs, ne);

    /* The sample types, the samples, then the rest of the message. */
    ph_output_set_gzip(out);
    ph_pb_out ob;
    ph_pb_out_init(&ob, out);
    for (size_t i = 0; i < pb.n_sample_type; i++)
        ph_pb_out_field(&ob, PH_PPROF_SAMPLE_TYPE, &pb.sample_type[i]->base);
    write_samples(&w, &ob, evs, ne);
    pb.n_location = w.nlocs;
    pb.location = w.locs;
    pb.n_function = w.nfuncs;
    pb.function = w.funcs;
    pb.n_mapping = w.nmaps;
    pb.mapping = w.maps;
    pb.n_string_table = w.tab.n;
    pb.string_table = w.tab.s;

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
    free_writer(&w, &pb);
    free(evs);
    return 0;
}
