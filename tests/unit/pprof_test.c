/* pprof_test.c -- the pprof reader and writer and the folded format: a
 * profile packed here with the generated protobuf-c code reads into the
 * tree (inline chains, labels as parts, negative values, metadata); each
 * validation error names its offset; a sample without a stack keeps its
 * value, its frame made while another thread makes the locations' (one
 * job and two); sniffing tells pprof from drcctprof;
 * write -> read keeps every sample; flat data is approximated with exact
 * self costs and a warning; folded stacks read and write. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/importers.h"
#include "ir/jobs.h"
#include "proto/pprof.pb-c.h"
#include "exporters/exporters.h"
#include "named_strings.h"
#include "suites.h"

/* ------------------------------------------------------------------ */
/* A small profile built by hand                                       */

typedef struct pbuild {
    Perftools__Profiles__Profile pb;
    Perftools__Profiles__ValueType vt[2], *vtp[2], period_type;
    Perftools__Profiles__Mapping map, *mapp[1];
    Perftools__Profiles__Function fn[3], *fnp[3];
    Perftools__Profiles__Line ln[4], *lnp[4];
    Perftools__Profiles__Location loc[3], *locp[3];
    Perftools__Profiles__Sample smp[3], *smpp[3];
    Perftools__Profiles__Label lab, *labp[1];
    uint64_t ids[3][3];
    int64_t vals[3][2];
    int64_t comment[1];
    char *strs[16];
} pbuild;

/* Strings: 0 "", 1 samples, 2 count, 3 cpu, 4 nanoseconds, 5 main,
 * 6 inner, 7 leaf, 8 a.go, 9 /bin/app, 10 thread, 11 t1, 12 hello,
 * 13 abc123 */
static void build(pbuild *b)
{
    static const char *const s[] = {"", "samples", "count", "cpu",
        "nanoseconds", "main", "inner", "leaf", "a.go", "/bin/app",
        "thread", "t1", "hello", "abc123"};
    Perftools__Profiles__Profile *pb = &b->pb;
    memset(b, 0, sizeof *b);
    perftools__profiles__profile__init(pb);
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        b->strs[i] = (char *)s[i];
    pb->string_table = b->strs;
    pb->n_string_table = sizeof s / sizeof s[0];
    for (int i = 0; i < 2; i++) {
        perftools__profiles__value_type__init(&b->vt[i]);
        b->vtp[i] = &b->vt[i];
    }
    b->vt[0].type = 1, b->vt[0].unit = 2;
    b->vt[1].type = 3, b->vt[1].unit = 4;
    pb->sample_type = b->vtp;
    pb->n_sample_type = 2;
    perftools__profiles__value_type__init(&b->period_type);
    b->period_type.type = 3, b->period_type.unit = 4;
    pb->period_type = &b->period_type;
    pb->period = 10000000;
    pb->time_nanos = 1700000000000000000LL;
    b->comment[0] = 12;
    pb->comment = b->comment;
    pb->n_comment = 1;
    perftools__profiles__mapping__init(&b->map);
    b->map.id = 1, b->map.memory_start = 0x400000;
    b->map.memory_limit = 0x500000, b->map.filename = 9;
    b->map.build_id = 13;
    b->mapp[0] = &b->map;
    pb->mapping = b->mapp;
    pb->n_mapping = 1;
    for (int i = 0; i < 3; i++) {
        perftools__profiles__function__init(&b->fn[i]);
        b->fn[i].id = (uint64_t)i + 1;
        b->fn[i].name = 5 + i;
        b->fn[i].filename = 8;
        b->fnp[i] = &b->fn[i];
    }
    pb->function = b->fnp;
    pb->n_function = 3;
    for (int i = 0; i < 4; i++) {
        perftools__profiles__line__init(&b->ln[i]);
        b->lnp[i] = &b->ln[i];
    }
    /* loc 10: main:3; loc 20: leaf:30 inlined into inner:20; loc 30:
     * inner:21 */
    b->ln[0].function_id = 1, b->ln[0].line = 3;
    b->ln[1].function_id = 3, b->ln[1].line = 30;
    b->ln[2].function_id = 2, b->ln[2].line = 20;
    b->ln[3].function_id = 2, b->ln[3].line = 21;
    for (int i = 0; i < 3; i++) {
        perftools__profiles__location__init(&b->loc[i]);
        b->loc[i].id = 10 * ((uint64_t)i + 1);
        b->loc[i].mapping_id = 1;
        b->loc[i].address = 0x401000 + 0x10 * (uint64_t)i;
        b->locp[i] = &b->loc[i];
    }
    b->loc[0].line = &b->lnp[0], b->loc[0].n_line = 1;
    b->loc[1].line = &b->lnp[1], b->loc[1].n_line = 2;
    b->loc[2].line = &b->lnp[3], b->loc[2].n_line = 1;
    pb->location = b->locp;
    pb->n_location = 3;
    perftools__profiles__label__init(&b->lab);
    b->lab.key = 10, b->lab.str = 11;
    b->labp[0] = &b->lab;
    static const uint64_t stacks[3][3] = {{20, 10, 0}, {30, 10, 0},
                                          {10, 0, 0}};
    static const int64_t values[3][2] = {{3, 30}, {1, 10}, {-1, -5}};
    for (int i = 0; i < 3; i++) {
        perftools__profiles__sample__init(&b->smp[i]);
        memcpy(b->ids[i], stacks[i], sizeof b->ids[i]);
        memcpy(b->vals[i], values[i], sizeof b->vals[i]);
        b->smp[i].location_id = b->ids[i];
        b->smp[i].n_location_id = i == 2 ? 1 : 2;
        b->smp[i].value = b->vals[i];
        b->smp[i].n_value = 2;
        b->smpp[i] = &b->smp[i];
    }
    b->smp[1].label = b->labp;
    b->smp[1].n_label = 1;
    pb->sample = b->smpp;
    pb->n_sample = 3;
}

