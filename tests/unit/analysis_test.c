/* analysis_test.c -- CUnit suite for analysis/: cycles and gprof's
 * inclusive rule, grouped tables, ratio of sums, class names, callers and
 * callees, rename rules, merge and diff, on hand-built IR; merge's fold of
 * records with equal keys against a plain count. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_priv.h"
#include "ir.h"
#include "suites.h"

/* main -> ping <-> pong -> leaf, main -> leaf: ping and pong are a cycle.
 * Costs (one event): main 10, ping 20, pong 30, leaf 40 (leaf: 25 from
 * pong, 15 from main).  Call costs as callgrind writes them over-count the
 * mutual recursion: main->ping 75 (= the whole cycle 50 + 25 leaf). */
typedef struct graph {
    ph_profile *p;
    ph_func *main_f, *ping, *pong, *leaf;
} graph;

static ph_func *fn(ph_profile *p, const char *name, ph_file *file)
{
    return ph_func_get(p, ph_str_intern0(p, name), file, NULL);
}

static void build_graph(graph *g)
{
    ph_profile *p = ph_profile_new();
    ph_file *f = ph_file_get(p, ph_str_intern0(p, "g.c"));
    ph_part *part = ph_part_add(p, PH_PART_WHOLE);
    ph_event_add(p, "Ir");
    g->main_f = fn(p, "main", f);
    g->ping = fn(p, "ns::A::ping(int)", f);
    g->pong = fn(p, "ns::A::pong(int)", f);
    g->leaf = fn(p, "leaf", f);
    ph_row_add(p, g->main_f, part, 0, 1, f, (int64_t[]){10}, 1);
    ph_row_add(p, g->ping, part, 0, 2, f, (int64_t[]){20}, 1);
    ph_row_add(p, g->pong, part, 0, 3, f, (int64_t[]){30}, 1);
    ph_row_add(p, g->leaf, part, 0, 4, f, (int64_t[]){40}, 1);
    ph_call_add(p, g->main_f, part, 0, 1, f, g->ping, 0, 2, 1,
                (int64_t[]){75}, 1);
    ph_call_add(p, g->ping, part, 0, 2, f, g->pong, 0, 3, 3,
                (int64_t[]){70}, 1);
    ph_call_add(p, g->pong, part, 0, 3, f, g->ping, 0, 2, 2,
                (int64_t[]){40}, 1);
    ph_call_add(p, g->pong, part, 0, 3, f, g->leaf, 0, 4, 5,
                (int64_t[]){25}, 1);
    ph_call_add(p, g->main_f, part, 0, 1, f, g->leaf, 0, 4, 1,
                (int64_t[]){15}, 1);
    g->p = p;
}

static void test_cycles(void)
{
    graph g;
    build_graph(&g);
    ph_cycles *c = ph_cycles_find(g.p, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(ph_cycles_count(c), 1);
    CU_ASSERT_EQUAL(ph_cycles_of(c, g.ping), 1);
    CU_ASSERT_EQUAL(ph_cycles_of(c, g.pong), 1);
    CU_ASSERT_EQUAL(ph_cycles_of(c, g.main_f), 0);
    CU_ASSERT_EQUAL(ph_cycles_of(c, g.leaf), 0);
    size_t n;
    ph_func *const *m = ph_cycles_members(c, 1, &n);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_PTR_EQUAL(m[0], g.ping);
    /* Cycle as a whole: self 50, plus pong -> leaf 25. */
    CU_ASSERT_EQUAL(ph_cycles_self(c, 1)[0], 50);
    CU_ASSERT_EQUAL(ph_cycles_incl(c, 1)[0], 75);
    CU_ASSERT_EQUAL(ph_cycles_calls(c, 1), 1);
    CU_ASSERT_EQUAL(ph_cycles_member_incl(c, g.ping)[0], 20);
    CU_ASSERT_EQUAL(ph_cycles_member_incl(c, g.pong)[0], 55);
    CU_ASSERT_PTR_NULL(ph_cycles_member_incl(c, g.leaf));
    ph_cycles_free(c);
    ph_profile_free(g.p);
}

static const ph_entry *entry(const ph_table *t, const char *name)
{
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(ph_entry_name(t, &t->entries[i]), name) == 0)
            return &t->entries[i];
    return NULL;
}

