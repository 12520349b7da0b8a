/* pb_decode_test.c -- the hand-written decoders of the bulk messages
 * (proto/pb_records.c) against protobuf-c's generated ones: every pprof
 * Sample, Location and Function of the real profiles in samples/pprof
 * (Go's runtime/pprof) and those of EasyView's pprof file, and every
 * DrCCTProf Context and Sample of EasyView's files in samples/easyview
 * decodes to the same fields; copies
 * of them with a byte changed, cut short, grown by a byte, or made of a
 * random field more are refused by both or decode the same in both.  The
 * string tables interned from the messages' bytes (ph_pb_strtab_load)
 * hold protobuf-c's strings, also with a NUL put inside one. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir/io.h"
#include "proto/pb_records.h"
#include "proto/drcctprof.pb-c.h"
#include "proto/pb_fields.h"
#include "proto/pb_read.h"
#include "proto/pb_wire.h"
#include "proto/pprof.pb-c.h"
#include "suites.h"

/* Both decoders of one message on the same bytes: the same verdict, and
 * the same fields when they take it.  Returns whether they took it. */
typedef int (*same_fn)(const unsigned char *p, size_t len);

/* got: whether ours took p; equal compares its fields with protobuf-c's
 * message. */
static int same_as_protobuf_c(const ProtobufCMessageDescriptor *desc,
                              const unsigned char *p, size_t len, int got,
                              void (*equal)(const void *want))
{
    ProtobufCMessage *want = protobuf_c_message_unpack(desc, NULL, len, p);
    int both = got && want;
    CU_ASSERT_EQUAL(got, want != NULL);
    if (both)
        equal(want);
    if (want)
        protobuf_c_message_free_unpacked(want, NULL);
    return both;
}

static ph_pprof_sample pprof_sample;

static void equal_pprof_sample(const void *w)
{
    const Perftools__Profiles__Sample *want = w;
    const ph_pprof_sample *s = &pprof_sample;
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
}

static int same_pprof_sample(const unsigned char *p, size_t len)
{
    return same_as_protobuf_c(&perftools__profiles__sample__descriptor, p,
                              len,
                              ph_pprof_sample_decode(&pprof_sample, p, len) ==
                                  0,
                              equal_pprof_sample);
}

static ph_pprof_location pprof_location;

static void equal_pprof_location(const void *w)
{
    const Perftools__Profiles__Location *want = w;
    const ph_pprof_location *l = &pprof_location;
    CU_ASSERT(l->id == want->id && l->mapping_id == want->mapping_id &&
              l->address == want->address);
    CU_ASSERT_EQUAL(l->n_line, want->n_line);
    for (size_t k = 0; k < l->n_line && k < want->n_line; k++)
        CU_ASSERT(l->line[k].function_id == want->line[k]->function_id &&
                  l->line[k].line == want->line[k]->line);
}

static int same_pprof_location(const unsigned char *p, size_t len)
{
    return same_as_protobuf_c(&perftools__profiles__location__descriptor, p,
                              len,
                              ph_pprof_location_decode(&pprof_location, p,
                                                       len) == 0,
                              equal_pprof_location);
}

static ph_pprof_function pprof_function;

static void equal_pprof_function(const void *w)
{
    const Perftools__Profiles__Function *want = w;
    const ph_pprof_function *f = &pprof_function;
    CU_ASSERT(f->id == want->id && f->name == want->name &&
              f->system_name == want->system_name &&
              f->filename == want->filename &&
              f->start_line == want->start_line);
}

static int same_pprof_function(const unsigned char *p, size_t len)
{
    return same_as_protobuf_c(&perftools__profiles__function__descriptor, p,
                              len,
                              ph_pprof_function_decode(&pprof_function, p,
                                                       len) == 0,
                              equal_pprof_function);
}

static ph_drcc_context drcc_context;