static uint8_t *pack(const Perftools__Profiles__Profile *pb, size_t *len)
{
    *len = perftools__profiles__profile__get_packed_size(pb);
    uint8_t *buf = malloc(*len + 1);
    perftools__profiles__profile__pack(pb, buf);
    return buf;
}

/* Read bytes as pprof; returns the profile or NULL (error in *msg). */
static ph_profile *read_bytes(const void *d, size_t n, char *msg,
                              size_t msgsize)
{
    ph_input *in = ph_input_memory(d, n, "t.pb");
    ph_profile *p = ph_profile_new();
    msg[0] = '\0';
    if (ph_pprof_read(in, p) != 0) {
        snprintf(msg, msgsize, "%s", ph_input_error(in));
        ph_profile_free(p);
        p = NULL;
    }
    ph_input_close(in);
    return p;
}

static const ph_node *child_named(ph_profile *p, const ph_node *parent,
                                  const char *name)
{
    uint32_t id = parent ? parent->child : 0;
    if (!parent)
        for (size_t i = 0; i < ph_node_count(p); i++)
            if (!ph_node_at(p, i)->parent &&
                !strcmp(ph_str_get(p, ph_node_func(p, ph_node_at(p, i))->name),
                        name))
                return ph_node_at(p, i);
    for (; id; id = ph_node_at(p, id - 1)->sibling)
        if (!strcmp(ph_str_get(p, ph_node_func(p, ph_node_at(p, id - 1))->name),
                    name))
            return ph_node_at(p, id - 1);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */

static void test_read_tree(void)
{
    pbuild b;
    size_t n;
    char msg[256];
    build(&b);
    uint8_t *d = pack(&b.pb, &n);
    ph_profile *p = read_bytes(d, n, msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(ph_event_nreal(p), 2);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, ph_event_real(p, 1)->name), "cpu");
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, ph_event_real(p, 1)->unit),
                           "nanoseconds");
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "period"), "10000000");
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "period_type"), "cpu");
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "comment"), "hello");
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "time_nanos"),
                           "1700000000000000000");
    /* Totals include the negative sample. */
    const int64_t *t = ph_totals(p, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(t[0], 3);
    CU_ASSERT_EQUAL(t[1], 35);
    /* main -> inner -> leaf (inlined), from location 20. */
    const ph_node *m = child_named(p, NULL, "main");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const ph_frame *mf = ph_node_frame(p, m);
    CU_ASSERT_EQUAL(mf->line, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf->object);
    CU_ASSERT_EQUAL(mf->object->start, 0x400000);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, mf->object->build_id), "abc123");
    const ph_node *in = child_named(p, m, "inner");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    const ph_node *lf = child_named(p, in, "leaf");
    CU_ASSERT_PTR_NOT_NULL_FATAL(lf);
    const ph_frame *inf = ph_node_frame(p, in), *lff = ph_node_frame(p, lf);
    CU_ASSERT_EQUAL(inf->flags & PH_FRAME_INLINED, 0);
    CU_ASSERT_EQUAL(lff->flags & PH_FRAME_INLINED, PH_FRAME_INLINED);
    CU_ASSERT_EQUAL(lff->addr, inf->addr);
    CU_ASSERT_EQUAL(lff->line, 30);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ph_node_samples(p, lf));
    CU_ASSERT_EQUAL(ph_node_samples(p, lf)->cost[1], 30);
    /* The thread label made a part of its own. */
    CU_ASSERT_EQUAL(ph_part_count(p), 2);
    const ph_sample *s1 = ph_sample_at(p, 1);
    CU_ASSERT_EQUAL(s1->nlabels, 1);
    CU_ASSERT_EQUAL(s1->part->kind, PH_PART_THREAD);
    CU_ASSERT_NOT_EQUAL(s1->part, ph_sample_at(p, 0)->part);
    CU_ASSERT_EQUAL(ph_totals(p, (int)s1->part->index)[1], 10);
    ph_profile_free(p);
    /* Raw and gzip-free bytes sniff as pprof, not drcctprof. */
    CU_ASSERT(ph_pprof_sniff(d, n) > 0);
    CU_ASSERT_EQUAL(ph_drcctprof_sniff(d, n), 0);
    CU_ASSERT_EQUAL(ph_pprof_sniff((const unsigned char *)"fn=main\n", 8), 0);
    free(d);
}