static void test_table_never_exceeds_total(void)
{
    graph g;
    build_graph(&g);
    ph_table_opts o = {.group = PH_GROUP_FUNCTION, .part = PH_ALL_PARTS,
                       .cycles = 1};
    ph_table *t = ph_table_build(g.p, &o);
    CU_ASSERT_EQUAL(t->totals[0], 100);
    for (size_t i = 0; i < t->count; i++)
        CU_ASSERT(t->entries[i].incl[0] <= t->totals[0]);
    const ph_entry *cyc = entry(t, "<cycle 1>");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cyc);
    CU_ASSERT_EQUAL(cyc->incl[0], 75);
    CU_ASSERT_EQUAL(entry(t, "main")->incl[0], 100);
    CU_ASSERT_EQUAL(entry(t, "leaf")->incl[0], 40);
    CU_ASSERT_EQUAL(entry(t, "leaf")->calls, 6);
    ph_table_sort(t, ph_event_find(g.p, "Ir"), PH_SORT_INCL);
    CU_ASSERT_STRING_EQUAL(ph_entry_name(t, &t->entries[0]), "main");
    ph_table_free(t);
    ph_profile_free(g.p);
}

/* 300 functions whose self costs take 7 values (ties broken by name) and
 * whose names come in another order than their costs. */
static ph_profile *tied_costs(void)
{
    ph_profile *p = ph_profile_new();
    ph_file *f = ph_file_get(p, ph_str_intern0(p, "t.c"));
    ph_part *part = ph_part_add(p, PH_PART_WHOLE);
    ph_event_add(p, "Ir");
    for (int i = 0; i < 300; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%03d", (i * 37) % 300);
        ph_row_add(p, fn(p, name, f), part, 0, 1, f,
                   (int64_t[]){1 + i % 7}, 1);
    }
    return p;
}

/* Whether entry a comes before entry b: self cost descending, then name. */
static int sorted_before(const ph_table *t, const ph_entry *a,
                         const ph_entry *b)
{
    if (a->self[0] != b->self[0])
        return a->self[0] > b->self[0];
    return strcmp(ph_entry_name(t, a), ph_entry_name(t, b)) < 0;
}

static void test_sort_top(void)
{
    ph_profile *p = tied_costs();
    const ph_event *ir = ph_event_find(p, "Ir");
    ph_table_opts o = {.group = PH_GROUP_FUNCTION, .part = PH_ALL_PARTS};
    /* 50 and 100 end inside a run of equal costs (each about 43 long) */
    size_t tops[] = { 1, 43, 50, 100, 299, 0 };
    for (size_t k = 0; k < sizeof tops / sizeof *tops; k++) {
        ph_table *t = ph_table_build(p, &o);
        CU_ASSERT_EQUAL_FATAL(t->count, 300);
        ph_table_sort_top(t, t->count, ir, PH_SORT_SELF, tops[k]);
        size_t top = tops[k] ? tops[k] : t->count;
        for (size_t i = 1; i < top; i++)
            CU_ASSERT(sorted_before(t, &t->entries[i - 1], &t->entries[i]));
        /* the rest come after the last of the top, each function once */
        for (size_t i = top; i < t->count; i++)
            CU_ASSERT(sorted_before(t, &t->entries[top - 1],
                                    &t->entries[i]));
        for (size_t i = 0; i < t->count; i++)
            for (size_t j = 0; j < i; j++)
                CU_ASSERT(t->entries[i].func != t->entries[j].func);
        ph_table_free(t);
    }
    ph_profile_free(p);
}

static void test_group_by_class(void)
{
    char buf[64];
    CU_ASSERT_STRING_EQUAL(ph_class_of("ns::A::ping(int)", buf, sizeof buf),
                           "ns::A");
    CU_ASSERT_STRING_EQUAL(
        ph_class_of("std::vector<a::b, c::d>::push_back(x::y const&)", buf,
                    sizeof buf),
        "std::vector<a::b, c::d>");
    CU_ASSERT_STRING_EQUAL(ph_class_of("main", buf, sizeof buf), "");
    CU_ASSERT_STRING_EQUAL(
        ph_class_of("(anonymous namespace)::f()", buf, sizeof buf),
        "(anonymous namespace)");
    /* Return types of template functions, lambdas, "operator delete". */
    CU_ASSERT_STRING_EQUAL(
        ph_class_of("double stats::accumulate<double, main::{lambda(double)"
                    "#1}>(std::vector<double> const&)", buf, sizeof buf),
        "stats");
    CU_ASSERT_STRING_EQUAL(
        ph_class_of("main::{lambda(double)#1}::operator()(double) const",
                    buf, sizeof buf),
        "main::{lambda(double)#1}");
    CU_ASSERT_STRING_EQUAL(
        ph_class_of("ns::A::operator delete(void*)", buf, sizeof buf),
        "ns::A");

    graph g;
    build_graph(&g);
    ph_table_opts o = {.group = PH_GROUP_CLASS, .part = PH_ALL_PARTS};
    ph_table *t = ph_table_build(g.p, &o);
    const ph_entry *a = entry(t, "ns::A");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(a->self[0], 50);
    /* Calls into the class from outside: main -> ping only. */
    CU_ASSERT_EQUAL(a->incl[0], 75);
    ph_table_free(t);
    ph_profile_free(g.p);
}

