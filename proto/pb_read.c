/* pb_read.c -- the reader helpers the pprof and drcctprof importers share
 * (see pb_read.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>

#include "ir/jobs.h"
#include "proto/pb_read.h"

static void *pb_alloc(void *data, size_t size)
{
    (void)data;
    return ph_xmalloc(size);
}

static void pb_free(void *data, void *ptr)
{
    (void)data;
    free(ptr);
}

static ProtobufCAllocator pb_allocator = { pb_alloc, pb_free, NULL };

ProtobufCAllocator *ph_pb_allocator(void)
{
    return &pb_allocator;
}

struct ph_pb_scratch {
    ProtobufCAllocator a;   /* first: the allocator's data is the scratch */
    unsigned char *buf;
    size_t cap, used;
    size_t spill;           /* bytes that did not fit, since the reset */
    void **big;             /* their blocks, freed at the reset */
    size_t nbig, capbig;
};

static void *scratch_alloc(void *data, size_t size)
{
    ph_pb_scratch *s = data;
    size_t n = (size + 15) & ~(size_t)15;
    if (n >= size && n <= s->cap - s->used) {
        void *q = s->buf + s->used;
        s->used += n;
        return q;
    }
    if (s->nbig == s->capbig) {
        s->capbig = s->capbig ? 2 * s->capbig : 8;
        s->big = ph_xrealloc(s->big, s->capbig * sizeof *s->big);
    }
    s->spill += size;
    return s->big[s->nbig++] = ph_xmalloc(size);
}

static void scratch_free(void *data, void *ptr)
{
    (void)data;
    (void)ptr;
}

ph_pb_scratch *ph_pb_scratch_new(void)
{
    ph_pb_scratch *s = ph_xcalloc(1, sizeof *s);
    s->a.alloc = scratch_alloc;
    s->a.free = scratch_free;
    s->a.allocator_data = s;
    s->cap = 4096;
    s->buf = ph_xmalloc(s->cap);
    return s;
}

ProtobufCAllocator *ph_pb_scratch_allocator(ph_pb_scratch *s)
{
    return &s->a;
}

void ph_pb_scratch_reset(ph_pb_scratch *s)
{
    for (size_t i = 0; i < s->nbig; i++)
        free(s->big[i]);
    if (s->nbig) {
        size_t want = 2 * (s->used + s->spill + 16 * s->nbig);
        if (want > s->cap) {
            free(s->buf);
            s->buf = ph_xmalloc(want);
            s->cap = want;
        }
    }
    s->nbig = 0;
    s->spill = 0;
    s->used = 0;
}

void ph_pb_scratch_free(ph_pb_scratch *s)
{
    if (!s)
        return;
    ph_pb_scratch_reset(s);
    free(s->big);
    free(s->buf);
    free(s);
}

int ph_pb_open(ph_pb_index *ix, ph_input *in, const unsigned char *data,
               size_t len)
{
    size_t bad;
    const char *why;
    if (ph_pb_index_build(ix, data, len, &bad, &why) == 0)
        return 0;
    return ph_input_error_off(in, bad, "%s", why);
}

int ph_pb_record(const ph_pb_index *ix, const unsigned char *data,
                 size_t len, int f, size_t i, size_t *a, size_t *b)
{
    unsigned wt;
    if (ph_pb_field_at(data, len, ph_pb_index_off(ix, f, i), &wt, a, b) < 0 ||
        wt != 2)
        return -1;
    return 0;
}

void *ph_pb_decode(const ph_pb_index *ix, const unsigned char *data,
                   size_t len, int f, size_t i, ph_pb_scratch *sc,
                   const ProtobufCMessageDescriptor *desc)
{
    size_t a, b;
    ph_pb_scratch_reset(sc);
    if (ph_pb_record(ix, data, len, f, i, &a, &b) < 0)
        return NULL;
    return protobuf_c_message_unpack(desc, ph_pb_scratch_allocator(sc),
                                     b - a, data + a);
}

/* Records [from, to) of a field to check, for ph_pb_check_all: each
 * half on a thread with a state of its own. */
typedef struct half_check {
    const ph_pb_index *ix;
    const unsigned char *data;
    size_t len;
    int f;
    const ph_pb_checker *c;
    size_t from, to;
    const char *mem_context;   /* the file, for an out-of-memory message */
    int ok;
} half_check;

static void check_half(void *arg)
{
    half_check *h = arg;
    ph_mem_set_context(h->mem_context);
    void *state = h->c->start(h->c->arg);
    size_t a, b;
    h->ok = 1;
    for (size_t i = h->from; i < h->to && h->ok; i++)
        h->ok = ph_pb_record(h->ix, h->data, h->len, h->f, i, &a, &b) == 0 &&
                h->c->check(state, h->c->arg, h->data + a, b - a);
    h->c->end(state);
}