/* A sample without a stack between two with one, its locations listed
 * last to first (the stacks wait for the frames' indices another thread
 * makes with two jobs): its value on a root frame "<no stack>", the
 * others' where their stacks lead. */
static void test_read_no_stack(void)
{
    for (int jobs = 1; jobs <= 2; jobs++) {
        pbuild b;
        size_t n;
        char msg[256];
        build(&b);
        b.smp[1].n_location_id = 0;
        for (int i = 0; i < 3; i++)
            b.locp[i] = &b.loc[2 - i];
        uint8_t *d = pack(&b.pb, &n);
        ph_set_jobs(jobs);
        ph_profile *p = read_bytes(d, n, msg, sizeof msg);
        ph_set_jobs(0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        const ph_node *none = child_named(p, NULL, "<no stack>");
        CU_ASSERT_PTR_NOT_NULL_FATAL(none);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ph_node_samples(p, none));
        CU_ASSERT_EQUAL(ph_node_samples(p, none)->cost[1], 10);
        const ph_node *m = child_named(p, NULL, "main");
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL(ph_node_samples(p, m)->cost[1], -5);
        const ph_node *in = child_named(p, m, "inner");
        CU_ASSERT_PTR_NOT_NULL_FATAL(in);
        const ph_node *lf = child_named(p, in, "leaf");
        CU_ASSERT_PTR_NOT_NULL_FATAL(lf);
        CU_ASSERT_EQUAL(ph_node_samples(p, lf)->cost[1], 30);
        CU_ASSERT_EQUAL(ph_node_frame(p, lf)->line, 30);
        CU_ASSERT_EQUAL(ph_node_count(p), 4);
        ph_profile_free(p);
        free(d);
    }
}

/* A string table of 10,000 entries (batches of strings hashed on either
 * thread and interned in order): names far into it, plain and compound
 * (parts joined by PH_STR_JOIN, 64 bytes or more), read the same with
 * one job and two. */
