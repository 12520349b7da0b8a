/* rows_test.c -- CUnit suite for ir/rows.c: round trips of many rows
 * (negative values, big and decreasing addresses, file changes, zeros),
 * vectors wider than 64 events, parts, events added after rows.
 */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir_priv.h"   /* the row arena's size */
#include "suites.h"

/* Deterministic pseudo-random numbers (xorshift). */
static uint64_t rnd_state;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

static int64_t rnd_value(void)
{
    switch (rnd() % 6) {
    case 0:
    case 1:
        return 0;
    case 2:
        return (int64_t)(rnd() % 100);
    case 3:
        return -(int64_t)(rnd() % 100000);
    case 4:
        return (int64_t)rnd();   /* anything, INT64_MIN included */
    default:
        return INT64_MAX - (int64_t)(rnd() % 3);
    }
}

typedef struct want {
    uint64_t addr;
    uint32_t line;
    ph_file *file;
} want;

static void round_trip(size_t nev, size_t nrows)
{
    ph_profile *p = ph_profile_new();
    ph_file *files[3];
    ph_func *f;
    want *w = calloc(nrows, sizeof *w);
    int64_t *costs = calloc(nrows * nev, sizeof *costs);
    size_t *ns = calloc(nrows, sizeof *ns);
    ph_row_iter it;
    ph_row r;
    size_t i, k, got = 0;
    char name[16];
    rnd_state = 88172645463325252ull + nev;
    for (i = 0; i < nev; i++) {
        name[0] = 'e';
        name[1] = (char)('a' + i / 26 % 26);
        name[2] = (char)('a' + i % 26);
        name[3] = '\0';
        ph_event_add(p, name);
    }
    files[0] = ph_file_get(p, ph_str_intern0(p, "a.c"));
    files[1] = ph_file_get(p, ph_str_intern0(p, "b.h"));
    files[2] = ph_file_get(p, ph_str_intern0(p, "c.h"));
    f = ph_func_get(p, ph_str_intern0(p, "f"), files[0], NULL);
    for (i = 0; i < nrows; i++) {
        switch (rnd() % 4) {
        case 0:
            w[i].addr = i ? w[i - 1].addr + rnd() % 16 : 0;
            break;
        case 1:
            w[i].addr = 0xffffffffffff0000ull + rnd() % 0x10000;
            break;
        case 2:
            w[i].addr = rnd();
            break;
        default:
            w[i].addr = 0;
        }
        w[i].line = (rnd() % 3 == 0) ? (uint32_t)rnd() : (uint32_t)(rnd() % 50);
        w[i].file = files[rnd() % 8 < 6 ? 0 : 1 + rnd() % 2];
        ns[i] = rnd() % (nev + 1);
        for (k = 0; k < ns[i]; k++)
            costs[i * nev + k] = rnd_value();
        ph_row_add(p, f, NULL, w[i].addr, w[i].line,
                   w[i].file == files[0] && (i & 1) ? NULL : w[i].file,
                   costs + i * nev, ns[i]);
    }
    ph_row_iter_init(&it, p, f, NULL);
    while (ph_row_next(&it, &r)) {
        int ok = 1;
        if (got >= nrows) {
            CU_FAIL("more rows than added");
            break;
        }
        ok &= r.addr == w[got].addr;
        ok &= r.line == w[got].line;
        ok &= r.file == w[got].file;
        for (k = 0; k < nev; k++)
            ok &= r.cost[k] == (k < ns[got] ? costs[got * nev + k] : 0);
        CU_ASSERT(ok);
        if (!ok) {
            fprintf(stderr, "row %zu: addr %llx line %u differ from %llx %u\n",
                    got, (unsigned long long)r.addr, r.line,
                    (unsigned long long)w[got].addr, w[got].line);
            break;
        }
        got++;
    }
    CU_ASSERT_EQUAL(got, nrows);
    free(w);
    free(costs);
    free(ns);
    ph_profile_free(p);
}

