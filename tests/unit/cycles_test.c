/* cycles_test.c -- analysis/scc.c, the one SCC routine: on random graphs
 * (self loops, isolated vertices, chains) two vertices share a component
 * exactly when each reaches the other (checked against a transitive
 * closure), components complete after every component they reach, order
 * lists each component's members together, and visit is a permutation. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_priv.h"
#include "suites.h"

enum { MAXN = 40 };

/* A small deterministic generator, so a failure can be replayed. */
static uint32_t next_rand(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static void check_graph(size_t n, const unsigned char adj[MAXN][MAXN])
{
    size_t first[MAXN + 1], m = 0;
    uint32_t to[MAXN * MAXN], comp[MAXN], order[MAXN], visit[MAXN];
    unsigned char reach[MAXN][MAXN];

    for (size_t v = 0; v < n; v++) {
        first[v] = m;
        for (size_t w = 0; w < n; w++)
            if (adj[v][w])
                to[m++] = (uint32_t)w;
    }
    first[n] = m;
    size_t nc = ph_scc(n, first, to, NULL, comp, order, visit);

    /* Reachability in zero or more steps (Warshall). */
    for (size_t v = 0; v < n; v++)
        for (size_t w = 0; w < n; w++)
            reach[v][w] = v == w || adj[v][w];
    for (size_t k = 0; k < n; k++)
        for (size_t v = 0; v < n; v++)
            if (reach[v][k])
                for (size_t w = 0; w < n; w++)
                    if (reach[k][w])
                        reach[v][w] = 1;

    size_t seen_comp[MAXN] = {0};
    for (size_t v = 0; v < n; v++) {
        CU_ASSERT_FATAL(comp[v] < nc);
        seen_comp[comp[v]]++;
        for (size_t w = 0; w < n; w++) {
            int same = reach[v][w] && reach[w][v];
            CU_ASSERT_EQUAL(comp[v] == comp[w], same);
            /* Tarjan's order: what v reaches completes first. */
            if (reach[v][w] && !same)
                CU_ASSERT(comp[w] < comp[v]);
        }
    }
    for (size_t c = 0; c < nc; c++)
        CU_ASSERT(seen_comp[c] > 0);
    /* order: a permutation with each component's members together, in
     * completion order; visit: a permutation. */
    unsigned char in_order[MAXN] = {0}, in_visit[MAXN] = {0};
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_FATAL(order[i] < n && visit[i] < n);
        in_order[order[i]]++;
        in_visit[visit[i]]++;
        if (i > 0)
            CU_ASSERT(comp[order[i - 1]] <= comp[order[i]]);
    }
    for (size_t v = 0; v < n; v++)
        CU_ASSERT(in_order[v] == 1 && in_visit[v] == 1);
}

static void test_random_graphs(void)
{
    static unsigned char adj[MAXN][MAXN];
    uint32_t seed = 12345;

    for (int round = 0; round < 300; round++) {
        size_t n = 1 + next_rand(&seed) % MAXN;
        unsigned density = 1 + next_rand(&seed) % 12;   /* percent x 4 */
        memset(adj, 0, sizeof adj);
        for (size_t v = 0; v < n; v++)
            for (size_t w = 0; w < n; w++)
                adj[v][w] = next_rand(&seed) % 100 < density * 4 / 3 + 1;
        check_graph(n, adj);
    }
}

/* Shapes call graphs have: mutual recursion, self recursion, a chain. */
static void test_shapes(void)
{
    static unsigned char adj[MAXN][MAXN];
    memset(adj, 0, sizeof adj);
    adj[0][1] = 1;                  /* main -> is_even */
    adj[1][2] = adj[2][1] = 1;      /* is_even <-> is_odd */
    adj[0][3] = adj[3][3] = 1;      /* main -> fact, fact -> fact */
    adj[3][4] = adj[4][5] = 1;      /* a chain below */
    check_graph(7, adj);            /* 6 is isolated */

    /* Roots tried in a given order still give the same components. */
    size_t first[4] = {0, 1, 2, 2};
    uint32_t to[2] = {1, 0}, roots[3] = {2, 1, 0}, comp[3];
    CU_ASSERT_EQUAL(ph_scc(3, first, to, roots, comp, NULL, NULL), 2);
    CU_ASSERT_EQUAL(comp[0], comp[1]);
    CU_ASSERT_NOT_EQUAL(comp[0], comp[2]);
    CU_ASSERT_EQUAL(ph_scc(0, first, to, NULL, comp, NULL, NULL), 0);
}

void ph_test_register_cycles(void)
{
    CU_pSuite s = CU_add_suite("cycles", NULL, NULL);
    CU_add_test(s, "random graphs against reachability", test_random_graphs);
    CU_add_test(s, "call-graph shapes", test_shapes);
}
