/* pprof_sample_test.c -- the hand-written Sample decoder
 * (proto/pprof_sample.c) against protobuf-c's generated one: every Sample
 * of the real profiles in samples/pprof (Go's runtime/pprof) decodes to
 * the same location ids, values and labels; copies of them with a byte
 * changed, cut short, grown by a byte, or made of a random field are
 * refused by both or decode the same in both. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir/io.h"
#include "proto/pb_fields.h"
#include "proto/pb_read.h"
#include "proto/pprof.pb-c.h"
#include "proto/pprof_sample.h"
#include "suites.h"

/* Both decoders on the same bytes: the same verdict, and the same fields
 * when they take it.  Returns whether they took it. */
static int same_decoding(ph_pprof_sample *s, const unsigned char *p,
                         size_t len)
{
    Perftools__Profiles__Sample *want =
        perftools__profiles__sample__unpack(NULL, len, p);
    int got = ph_pprof_sample_decode(s, p, len) == 0;
    CU_ASSERT_EQUAL(got, want != NULL);
    if (!got || !want) {
        if (want)
            perftools__profiles__sample__free_unpacked(want, NULL);
        return 0;
    }
    CU_ASSERT_EQUAL(s->n_location_id, want->n_location_id);
    CU_ASSERT_EQUAL(s->n_value, want->n_value);
    CU_ASSERT_EQUAL(s->n_label, want->n_label);
    for (size_t k = 0; k < s->n_location_id && k < want->n_location_id; k++)
        CU_ASSERT_EQUAL(s->location_id[k], want->location_id[k]);
    for (size_t k = 0; k < s->n_value && k < want->n_value; k++)
        CU_ASSERT_EQUAL((int64_t)s->value[k], want->value[k]);
    for (size_t k = 0; k < s->n_label && k < want->n_label; k++) {
        const Perftools__Profiles__Label *l = want->label[k];
        CU_ASSERT(s->label[k].key == l->key && s->label[k].str == l->str &&
                  s->label[k].num == l->num &&
                  s->label[k].num_unit == l->num_unit);
    }
    perftools__profiles__sample__free_unpacked(want, NULL);
    return 1;
}

/* A small deterministic generator (xorshift64). */
static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A field of random key and value bytes after the sample's own: known
 * and unknown numbers, every wire type, lengths that fit and not. */
static size_t random_field(unsigned char *d, uint64_t *rnd)
{
    size_t n = 0;
    unsigned field = (unsigned)(next_random(rnd) % 6);   /* 0 .. 5 */
    unsigned wt = (unsigned)(next_random(rnd) % 8);
    d[n++] = (unsigned char)(field << 3 | wt);
    size_t extra = (size_t)(next_random(rnd) % 12);
    for (size_t k = 0; k < extra; k++)
        d[n++] = (unsigned char)next_random(rnd);
    return n;
}

static void check_record(ph_pprof_sample *s, const unsigned char *p,
                         size_t len, uint64_t *rnd, size_t *taken,
                         size_t *refused)
{
    unsigned char buf[4096];
    if (len + 32 > sizeof buf)
        return;
    CU_ASSERT(same_decoding(s, p, len));
    for (int m = 0; m < 8; m++) {
        size_t n = len;
        memcpy(buf, p, len);
        switch (m % 4) {
        case 0:                         /* a byte changed */
            if (len)
                buf[next_random(rnd) % len] = (unsigned char)next_random(rnd);
            break;
        case 1:                         /* cut short */
            n = len ? (size_t)(next_random(rnd) % len) : 0;
            break;
        case 2:                         /* a byte more at the end */
            buf[n++] = (unsigned char)next_random(rnd);
            break;
        default:                        /* a random field after it */
            n += random_field(buf + n, rnd);
        }
        if (same_decoding(s, buf, n))
            ++*taken;
        else
            ++*refused;
    }
}

static void test_against_protobuf_c(void)
{
    const char *top = getenv("top_srcdir");
    char dir[1024], path[2048], err[256];
    snprintf(dir, sizeof dir, "%s/samples/pprof", top ? top : ".");
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    size_t files = 0, records = 0, taken = 0, refused = 0;
    uint64_t rnd = 0x9e3779b97f4a7c15u;
    ph_pprof_sample s = {0};
    while ((e = readdir(d)) != NULL) {
        if (!strstr(e->d_name, ".pb.gz"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ph_input *in = ph_input_open(path, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(in);
        const unsigned char *data = ph_input_data(in);
        size_t len = ph_input_size(in), a, b;
        ph_pb_index ix;
        memset(&ix, 0, sizeof ix);
        CU_ASSERT_EQUAL_FATAL(ph_pb_open(&ix, in, data, len), 0);
        for (size_t i = 0; i < ix.n[PH_PPROF_SAMPLE] && i < 3000; i++) {
            CU_ASSERT_EQUAL_FATAL(ph_pb_record(&ix, data, len,
                                               PH_PPROF_SAMPLE, i, &a, &b), 0);
            check_record(&s, data + a, b - a, &rnd, &taken, &refused);
            records++;
        }
        ph_pb_index_free(&ix);
        ph_input_close(in);
        files++;
    }
    closedir(d);
    ph_pprof_sample_free(&s);
    /* the real files are there, and the copies went both ways */
    CU_ASSERT(files >= 4);
    CU_ASSERT(records >= 100);
    CU_ASSERT(taken > 0);
    CU_ASSERT(refused > 0);
}

void ph_test_register_pprof_sample(void)
{
    CU_pSuite s = CU_add_suite("pprof_sample", NULL, NULL);
    CU_add_test(s, "Sample decodes as protobuf-c decodes it",
                test_against_protobuf_c);
}