static void test_round_trip_narrow(void)
{
    round_trip(1, 1000);
    round_trip(3, 20000);
    round_trip(7, 5000);
    round_trip(8, 5000);
    round_trip(64, 2000);
}

static void test_round_trip_wide(void)
{
    round_trip(65, 1000);
    round_trip(200, 500);
}

static void test_parts_and_late_events(void)
{
    ph_profile *p = ph_profile_new();
    ph_part *a = ph_part_add(p, PH_PART_THREAD);
    ph_part *b = ph_part_add(p, PH_PART_THREAD);
    ph_func *f = ph_func_get(p, ph_str_intern0(p, "f"), NULL, NULL);
    ph_func *g = ph_func_get(p, ph_str_intern0(p, "g"), NULL, NULL);
    ph_row_iter it;
    ph_row r;
    int n = 0;
    ph_event_add(p, "Ir");
    ph_row_add(p, f, b, 0x10, 3, NULL, (int64_t[]){ 5 }, 1);
    ph_row_add(p, f, a, 0x20, 4, NULL, (int64_t[]){ 7 }, 1);
    ph_event_add(p, "Dr");
    ph_row_add(p, f, a, 0x30, 5, NULL, (int64_t[]){ 1, 2 }, 2);
    /* one part */
    ph_row_iter_init(&it, p, f, b);
    CU_ASSERT(ph_row_next(&it, &r));
    CU_ASSERT_EQUAL(r.addr, 0x10);
    CU_ASSERT_EQUAL(r.cost[0], 5);
    CU_ASSERT_EQUAL(r.cost[1], 0);   /* event added later reads 0 */
    CU_ASSERT_PTR_NULL(r.file);      /* f has no file */
    CU_ASSERT_FALSE(ph_row_next(&it, &r));
    /* every part in turn, part 0 first */
    ph_row_iter_init(&it, p, f, NULL);
    while (ph_row_next(&it, &r)) {
        static const uint64_t addrs[] = { 0x20, 0x30, 0x10 };
        CU_ASSERT_EQUAL(r.addr, addrs[n]);
        n++;
    }
    CU_ASSERT_EQUAL(n, 3);
    /* a function without rows */
    ph_row_iter_init(&it, p, g, NULL);
    CU_ASSERT_FALSE(ph_row_next(&it, &r));
    ph_row_iter_init(&it, p, g, a);
    CU_ASSERT_FALSE(ph_row_next(&it, &r));
    CU_ASSERT_EQUAL(ph_totals(p, 0)[1], 2);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 13);
    ph_profile_free(p);
}

/* Rows are compact: a typical row (next line, three small costs) takes a
 * few bytes of arena + block memory, far below a struct per row. */
static void test_compact(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *f = ph_func_get(p, ph_str_intern0(p, "f"), NULL, NULL);
    int64_t v[3] = { 3, 1, 0 };
    uint32_t i;
    ph_event_add(p, "Ir");
    ph_event_add(p, "Dr");
    ph_event_add(p, "Dw");
    for (i = 0; i < 100000; i++)
        ph_row_add(p, f, NULL, 0, i + 1, NULL, v, 3);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 300000);
    CU_ASSERT_EQUAL(ph_func_self(p, f, PH_ALL_PARTS)[1], 100000);
    ph_profile_free(p);
}

/* Two profiles of 13 events, two functions and a file each: one given
 * rows by ph_row_add, the other the same rows another way. */
typedef struct twin {
    ph_profile *p, *q;
    ph_func *fp[2], *fq[2];
    ph_file *file_p, *file_q;
} twin;

static void twin_new(twin *t)
{
    char name[16];
    t->p = ph_profile_new();
    t->q = ph_profile_new();
    for (size_t k = 0; k < 13; k++) {
        snprintf(name, sizeof name, "e%zu", k);
        ph_event_add(t->p, name);
        ph_event_add(t->q, name);
    }
    for (size_t k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "f%zu", k);
        t->fp[k] = ph_func_get(t->p, ph_str_intern0(t->p, name), NULL, NULL);
        t->fq[k] = ph_func_get(t->q, ph_str_intern0(t->q, name), NULL, NULL);
    }
    t->file_p = ph_file_get(t->p, ph_str_intern0(t->p, "other.c"));
    t->file_q = ph_file_get(t->q, ph_str_intern0(t->q, "other.c"));
}

