/* drcctprof_test.c -- the drcctprof reader and writer on profiles packed
 * here with the generated code: typed metrics (uint, int, string),
 * non-additive metrics kept but not summed, contexts listed children
 * first, ids 0 for locations and functions, repeated context records;
 * errors with offsets (cycles, unknown ids, metric counts); the writer's
 * EasyView rules (parent id < child id, children_id, uint_value); every
 * string a written file holds named in it, none for an unused function. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/importers.h"
#include "proto/drcctprof.pb-c.h"
#include "exporters/exporters.h"
#include "named_strings.h"
#include "suites.h"

typedef struct dbuild {
    Drcctprof__Profile__Profile pb;
    Drcctprof__Profile__MetricType mt[3], *mtp[3];
    Drcctprof__Profile__Context ctx[4], *ctxp[4];
    Drcctprof__Profile__Location loc[3], *locp[3];
    Drcctprof__Profile__Line ln[3], *lnp[3];
    Drcctprof__Profile__Function fn[3], *fnp[3];
    Drcctprof__Profile__SourceFile sf, *sfp[1];
    Drcctprof__Profile__Sample smp[3], *smpp[3];
    Drcctprof__Profile__Metric met[3][3], *metp[3][3];
    char *strs[12];
} dbuild;

/* Strings: 0 "", 1 time, 2 sec, 3 alloc context, 4 note, 5 root,
 * 6 work, 7 leaf, 8 a.c, 9 hot, 10 " " */
static void build(dbuild *b)
{
    static const char *const s[] = {"", "time", "sec", "alloc context",
        "note", "root", "work", "leaf", "a.c", "hot", " "};
    Drcctprof__Profile__Profile *pb = &b->pb;
    memset(b, 0, sizeof *b);
    drcctprof__profile__profile__init(pb);
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        b->strs[i] = (char *)s[i];
    pb->string_table = b->strs;
    pb->n_string_table = sizeof s / sizeof s[0];
    static const int vt[3] = {1, 1, 2};
    static const int des[3] = {1, 3, 4};
    for (int i = 0; i < 3; i++) {
        drcctprof__profile__metric_type__init(&b->mt[i]);
        b->mt[i].value_type = vt[i];
        b->mt[i].des = des[i];
        b->mt[i].unit = i == 0 ? 2 : 10;
        b->mtp[i] = &b->mt[i];
    }
    pb->metric_type = b->mtp;
    pb->n_metric_type = 3;
    drcctprof__profile__source_file__init(&b->sf);
    b->sf.id = 0, b->sf.filename = 8, b->sf.location_path = 8;
    b->sfp[0] = &b->sf;
    pb->source_file = b->sfp;
    pb->n_source_file = 1;
    for (int i = 0; i < 3; i++) {
        drcctprof__profile__function__init(&b->fn[i]);
        b->fn[i].id = (uint64_t)i;               /* id 0 is real */
        b->fn[i].name = 5 + i;
        b->fnp[i] = &b->fn[i];
        drcctprof__profile__line__init(&b->ln[i]);
        b->ln[i].function_id = (uint64_t)i;
        b->ln[i].line = 10 + i;
        b->lnp[i] = &b->ln[i];
        drcctprof__profile__location__init(&b->loc[i]);
        b->loc[i].id = (uint64_t)i;
        b->loc[i].line = &b->lnp[i];
        b->loc[i].n_line = 1;
        b->locp[i] = &b->loc[i];
    }
    pb->function = b->fnp;
    pb->n_function = 3;
    pb->location = b->locp;
    pb->n_location = 3;
    /* Contexts, children listed first: 7 (leaf) -> 5 (work) -> 1 (root),
     * and a repeat of 5. */
    static const uint64_t cid[4] = {7, 5, 1, 5}, loc[4] = {2, 1, 0, 1},
                          par[4] = {5, 1, 0, 1};
    for (int i = 0; i < 4; i++) {
        drcctprof__profile__context__init(&b->ctx[i]);
        b->ctx[i].id = cid[i];
        b->ctx[i].location_id = loc[i];
        b->ctx[i].parent_id = par[i];
        b->ctxp[i] = &b->ctx[i];
    }
    pb->context = b->ctxp;
    pb->n_context = 4;
    /* Samples: on 7 (time 30, ctx 5, "hot"), on 5 (inner: 12, 7), on 7
     * again (time 8, ctx 1). */
    static const uint64_t on[3] = {7, 5, 7}, t[3] = {30, 12, 8},
                          ac[3] = {5, 7, 1};
    for (int i = 0; i < 3; i++) {
        drcctprof__profile__sample__init(&b->smp[i]);
        b->smp[i].context_id = on[i];
        for (int k = 0; k < 3; k++) {
            drcctprof__profile__metric__init(&b->met[i][k]);
            b->metp[i][k] = &b->met[i][k];
        }
        b->met[i][0].uint_value = t[i];
        b->met[i][1].uint_value = ac[i];
        b->met[i][2].str_value = i == 0 ? 9 : 0;
        b->smp[i].metric = b->metp[i];
        b->smp[i].n_metric = 3;
        b->smpp[i] = &b->smp[i];
    }
    pb->sample = b->smpp;
    pb->n_sample = 3;
}

