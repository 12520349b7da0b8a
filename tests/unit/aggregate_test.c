/* aggregate_test.c -- CUnit suite for ir/aggregate.c and the flat view of
 * analysis/view_flat.c: totals, self, inclusive and call counts on
 * hand-built IR (the callgrind notes' hand-made example, direct and mutual
 * recursion, context trees), and a tree's rows and call records.
 */
#include "config.h"

#include <CUnit/CUnit.h>

#include "analysis/analysis.h"
#include "ir.h"
#include "suites.h"

/* The hand-made example of ../shared/formats/callgrind.md section 7, built
 * through the API as the callgrind reader would. */
typedef struct example {
    ph_profile *p;
    ph_func *main_f, *parse_f, *helper_f;
} example;

static void build_example(example *ex)
{
    ph_profile *p = ph_profile_new();
    ph_object *ob = ph_object_get(p, ph_str_intern0(p, "demo"));
    ph_file *demo = ph_file_get(p, ph_str_intern0(p, "demo.c"));
    ph_file *util = ph_file_get(p, ph_str_intern0(p, "util.c"));
    ph_part *part = ph_part_add(p, PH_PART_WHOLE);
    char err[128];
    int col;
    ph_event_add(p, "Ir");
    ph_event_add(p, "Dr");
    CU_ASSERT_PTR_NOT_NULL(
        ph_event_define(p, "W", "Ir + 2 Dr", &col, err, sizeof err));
    ex->main_f = ph_func_get(p, ph_str_intern0(p, "main"), demo, ob);
    ex->parse_f = ph_func_get(p, ph_str_intern0(p, "parse"), demo, ob);
    ex->helper_f = ph_func_get(p, ph_str_intern0(p, "helper"), util, ob);

    ph_row_add(p, ex->main_f, part, 0, 10, demo, (int64_t[]){ 20, 4 }, 2);
    ph_call_add(p, ex->main_f, part, 0, 11, demo, ex->parse_f, 0, 30, 2,
                (int64_t[]){ 500, 70 }, 2);
    ph_row_add(p, ex->main_f, part, 0, 12, demo, (int64_t[]){ 10 }, 1);
    ph_call_add(p, ex->main_f, part, 0, 12, demo, ex->helper_f, 0, 5, 1,
                (int64_t[]){ 100, 20 }, 2);

    ph_row_add(p, ex->parse_f, part, 0, 30, demo, (int64_t[]){ 200, 50 }, 2);
    ph_row_add(p, ex->parse_f, part, 0, 32, demo, (int64_t[]){ 100 }, 1);
    ph_call_add(p, ex->parse_f, part, 0, 33, demo, ex->helper_f, 0, 5, 4,
                (int64_t[]){ 200, 20 }, 2);

    ph_row_add(p, ex->helper_f, part, 0, 5, util, (int64_t[]){ 280, 40 }, 2);
    ph_row_add(p, ex->helper_f, part, 0, 6, util, (int64_t[]){ 20 }, 1);
    ex->p = p;
}

static void check2(const int64_t *v, int64_t a, int64_t b)
{
    CU_ASSERT_EQUAL(v[0], a);
    CU_ASSERT_EQUAL(v[1], b);
}