/* How many rows of p the rows of q match, in order (q has no more). */
static size_t twin_same_rows(const twin *t)
{
    ph_row_iter ip, iq;
    ph_row a, b;
    size_t same = 0;
    for (size_t k = 0; k < 2; k++) {
        ph_row_iter_init(&ip, t->p, t->fp[k], NULL);
        ph_row_iter_init(&iq, t->q, t->fq[k], NULL);
        while (ph_row_next(&ip, &a)) {
            if (!ph_row_next(&iq, &b))
                break;
            same += a.addr == b.addr && a.line == b.line &&
                    (a.file ? a.file->id : 0) == (b.file ? b.file->id : 0) &&
                    memcmp(a.cost, b.cost, 13 * sizeof *a.cost) == 0;
        }
        CU_ASSERT_FALSE(ph_row_next(&iq, &b));
    }
    CU_ASSERT_EQUAL(t->p->nrows, t->q->nrows);
    return same;
}

static void twin_free(twin *t)
{
    ph_profile_free(t->p);
    ph_profile_free(t->q);
}

/* Costs packed beforehand (ph_costs_put, as a reader's threads pack them)
 * and added with ph_row_add_packed read back as the same rows, in the
 * same bytes, as ph_row_add's, interleaved between two functions and with
 * file changes. */
static void test_packed_rows(void)
{
    twin t;
    int64_t v[13];
    unsigned char buf[256];
    size_t i, k, n;

    twin_new(&t);
    rnd_state = 77;
    for (i = 0; i < 20000; i++) {
        n = rnd() % 14;
        for (k = 0; k < n; k++)
            v[k] = rnd_value();
        k = i % 7 == 0;     /* runs of one function, then the other */
        ph_row_add(t.p, t.fp[k], NULL, i, (uint32_t)(i / 2),
                   i % 11 ? NULL : t.file_p, v, n);
        ph_row_add_packed(t.q, t.fq[k], NULL, i, (uint32_t)(i / 2),
                          i % 11 ? NULL : t.file_q, buf,
                          (size_t)(ph_costs_put(buf, v, n) - buf));
    }
    CU_ASSERT_EQUAL(twin_same_rows(&t), 20000);
    CU_ASSERT_EQUAL(ph_arena_size(&t.p->row_arena),
                    ph_arena_size(&t.q->row_arena));
    twin_free(&t);
}

/* Runs of rows made beforehand (ph_row_add_run: the first row's costs
 * packed, the later rows as the block keeps them, positions relative to
 * the row before) read back as the same rows as ph_row_add's one by one:
 * runs of two functions in turn, a file change at a run's start,
 * addresses going down and wrapping. */