int ph_pb_check_all(const ph_pb_index *ix, const unsigned char *data,
                    size_t len, int f, const ph_pb_checker *c)
{
    char context[256];
    size_t n = ix->n[f];
    snprintf(context, sizeof context, "%s", ph_mem_context());
    half_check half[2] = {
        {ix, data, len, f, c, 0, n / 2, context, 0},
        {ix, data, len, f, c, n / 2, n, context, 0},
    };
    ph_run_pair(check_half, &half[0], &half[1]);
    return half[0].ok && half[1].ok;
}

/* protobuf-c's decoding as a checker: a scratch a thread. */
static void *scratch_start(const void *arg)
{
    (void)arg;
    return ph_pb_scratch_new();
}

static int unpacks(void *state, const void *desc, const unsigned char *p,
                   size_t len)
{
    ph_pb_scratch *sc = state;
    ph_pb_scratch_reset(sc);
    return protobuf_c_message_unpack(desc, ph_pb_scratch_allocator(sc), len,
                                     p) != NULL;
}

static void scratch_end(void *state)
{
    ph_pb_scratch_free(state);
}

int ph_pb_all_decode(const ph_pb_index *ix, const unsigned char *data,
                     size_t len, int f, const ProtobufCMessageDescriptor *desc)
{
    const ph_pb_checker c = {scratch_start, unpacks, scratch_end, desc};
    return ph_pb_check_all(ix, data, len, f, &c);
}

/* The next record to leave out, in the order of the bytes: the fields'
 * records each come in order, so the first of their next ones. */
static int next_left_out(const ph_pb_index *ix, const int *fields, size_t n,
                         const size_t *at, size_t *k)
{
    int found = 0;
    for (size_t j = 0; j < n; j++) {
        int f = fields[j];
        if (at[j] < ix->n[f] &&
            (!found || ix->off[f][at[j]] < ix->off[fields[*k]][at[*k]])) {
            *k = j;
            found = 1;
        }
    }
    return found;
}

unsigned char *ph_pb_without(const ph_pb_index *ix, const unsigned char *data,
                             size_t len, const int *fields, size_t n,
                             size_t *out_len)
{
    size_t keep = len, pos = 0, k = 0, a, b;
    size_t *at = ph_xcalloc(n + 1, sizeof *at);
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < ix->n[fields[j]]; i++) {
            if (ph_pb_record(ix, data, len, fields[j], i, &a, &b) < 0) {
                free(at);
                return NULL;
            }
            keep -= b - ph_pb_index_off(ix, fields[j], i);
        }
    unsigned char *rest = ph_xmalloc(keep ? keep : 1), *d = rest;
    while (next_left_out(ix, fields, n, at, &k)) {
        size_t off = ix->off[fields[k]][at[k]++];
        (void)ph_pb_record(ix, data, len, fields[k], at[k] - 1, &a, &b);
        memcpy(d, data + pos, off - pos);
        d += off - pos;
        pos = b;
    }
    memcpy(d, data + pos, len - pos);
    free(at);
    *out_len = keep;
    return rest;
}

int ph_pb_strtab_load(ph_pb_strtab *t, ph_input *in, ph_profile *p,
                      char *const *table, size_t n, size_t off)
{
    t->in = in;
    t->n = n;
    t->strs = NULL;
    if (n == 0)
        return ph_input_error_off(in, 0, "string table is empty "
                                  "(entry 0 must be \"\")");
    if (table[0][0] != '\0')
        return ph_input_error_off(in, off, "string table entry 0 is "
                                  "\"%.40s\", must be empty", table[0]);
    t->strs = ph_xcalloc(n, sizeof *t->strs);
    for (size_t i = 1; i < n; i++)
        t->strs[i] = ph_str_intern0(p, table[i]);
    return 0;
}

void ph_pb_strtab_free(ph_pb_strtab *t)
{
    free(t->strs);
    t->strs = NULL;
    t->n = 0;
}

int ph_pb_str(const ph_pb_strtab *t, int64_t idx, size_t off,
              const char *what, ph_str *out)
{
    *out = 0;
    if (idx < 0 || (uint64_t)idx >= t->n)
        return ph_input_error_off(t->in, off,
                                  "%s: string index %" PRId64
                                  " out of range (table has %zu)",
                                  what, idx, t->n);
    *out = t->strs[idx];
    return 0;
}

ph_func *ph_pb_func(ph_profile *p, ph_str name, ph_str system_name,
                    ph_str file, int64_t start_line, ph_object *obj)
{
    if (!name)
        name = system_name;
    ph_func *f = ph_func_get(p, name, file ? ph_file_get(p, file) : NULL,
                             obj);
    if (system_name && system_name != name && !f->mangled)
        f->mangled = system_name;
    if (!f->line)
        f->line = ph_pb_line(start_line);
    return f;
}

uint32_t ph_pb_line(int64_t line)
{
    return line > 0 && line <= UINT32_MAX ? (uint32_t)line : 0;
}