static void test_handmade_example(void)
{
    example ex;
    ph_profile *p;
    const ph_event *w;
    build_example(&ex);
    p = ex.p;
    w = ph_event_find(p, "W");
    check2(ph_totals(p, PH_ALL_PARTS), 630, 94);
    check2(ph_totals(p, 0), 630, 94);
    check2(ph_func_self(p, ex.main_f, PH_ALL_PARTS), 30, 4);
    check2(ph_func_self(p, ex.parse_f, PH_ALL_PARTS), 300, 50);
    check2(ph_func_self(p, ex.helper_f, PH_ALL_PARTS), 300, 40);
    check2(ph_func_incl(p, ex.main_f, PH_ALL_PARTS), 630, 94);
    check2(ph_func_incl(p, ex.parse_f, PH_ALL_PARTS), 500, 70);
    check2(ph_func_incl(p, ex.helper_f, PH_ALL_PARTS), 300, 40);
    CU_ASSERT_EQUAL(ph_func_calls(p, ex.main_f, PH_ALL_PARTS), 0);
    CU_ASSERT_EQUAL(ph_func_calls(p, ex.parse_f, PH_ALL_PARTS), 2);
    CU_ASSERT_EQUAL(ph_func_calls(p, ex.helper_f, PH_ALL_PARTS), 5);
    CU_ASSERT_EQUAL(ph_func_self_calls(p, ex.helper_f, PH_ALL_PARTS), 0);
    /* derived W = Ir + 2 Dr, computed on the aggregates */
    CU_ASSERT_DOUBLE_EQUAL(ph_event_eval(p, w, ph_totals(p, PH_ALL_PARTS)),
                           818, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(
        ph_event_eval(p, w, ph_func_incl(p, ex.main_f, PH_ALL_PARTS)), 818,
        1e-9);
    CU_ASSERT_DOUBLE_EQUAL(
        ph_event_eval(p, w, ph_func_self(p, ex.main_f, PH_ALL_PARTS)), 38,
        1e-9);
    CU_ASSERT_DOUBLE_EQUAL(
        ph_event_eval(p, w, ph_func_incl(p, ex.parse_f, PH_ALL_PARTS)), 640,
        1e-9);
    CU_ASSERT_DOUBLE_EQUAL(
        ph_event_eval(p, w, ph_func_self(p, ex.parse_f, PH_ALL_PARTS)), 400,
        1e-9);
    CU_ASSERT_DOUBLE_EQUAL(
        ph_event_eval(p, w, ph_func_incl(p, ex.helper_f, PH_ALL_PARTS)), 380,
        1e-9);
    /* an unknown part reads zeros */
    check2(ph_totals(p, 7), 0, 0);
    ph_profile_free(p);
}

static void test_call_lists_in_add_order(void)
{
    example ex;
    const ph_call *c;
    ph_call_iter it;
    build_example(&ex);
    c = ph_calls_out(&it, ex.p, ex.main_f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_EQUAL(c->callee, ex.parse_f);
    c = ph_call_next(&it);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_EQUAL(c->callee, ex.helper_f);
    CU_ASSERT_PTR_NULL(ph_call_next(&it));
    c = ph_calls_in(&it, ex.p, ex.helper_f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_EQUAL(c->caller, ex.main_f);
    c = ph_call_next(&it);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_EQUAL(c->caller, ex.parse_f);
    CU_ASSERT_PTR_NULL(ph_call_next(&it));
    CU_ASSERT_EQUAL(ph_call_count(ex.p), 3);
    /* every call: by caller (main, then parse), then in the order added */
    c = ph_calls_all(&it, ex.p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_EQUAL(c->callee, ex.parse_f);
    ph_call_next(&it);
    c = ph_call_next(&it);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_EQUAL(c->caller, ex.parse_f);
    CU_ASSERT_EQUAL(ph_call_incl(c, 1), 20);
    CU_ASSERT_EQUAL(ph_call_incl(c, 5), 0);
    CU_ASSERT_PTR_NULL(ph_call_next(&it));
    ph_profile_free(ex.p);
}

/* Adding data after a question drops the caches. */
static void test_invalidate(void)
{
    example ex;
    build_example(&ex);
    check2(ph_totals(ex.p, PH_ALL_PARTS), 630, 94);
    check2(ph_func_self(ex.p, ex.helper_f, PH_ALL_PARTS), 300, 40);
    ph_row_add(ex.p, ex.helper_f, NULL, 0, 7, NULL, (int64_t[]){ 1, 2 }, 2);
    check2(ph_totals(ex.p, PH_ALL_PARTS), 631, 96);
    check2(ph_func_self(ex.p, ex.helper_f, PH_ALL_PARTS), 301, 42);
    ph_profile_free(ex.p);
}

/* main -> f (once, incl 100); f -> f three times (incl 90: a self call). */
static void test_direct_recursion_flat(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *m = ph_func_get(p, ph_str_intern0(p, "main"), NULL, NULL);
    ph_func *f = ph_func_get(p, ph_str_intern0(p, "f"), NULL, NULL);
    ph_event_add(p, "Ir");
    ph_row_add(p, f, NULL, 0, 1, NULL, (int64_t[]){ 100 }, 1);
    ph_call_add(p, m, NULL, 0, 1, NULL, f, 0, 1, 1, (int64_t[]){ 100 }, 1);
    ph_call_add(p, f, NULL, 0, 2, NULL, f, 0, 1, 3, (int64_t[]){ 90 }, 1);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 100);
    CU_ASSERT_EQUAL(ph_func_incl(p, f, PH_ALL_PARTS)[0], 100);
    CU_ASSERT_EQUAL(ph_func_incl(p, m, PH_ALL_PARTS)[0], 100);
    CU_ASSERT_EQUAL(ph_func_self(p, m, PH_ALL_PARTS)[0], 0);
    CU_ASSERT_EQUAL(ph_func_calls(p, f, PH_ALL_PARTS), 1);
    CU_ASSERT_EQUAL(ph_func_self_calls(p, f, PH_ALL_PARTS), 3);
    ph_profile_free(p);
}

/* main -> a -> b -> a (callgrind style, no cycle handling): KCachegrind's
 * rule sums the calls into a from other functions, so a reads main->a +
 * b->a.  Cycle-aware numbers are analysis/'s job; this pins the rule. */
static void test_mutual_recursion_flat(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *m = ph_func_get(p, ph_str_intern0(p, "main"), NULL, NULL);
    ph_func *a = ph_func_get(p, ph_str_intern0(p, "a"), NULL, NULL);
    ph_func *b = ph_func_get(p, ph_str_intern0(p, "b"), NULL, NULL);
    ph_event_add(p, "Ir");
    ph_row_add(p, m, NULL, 0, 1, NULL, (int64_t[]){ 10 }, 1);
    ph_row_add(p, a, NULL, 0, 1, NULL, (int64_t[]){ 40 }, 1);
    ph_row_add(p, b, NULL, 0, 1, NULL, (int64_t[]){ 50 }, 1);
    ph_call_add(p, m, NULL, 0, 2, NULL, a, 0, 1, 1, (int64_t[]){ 90 }, 1);
    ph_call_add(p, a, NULL, 0, 2, NULL, b, 0, 1, 2, (int64_t[]){ 70 }, 1);
    ph_call_add(p, b, NULL, 0, 2, NULL, a, 0, 1, 1, (int64_t[]){ 20 }, 1);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 100);
    CU_ASSERT_EQUAL(ph_func_incl(p, m, PH_ALL_PARTS)[0], 100);
    CU_ASSERT_EQUAL(ph_func_incl(p, a, PH_ALL_PARTS)[0], 110);
    CU_ASSERT_EQUAL(ph_func_incl(p, b, PH_ALL_PARTS)[0], 70);
    CU_ASSERT_EQUAL(ph_func_calls(p, a, PH_ALL_PARTS), 2);
    CU_ASSERT_EQUAL(ph_func_calls(p, b, PH_ALL_PARTS), 2);
    ph_profile_free(p);
}

/* A context tree with direct and mutual recursion:
 *   main(1) -> a(2) -> a(4) -> b(8)
 *                   -> b(16) -> a(32)
 *           -> b(64)
 * (samples in parentheses).  Each stack counts once per function. */
typedef struct tree_ex {
    ph_profile *p;
    ph_func *m, *a, *b;
} tree_ex;

static void build_tree(tree_ex *t, int with_parts)
{
    ph_profile *p = ph_profile_new();
    ph_part *p0 = ph_part_add(p, PH_PART_THREAD);
    ph_part *p1 = with_parts ? ph_part_add(p, PH_PART_THREAD) : p0;
    ph_node *nm, *na, *naa, *nab, *naba;
    ph_event_add(p, "samples");
    ph_event_add(p, "kind")->flags |= PH_EV_NONADDITIVE;
    t->m = ph_func_get(p, ph_str_intern0(p, "main"), NULL, NULL);
    t->a = ph_func_get(p, ph_str_intern0(p, "a"), NULL, NULL);
    t->b = ph_func_get(p, ph_str_intern0(p, "b"), NULL, NULL);
    nm = ph_node_child(p, NULL, t->m, NULL, 0x100, 0, 0);
    na = ph_node_child(p, nm, t->a, NULL, 0x200, 0, 0);
    naa = ph_node_child(p, na, t->a, NULL, 0x210, 0, 0);
    nab = ph_node_child(p, na, t->b, NULL, 0x220, 0, 0);
    naba = ph_node_child(p, nab, t->a, NULL, 0x230, 0, 0);
    ph_sample_add(p, nm, p0, (int64_t[]){ 1, 7 }, 2, NULL, 0);
    ph_sample_add(p, na, p0, (int64_t[]){ 2, 7 }, 2, NULL, 0);
    ph_sample_add(p, naa, p1, (int64_t[]){ 4, 7 }, 2, NULL, 0);
    ph_sample_add(p, ph_node_child(p, naa, t->b, NULL, 0x240, 0, 0), p0,
                  (int64_t[]){ 8, 7 }, 2, NULL, 0);
    ph_sample_add(p, nab, p1, (int64_t[]){ 16, 7 }, 2, NULL, 0);
    ph_sample_add(p, naba, p0, (int64_t[]){ 32, 7 }, 2, NULL, 0);
    ph_sample_add(p, ph_node_child(p, nm, t->b, NULL, 0x250, 0, 0), p1,
                  (int64_t[]){ 64, 7 }, 2, NULL, 0);
    t->p = p;
}

static void test_tree_recursion(void)
{
    tree_ex t;
    ph_profile *p;
    build_tree(&t, 0);
    p = t.p;
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 127);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[1], 0);   /* non-additive */
    CU_ASSERT_EQUAL(ph_func_self(p, t.a, PH_ALL_PARTS)[0], 2 + 4 + 32);
    CU_ASSERT_EQUAL(ph_func_self(p, t.b, PH_ALL_PARTS)[0], 8 + 16 + 64);
    CU_ASSERT_EQUAL(ph_func_incl(p, t.m, PH_ALL_PARTS)[0], 127);
    CU_ASSERT_EQUAL(ph_func_incl(p, t.a, PH_ALL_PARTS)[0], 62);
    CU_ASSERT_EQUAL(ph_func_incl(p, t.b, PH_ALL_PARTS)[0], 8 + 16 + 32 + 64);
    CU_ASSERT_EQUAL(ph_func_incl(p, t.a, PH_ALL_PARTS)[1], 0);
    CU_ASSERT(ph_func_incl(p, t.b, PH_ALL_PARTS)[0] <=
              ph_totals(p, PH_ALL_PARTS)[0]);
    CU_ASSERT_EQUAL(ph_func_calls(p, t.a, PH_ALL_PARTS), 0);
    ph_profile_free(p);
}