static void test_run_rows(void)
{
    twin t;
    int64_t v[13];
    unsigned char first[256], *first_end = first;
    unsigned char *rows = malloc(64 * 256), *d;
    size_t i, k, n, len = 0, nrows = 0;

    twin_new(&t);
    rnd_state = 91;
    for (int run = 0; run < 500; run++) {
        size_t m = 1 + rnd() % 40;
        uint64_t addr = rnd() % 3 ? rnd() : UINT64_MAX - rnd() % 100;
        uint32_t line = (uint32_t)rnd();
        uint64_t addr0 = addr;
        uint32_t line0 = line;
        ph_file *fl_p = run % 5 ? NULL : t.file_p;
        ph_file *fl_q = run % 5 ? NULL : t.file_q;
        k = run % 2;
        for (i = 0; i < m; i++) {
            if (i) {
                uint64_t da = rnd() % 4 ? rnd() % 64 : 0 - rnd() % 64;
                int64_t dl = (int64_t)(rnd() % 9) - 4;
                if ((int64_t)line + dl < 0)
                    dl = 0;
                addr += da;
                line = (uint32_t)((int64_t)line + dl);
                d = ph_put_varint(rows + len, ph_zigzag(dl) << 1);
                d = ph_put_varint(d, ph_zigzag((int64_t)da));
                len = (size_t)(d - rows);
            }
            n = rnd() % 14;
            for (size_t c = 0; c < n; c++)
                v[c] = rnd_value();
            ph_row_add(t.p, t.fp[k], NULL, addr, line, fl_p, v, n);
            if (i)
                len = (size_t)(ph_costs_put(rows + len, v, n) - rows);
            else
                first_end = ph_costs_put(first, v, n);
            nrows++;
        }
        ph_row_add_run(t.q, t.fq[k], NULL, addr0, line0, fl_q, first,
                       (size_t)(first_end - first), rows, len, m - 1, addr,
                       line);
        len = 0;
    }
    /* (q's chunks may keep more room: a run is never split between two,
     * so a block whose chunk cannot grow takes a new one sooner) */
    CU_ASSERT_EQUAL(twin_same_rows(&t), nrows);
    free(rows);
    twin_free(&t);
}

/* Sums a reader gives with its rows (ph_rows_add_sums) stand for them
 * only while they cover every row of the block, stay within INT64_MAX
 * and are no wider than the profile was: the summaries then add them (the
 * sums given here are off on purpose, to tell them from the rows'). */
static int64_t sum_of(const ph_profile *p, const ph_func *f)
{
    int64_t v[2] = { 0, 0 };
    ph_rows_sum(p, f, PH_ALL_PARTS, v);
    return v[0];
}

static void test_rows_sums(void)
{
    ph_profile *p = ph_profile_new(), *q = ph_profile_new();
    ph_func *f, *g, *h, *k;
    int64_t one[1] = { 1 }, big[1] = { INT64_MAX - 1 };
    uint64_t off[1] = { 100 }, huge[1] = { (uint64_t)INT64_MAX - 1 };

    ph_event_add(p, "Ir");
    ph_event_add(q, "Ir");
    ph_rows_keep_sums(p);
    f = ph_func_get(p, ph_str_intern0(p, "f"), NULL, NULL);
    g = ph_func_get(p, ph_str_intern0(p, "g"), NULL, NULL);
    h = ph_func_get(p, ph_str_intern0(p, "h"), NULL, NULL);
    k = ph_func_get(q, ph_str_intern0(q, "k"), NULL, NULL);
    for (int i = 0; i < 3; i++) {
        ph_row_add(p, f, NULL, 0, 1, NULL, one, 1);
        ph_row_add(p, g, NULL, 0, 1, NULL, one, 1);
        ph_row_add(q, k, NULL, 0, 1, NULL, one, 1);
    }
    ph_rows_add_sums(p, f, NULL, off, 1, 3);
    ph_rows_add_sums(p, g, NULL, off, 1, 2);    /* a row not covered */
    ph_rows_add_sums(q, k, NULL, off, 1, 3);    /* not kept */
    CU_ASSERT_EQUAL(sum_of(p, f), 100);
    CU_ASSERT_EQUAL(sum_of(p, g), 3);
    CU_ASSERT_EQUAL(sum_of(q, k), 3);
    ph_row_add(p, f, NULL, 0, 2, NULL, one, 1);  /* one more, no sums */
    CU_ASSERT_EQUAL(sum_of(p, f), 4);
    /* sums past INT64_MAX: the rows' own saturate */
    ph_row_add(p, h, NULL, 0, 1, NULL, big, 1);
    ph_row_add(p, h, NULL, 0, 1, NULL, big, 1);
    ph_rows_add_sums(p, h, NULL, huge, 1, 1);
    ph_rows_add_sums(p, h, NULL, huge, 1, 1);
    CU_ASSERT_EQUAL(sum_of(p, h), INT64_MAX);
    /* an event added after the block's sums began: wider sums */
    ph_event_add(p, "Dr");
    {
        ph_func *w = ph_func_get(p, ph_str_intern0(p, "w"), NULL, NULL);
        int64_t two[2] = { 1, 5 };
        uint64_t wide[2] = { 100, 100 };
        ph_row_add(p, w, NULL, 0, 1, NULL, two, 2);
        ph_rows_add_sums(p, w, NULL, wide, 2, 1);
        CU_ASSERT_EQUAL(sum_of(p, w), 100);
        ph_row_add(p, f, NULL, 0, 3, NULL, two, 2);
        ph_rows_add_sums(p, f, NULL, wide, 2, 5);
        CU_ASSERT_EQUAL(sum_of(p, f), 5);
    }
    ph_profile_free(p);
    ph_profile_free(q);
}