static void test_ratio_of_sums(void)
{
    ph_profile *p = ph_profile_new();
    ph_part *part = ph_part_add(p, PH_PART_WHOLE);
    ph_event_add(p, "Dr");
    ph_event_add(p, "D1mr");
    int col;
    char err[128];
    const ph_event *rate =
        ph_event_define(p, "MissRate", "D1mr / Dr", &col, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rate);
    ph_func *f = fn(p, "f", NULL);
    ph_row_add(p, f, part, 0, 1, NULL, (int64_t[]){100, 50}, 2); /* 0.5 */
    ph_row_add(p, f, part, 0, 2, NULL, (int64_t[]){900, 0}, 2);  /* 0 */
    ph_table_opts o = {.part = PH_ALL_PARTS};
    ph_table *t = ph_table_build(p, &o);
    CU_ASSERT_DOUBLE_EQUAL(ph_entry_value(t, entry(t, "f"), rate, 0), 0.05,
                           1e-12);
    ph_table_free(t);
    ph_profile_free(p);
}

static void test_callers_callees(void)
{
    graph g;
    build_graph(&g);
    ph_arcs *in = ph_callers(g.p, g.leaf, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(in->count, 2);
    int64_t sum = 0;
    uint64_t calls = 0;
    for (size_t i = 0; i < in->count; i++) {
        sum += in->arcs[i].incl[0];
        calls += in->arcs[i].count;
    }
    CU_ASSERT_EQUAL(sum, 40);
    CU_ASSERT_EQUAL(calls, 6);
    ph_arcs_free(in);
    ph_arcs *out = ph_callees(g.p, g.main_f, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(out->count, 2);
    ph_arcs_free(out);
    ph_profile_free(g.p);
}

static void test_rename(void)
{
    ph_rename r[2];
    char err[128], buf[256];
    CU_ASSERT_EQUAL(ph_rename_parse(&r[0], "s|/build/[a-z]+/|/src/|", err,
                                    sizeof err), 0);
    CU_ASSERT_EQUAL(ph_rename_parse(&r[1], "s/(o+)/<\\1>/g", err, sizeof err),
                    0);
    CU_ASSERT_STRING_EQUAL(
        ph_rename_apply(r, 2, "/build/one/foo.c", buf, sizeof buf),
        "/src/f<oo>.c");
    CU_ASSERT_EQUAL(ph_rename_parse(&r[0] + 0, "x/a/b/", err, sizeof err),
                    -1);
    ph_rename_free(&r[0]);
    ph_rename_free(&r[1]);
}

static void test_merge_and_diff(void)
{
    graph a, b;
    build_graph(&a);
    build_graph(&b);
    /* Make leaf heavier in b. */
    ph_row_add(b.p, b.leaf, ph_part_at(b.p, 0), 0, 4, NULL,
               (int64_t[]){60}, 1);

    ph_profile *sum = ph_profile_new();
    ph_part *into = ph_part_add(sum, PH_PART_WHOLE);
    ph_merge_opts mo = {.scale = 1, .into = into};
    ph_merge_into(sum, a.p, &mo);
    ph_merge_into(sum, a.p, &mo);
    CU_ASSERT_EQUAL(ph_totals(sum, PH_ALL_PARTS)[0], 200);
    CU_ASSERT_EQUAL(ph_func_count(sum), 4);
    ph_profile_free(sum);

    ph_diff_opts o = {0};
    ph_diff *d = ph_diff_build(a.p, b.p, &o);
    CU_ASSERT_EQUAL(d->nevents, 1);
    ph_diff_sort(d, 0, 0);
    CU_ASSERT_STRING_EQUAL(ph_diff_str(d, d->rows[0].name), "leaf");
    CU_ASSERT_DOUBLE_EQUAL(ph_diff_new_value(d, &d->rows[0], 0) -
                               ph_diff_base_value(d, &d->rows[0], 0),
                           60, 1e-9);
    CU_ASSERT_EQUAL(d->rows[0].status, PH_DIFF_IN_BASE | PH_DIFF_IN_NEW);
    ph_diff_free(d);

    o.normalize = 1;
    d = ph_diff_build(a.p, b.p, &o);
    CU_ASSERT_DOUBLE_EQUAL(ph_diff_new_total(d, 0), 100, 1e-9);
    ph_diff_free(d);
    ph_profile_free(a.p);
    ph_profile_free(b.p);
}

static int key_less(const uint64_t *a, const uint64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

/* n records of three small key words (many equal), folded, against the
 * same done plainly: the distinct keys in order, each with its sum and
 * the index of its first record. */
static void fold_against_plain(size_t n, uint64_t seed)
{
    enum { NKEY = 3, WIDTH = 2 };
    uint64_t (*key)[NKEY] = calloc(n + 1, sizeof *key);
    size_t *first = calloc(n + 1, sizeof *first), ndist = 0;
    int64_t (*sum)[WIDTH] = calloc(n + 1, sizeof *sum);
    ph_sumbuf b;
    ph_sumbuf_init(&b, NKEY, WIDTH);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[NKEY];
        for (int j = 0; j < NKEY; j++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            k[j] = (seed >> 33) % (j == 0 ? 2 : 7);
        }
        int64_t *v = ph_sumbuf_push(&b, k);
        v[0] = (int64_t)i;
        v[1] = 1;
        size_t d = 0;
        while (d < ndist && memcmp(key[first[d]], k, sizeof k) != 0)
            d++;
        if (d == ndist) {
            first[ndist++] = i;
            memset(sum[d], 0, sizeof sum[d]);
        }
        memcpy(key[i], k, sizeof k);
        sum[d][0] += (int64_t)i;
        sum[d][1] += 1;
    }
    /* the distinct keys in key order, by insertion (first[] and sum[]
     * move together) */
    for (size_t i = 1; i < ndist; i++)
        for (size_t j = i; j > 0 && key_less(key[first[j]],
                                             key[first[j - 1]], NKEY); j--) {
            size_t t = first[j];
            int64_t s2[WIDTH];
            first[j] = first[j - 1];
            first[j - 1] = t;
            memcpy(s2, sum[j], sizeof s2);
            memcpy(sum[j], sum[j - 1], sizeof s2);
            memcpy(sum[j - 1], s2, sizeof s2);
        }
    CU_ASSERT_EQUAL_FATAL(ph_sumbuf_fold(&b), ndist);
    for (size_t i = 0; i < ndist; i++) {
        CU_ASSERT(memcmp(ph_sumbuf_key(&b, i), key[first[i]],
                         sizeof key[0]) == 0);
        CU_ASSERT_EQUAL(ph_sumbuf_vals(&b, i)[0], sum[i][0]);
        CU_ASSERT_EQUAL(ph_sumbuf_vals(&b, i)[1], sum[i][1]);
        CU_ASSERT_EQUAL(b.order[i], first[i]);
    }
    ph_sumbuf_free(&b);
    free(key);
    free(first);
    free(sum);
}

static void test_sumbuf_fold(void)
{
    static const size_t sizes[] = {0, 1, 2, 15, 16, 17, 33, 100, 2049};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        fold_against_plain(sizes[i], 7 + i);
}

void ph_test_register_analysis(void)
{
    CU_pSuite s = CU_add_suite("analysis", NULL, NULL);
    CU_add_test(s, "cycles and gprof's member rule", test_cycles);
    CU_add_test(s, "inclusive never exceeds the total",
                test_table_never_exceeds_total);
    CU_add_test(s, "sorted top entries", test_sort_top);
    CU_add_test(s, "group by class", test_group_by_class);
    CU_add_test(s, "derived ratio of sums", test_ratio_of_sums);
    CU_add_test(s, "callers and callees", test_callers_callees);
    CU_add_test(s, "rename rules", test_rename);
    CU_add_test(s, "merge and diff", test_merge_and_diff);
    CU_add_test(s, "merge's fold of equal keys", test_sumbuf_fold);
}