static ph_profile *read_bytes(const Drcctprof__Profile__Profile *pb,
                              char *msg, size_t msgsize, uint8_t **keep,
                              size_t *klen)
{
    size_t n = drcctprof__profile__profile__get_packed_size(pb);
    uint8_t *d = malloc(n + 1);
    drcctprof__profile__profile__pack(pb, d);
    ph_input *in = ph_input_memory(d, n, "t.drcctprof");
    ph_profile *p = ph_profile_new();
    msg[0] = '\0';
    if (ph_drcctprof_read(in, p) != 0) {
        snprintf(msg, msgsize, "%s", ph_input_error(in));
        ph_profile_free(p);
        p = NULL;
    }
    ph_input_close(in);
    if (keep) {
        *keep = d;
        *klen = n;
    } else {
        free(d);
    }
    return p;
}

static void test_read(void)
{
    dbuild b;
    char msg[256];
    uint8_t *d;
    size_t n;
    build(&b);
    ph_profile *p = read_bytes(&b.pb, msg, sizeof msg, &d, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT(ph_drcctprof_sniff(d, n) > 0);
    CU_ASSERT_EQUAL(ph_pprof_sniff(d, n), 0);
    free(d);
    CU_ASSERT_EQUAL(ph_event_nreal(p), 3);
    const ph_event *t = ph_event_real(p, 0), *ac = ph_event_real(p, 1),
                   *note = ph_event_real(p, 2);
    CU_ASSERT_EQUAL(t->flags & PH_EV_NONADDITIVE, 0);
    CU_ASSERT_EQUAL(ac->flags & PH_EV_NONADDITIVE, PH_EV_NONADDITIVE);
    CU_ASSERT_EQUAL(note->flags & PH_EV_NONADDITIVE, PH_EV_NONADDITIVE);
    /* "sec" integers are microseconds (HPCToolkit's converter) */
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, t->unit), "seconds");
    CU_ASSERT_DOUBLE_EQUAL(t->scale, 1e-6, 1e-12);
    const int64_t *tot = ph_totals(p, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(tot[0], 50);
    CU_ASSERT_EQUAL(tot[1], 0);             /* never summed */
    /* Three contexts (the repeat merged), parents first. */
    CU_ASSERT_EQUAL(ph_node_count(p), 3);
    const ph_sample *s0 = ph_sample_at(p, 0);
    const ph_node *up = ph_node_at(p, s0->node->parent - 1);
    CU_ASSERT_EQUAL(ph_node_ext_id(p, s0->node), 7);
    CU_ASSERT_EQUAL(ph_node_frame(p, s0->node)->line, 12);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, ph_node_func(p, s0->node)->name),
                           "leaf");
    CU_ASSERT_EQUAL(ph_node_ext_id(p, up), 5);
    CU_ASSERT_STRING_EQUAL(
        ph_str_get(p, ph_node_func(p, ph_node_at(p, up->parent - 1))->name),
        "root");
    CU_ASSERT_EQUAL(s0->cost[1], 5);        /* kept per sample */
    CU_ASSERT_PTR_NOT_NULL_FATAL(s0->strs);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, s0->strs[2]), "hot");
    CU_ASSERT_STRING_EQUAL(
        ph_str_get(p, ph_node_func(p, s0->node)->file->name), "a.c");
    /* A sample on an inner context. */
    CU_ASSERT_EQUAL(ph_node_ext_id(p, ph_sample_at(p, 1)->node), 5);
    ph_profile_free(p);
}

