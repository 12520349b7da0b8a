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

/* String i of the table: its bytes up to the first NUL; -1 after
 * recording the error when its record is not length-delimited (a
 * message ph_pb_without refused already). */
static int table_entry(ph_input *in, const ph_pb_index *ix,
                       const unsigned char *data, size_t len, int field,
                       size_t i, const char **s, size_t *n)
{
    size_t a, b;
    if (ph_pb_record(ix, data, len, field, i, &a, &b) < 0)
        return ph_input_error_off(in, ph_pb_index_off(ix, field, i),
                                  "string table entry %zu is not a string",
                                  i);
    *s = (const char *)data + a;
    const char *nul = memchr(*s, '\0', b - a);
    *n = nul ? (size_t)(nul - *s) : b - a;
    return 0;
}

/* The table's strings in batches: each batch's hashes worked out on
 * either thread (ph_str_hash_text reads only the profile's seed), the
 * batches interned in order with them (ph_str_intern_hashed), so that
 * hashing, half of interning a big table, is on both cores. */
#define STR_BATCH 4096
#define STR_AHEAD 4

typedef struct str_batch {
    ph_str_hashes h[STR_BATCH];
    int hashed[STR_BATCH];      /* h complete; else interned from the text */
    uint32_t (*parts)[2];       /* the compound strings' parts, */
    size_t *part_at;            /* where each string's start */
    size_t nparts, capparts;
    size_t n;                   /* entries read; fewer than asked: the next
                                   is not a string (give says so) */
} str_batch;

typedef struct str_loading {
    ph_pb_strtab *t;
    ph_profile *p;
    const ph_pb_index *ix;
    const unsigned char *data;
    size_t len;
    int field;
    str_batch batch[STR_AHEAD];
    int rc;
} str_loading;

/* Entries 1 + k * STR_BATCH on, the table's entry 0 apart. */
static size_t batch_first(size_t k)
{
    return 1 + k * STR_BATCH;
}

static void hash_batch(void *arg, size_t k, int side)
{
    str_loading *l = arg;
    str_batch *b = &l->batch[k % STR_AHEAD];
    size_t first = batch_first(k), n = l->t->n - first;
    const char *s;
    size_t slen, a, e;
    (void)side;
    if (n > STR_BATCH)
        n = STR_BATCH;
    if (!b->part_at)
        b->part_at = ph_xmalloc(STR_BATCH * sizeof *b->part_at);
    b->nparts = 0;
    for (b->n = 0; b->n < n; b->n++) {
        size_t i = b->n;
        if (ph_pb_record(l->ix, l->data, l->len, l->field, first + i, &a,
                         &e) < 0)
            break;
        s = (const char *)l->data + a;
        const char *nul = memchr(s, '\0', e - a);
        slen = nul ? (size_t)(nul - s) : e - a;
        if (b->nparts + PH_STR_HASHED_PARTS > b->capparts) {
            b->capparts = 2 * b->capparts + PH_STR_HASHED_PARTS;
            b->parts = ph_xrealloc(b->parts, b->capparts * sizeof *b->parts);
        }
        b->part_at[i] = b->nparts;
        b->hashed[i] = ph_str_hash_text(l->p, s, slen, &b->h[i],
                                        b->parts + b->nparts) == 0;
        if (b->hashed[i])
            b->nparts += b->h[i].nparts;
    }
    /* the parts no longer move */
    for (size_t i = 0; i < b->n; i++)
        b->h[i].part = (const uint32_t (*)[2])(b->parts + b->part_at[i]);
}

static void intern_batch(void *arg, size_t k)
{
    str_loading *l = arg;
    const str_batch *b = &l->batch[k % STR_AHEAD];
    size_t first = batch_first(k), n = l->t->n - first, slen = 0;
    const char *s = NULL;
    if (l->rc)
        return;
    if (n > STR_BATCH)
        n = STR_BATCH;
    for (size_t i = 0; i < n; i++) {
        /* the entry again (its record found, not decoded), or why it is
         * not a string */
        if (table_entry(l->t->in, l->ix, l->data, l->len, l->field,
                        first + i, &s, &slen) < 0) {
            l->rc = -1;
            return;
        }
        l->t->strs[first + i] = i >= b->n ? 0
            : b->hashed[i] ? ph_str_intern_hashed(l->p, s, slen, &b->h[i])
                           : ph_str_intern(l->p, s, slen);
    }
}

int ph_pb_strtab_load(ph_pb_strtab *t, ph_input *in, ph_profile *p,
                      const ph_pb_index *ix, const unsigned char *data,
                      size_t len, int field)
{
    size_t n = ix->n[field], slen = 0;
    const char *s = NULL;
    t->in = in;
    t->n = n;
    t->strs = NULL;
    if (n == 0)
        return ph_input_error_off(in, 0, "string table is empty "
                                  "(entry 0 must be \"\")");
    if (table_entry(in, ix, data, len, field, 0, &s, &slen) < 0)
        return -1;
    if (slen)
        return ph_input_error_off(in, ph_pb_index_off(ix, field, 0),
                                  "string table entry 0 is \"%.*s\", must "
                                  "be empty", (int)(slen < 40 ? slen : 40),
                                  s);
    t->strs = ph_xcalloc(n, sizeof *t->strs);
    ph_str_reserve(p, n);
    str_loading *l = ph_xcalloc(1, sizeof *l);   /* 320 KiB: not the stack */
    l->t = t;
    l->p = p;
    l->ix = ix;
    l->data = data;
    l->len = len;
    l->field = field;
    ph_run_ordered((n - 1 + STR_BATCH - 1) / STR_BATCH, STR_AHEAD, 2,
                   hash_batch, intern_batch, l);
    int rc = l->rc;
    for (int k = 0; k < STR_AHEAD; k++) {
        free(l->batch[k].parts);
        free(l->batch[k].part_at);
    }
    free(l);
    return rc;
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