/* Row chunks: a function whose rows come together has them in one chunk
 * cut to size when the next function starts (about the bytes of its rows
 * plus a header); rows of two functions that alternate still read back
 * in order. */
static void test_chunks_sequential_and_interleaved(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *f[2];
    int64_t v[2] = { 3, 1 };
    ph_row_iter it;
    ph_row r;
    uint32_t i, k, n;
    char name[16];
    ph_event_add(p, "Ir");
    ph_event_add(p, "Dr");
    for (i = 0; i < 100000; i++) {
        snprintf(name, sizeof name, "f%u", i);
        ph_func *g = ph_func_get(p, ph_str_intern0(p, name), NULL, NULL);
        for (k = 0; k < 50; k++)   /* 5 bytes a row */
            ph_row_add(p, g, NULL, 0, k + 1, NULL, v, 2);
    }
    /* 250 bytes of rows and a 32-byte header per function, plus the
     * arena's last block; chunks of 64, 128, ... bytes took 3x that */
    CU_ASSERT(ph_arena_size(&p->row_arena) <=
              100000 * (250 + 40) + 2 * PH_ARENA_MAX_BLOCK);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 100000 * 50 * 3);
    for (k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "g%u", k);
        f[k] = ph_func_get(p, ph_str_intern0(p, name), NULL, NULL);
    }
    for (i = 0; i < 30000; i++)
        ph_row_add(p, f[i % 2], NULL, i, i + 1, NULL, v, 2);
    for (k = 0; k < 2; k++) {
        ph_row_iter_init(&it, p, f[k], NULL);
        for (n = 0; ph_row_next(&it, &r); n++)
            if (r.line != 2 * n + k + 1 || r.addr != 2 * n + k ||
                r.cost[0] != 3)
                break;
        CU_ASSERT_EQUAL(n, 15000);
    }
    ph_profile_free(p);
}

/* A profile of 20000 events whose rows set one column: memory and time
 * follow the data, not the width. */
static void test_sparse_wide(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *f = ph_func_get(p, ph_str_intern0(p, "f"), NULL, NULL);
    size_t nev = 20000, i;
    int64_t *v = calloc(nev, sizeof *v);
    char name[16];
    ph_row_iter it;
    ph_row r;
    int n = 0, ok = 1;
    for (i = 0; i < nev; i++) {
        snprintf(name, sizeof name, "e%zu", i);
        ph_event_add(p, name);
    }
    CU_ASSERT_PTR_EQUAL(ph_event_find(p, "e19999"), ph_event_real(p, 19999));
    for (i = 0; i < 5000; i++) {
        v[i % 3 ? 0 : nev - 1] = (int64_t)i + 1;
        ph_row_add(p, f, NULL, i, 0, NULL, v, nev);
        v[0] = v[nev - 1] = 0;
    }
    ph_row_iter_init(&it, p, f, NULL);
    while (ph_row_next(&it, &r)) {
        size_t col = n % 3 ? 0 : nev - 1;
        ok &= r.cost[col] == n + 1;
        ok &= r.cost[nev - 1 - col] == 0;
        n++;
    }
    CU_ASSERT(ok);
    CU_ASSERT_EQUAL(n, 5000);
    /* rows 0, 3, ..., 4998 put i + 1 in the last column */
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[nev - 1], 4167500);
    free(v);
    ph_profile_free(p);
}