static void test_tree_parts(void)
{
    tree_ex t;
    build_tree(&t, 1);
    CU_ASSERT_EQUAL(ph_part_count(t.p), 2);
    CU_ASSERT_EQUAL(ph_totals(t.p, 0)[0], 1 + 2 + 8 + 32);
    CU_ASSERT_EQUAL(ph_totals(t.p, 1)[0], 4 + 16 + 64);
    CU_ASSERT_EQUAL(ph_totals(t.p, PH_ALL_PARTS)[0], 127);
    CU_ASSERT_EQUAL(ph_func_incl(t.p, t.a, 0)[0], 2 + 8 + 32);
    CU_ASSERT_EQUAL(ph_func_incl(t.p, t.a, 1)[0], 4 + 16);
    CU_ASSERT_EQUAL(ph_func_incl(t.p, t.b, 1)[0], 16 + 64);
    ph_profile_free(t.p);
}

/* The flat view of a tree keeps totals and self costs, never changes the
 * profile, and its records count the samples below (recursion: self
 * calls). */
static void test_flatten(void)
{
    tree_ex t;
    ph_profile *p;
    ph_func *fs[3];
    int i;
    build_tree(&t, 1);
    p = t.p;
    fs[0] = t.m;
    fs[1] = t.a;
    fs[2] = t.b;
    const ph_flat *v = ph_flat_of(p);
    CU_ASSERT_EQUAL(ph_call_count(p), 0);
    CU_ASSERT(ph_flat_from_tree(v));
    int64_t total = 0;
    for (i = 0; i < 3; i++) {
        ph_flat_iter it;
        ph_row r;
        int64_t self = 0;
        ph_flat_rows_init(&it, v, p, fs[i], NULL);
        while (ph_flat_rows_next(&it, &r))
            self += r.cost[0];
        CU_ASSERT_EQUAL(ph_func_self(p, fs[i], PH_ALL_PARTS)[0], self);
        total += self;
    }
    CU_ASSERT_EQUAL(total, 127);
    /* count = samples below: main->a 5, b->a 1; a->a 2 (self calls) */
    uint64_t in = 0, self_calls = 0;
    ph_flat_calls calls;
    for (const ph_call *c = ph_flat_calls_in(&calls, v, p, t.a); c;
         c = ph_flat_calls_next(&calls))
        *(c->caller == t.a ? &self_calls : &in) += c->count;
    CU_ASSERT_EQUAL(in, 6);
    CU_ASSERT_EQUAL(self_calls, 2);
    /* asked again: the cached view */
    CU_ASSERT_PTR_EQUAL(ph_flat_of(p), v);
    ph_profile_free(p);
}