static void equal_drcc_context(const void *w)
{
    const Drcctprof__Profile__Context *want = w;
    const ph_drcc_context *c = &drcc_context;
    CU_ASSERT(c->id == want->id && c->location_id == want->location_id &&
              c->parent_id == want->parent_id);
    CU_ASSERT_EQUAL(c->n_children, want->n_children_id);
    for (size_t k = 0; k < c->n_children && k < want->n_children_id; k++)
        CU_ASSERT_EQUAL(c->children[k], want->children_id[k]);
}

static int same_drcc_context(const unsigned char *p, size_t len)
{
    return same_as_protobuf_c(&drcctprof__profile__context__descriptor, p,
                              len,
                              ph_drcc_context_decode(&drcc_context, p, len) ==
                                  0,
                              equal_drcc_context);
}

static ph_drcc_sample drcc_sample;

static void equal_drcc_sample(const void *w)
{
    const Drcctprof__Profile__Sample *want = w;
    const ph_drcc_sample *s = &drcc_sample;
    CU_ASSERT_EQUAL(s->context_id, want->context_id);
    CU_ASSERT_EQUAL(s->n_metric, want->n_metric);
    for (size_t k = 0; k < s->n_metric && k < want->n_metric; k++) {
        const Drcctprof__Profile__Metric *m = want->metric[k];
        CU_ASSERT(s->metric[k].int_value == m->int_value &&
                  s->metric[k].uint_value == m->uint_value &&
                  s->metric[k].str_value == m->str_value);
    }
}

static int same_drcc_sample(const unsigned char *p, size_t len)
{
    return same_as_protobuf_c(&drcctprof__profile__sample__descriptor, p,
                              len,
                              ph_drcc_sample_decode(&drcc_sample, p, len) ==
                                  0,
                              equal_drcc_sample);
}

/* A small deterministic generator (xorshift64). */
static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A field of a random key and random value bytes after the record's
 * own: numbers known and unknown, 0, and past 29 bits, keys of one to
 * six bytes (some longer than they need), every wire type, lengths that
 * fit and not. */
static size_t random_field(unsigned char *d, uint64_t *rnd)
{
    static const uint64_t numbers[] = {0, 1, 2, 3, 4, 5, 16, 536870912,
                                       4294967295u};
    uint64_t key = numbers[next_random(rnd) % 9] << 3 | next_random(rnd) % 8;
    size_t n = 0, pad = (size_t)(next_random(rnd) % 4 == 0);
    do {
        d[n] = (unsigned char)(key & 0x7f);
        key >>= 7;
        if (key || pad)
            d[n] |= 0x80;
        n++;
    } while (key);
    if (pad)
        d[n++] = 0;                     /* a key one byte longer */
    size_t extra = (size_t)(next_random(rnd) % 12);
    for (size_t k = 0; k < extra; k++)
        d[n++] = (unsigned char)next_random(rnd);
    return n;
}

static void check_record(same_fn same, const unsigned char *p, size_t len,
                         uint64_t *rnd, size_t *taken, size_t *refused)
{
    unsigned char buf[4096];
    if (len + 32 > sizeof buf)
        return;
    CU_ASSERT(same(p, len));
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
        if (same(buf, n))
            ++*taken;
        else
            ++*refused;
    }
}

/* A copy of each file of samples/FOLDER whose name ends in suffix and
 * whose bytes are of schema kind ('p' pprof, 'd' DrCCTProf:
 * ph_pb_sniff_vote), its bytes in data (theirs to change) and indexed in
 * ix, through each(in, data, len, ix, arg); returns how many. */
typedef void (*each_file_fn)(ph_input *in, unsigned char *data, size_t len,
                             const ph_pb_index *ix, void *arg);

