/* tree_test.c -- CUnit suite for ir/tree.c: finding and creating
 * children, dense ids and depths, child and sample order, copied labels,
 * samples without their trailing zeros, nodes in chunks of their own and
 * cut from full-size blocks.
 */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "ir.h"
#include "stock.h"
#include "suites.h"

static void test_children(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *m = ph_func_get(p, ph_str_intern0(p, "main"), NULL, NULL);
    ph_func *a = ph_func_get(p, ph_str_intern0(p, "a"), NULL, NULL);
    ph_object *o = ph_object_get(p, ph_str_intern0(p, "/bin/x"));
    ph_node *r = ph_node_child(p, NULL, m, o, 0x10, 1, 0);
    ph_node *c1 = ph_node_child(p, r, a, o, 0x20, 2, 0);
    ph_node *c2 = ph_node_child(p, r, a, o, 0x24, 2, 0);
    ph_node *c3 = ph_node_child(p, r, a, o, 0x20, 2, PH_FRAME_INLINED);
    ph_node *r2;
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, NULL, m, o, 0x10, 1, 0), r);
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, r, a, o, 0x20, 2, 0), c1);
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, r, a, o, 0x24, 2, 0), c2);
    CU_ASSERT_PTR_NOT_EQUAL(c1, c3);
    CU_ASSERT_PTR_NOT_EQUAL(ph_node_child(p, r, a, NULL, 0x20, 2, 0), c1);
    r2 = ph_node_new(p, NULL, m, o, 0x10, 1, 0);
    CU_ASSERT_PTR_NOT_EQUAL(r2, r);
    CU_ASSERT_EQUAL(ph_node_count(p), 6);
    /* ids dense in creation order, parents first */
    CU_ASSERT_EQUAL(ph_node_id(p, r), 1);
    CU_ASSERT_EQUAL(ph_node_id(p, c1), 2);
    CU_ASSERT_EQUAL(ph_node_id(p, r2), 6);
    CU_ASSERT_PTR_EQUAL(ph_node_at(p, 1), c1);
    CU_ASSERT_PTR_NULL(ph_node_at(p, 6));
    CU_ASSERT_EQUAL(ph_node_depth(p, r), 0);
    CU_ASSERT_EQUAL(ph_node_depth(p, c2), 1);
    CU_ASSERT_EQUAL(c2->parent, 1);
    /* children in creation order */
    CU_ASSERT_EQUAL(r->child, 2);
    CU_ASSERT_EQUAL(c1->sibling, ph_node_id(p, c2));
    CU_ASSERT_EQUAL(c2->sibling, ph_node_id(p, c3));
    CU_ASSERT_PTR_EQUAL(ph_node_frame(p, ph_node_at(p, c3->sibling - 1))
                            ->object, NULL);
    CU_ASSERT_EQUAL(r->sibling, 6);    /* the roots */
    /* equal frames share one entry of the frame table */
    CU_ASSERT_EQUAL(r2->frame, r->frame);
    CU_ASSERT_PTR_EQUAL(ph_node_func(p, c3), a);
    CU_ASSERT_EQUAL(ph_node_frame(p, c3)->flags, PH_FRAME_INLINED);
    CU_ASSERT_EQUAL(ph_node_frame(p, c2)->addr, 0x24);
    /* the same children found by their frames' indices */
    uint32_t fa = ph_frame_index(p, a, o, 0x24, 2, 0);
    CU_ASSERT_EQUAL(fa, c2->frame);
    CU_ASSERT_EQUAL(ph_frame_index(p, a, o, 0x20, 2, PH_FRAME_INLINED),
                    c3->frame);
    CU_ASSERT_PTR_EQUAL(ph_node_child_at(p, r, fa), c2);
    CU_ASSERT_PTR_EQUAL(ph_node_child_at(p, NULL, r->frame), r);
    /* room made for functions: those there found again, new ones made */
    ph_funcs_reserve(p, 3000);
    CU_ASSERT_PTR_EQUAL(ph_func_get(p, ph_str_intern0(p, "a"), NULL, NULL),
                        a);
    for (int k = 0; k < 3000; k++) {
        char name[32];
        snprintf(name, sizeof name, "g%d", k);
        ph_func *g = ph_func_get(p, ph_str_intern0(p, name), NULL, NULL);
        CU_ASSERT_EQUAL(g->id, 3 + (uint32_t)k);
    }
    CU_ASSERT_PTR_EQUAL(ph_func_get(p, ph_str_intern0(p, "main"), NULL,
                                    NULL), m);
    /* room made in the frame table: its frames found again */
    ph_frames_reserve(p, 5000);
    CU_ASSERT_EQUAL(ph_frame_index(p, a, o, 0x24, 2, 0), fa);
    CU_ASSERT_EQUAL(ph_frame_index(p, m, o, 0x10, 1, 0), r->frame);
    uint32_t base = ph_frame_index(p, a, o, 0x1000, 3, 0);
    CU_ASSERT_EQUAL(base, 5);
    for (uint32_t k = 1; k < 5000; k++)
        CU_ASSERT_EQUAL(ph_frame_index(p, a, o, 0x1000 + k, 3, 0), base + k);
    for (uint32_t k = 0; k < 5000; k += 7)
        CU_ASSERT_EQUAL(ph_frame_index(p, a, o, 0x1000 + k, 3, 0), base + k);
    /* past the room made: the table grows, the frames stay found */
    for (uint32_t k = 5000; k < 20000; k++)
        CU_ASSERT_EQUAL(ph_frame_index(p, a, o, 0x1000 + k, 3, 0), base + k);
    for (uint32_t k = 0; k < 20000; k += 13)
        CU_ASSERT_EQUAL(ph_frame_index(p, a, o, 0x1000 + k, 3, 0), base + k);
    CU_ASSERT_EQUAL(ph_frame_index(p, a, o, 0x24, 2, 0), fa);
    CU_ASSERT_EQUAL(ph_node_frame(p, c2)->addr, 0x24);
    CU_ASSERT_EQUAL(ph_node_count(p), 6);
    ph_node *c4 = ph_node_child_at(p, c1, fa);    /* a new child */
    CU_ASSERT_EQUAL(ph_node_id(p, c4), 7);
    CU_ASSERT_EQUAL(c4->parent, 2);
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, c1, a, o, 0x24, 2, 0), c4);
    /* a node of a frame in a later chunk of the table */
    ph_node *c5 = ph_node_child_at(p, c1, base + 19999);
    CU_ASSERT_EQUAL(ph_node_frame(p, c5)->addr, 0x1000 + 19999);
    CU_ASSERT_EQUAL(ph_node_frame(p, c5)->line, 3);
    ph_profile_free(p);
}