/* The call records of a tree: one per (caller frame position,
 * callee), in the order first met, with the caller's node position as the
 * call site and samples below as the count; an inlined frame is a call. */
static void test_flatten_records(void)
{
    ph_profile *p = ph_profile_new();
    ph_file *fl = ph_file_get(p, ph_str_intern0(p, "m.c"));
    ph_func *m = ph_func_get(p, ph_str_intern0(p, "main"), fl, NULL);
    ph_func *a = ph_func_get(p, ph_str_intern0(p, "a"), fl, NULL);
    ph_func *in = ph_func_get(p, ph_str_intern0(p, "inl"), fl, NULL);
    ph_node *r, *n1, *n2;
    const ph_call *c;
    ph_flat_iter it;
    ph_row row;
    ph_event_add(p, "cpu");
    r = ph_node_child(p, NULL, m, NULL, 0x100, 5, 0);
    n1 = ph_node_child(p, r, a, NULL, 0x200, 20, 0);
    n2 = ph_node_child(p, n1, in, NULL, 0x200, 30, PH_FRAME_INLINED);
    ph_sample_add(p, n1, NULL, (int64_t[]){ 3 }, 1, NULL, 0);
    ph_sample_add(p, n1, NULL, (int64_t[]){ 4 }, 1, NULL, 0);
    ph_sample_add(p, n2, NULL, (int64_t[]){ 10 }, 1, NULL, 0);
    const ph_flat *v = ph_flat_of(p);
    ph_flat_calls calls;
    c = ph_flat_calls_out(&calls, v, p, m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NULL(ph_flat_calls_next(&calls));
    CU_ASSERT_PTR_EQUAL(c->caller, m);
    CU_ASSERT_PTR_EQUAL(c->callee, a);
    CU_ASSERT_EQUAL(c->addr, 0x100);
    CU_ASSERT_EQUAL(c->line, 5);
    CU_ASSERT_EQUAL(c->target_addr, 0x200);
    CU_ASSERT_EQUAL(c->target_line, 20);
    CU_ASSERT_EQUAL(c->count, 3);
    CU_ASSERT_EQUAL(ph_call_incl(c, 0), 17);
    c = ph_flat_calls_out(&calls, v, p, a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_EQUAL(c->caller, a);
    CU_ASSERT_PTR_EQUAL(c->callee, in);
    CU_ASSERT_EQUAL(c->count, 1);
    CU_ASSERT_EQUAL(ph_call_incl(c, 0), 10);
    /* the two samples of n1 are two rows at a's position */
    ph_flat_rows_init(&it, v, p, a, NULL);
    CU_ASSERT_FATAL(ph_flat_rows_next(&it, &row));
    CU_ASSERT_EQUAL(row.line, 20);
    CU_ASSERT_EQUAL(row.addr, 0x200);
    CU_ASSERT_PTR_EQUAL(row.file, fl);
    CU_ASSERT_EQUAL(row.cost[0], 3);
    CU_ASSERT_FATAL(ph_flat_rows_next(&it, &row));
    CU_ASSERT_EQUAL(row.cost[0], 4);
    CU_ASSERT_FALSE(ph_flat_rows_next(&it, &row));
    /* the profile itself is unchanged */
    CU_ASSERT_EQUAL(ph_call_count(p), 0);
    CU_ASSERT_EQUAL(ph_func_incl(p, in, PH_ALL_PARTS)[0], 10);
    CU_ASSERT_EQUAL(ph_func_incl(p, a, PH_ALL_PARTS)[0], 17);
    CU_ASSERT_EQUAL(ph_func_incl(p, m, PH_ALL_PARTS)[0], 17);
    ph_profile_free(p);
}

/* A profile with rows and a tree sums both shapes. */
static void test_both_shapes(void)
{
    tree_ex t;
    build_tree(&t, 0);
    ph_row_add(t.p, t.a, NULL, 0, 3, NULL, (int64_t[]){ 1000 }, 1);
    CU_ASSERT_EQUAL(ph_totals(t.p, PH_ALL_PARTS)[0], 1127);
    CU_ASSERT_EQUAL(ph_func_self(t.p, t.a, PH_ALL_PARTS)[0], 1038);
    CU_ASSERT_EQUAL(ph_func_incl(t.p, t.a, PH_ALL_PARTS)[0], 1062);
    ph_profile_free(t.p);
}

void ph_test_register_aggregate(void)
{
    CU_pSuite s = CU_add_suite("aggregate", NULL, NULL);
    CU_add_test(s, "hand-made callgrind example", test_handmade_example);
    CU_add_test(s, "call lists in add order", test_call_lists_in_add_order);
    CU_add_test(s, "adding data drops caches", test_invalidate);
    CU_add_test(s, "direct recursion (flat)", test_direct_recursion_flat);
    CU_add_test(s, "mutual recursion (flat)", test_mutual_recursion_flat);
    CU_add_test(s, "tree with recursion", test_tree_recursion);
    CU_add_test(s, "tree per part", test_tree_parts);
    CU_add_test(s, "flatten", test_flatten);
    CU_add_test(s, "flattened call records", test_flatten_records);
    CU_add_test(s, "rows and tree together", test_both_shapes);
}