static void expect_error(dbuild *b, const char *want)
{
    char msg[256];
    ph_profile *p = read_bytes(&b->pb, msg, sizeof msg, NULL, NULL);
    CU_ASSERT_PTR_NULL(p);
    if (p)
        ph_profile_free(p);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "t.drcctprof: offset 0x"));
    if (!strstr(msg, want))
        fprintf(stderr, "\nexpected \"%s\" in \"%s\"\n", want, msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
}

static void test_errors(void)
{
    dbuild b;
    build(&b);
    b.ctx[2].parent_id = 7;                  /* 1 -> 7 -> 5 -> 1 */
    expect_error(&b, "is its own ancestor");
    build(&b);
    b.ctx[0].parent_id = 42;
    expect_error(&b, "context 7 names unknown parent id 42");
    build(&b);
    b.smp[1].n_metric = 2;
    expect_error(&b, "sample 1 has 2 metrics but the profile has 3 metric "
                 "types");
    build(&b);
    b.smp[2].context_id = 3;
    expect_error(&b, "sample 2 names unknown context id 3");
    build(&b);
    b.mt[0].value_type = 5;
    expect_error(&b, "metric 0 has value type 5");
    build(&b);
    b.ctx[3].location_id = 2;
    expect_error(&b, "two contexts with id 5 differ in location or parent");
    build(&b);
    b.ln[1].function_id = 8;
    expect_error(&b, "location 1 names unknown function id 8");
    build(&b);
    b.met[0][2].str_value = 40;
    expect_error(&b, "string metric: string index 40 out of range");
    /* The rule pprof's reader follows too (proto/pb_read.c): no string
     * table is an error even when nothing else names a string. */
    build(&b);
    b.pb.n_string_table = 0;
    b.pb.n_metric_type = b.pb.n_function = b.pb.n_location = 0;
    b.pb.n_context = b.pb.n_sample = 0;      /* only the source file left */
    expect_error(&b, "string table is empty (entry 0 must be \"\")");
}

/* p written as DrCCTProf to /tmp/ph_unit_<pid><tag>.drcctprof (path, 64
 * bytes), opened again. */
static ph_input *write_file(const ph_profile *p, const char *tag,
                            char *path)
{
    char err[256];
    snprintf(path, 64, "/tmp/ph_unit_%d%s.drcctprof", (int)getpid(), tag);
    ph_output *out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(ph_drcctprof_write(p, out), 0);
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    ph_input *in = ph_input_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    return in;
}