static void test_read_big_string_table(void)
{
    enum { NSTR = 10000 };
    static char text[NSTR][96];
    static char *strs[NSTR];
    for (int jobs = 1; jobs <= 2; jobs++) {
        pbuild b;
        size_t n;
        char msg[256];
        build(&b);
        for (int i = 0; i < NSTR; i++) {
            if (i < (int)b.pb.n_string_table)
                snprintf(text[i], sizeof text[i], "%s", b.strs[i]);
            else if (i % 3)
                snprintf(text[i], sizeof text[i], "name%d", i);
            else
                snprintf(text[i], sizeof text[i], "caller_of_%d'middle_"
                         "function'callee_%d_of_a_long_chain_of_calls", i,
                         i % 7);
            strs[i] = text[i];
        }
        b.pb.string_table = strs;
        b.pb.n_string_table = NSTR;
        b.fn[0].name = 4097;            /* main: plain, the second batch */
        b.fn[1].name = 9999;            /* inner: compound, the last */
        b.fn[2].name = 8193;            /* leaf: compound, the third */
        uint8_t *d = pack(&b.pb, &n);
        ph_set_jobs(jobs);
        ph_profile *p = read_bytes(d, n, msg, sizeof msg);
        ph_set_jobs(0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        const ph_node *m = child_named(p, NULL, "name4097");
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        const ph_node *in = child_named(p, m, text[9999]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(in);
        const ph_node *lf = child_named(p, in, text[8193]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(lf);
        CU_ASSERT_EQUAL(ph_node_samples(p, lf)->cost[1], 30);
        /* the compound name and a plain one with its text are one; its
         * parts were interned under their own hashes: found again */
        CU_ASSERT_EQUAL(ph_str_intern0(p, text[8193]),
                        ph_node_func(p, lf)->name);
        uint32_t count = ph_str_count(p);
        ph_str_intern0(p, "caller_of_9999");
        ph_str_intern0(p, "middle_function");
        ph_str_intern0(p, "callee_3_of_a_long_chain_of_calls");
        CU_ASSERT_EQUAL(ph_str_count(p), count);
        ph_profile_free(p);
        free(d);
    }
}

/* Each corruption must fail with a message naming an offset. */
static void expect_error(pbuild *b, const char *want)
{
    size_t n;
    char msg[256];
    uint8_t *d = pack(&b->pb, &n);
    ph_profile *p = read_bytes(d, n, msg, sizeof msg);
    CU_ASSERT_PTR_NULL(p);
    if (p)
        ph_profile_free(p);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "t.pb: offset 0x"));
    if (!strstr(msg, want))
        fprintf(stderr, "\nexpected \"%s\" in \"%s\"\n", want, msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
    free(d);
}

static void test_read_errors(void)
{
    pbuild b;
    build(&b);
    b.fn[1].name = 99;
    expect_error(&b, "function name: string index 99 out of range (table "
                 "has 14)");
    build(&b);
    b.ids[0][0] = 77;
    expect_error(&b, "sample 0 names unknown location id 77");
    build(&b);
    b.smp[2].n_value = 1;
    expect_error(&b, "sample 2 has 1 values but the profile has 2 sample "
                 "types");
    build(&b);
    b.ln[2].function_id = 9;
    expect_error(&b, "location 20 names unknown function id 9");
    build(&b);
    b.loc[0].mapping_id = 4;
    expect_error(&b, "location 10 names unknown mapping id 4");
    build(&b);
    b.loc[2].id = 10;
    expect_error(&b, "two locations with id 10");
    build(&b);
    b.strs[0] = "x";
    expect_error(&b, "string table entry 0 is \"x\", must be empty");
    build(&b);
    b.pb.n_string_table = 0;
    expect_error(&b, "string table is empty (entry 0 must be \"\")");
    build(&b);
    b.lab.key = -1;
    expect_error(&b, "label key: string index -1 out of range");

    /* Truncated data and concatenated profiles. */
    size_t n;
    char msg[256];
    build(&b);
    uint8_t *d = pack(&b.pb, &n);
    ph_profile *p = read_bytes(d, n - 1, msg, sizeof msg);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "past the end of the data"));
    uint8_t *two = malloc(2 * n);
    memcpy(two, d, n);
    memcpy(two + n, d, n);
    p = read_bytes(two, 2 * n, msg, sizeof msg);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "concatenated profiles detected"));
    free(two);
    free(d);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */

/* p written by wr to a file of the test's (path, 64 bytes) and read back
 * as bytes; with keep, the output is left open there instead (NULL). */