/* Rows of many functions in the last of 50000 parts, and in parts added
 * out of order: a function keeps one block per part it has rows in. */
static void test_many_parts(void)
{
    ph_profile *p = ph_profile_new();
    ph_part *last = NULL;
    ph_func *f = NULL;
    ph_row_iter it;
    ph_row r;
    char name[16];
    uint32_t i;
    static const uint64_t addrs[] = { 5, 1, 3, 9 };
    int n = 0;
    ph_event_add(p, "Ir");
    for (i = 0; i < 50000; i++)
        last = ph_part_add(p, PH_PART_DUMP);
    for (i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "f%u", i);
        f = ph_func_get(p, ph_str_intern0(p, name), NULL, NULL);
        ph_row_add(p, f, last, 9, 1, NULL, (int64_t[]){ 1 }, 1);
    }
    ph_row_add(p, f, ph_part_at(p, 7), 1, 1, NULL, (int64_t[]){ 2 }, 1);
    ph_row_add(p, f, ph_part_at(p, 300), 3, 1, NULL, (int64_t[]){ 2 }, 1);
    ph_row_add(p, f, ph_part_at(p, 2), 5, 1, NULL, (int64_t[]){ 2 }, 1);
    ph_row_iter_init(&it, p, f, NULL);
    while (ph_row_next(&it, &r)) {
        CU_ASSERT(n < 4 && r.addr == addrs[n]);
        n++;
    }
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 20006);
    CU_ASSERT_EQUAL(ph_totals(p, 49999)[0], 20000);
    CU_ASSERT_EQUAL(ph_totals(p, 300)[0], 2);
    CU_ASSERT_EQUAL(ph_func_self(p, f, 2)[0], 2);
    ph_profile_free(p);
}

/* Runs of one (file, line) collapsed: ph_row_next's rows summed where
 * they follow at the same position, into got (n rows at most). */
typedef struct line_run {
    uint32_t line;
    ph_file *file;
    int64_t cost[200];
} line_run;

static size_t collapse(ph_row_iter *it, int whole_lines, size_t nev,
                       line_run *got, size_t n, size_t *steps)
{
    ph_row r;
    size_t k = 0;
    *steps = 0;
    while (whole_lines ? ph_row_next_line(it, &r) : ph_row_next(it, &r)) {
        ++*steps;
        if (k && got[k - 1].line == r.line && got[k - 1].file == r.file) {
            for (size_t e = 0; e < nev; e++)
                got[k - 1].cost[e] = ph_cost_add(got[k - 1].cost[e],
                                                 r.cost[e]);
            continue;
        }
        if (k == n)
            break;
        got[k].line = r.line;
        got[k].file = r.file;
        memcpy(got[k].cost, r.cost, nev * sizeof *r.cost);
        k++;
    }
    return k;
}

/* ph_row_next_line gives what ph_row_next's rows add up to, line by line,
 * in fewer steps; a wide profile's columns set by a run are cleared for
 * the next row.  (Sums that saturate may differ: a line that comes as two
 * runs adds in another order.) */