static void test_write(void)
{
    dbuild b;
    char msg[256], path[64];
    build(&b);
    /* Renumbering: ids that break parent < child are replaced. */
    b.ctx[0].id = 3;
    b.smp[0].context_id = 3;
    b.smp[2].context_id = 3;
    ph_profile *p = read_bytes(&b.pb, msg, sizeof msg, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    /* A negative value in the first metric: it must go to int_value. */
    ph_sample_at(p, 2)->cost[0] = -8;
    ph_input *in = write_file(p, "", path);
    Drcctprof__Profile__Profile *pb = drcctprof__profile__profile__unpack(
        NULL, ph_input_size(in), ph_input_data(in));
    CU_ASSERT_PTR_NOT_NULL_FATAL(pb);
    CU_ASSERT_EQUAL(pb->n_context, 3);
    CU_ASSERT_STRING_EQUAL(pb->string_table[0], "");
    for (size_t i = 0; i < pb->n_context; i++) {
        const Drcctprof__Profile__Context *c = pb->context[i];
        CU_ASSERT(c->id >= 1);
        CU_ASSERT(c->parent_id < c->id);
        for (size_t k = 0; k < c->n_children_id; k++)
            CU_ASSERT(c->children_id[k] > c->id);
    }
    CU_ASSERT_EQUAL(pb->context[0]->n_children_id, 1);
    for (size_t i = 0; i < pb->n_location; i++)
        CU_ASSERT_EQUAL(pb->location[i]->n_line, 1);
    CU_ASSERT_EQUAL(pb->metric_type[0]->value_type, 0);  /* has -8 */
    CU_ASSERT_EQUAL(pb->metric_type[1]->value_type, 1);
    CU_ASSERT_EQUAL(pb->metric_type[2]->value_type, 2);
    CU_ASSERT_EQUAL(pb->sample[0]->metric[0]->uint_value, 30);
    CU_ASSERT_EQUAL(pb->sample[2]->metric[0]->int_value, -8);
    CU_ASSERT_STRING_EQUAL(pb->string_table[pb->sample[0]->metric[2]
                                            ->str_value], "hot");
    drcctprof__profile__profile__free_unpacked(pb, NULL);
    /* And it reads back with the same values. */
    ph_profile *q = ph_profile_new();
    CU_ASSERT_EQUAL(ph_drcctprof_read(in, q), 0);
    CU_ASSERT_EQUAL(ph_totals(q, PH_ALL_PARTS)[0], 34);
    CU_ASSERT_EQUAL(ph_sample_at(q, 0)->cost[1], 5);
    ph_profile_free(q);
    ph_input_close(in);
    unlink(path);
    ph_profile_free(p);
}

/* The writer names a function ahead of the contexts only when it has rows
 * or calls (exporters/out_strings.c): a symbol without either adds no
 * string, and no string goes unnamed. */
static void test_write_strings_named(void)
{
    char path[64];
    ph_profile *p = ph_test_flat_with_unused();
    ph_input *in = write_file(p, "_named", path);
    Drcctprof__Profile__Profile *pb = drcctprof__profile__profile__unpack(
        NULL, ph_input_size(in), ph_input_data(in));
    CU_ASSERT_PTR_NOT_NULL_FATAL(pb);

    size_t n = pb->n_string_table;
    unsigned char *named = calloc(n + 1, 1);
    for (size_t i = 0; i < pb->n_metric_type; i++) {
        ph_test_mark(named, n, pb->metric_type[i]->unit);
        ph_test_mark(named, n, pb->metric_type[i]->des);
    }
    for (size_t i = 0; i < pb->n_sample; i++)
        for (size_t k = 0; k < pb->sample[i]->n_metric; k++)
            ph_test_mark(named, n, pb->sample[i]->metric[k]->str_value);
    for (size_t i = 0; i < pb->n_function; i++) {
        ph_test_mark(named, n, pb->function[i]->name);
        ph_test_mark(named, n, pb->function[i]->system_name);
    }
    for (size_t i = 0; i < pb->n_source_file; i++) {
        ph_test_mark(named, n, pb->source_file[i]->filename);
        ph_test_mark(named, n, pb->source_file[i]->location_path);
    }
    ph_test_check_named(named, pb->string_table, n);
    free(named);
    drcctprof__profile__profile__free_unpacked(pb, NULL);
    ph_input_close(in);
    unlink(path);
    ph_profile_free(p);
}

void ph_test_register_drcctprof(void)
{
    CU_pSuite s = CU_add_suite("drcctprof", NULL, NULL);
    CU_add_test(s, "read typed metrics and contexts in any order", test_read);
    CU_add_test(s, "errors name their offset", test_errors);
    CU_add_test(s, "write follows EasyView's rules", test_write);
    CU_add_test(s, "written strings: each named, no unused function's",
                test_write_strings_named);
}