static void test_deep(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *f = ph_func_get(p, ph_str_intern0(p, "rec"), NULL, NULL);
    ph_node *n = NULL;
    int i;
    ph_event_add(p, "samples");
    for (i = 0; i < 100000; i++)
        n = ph_node_child(p, n, f, NULL, 0x40, 0, 0);
    ph_sample_add(p, n, NULL, (int64_t[]){ 3 }, 1, NULL, 0);
    CU_ASSERT_EQUAL(ph_node_depth(p, n), 99999);
    CU_ASSERT_EQUAL(ph_func_incl(p, f, PH_ALL_PARTS)[0], 3);
    CU_ASSERT_EQUAL(ph_func_self(p, f, PH_ALL_PARTS)[0], 3);
    const ph_flat *v = ph_flat_of(p);
    uint64_t self_calls = 0;
    ph_flat_calls calls;
    for (const ph_call *c = ph_flat_calls_out(&calls, v, p, f); c;
         c = ph_flat_calls_next(&calls))
        self_calls += c->callee == f ? c->count : 0;
    CU_ASSERT_EQUAL(self_calls, 99999);
    CU_ASSERT_EQUAL(ph_func_incl(p, f, PH_ALL_PARTS)[0], 3);
    ph_profile_free(p);
}

/* main -> a (with b below it, no sample there) and main -> b: a sample
 * of 5 at a in part *one, samples of 7 and 1 at b in part *two (*one when
 * two is NULL). */
static ph_profile *parts_tree(ph_part **one, ph_part **two)
{
    ph_profile *p = ph_profile_new();
    ph_func *m = ph_func_get(p, ph_str_intern0(p, "main"), NULL, NULL);
    ph_func *a = ph_func_get(p, ph_str_intern0(p, "a"), NULL, NULL);
    ph_func *b = ph_func_get(p, ph_str_intern0(p, "b"), NULL, NULL);
    ph_event_add(p, "samples");
    *one = ph_part_add(p, two ? PH_PART_THREAD : PH_PART_WHOLE);
    ph_part *at_b = two ? (*two = ph_part_add(p, PH_PART_THREAD)) : *one;
    ph_node *r = ph_node_child(p, NULL, m, NULL, 0, 0, 0);
    ph_node *na = ph_node_child(p, r, a, NULL, 0, 0, 0);
    ph_node *nb = ph_node_child(p, r, b, NULL, 0, 0, 0);
    ph_node_child(p, na, b, NULL, 0, 0, 0);
    ph_sample_add(p, na, *one, (int64_t[]){ 5 }, 1, NULL, 0);
    ph_sample_add(p, nb, at_b, (int64_t[]){ 7 }, 1, NULL, 0);
    ph_sample_add(p, nb, at_b, (int64_t[]){ 1 }, 1, NULL, 0);
    return p;
}