static void line_runs(size_t nev)
{
    ph_profile *p = ph_profile_new();
    ph_file *files[2];
    ph_func *f;
    int64_t v[200];
    size_t i, n = 20000, k1, k2, s1, s2;
    line_run *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    ph_row_iter it;
    char name[16];
    rnd_state = 2463534242ull + nev;
    for (i = 0; i < nev; i++) {
        snprintf(name, sizeof name, "e%zu", i);
        ph_event_add(p, name);
    }
    files[0] = ph_file_get(p, ph_str_intern0(p, "a.c"));
    files[1] = ph_file_get(p, ph_str_intern0(p, "b.h"));
    f = ph_func_get(p, ph_str_intern0(p, "f"), files[0], NULL);
    for (i = 0; i < n; i++) {
        memset(v, 0, sizeof v);
        for (size_t k = 0; k < 3; k++)   /* sums that cannot saturate */
            v[rnd() % nev] = (int64_t)(rnd() % 2000000) - 1000000;
        ph_row_add(p, f, NULL, 0x1000 + i,
                   (uint32_t)(i / 7 % 5), files[i / 50 % 2], v, nev);
    }
    ph_row_iter_init(&it, p, f, NULL);
    k1 = collapse(&it, 0, nev, a, n, &s1);
    ph_row_iter_init(&it, p, f, NULL);
    k2 = collapse(&it, 1, nev, b, n, &s2);
    CU_ASSERT_EQUAL(s1, n);
    CU_ASSERT(s2 < s1 / 5);
    CU_ASSERT_EQUAL(k1, k2);
    for (i = 0; i < k1 && i < k2; i++) {
        CU_ASSERT(a[i].line == b[i].line && a[i].file == b[i].file);
        CU_ASSERT(memcmp(a[i].cost, b[i].cost, nev * sizeof *a[i].cost) == 0);
    }
    free(a);
    free(b);
    ph_profile_free(p);
}

static void test_line_runs(void)
{
    line_runs(3);
    line_runs(64);
    line_runs(200);
}

/* Whether a function's rows lie only in its own file: known without
 * decoding them, from every part's rows (a row in another file in the
 * second part counts). */
static void test_rows_elsewhere(void)
{
    ph_profile *p = ph_profile_new();
    ph_file *a, *b;
    ph_func *f, *g;
    ph_part *second;
    int64_t one = 1;
    ph_event_add(p, "Ir");
    a = ph_file_get(p, ph_str_intern0(p, "a.c"));
    b = ph_file_get(p, ph_str_intern0(p, "b.h"));
    f = ph_func_get(p, ph_str_intern0(p, "f"), a, NULL);
    g = ph_func_get(p, ph_str_intern0(p, "g"), a, NULL);
    CU_ASSERT_EQUAL(ph_func_rows_elsewhere(p, f), 0);
    ph_row_add(p, f, NULL, 0x10, 3, NULL, &one, 1);   /* NULL: f's file */
    ph_row_add(p, f, NULL, 0x14, 4, a, &one, 1);
    ph_row_add(p, g, NULL, 0x20, 7, a, &one, 1);
    CU_ASSERT_EQUAL(ph_func_rows_elsewhere(p, f), 0);
    CU_ASSERT_EQUAL(ph_func_rows_elsewhere(p, g), 0);
    second = ph_part_add(p, PH_PART_DUMP);
    ph_row_add(p, g, second, 0x24, 9, b, &one, 1);     /* inlined from b.h */
    ph_row_add(p, g, second, 0x28, 8, a, &one, 1);
    CU_ASSERT_EQUAL(ph_func_rows_elsewhere(p, f), 0);
    CU_ASSERT_EQUAL(ph_func_rows_elsewhere(p, g), 1);
    ph_profile_free(p);
}

void ph_test_register_rows(void)
{
    CU_pSuite s = CU_add_suite("rows", NULL, NULL);
    CU_add_test(s, "round trip, up to 64 events", test_round_trip_narrow);
    CU_add_test(s, "round trip, wide vectors", test_round_trip_wide);
    CU_add_test(s, "parts and late events", test_parts_and_late_events);
    CU_add_test(s, "compact rows", test_compact);
    CU_add_test(s, "rows of costs packed beforehand", test_packed_rows);
    CU_add_test(s, "runs of rows made beforehand", test_run_rows);
    CU_add_test(s, "rows' sums given by a reader", test_rows_sums);
    CU_add_test(s, "sparse rows of a wide profile", test_sparse_wide);
    CU_add_test(s, "chunks: sequential and interleaved",
                test_chunks_sequential_and_interleaved);
    CU_add_test(s, "many parts", test_many_parts);
    CU_add_test(s, "line runs", test_line_runs);
    CU_add_test(s, "rows in another file", test_rows_elsewhere);
}
