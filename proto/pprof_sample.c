/* pprof_sample.c -- pprof's Sample message decoded by hand (see
 * pprof_sample.h): message Sample { repeated uint64 location_id = 1;
 * repeated int64 value = 2; repeated Label label = 3; } and message Label
 * { int64 key = 1; int64 str = 2; int64 num = 3; int64 num_unit = 4; }.
 * A repeated number may come packed or one by one, mixed; a Label field
 * seen twice keeps the last; unknown fields are skipped.  What protobuf-c
 * refuses is refused: tests/unit/pprof_test.c decodes mutated real
 * samples both ways. */
#include "config.h"

#include <stdlib.h>

#include "ir.h"
#include "proto/pb_fields.h"
#include "proto/pb_read.h"
#include "proto/pprof_sample.h"

typedef struct cursor {
    const unsigned char *p, *end;
} cursor;

/* A varint of at most 10 bytes; -1 when truncated or longer. */
static int get_varint(cursor *c, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->p == c->end)
            return -1;
        unsigned char b = *c->p++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* A field's key: its number (1 .. 2^29 - 1) and wire type. */
static int get_key(cursor *c, uint64_t *field, unsigned *wt)
{
    uint64_t k;
    if (get_varint(c, &k) < 0 || (k >> 3) == 0 || (k >> 3) > 0x1fffffff)
        return -1;
    *field = k >> 3;
    *wt = (unsigned)(k & 7);
    return 0;
}

/* The payload of a length-delimited field, as a cursor of its own. */
static int get_bytes(cursor *c, cursor *in)
{
    uint64_t n;
    if (get_varint(c, &n) < 0 || n > (uint64_t)(c->end - c->p))
        return -1;
    in->p = c->p;
    in->end = c->p + n;
    c->p += n;
    return 0;
}

/* Skip the value of an unknown field; groups (3, 4) and wire types 6, 7
 * are refused. */
static int skip(cursor *c, unsigned wt)
{
    uint64_t v;
    cursor in;
    size_t fixed = wt == 1 ? 8 : 4;
    switch (wt) {
    case 0:
        return get_varint(c, &v);
    case 2:
        return get_bytes(c, &in);
    case 1:
    case 5:
        if ((size_t)(c->end - c->p) < fixed)
            return -1;
        c->p += fixed;
        return 0;
    default:
        return -1;
    }
}

static void *grow(void *a, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return a;
    *cap = need > 2 * *cap ? need : 2 * *cap;
    return ph_xrealloc(a, *cap * size);
}

/* Values of a repeated varint field (wire type 0: one; 2: packed) added
 * to *v, of *n. */
static int get_numbers(cursor *c, unsigned wt, uint64_t **v, size_t *n,
                       size_t *cap)
{
    cursor in;
    uint64_t x;
    if (wt == 0) {
        if (get_varint(c, &x) < 0)
            return -1;
        *v = grow(*v, cap, *n + 1, sizeof **v);
        (*v)[(*n)++] = x;
        return 0;
    }
    if (wt != 2 || get_bytes(c, &in) < 0)
        return -1;
    /* at most a value a byte; locals, since the values and their count
     * are both unsigned longs to the compiler (they could alias) */
    uint64_t *to = *v = grow(*v, cap, *n + (size_t)(in.end - in.p),
                             sizeof **v);
    size_t k = *n;
    while (in.p < in.end) {
        if (*in.p < 0x80) {        /* most ids and values: one byte */
            to[k++] = *in.p++;
            continue;
        }
        if (get_varint(&in, &x) < 0)
            return -1;
        to[k++] = x;
    }
    *n = k;
    return 0;
}

static int get_label(cursor *c, unsigned wt, ph_pprof_label *l)
{
    cursor in;
    uint64_t field, x;
    unsigned fwt;
    *l = (ph_pprof_label){0, 0, 0, 0};
    if (wt != 2 || get_bytes(c, &in) < 0)
        return -1;
    while (in.p < in.end) {
        if (get_key(&in, &field, &fwt) < 0)
            return -1;
        if (field < PH_PPROF_LABEL_KEY || field > PH_PPROF_LABEL_NUM_UNIT) {
            if (skip(&in, fwt) < 0)
                return -1;
            continue;
        }
        if (fwt != 0 || get_varint(&in, &x) < 0)
            return -1;
        int64_t *to = field == PH_PPROF_LABEL_KEY   ? &l->key
                      : field == PH_PPROF_LABEL_STR ? &l->str
                      : field == PH_PPROF_LABEL_NUM ? &l->num
                                                    : &l->num_unit;
        *to = (int64_t)x;
    }
    return 0;
}

int ph_pprof_sample_decode(ph_pprof_sample *s, const unsigned char *p,
                           size_t len)
{
    cursor c = {p, p + len};
    uint64_t field;
    unsigned wt;
    s->n_location_id = s->n_value = s->n_label = 0;
    while (c.p < c.end) {
        if (get_key(&c, &field, &wt) < 0)
            return -1;
        int rc;
        switch (field) {
        case PH_PPROF_SAMPLE_LOCATION_ID:
            rc = get_numbers(&c, wt, &s->location_id, &s->n_location_id,
                             &s->cap_location_id);
            break;
        case PH_PPROF_SAMPLE_VALUE:
            rc = get_numbers(&c, wt, &s->value, &s->n_value,
                             &s->cap_value);
            break;
        case PH_PPROF_SAMPLE_LABEL:
            s->label = grow(s->label, &s->cap_label, s->n_label + 1,
                            sizeof *s->label);
            rc = get_label(&c, wt, &s->label[s->n_label++]);
            break;
        default:
            rc = skip(&c, wt);
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

int ph_pprof_sample_at(ph_pprof_sample *s, const ph_pb_index *ix,
                       const unsigned char *data, size_t len, size_t i)
{
    size_t a, b;
    if (ph_pb_record(ix, data, len, PH_PPROF_SAMPLE, i, &a, &b) < 0)
        return -1;
    return ph_pprof_sample_decode(s, data + a, b - a);
}

void ph_pprof_sample_free(ph_pprof_sample *s)
{
    free(s->location_id);
    free(s->value);
    free(s->label);
}

/* The decoder as a checker (ph_pb_check_all): a sample a thread. */
static void *sample_start(const void *arg)
{
    (void)arg;
    return ph_xcalloc(1, sizeof(ph_pprof_sample));
}

static int decodes(void *state, const void *arg, const unsigned char *p,
                   size_t len)
{
    (void)arg;
    return ph_pprof_sample_decode(state, p, len) == 0;
}

static void sample_end(void *state)
{
    ph_pprof_sample_free(state);
    free(state);
}

int ph_pprof_samples_check(const ph_pb_index *ix, const unsigned char *data,
                           size_t len)
{
    static const ph_pb_checker c = {sample_start, decodes, sample_end, NULL};
    return ph_pb_check_all(ix, data, len, PH_PPROF_SAMPLE, &c);
}