/* The flat view of a tree whose parts have samples in different
 * subtrees: each part's records are those of its own stacks, and a part
 * alone (one part of samples) gives every edge to a node with a sample. */
static void test_flat_parts(void)
{
    for (int parts = 1; parts <= 2; parts++) {
        ph_part *one, *two = NULL;
        ph_profile *p = parts_tree(&one, parts == 2 ? &two : NULL);
        ph_func *m = ph_func_at(p, 0), *a = ph_func_at(p, 1);
        const ph_flat *v = ph_flat_of(p);
        ph_flat_calls calls;
        size_t n = 0;
        for (const ph_call *c = ph_flat_calls_out(&calls, v, p, m); c;
             c = ph_flat_calls_next(&calls), n++) {
            CU_ASSERT_PTR_EQUAL(c->part, c->callee == a || !two ? one : two);
            CU_ASSERT_EQUAL(c->count, c->callee == a ? 1u : 2u);
            CU_ASSERT_EQUAL(c->incl[0], c->callee == a ? 5 : 8);
        }
        CU_ASSERT_EQUAL(n, 2);
        CU_ASSERT_PTR_NULL(ph_flat_calls_out(&calls, v, p, a));
        ph_profile_free(p);
    }
}

/* 400,000 nodes: the first chunks are blocks of their own, the others cut
 * from full-size blocks (one of them from a stock): every node is found
 * again by its id, and its id from its address. */
static void test_many_nodes(void)
{
    enum { N = 400000 };
    ph_profile *p = ph_profile_new();
    ph_func *f = ph_func_get(p, ph_str_intern0(p, "f"), NULL, NULL);
    ph_stock *stock = ph_stock_new();
    CU_ASSERT_EQUAL(ph_stock_fill(stock), 1);
    ph_profile_set_stock(p, stock);
    ph_node *root = ph_node_child(p, NULL, f, NULL, 0, 0, 0);
    for (uint64_t i = 1; i < N; i++)
        ph_node_child(p, i % 2 ? root : NULL, f, NULL, i, 0, 0);
    CU_ASSERT_PTR_NULL(ph_stock_take(stock));       /* the tree took it */
    ph_profile_set_stock(p, NULL);
    ph_stock_free(stock);
    CU_ASSERT_EQUAL(ph_node_count(p), N);
    size_t bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        const ph_node *n = ph_node_at(p, i);
        bad += !n || ph_node_id(p, n) != i + 1 ||
               ph_node_frame(p, n)->addr != i ||
               n->parent != (i % 2 ? 1u : 0u);
    }
    CU_ASSERT_EQUAL(bad, 0);
    ph_profile_free(p);
}

static void test_samples(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *m = ph_func_get(p, ph_str_intern0(p, "main"), NULL, NULL);
    ph_node *r = ph_node_child(p, NULL, m, NULL, 0, 0, 0);
    ph_label labels[2];
    ph_sample *s1, *s2;
    ph_event_add(p, "samples");
    ph_event_add(p, "cpu");
    labels[0].key = ph_str_intern0(p, "thread");
    labels[0].str = ph_str_intern0(p, "worker");
    labels[0].num = 0;
    labels[0].num_unit = 0;
    labels[1].key = ph_str_intern0(p, "bytes");
    labels[1].str = 0;
    labels[1].num = 4096;
    labels[1].num_unit = ph_str_intern0(p, "bytes");
    s1 = ph_sample_add(p, r, NULL, (int64_t[]){ 1, 1000 }, 2, labels, 2);
    labels[1].num = 1;   /* the sample has its own copy */
    s2 = ph_sample_add(p, r, NULL, (int64_t[]){ 2 }, 1, NULL, 0);
    CU_ASSERT_PTR_EQUAL(ph_node_samples(p, r), s1);
    CU_ASSERT_PTR_EQUAL(s1->next, s2);
    CU_ASSERT_EQUAL(s1->nlabels, 2);
    CU_ASSERT_EQUAL(s1->labels[1].num, 4096);
    CU_ASSERT_EQUAL(ph_sample_value(s2, 1), 0);
    CU_ASSERT_EQUAL(ph_sample_value(s1, 1), 1000);
    CU_ASSERT_EQUAL(ph_sample_count(p), 2);
    CU_ASSERT_PTR_EQUAL(ph_sample_at(p, 1), s2);
    CU_ASSERT_PTR_NOT_NULL(s1->part);
    CU_ASSERT_EQUAL(ph_part_count(p), 1);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[1], 1000);
    /* trailing zeros are not kept; the values read 0 all the same */
    ph_sample *s3 = ph_sample_add(p, r, NULL, (int64_t[]){ 0, 5 }, 2, NULL,
                                  0);
    ph_sample *s4 = ph_sample_add(p, r, NULL, (int64_t[]){ 4, 0 }, 2, NULL,
                                  0);
    ph_sample *s5 = ph_sample_add(p, r, NULL, (int64_t[]){ 0, 0 }, 2, NULL,
                                  0);
    CU_ASSERT_EQUAL(s3->width, 2);
    CU_ASSERT_EQUAL(s4->width, 1);
    CU_ASSERT_EQUAL(s5->width, 0);
    CU_ASSERT_EQUAL(ph_sample_value(s4, 0), 4);
    CU_ASSERT_EQUAL(ph_sample_value(s4, 1), 0);
    CU_ASSERT_EQUAL(ph_sample_value(s5, 0), 0);
    CU_ASSERT_EQUAL(ph_sample_count(p), 5);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 7);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[1], 1005);
    ph_profile_free(p);
}