static ph_input *write_file(ph_profile *p, int (*wr)(const ph_profile *,
                            ph_output *), const char *name, char *path,
                            ph_output **keep)
{
    char err[256];
    snprintf(path, 64, "/tmp/ph_unit_%d_%s", (int)getpid(), name);
    ph_output *out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(wr(p, out), 0);
    if (keep) {
        *keep = out;
        return NULL;
    }
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    ph_input *in = ph_input_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    return in;
}

static ph_profile *write_and_read(ph_profile *p, int (*wr)(const ph_profile *,
                                  ph_output *),
                                  int (*rd)(ph_input *, ph_profile *),
                                  const char *name, ph_output **keep)
{
    char path[64];
    ph_input *in = write_file(p, wr, name, path, keep);
    if (!in)
        return NULL;
    ph_profile *q = ph_profile_new();
    if (rd(in, q) != 0) {
        fprintf(stderr, "\n%s\n", ph_input_error(in));
        ph_profile_free(q);
        q = NULL;
    }
    ph_input_close(in);
    unlink(path);
    return q;
}

static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Stacks as "f;g;h v0 v1" strings, sorted, so two profiles compare. */
static char *stack_text(ph_profile *p)
{
    size_t ns = ph_sample_count(p), cap = 64 * ns + 16, len = 0;
    char **lines = calloc(ns + 1, sizeof *lines);
    for (size_t i = 0; i < ns; i++) {
        const ph_sample *s = ph_sample_at(p, i);
        const ph_node *chain[64];
        size_t depth = 0, len0 = 0;
        char buf[512];
        for (const ph_node *n = s->node; n && depth < 64;
             n = ph_node_at(p, n->parent - 1))
            chain[depth++] = n;
        buf[0] = '\0';
        while (depth-- > 0 && len0 < sizeof buf)
            len0 += (size_t)snprintf(buf + len0, sizeof buf - len0, ";%s%s",
                                     ph_str_get(p, ph_node_func(p,
                                                    chain[depth])->name),
                                     (ph_node_frame(p, chain[depth])->flags &
                                      PH_FRAME_INLINED)
                                     ? "*" : "");
        lines[i] = malloc(600);
        snprintf(lines[i], 600, "%s %lld %lld", buf,
                 (long long)ph_sample_value(s, 0),
                 (long long)ph_sample_value(s, 1));
    }
    qsort(lines, ns, sizeof *lines, cmp_line);
    char *all = calloc(cap + ns * 600, 1);
    for (size_t i = 0; i < ns; i++) {
        len += (size_t)sprintf(all + len, "%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
    return all;
}

static void test_write_roundtrip(void)
{
    pbuild b;
    size_t n;
    char msg[256];
    build(&b);
    uint8_t *d = pack(&b.pb, &n);
    ph_profile *p = read_bytes(d, n, msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    ph_profile *q = write_and_read(p, ph_pprof_write, ph_pprof_read, "rt.pb",
                                   NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    char *a = stack_text(p), *c = stack_text(q);
    if (strcmp(a, c))
        fprintf(stderr, "\n%s---\n%s", a, c);
    CU_ASSERT_STRING_EQUAL(a, c);
    CU_ASSERT_STRING_EQUAL(ph_meta_get(q, "period"), "10000000");
    CU_ASSERT_EQUAL(ph_part_count(q), 2);
    CU_ASSERT_EQUAL(ph_node_frame(q, ph_node_at(q, 0))->object->start,
                    0x400000);
    free(a);
    free(c);
    ph_profile_free(q);
    /* drcctprof keeps the stacks too (inline marks become frames). */
    q = write_and_read(p, ph_drcctprof_write, ph_drcctprof_read, "rt.dcp",
                       NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL(ph_totals(q, PH_ALL_PARTS)[1], 35);
    CU_ASSERT_EQUAL(ph_sample_count(q), 3);
    ph_profile_free(q);
    ph_profile_free(p);
    free(d);
}

/* Flat data: main calls a twice and b once; both call c (self 30).  The
 * pprof writer splits c by the calls' inclusive cost: 20 under a, 10
 * under b, keeps every self cost exact and says it approximated. */
static void test_write_flat(void)
{
    ph_profile *p = ph_profile_new();
    ph_event_add(p, "Ir");
    ph_part *part = ph_part_add(p, PH_PART_WHOLE);
    ph_func *fm = ph_func_get(p, ph_str_intern0(p, "main"), NULL, NULL);
    ph_func *fa = ph_func_get(p, ph_str_intern0(p, "a"), NULL, NULL);
    ph_func *fb = ph_func_get(p, ph_str_intern0(p, "b"), NULL, NULL);
    ph_func *fc = ph_func_get(p, ph_str_intern0(p, "c"), NULL, NULL);
    int64_t v5 = 5, v7 = 7, v30 = 30, i27 = 27, i14 = 14, i20 = 20, i10 = 10;
    ph_row_add(p, fm, part, 0, 1, NULL, &v5, 1);
    ph_row_add(p, fa, part, 0, 2, NULL, &v7, 1);
    ph_row_add(p, fc, part, 0, 3, NULL, &v30, 1);
    ph_call_add(p, fm, part, 0, 1, NULL, fa, 0, 0, 2, &i27, 1);
    ph_call_add(p, fm, part, 0, 1, NULL, fb, 0, 0, 1, &i10, 1);
    ph_call_add(p, fa, part, 0, 2, NULL, fc, 0, 0, 2, &i20, 1);
    ph_call_add(p, fb, part, 0, 2, NULL, fc, 0, 0, 1, &i10, 1);
    (void)i14;
    ph_output *out;
    write_and_read(p, ph_pprof_write, ph_pprof_read, "flat.pb", &out);
    CU_ASSERT(ph_output_drop_count(out) >= 1);
    uint64_t times;
    CU_ASSERT_PTR_NOT_NULL(strstr(ph_output_drop_at(out, 0, &times),
                                  "approximated"));
    ph_output_abort(out);
    /* the writer changed nothing: the approximation is the output's */
    CU_ASSERT_PTR_NULL(ph_profile_approx(p));
    CU_ASSERT_EQUAL(ph_node_count(p), 0);
    ph_profile *q = write_and_read(p, ph_pprof_write, ph_pprof_read,
                                   "flat2.pb", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL(ph_totals(q, PH_ALL_PARTS)[0], 42);
    const ph_node *m = child_named(q, NULL, "main");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const ph_node *ca = child_named(q, child_named(q, m, "a"), "c");
    const ph_node *cb = child_named(q, child_named(q, m, "b"), "c");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ca);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cb);
    CU_ASSERT_EQUAL(ph_node_samples(q, ca)->cost[0], 20);
    CU_ASSERT_EQUAL(ph_node_samples(q, cb)->cost[0], 10);
    ph_func *qc = ph_func_find(q, ph_str_intern0(q, "c"), NULL, NULL);
    CU_ASSERT_EQUAL(ph_func_self(q, qc, PH_ALL_PARTS)[0], 30);
    ph_profile_free(q);
    ph_profile_free(p);
}

/* Every string of a written pprof file is named by something in it, and
 * a function the file does not hold (no rows, no calls) has no name in
 * it: the writer names functions ahead of the stack view. */
static void mark_type(unsigned char *named, size_t n,
                      const Perftools__Profiles__ValueType *vt)
{
    if (vt) {
        ph_test_mark(named, n, vt->type);
        ph_test_mark(named, n, vt->unit);
    }
}

static void test_write_strings_named(void)
{
    ph_profile *p = ph_test_flat_with_unused();
    char path[64];
    ph_input *in = write_file(p, ph_pprof_write, "named.pb", path, NULL);
    Perftools__Profiles__Profile *pb = perftools__profiles__profile__unpack(
        NULL, ph_input_size(in), ph_input_data(in));
    CU_ASSERT_PTR_NOT_NULL_FATAL(pb);

    size_t n = pb->n_string_table;
    unsigned char *named = calloc(n + 1, 1);
    for (size_t i = 0; i < pb->n_sample_type; i++)
        mark_type(named, n, pb->sample_type[i]);
    mark_type(named, n, pb->period_type);
    for (size_t i = 0; i < pb->n_function; i++) {
        ph_test_mark(named, n, pb->function[i]->name);
        ph_test_mark(named, n, pb->function[i]->system_name);
        ph_test_mark(named, n, pb->function[i]->filename);
    }
    for (size_t i = 0; i < pb->n_mapping; i++) {
        ph_test_mark(named, n, pb->mapping[i]->filename);
        ph_test_mark(named, n, pb->mapping[i]->build_id);
    }
    for (size_t i = 0; i < pb->n_sample; i++)
        for (size_t k = 0; k < pb->sample[i]->n_label; k++) {
            ph_test_mark(named, n, pb->sample[i]->label[k]->key);
            ph_test_mark(named, n, pb->sample[i]->label[k]->str);
            ph_test_mark(named, n, pb->sample[i]->label[k]->num_unit);
        }
    for (size_t i = 0; i < pb->n_comment; i++)
        ph_test_mark(named, n, pb->comment[i]);
    ph_test_mark(named, n, pb->drop_frames);
    ph_test_mark(named, n, pb->keep_frames);
    ph_test_mark(named, n, pb->default_sample_type);
    ph_test_mark(named, n, pb->doc_url);
    ph_test_check_named(named, pb->string_table, n);
    CU_ASSERT_EQUAL(pb->n_function, 2);
    free(named);
    perftools__profiles__profile__free_unpacked(pb, NULL);
    ph_input_close(in);
    unlink(path);
    ph_profile_free(p);
}

/* ------------------------------------------------------------------ */
/* Folded stacks                                                      */

static void test_folded(void)
{
    static const char text[] = "main;a;c 3\nmain;a 2\r\n\nmain;b;c_[i] -1\n";
    ph_input *in = ph_input_memory(text, strlen(text), "t.folded");
    ph_profile *p = ph_profile_new();
    CU_ASSERT_EQUAL_FATAL(ph_folded_read(in, p), 0);
    ph_input_close(in);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 4);
    CU_ASSERT_EQUAL(ph_sample_count(p), 3);
    const ph_node *c = child_named(p, child_named(p, child_named(p, NULL,
                                   "main"), "b"), "c");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(ph_node_frame(p, c)->flags, PH_FRAME_INLINED);
    CU_ASSERT(ph_folded_sniff((const unsigned char *)text, strlen(text)) > 0);
    CU_ASSERT_EQUAL(ph_folded_sniff((const unsigned char *)"events: Ir\n",
                                    11), 0);
    /* Written back: the same stacks and counts. */
    ph_profile *q = write_and_read(p, ph_folded_write, ph_folded_read,
                                   "t.folded", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    char *a = stack_text(p), *b = stack_text(q);
    if (strcmp(a, b))
        fprintf(stderr, "\n%s---\n%s", a, b);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    ph_profile_free(q);
    ph_profile_free(p);

    static const char bad[] = "main;a 3\nmain;;b 1\n";
    in = ph_input_memory(bad, strlen(bad), "t.folded");
    p = ph_profile_new();
    CU_ASSERT_EQUAL(ph_folded_read(in, p), -1);
    CU_ASSERT_STRING_EQUAL(ph_input_error(in),
                           "t.folded:2:6: empty frame name in the stack");
    ph_input_close(in);
    ph_profile_free(p);
    static const char bad2[] = "main;a x3\n";
    in = ph_input_memory(bad2, strlen(bad2), "t.folded");
    p = ph_profile_new();
    CU_ASSERT_EQUAL(ph_folded_read(in, p), -1);
    CU_ASSERT_STRING_EQUAL(ph_input_error(in), "t.folded:1:8: expected a "
                           "count at the end of the line, got \"x3\"");
    ph_input_close(in);
    ph_profile_free(p);
}

void ph_test_register_pprof(void)
{
    CU_pSuite s = CU_add_suite("pprof", NULL, NULL);
    CU_add_test(s, "read a tree with inline chains and labels",
                test_read_tree);
    CU_add_test(s, "a sample without a stack keeps its value",
                test_read_no_stack);
    CU_add_test(s, "a string table of many batches",
                test_read_big_string_table);
    CU_add_test(s, "validation errors name their offset", test_read_errors);
    CU_add_test(s, "write then read keeps every sample",
                test_write_roundtrip);
    CU_add_test(s, "flat data: approximated stacks, exact self costs",
                test_write_flat);
    CU_add_test(s, "written strings: each named, no unused function's",
                test_write_strings_named);
    CU_add_test(s, "folded stacks read and write", test_folded);
}