static size_t each_sample_file(const char *folder, const char *suffix,
                               int kind, each_file_fn each, void *arg)
{
    const char *top = getenv("top_srcdir");
    char dir[1024], path[2048], err[256];
    snprintf(dir, sizeof dir, "%s/samples/%s", top ? top : ".", folder);
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    size_t files = 0;
    while ((e = readdir(d)) != NULL) {
        size_t nl = strlen(e->d_name), sl = strlen(suffix);
        if (nl < sl || strcmp(e->d_name + nl - sl, suffix) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ph_input *in = ph_input_open(path, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(in);
        size_t len = ph_input_size(in);
        unsigned char *data = malloc(len + 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        memcpy(data, ph_input_data(in), len);
        int is;
        if (ph_pb_sniff_vote(data, len, &is) && is == kind) {
            ph_pb_index ix;
            memset(&ix, 0, sizeof ix);
            CU_ASSERT_EQUAL_FATAL(ph_pb_open(&ix, in, data, len), 0);
            each(in, data, len, &ix, arg);
            ph_pb_index_free(&ix);
            files++;
        }
        free(data);
        ph_input_close(in);
    }
    closedir(d);
    return files;
}

/* check_field's counts, and what it checks the records with. */
typedef struct field_check {
    int f;
    same_fn same;
    uint64_t rnd;
    size_t records, taken, refused;
} field_check;

static void check_records(ph_input *in, unsigned char *data, size_t len,
                          const ph_pb_index *ix, void *arg)
{
    field_check *c = arg;
    size_t a, b;
    (void)in;
    for (size_t i = 0; i < ix->n[c->f] && i < 3000; i++) {
        CU_ASSERT_EQUAL_FATAL(ph_pb_record(ix, data, len, c->f, i, &a, &b),
                              0);
        check_record(c->same, data + a, b - a, &c->rnd, &c->taken,
                     &c->refused);
        c->records++;
    }
}

/* Every record of top-level field f (up to 3,000 a file) of the sample
 * files (each_sample_file), and their copies, through same: the files
 * are there, and the copies went both ways. */
static void check_field(const char *folder, const char *suffix, int kind,
                        int f, same_fn same, size_t min_files)
{
    field_check c = { .f = f, .same = same, .rnd = 0x9e3779b97f4a7c15u };
    CU_ASSERT(each_sample_file(folder, suffix, kind, check_records, &c) >=
              min_files);
    CU_ASSERT(c.records >= 100);
    CU_ASSERT(c.taken > 0);
    CU_ASSERT(c.refused > 0);
}

static void test_pprof_sample(void)
{
    check_field("pprof", ".pb.gz", 'p', PH_PPROF_SAMPLE, same_pprof_sample,
                4);
    check_field("easyview", ".ezview", 'p', PH_PPROF_SAMPLE,
                same_pprof_sample, 1);
    ph_pprof_sample_free(&pprof_sample);
}

static void test_pprof_location(void)
{
    check_field("pprof", ".pb.gz", 'p', PH_PPROF_LOCATION,
                same_pprof_location, 4);
    check_field("easyview", ".ezview", 'p', PH_PPROF_LOCATION,
                same_pprof_location, 1);
    ph_pprof_location_free(&pprof_location);
}

static void test_pprof_function(void)
{
    check_field("pprof", ".pb.gz", 'p', PH_PPROF_FUNCTION,
                same_pprof_function, 4);
    check_field("easyview", ".ezview", 'p', PH_PPROF_FUNCTION,
                same_pprof_function, 1);
}

static void test_drcc_context(void)
{
    check_field("easyview", ".ezview", 'd', PH_DRCC_CONTEXT,
                same_drcc_context, 2);
    ph_drcc_context_free(&drcc_context);
}

static void test_drcc_sample(void)
{
    check_field("easyview", ".ezview", 'd', PH_DRCC_SAMPLE, same_drcc_sample,
                2);
    ph_drcc_sample_free(&drcc_sample);
}

/* The strings of table t in p against protobuf-c's n strings: the same
 * handles as theirs interned (a string holding a NUL is another string
 * than its text up to the NUL, which prints the same). */
static void equal_strings(ph_profile *p, const ph_pb_strtab *t,
                          char *const *want, size_t n)
{
    CU_ASSERT_EQUAL_FATAL(t->n, n);
    CU_ASSERT_EQUAL(t->strs[0], 0);
    for (size_t i = 1; i < n; i++)
        CU_ASSERT_EQUAL(t->strs[i], ph_str_intern0(p, want[i]));
}

/* protobuf-c's string table of a message of schema kind: its strings
 * into *strs, the message to free into *msg; their number. */
static size_t protobuf_c_strings(int kind, const unsigned char *data,
                                 size_t len, ProtobufCMessage **msg,
                                 char ***strs)
{
    if (kind == 'p') {
        Perftools__Profiles__Profile *m =
            perftools__profiles__profile__unpack(NULL, len, data);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        *msg = &m->base;
        *strs = m->string_table;
        return m->n_string_table;
    }
    Drcctprof__Profile__Profile *m =
        drcctprof__profile__profile__unpack(NULL, len, data);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    *msg = &m->base;
    *strs = m->string_table;
    return m->n_string_table;
}

/* check_strings' schema and field, and the strings it cut at a NUL. */
typedef struct strings_check {
    int kind, f;
    size_t cut;
} strings_check;

static void check_table(ph_input *in, unsigned char *data, size_t len,
                        const ph_pb_index *ix, void *arg)
{
    strings_check *c = arg;
    size_t a, b;
    for (int with_nul = 0; with_nul < 2; with_nul++) {
        for (size_t i = 1; with_nul && i < ix->n[c->f]; i++) {
            CU_ASSERT_EQUAL_FATAL(ph_pb_record(ix, data, len, c->f, i, &a,
                                               &b), 0);
            if (b - a >= 3) {
                data[a + (b - a) / 2] = 0;
                c->cut++;
                break;
            }
        }
        ph_profile *p = ph_profile_new();
        ph_pb_strtab t;
        ProtobufCMessage *msg;
        char **want;
        size_t n = protobuf_c_strings(c->kind, data, len, &msg, &want);
        CU_ASSERT_EQUAL_FATAL(ph_pb_strtab_load(&t, in, p, ix, data, len,
                                                c->f), 0);
        equal_strings(p, &t, want, n);
        protobuf_c_message_free_unpacked(msg, NULL);
        ph_pb_strtab_free(&t);
        ph_profile_free(p);
    }
}

/* The string table (top-level field f) of the sample files
 * (each_sample_file), and of a copy of each with a NUL in the middle of
 * its first string of 3 bytes or more: the same strings as protobuf-c's. */
static void check_strings(const char *folder, const char *suffix, int kind,
                          int f, size_t min_files)
{
    strings_check c = { kind, f, 0 };
    CU_ASSERT(each_sample_file(folder, suffix, kind, check_table, &c) >=
              min_files);
    CU_ASSERT(c.cut >= min_files);
}

static void test_strings(void)
{
    check_strings("pprof", ".pb.gz", 'p', PH_PPROF_STRING_TABLE, 4);
    check_strings("easyview", ".ezview", 'p', PH_PPROF_STRING_TABLE, 1);
    check_strings("easyview", ".ezview", 'd', PH_DRCC_STRING_TABLE, 2);
}

void ph_test_register_pb_decode(void)
{
    CU_pSuite s = CU_add_suite("pb_decode", NULL, NULL);
    CU_add_test(s, "pprof Sample decodes as protobuf-c decodes it",
                test_pprof_sample);
    CU_add_test(s, "pprof Location decodes as protobuf-c decodes it",
                test_pprof_location);
    CU_add_test(s, "pprof Function decodes as protobuf-c decodes it",
                test_pprof_function);
    CU_add_test(s, "DrCCTProf Context decodes as protobuf-c decodes it",
                test_drcc_context);
    CU_add_test(s, "DrCCTProf Sample decodes as protobuf-c decodes it",
                test_drcc_sample);
    CU_add_test(s, "string tables hold protobuf-c's strings", test_strings);
}