/* A profile of one event, "samples", with functions main and f and a
 * root node of main, for the tests that grow trees under it. */
static ph_profile *main_root(ph_func **m, ph_func **f, ph_node **r)
{
    ph_profile *p = ph_profile_new();
    *m = ph_func_get(p, ph_str_intern0(p, "main"), NULL, NULL);
    *f = ph_func_get(p, ph_str_intern0(p, "f"), NULL, NULL);
    ph_event_add(p, "samples");
    *r = ph_node_child(p, NULL, *m, NULL, 0, 0, 0);
    return p;
}

/* Adding after the profile was read (its building tables dropped by the
 * first aggregate) finds the nodes already there and links new children
 * and samples after the old ones; a tree wider than one node chunk keeps
 * ids dense and addresses stable. */
static void test_add_after_read(void)
{
    ph_func *m, *f;
    ph_node *r;
    ph_profile *p = main_root(&m, &f, &r);
    ph_node *kids[10000];
    for (uint32_t i = 0; i < 10000; i++)
        kids[i] = ph_node_child(p, r, f, NULL, i, 0, 0);
    ph_sample *s1 = ph_sample_add(p, kids[5], NULL, (int64_t[]){ 1 }, 1,
                                  NULL, 0);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 1);
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, r, f, NULL, 9999, 0, 0), kids[9999]);
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, NULL, m, NULL, 0, 0, 0), r);
    ph_node *late = ph_node_child(p, r, f, NULL, 10000, 0, 0);
    CU_ASSERT_EQUAL(ph_node_id(p, late), 10002);
    CU_ASSERT_EQUAL(kids[9999]->sibling, 10002);
    CU_ASSERT_EQUAL(ph_node_id(p, kids[9999]), 10001);
    CU_ASSERT_PTR_EQUAL(ph_node_at(p, 5000), kids[4999]);
    ph_sample *s2 = ph_sample_add(p, kids[5], NULL, (int64_t[]){ 2 }, 1,
                                  NULL, 0);
    CU_ASSERT_PTR_EQUAL(ph_node_samples(p, kids[5]), s1);
    CU_ASSERT_PTR_EQUAL(s1->next, s2);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 3);
    CU_ASSERT_EQUAL(ph_func_incl(p, m, PH_ALL_PARTS)[0], 3);
    ph_node *root2 = ph_node_child(p, NULL, f, NULL, 0, 0, 0);
    CU_ASSERT_EQUAL(r->sibling, ph_node_id(p, root2));
    ph_profile_free(p);
}

/* A child is found whatever its parent's number of children (a few are
 * walked, many are looked up in a table), before and after the profile
 * was read; of equal children (ph_node_new) the first is found. */
static void test_few_and_many_children(void)
{
    ph_func *m, *f;
    ph_node *r;
    ph_profile *p = main_root(&m, &f, &r);
    ph_node *kids[40];
    for (uint32_t i = 0; i < 40; i++) {
        kids[i] = ph_node_child(p, r, f, NULL, i, 0, 0);
        CU_ASSERT_EQUAL(ph_node_count(p), i + 2);
        for (uint32_t j = 0; j <= i; j++)
            CU_ASSERT_PTR_EQUAL(ph_node_child(p, r, f, NULL, j, 0, 0),
                                kids[j]);
        CU_ASSERT_EQUAL(ph_node_count(p), i + 2);
    }
    ph_node *q = ph_node_child(p, NULL, f, NULL, 1, 0, 0);
    ph_node *twin[3];
    for (int k = 0; k < 3; k++)
        twin[k] = ph_node_new(p, q, m, NULL, 7, 0, 0);
    for (uint32_t i = 0; i < 30; i++) {
        CU_ASSERT_PTR_EQUAL(ph_node_child(p, q, m, NULL, 7, 0, 0), twin[0]);
        ph_node_new(p, q, m, NULL, 100 + i, 0, 0);
    }
    ph_sample_add(p, twin[2], NULL, (int64_t[]){ 1 }, 1, NULL, 0);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 1);   /* read */
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, q, m, NULL, 7, 0, 0), twin[0]);
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, r, f, NULL, 39, 0, 0), kids[39]);
    CU_ASSERT_PTR_EQUAL(ph_node_child(p, NULL, f, NULL, 1, 0, 0), q);
    CU_ASSERT_PTR_NOT_EQUAL(twin[1], twin[0]);
    ph_profile_free(p);
}

/* Functions are told apart by (name, file, object); ids are dense. */
static void test_symbols(void)
{
    ph_profile *p = ph_profile_new();
    ph_str s = ph_str_intern0(p, "helper");
    ph_file *a = ph_file_get(p, ph_str_intern0(p, "a.c"));
    ph_file *b = ph_file_get(p, ph_str_intern0(p, "b.c"));
    ph_object *o = ph_object_get(p, ph_str_intern0(p, "/lib/x.so"));
    ph_object *unk = ph_object_get(p, 0);
    ph_func *fa = ph_func_get(p, s, a, o);
    ph_func *fb = ph_func_get(p, s, b, o);
    ph_func *fn = ph_func_get(p, s, NULL, NULL);
    ph_jump j = { 0 };
    const ph_jump *jj;
    ph_jump_iter ji, ji2;
    CU_ASSERT_PTR_EQUAL(ph_file_get(p, ph_str_intern0(p, "a.c")), a);
    CU_ASSERT_PTR_EQUAL(ph_object_get(p, 0), unk);
    CU_ASSERT_EQUAL(a->id, 1);
    CU_ASSERT_EQUAL(b->id, 2);
    CU_ASSERT_EQUAL(unk->id, 2);
    CU_ASSERT_EQUAL(ph_object_count(p), 2);
    CU_ASSERT_PTR_EQUAL(ph_object_at(p, 1), unk);
    CU_ASSERT_PTR_EQUAL(ph_file_at(p, 1), b);
    CU_ASSERT_PTR_NULL(ph_file_at(p, 2));
    CU_ASSERT_PTR_NOT_EQUAL(fa, fb);
    CU_ASSERT_PTR_NOT_EQUAL(fa, fn);
    CU_ASSERT_PTR_EQUAL(ph_func_get(p, s, b, o), fb);
    CU_ASSERT_PTR_EQUAL(ph_func_find(p, s, a, o), fa);
    CU_ASSERT_PTR_NULL(ph_func_find(p, s, a, NULL));
    CU_ASSERT_EQUAL(fn->id, 3);
    CU_ASSERT_EQUAL(ph_func_count(p), 3);
    CU_ASSERT_PTR_EQUAL(ph_func_at(p, 0), fa);
    CU_ASSERT_PTR_NULL(ph_func_at(p, 3));
    j.from = fa;
    j.to = fb;
    j.executed = 10;
    j.followed = 4;
    j.conditional = 1;
    ph_jump_add(p, &j);
    CU_ASSERT_EQUAL(ph_jump_count(p), 1);
    jj = ph_jumps_all(&ji, p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(jj);
    CU_ASSERT_PTR_NULL(ph_jumps_from(&ji2, p, fb));
    CU_ASSERT_EQUAL(jj->followed, 4);
    CU_ASSERT_PTR_NOT_NULL(jj->part);
    ph_profile_free(p);
}

void ph_test_register_tree(void)
{
    CU_pSuite s = CU_add_suite("tree", NULL, NULL);
    CU_add_test(s, "find and create children", test_children);
    CU_add_test(s, "deep recursion", test_deep);
    CU_add_test(s, "flat view of parts in different subtrees",
                test_flat_parts);
    CU_add_test(s, "many nodes", test_many_nodes);
    CU_add_test(s, "samples and labels", test_samples);
    CU_add_test(s, "adding after the profile was read", test_add_after_read);
    CU_add_test(s, "few and many children", test_few_and_many_children);
    CU_add_test(s, "symbols and jumps", test_symbols);
}
