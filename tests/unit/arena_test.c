/* arena_test.c -- CUnit suite for ir/arena.c: alignment, zeroing, block
 * growth, oversized requests, mark and rewind, trimming, blocks taken from
 * a stock (stock.c); zeroed growth of an array, memory mapped ahead of
 * its writes, big zeroed blocks and the sort of the first elements only
 * (alloc.c).
 */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ir_priv.h"
#include "jobs.h"
#include "stock.h"
#include "suites.h"

static void test_alignment_and_zero(void)
{
    ph_arena a;
    size_t i;
    ph_arena_init(&a);
    for (i = 1; i < 200; i++) {
        unsigned char *q = ph_arena_alloc(&a, i, 8);
        size_t k;
        CU_ASSERT_EQUAL((uintptr_t)q % 8, 0);
        for (k = 0; k < i; k++)
            CU_ASSERT_EQUAL(q[k], 0);
        memset(q, 0xab, i);
    }
    for (i = 0; i < 50; i++) {
        CU_ASSERT_EQUAL((uintptr_t)ph_arena_alloc(&a, 3, 64) % 64, 0);
        CU_ASSERT_EQUAL((uintptr_t)ph_arena_alloc(&a, 1, 1) % 1, 0);
    }
    ph_arena_free(&a);
}

static void test_growth(void)
{
    ph_arena a;
    char *big, *small;
    size_t i;
    ph_arena_init(&a);
    ph_arena_alloc(&a, 10, 1);
    CU_ASSERT(ph_arena_size(&a) <= PH_ARENA_FIRST_BLOCK);
    for (i = 0; i < 10000; i++)
        ph_arena_alloc(&a, 100, 8);
    /* blocks double up to 1 MiB: ~1 MB of requests fits in few blocks,
     * with less than a factor 2 of overhead */
    CU_ASSERT(ph_arena_size(&a) >= 1000000);
    CU_ASSERT(ph_arena_size(&a) < 2 * 1000000 + PH_ARENA_MAX_BLOCK);
    big = ph_arena_alloc(&a, 5u << 20, 16);   /* larger than a block */
    big[(5u << 20) - 1] = 1;
    small = ph_arena_alloc(&a, 8, 8);
    CU_ASSERT_PTR_NOT_NULL(small);
    ph_arena_free(&a);
    CU_ASSERT_EQUAL(ph_arena_size(&a), 0);
}

/* The newest allocation grows in place while nothing follows it and its
 * block has room, and gives back its tail to the next one. */
static void test_grow_shrink_last(void)
{
    ph_arena a;
    unsigned char *x, *y, *z;
    ph_arena_init(&a);
    x = ph_arena_alloc_raw(&a, 100, 8);
    CU_ASSERT(ph_arena_grow_last(&a, x + 100, 50));
    memset(x, 7, 150);
    y = ph_arena_alloc_raw(&a, 16, 8);
    CU_ASSERT_PTR_EQUAL(y, x + 152);        /* after the grown x, aligned */
    CU_ASSERT(!ph_arena_grow_last(&a, x + 150, 10));   /* y follows x */
    CU_ASSERT(!ph_arena_grow_last(&a, y + 16, PH_ARENA_FIRST_BLOCK));
    ph_arena_shrink_last(&a, x + 150, x + 120);   /* not the newest: kept */
    ph_arena_shrink_last(&a, y + 16, y + 4);
    z = ph_arena_alloc_raw(&a, 8, 1);
    CU_ASSERT_PTR_EQUAL(z, y + 4);
    CU_ASSERT_EQUAL(x[149], 7);
    ph_arena_free(&a);
}

static void test_mark_rewind(void)
{
    ph_arena a;
    ph_arena_pos m;
    char *x, *y, *z;
    size_t before, i;
    ph_arena_init(&a);
    x = ph_arena_alloc(&a, 16, 8);
    strcpy(x, "keep me");
    m = ph_arena_mark(&a);
    before = ph_arena_size(&a);
    y = ph_arena_alloc(&a, 16, 8);
    for (i = 0; i < 1000; i++)
        ph_arena_alloc(&a, 1000, 8);
    CU_ASSERT(ph_arena_size(&a) > before);
    ph_arena_rewind(&a, m);
    CU_ASSERT_EQUAL(ph_arena_size(&a), before);
    z = ph_arena_alloc(&a, 16, 8);
    CU_ASSERT_PTR_EQUAL(z, y);              /* the same bytes again */
    CU_ASSERT_EQUAL(z[0], 0);               /* and zeroed */
    CU_ASSERT_STRING_EQUAL(x, "keep me");
    /* rewinding to an empty arena's mark frees everything */
    ph_arena_free(&a);
    ph_arena_init(&a);
    m = ph_arena_mark(&a);
    ph_arena_alloc(&a, 100, 8);
    ph_arena_rewind(&a, m);
    CU_ASSERT_EQUAL(ph_arena_size(&a), 0);
    ph_arena_free(&a);
}

/* The pages of the newest block past its last byte in use go back to the
 * system: the bytes in use are kept, the tail is no longer resident, and
 * what is allocated there next reads as zeros. */
static void test_trim(void)
{
    ph_arena a;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (size_t)256 << 10;
    ph_arena_init(&a);
    while (ph_arena_size(&a) < 2 * PH_ARENA_MAX_BLOCK)
        ph_arena_alloc(&a, 1000, 8);
    unsigned char *x = ph_arena_alloc(&a, 100, 8);
    memset(x, 5, 100);
    unsigned char *tail = ph_arena_alloc_raw(&a, n, 8);
    memset(tail, 9, n);                     /* resident for sure */
    ph_arena_shrink_last(&a, tail + n, tail);
    ph_arena_trim(&a);
    uintptr_t from = ((uintptr_t)tail + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t to = ((uintptr_t)tail + n) & ~(uintptr_t)(page - 1);
    size_t pages = (to - from) / page, resident = 0;
    unsigned char *in = ph_xmalloc(pages);
    CU_ASSERT_EQUAL_FATAL(mincore((void *)from, to - from, in), 0);
    for (size_t i = 0; i < pages; i++)
        resident += in[i] & 1;
    CU_ASSERT_EQUAL(resident, 0);
    free(in);
    for (size_t i = 0; i < 100; i++)
        CU_ASSERT_EQUAL(x[i], 5);
    unsigned char *again = ph_arena_alloc(&a, n, 8);
    CU_ASSERT_PTR_EQUAL(again, tail);
    CU_ASSERT_EQUAL(again[n - 1], 0);
    ph_arena_free(&a);
}

/* A stock holds one block at a time; the arena takes it for its next
 * full-size block, and every full-size block it makes is counted as asked
 * for, from the stock or not. */
static void test_stock(void)
{
    ph_stock *s = ph_stock_new();
    ph_arena a;
    CU_ASSERT_PTR_NULL(ph_stock_take(s));
    CU_ASSERT_EQUAL(ph_stock_asked(s), 1);
    CU_ASSERT_EQUAL(ph_stock_fill(s), 1);
    CU_ASSERT_EQUAL(ph_stock_fill(s), 0);       /* full */
    unsigned char *ready = ph_stock_take(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ready);
    CU_ASSERT_EQUAL((uintptr_t)ready % PH_ARENA_MAX_BLOCK, 0);
    ready[PH_ARENA_MAX_BLOCK - 1] = 1;          /* all of it is ours */
    free(ready);
    CU_ASSERT_EQUAL(ph_stock_fill(s), 1);
    ph_arena_init(&a);
    a.stock = s;
    while (ph_arena_size(&a) < PH_ARENA_MAX_BLOCK)
        ph_arena_alloc(&a, 1000, 8);
    /* the small blocks asked nothing; the first full-size one took the
     * block in stock */
    CU_ASSERT_EQUAL(ph_stock_asked(s), 3);
    CU_ASSERT_PTR_NULL(ph_stock_take(s));
    while (ph_arena_size(&a) < 3 * PH_ARENA_MAX_BLOCK)
        ph_arena_alloc(&a, 1000, 8);
    CU_ASSERT_EQUAL(ph_stock_asked(s), 6);      /* two from the system */
    ph_arena_free(&a);
    /* 6 blocks for 60 units of 100: another before the end while more
     * than twice 60/7 units are left */
    CU_ASSERT(ph_stock_wanted(s, 60, 100));
    CU_ASSERT(!ph_stock_wanted(s, 85, 100));
    CU_ASSERT(!ph_stock_wanted(s, 100, 100));
    ph_stock_free(s);
}

/* A stock with a thread of its own has a block ready soon after it
 * starts, and another after one is taken. */
static void test_stock_thread(void)
{
    ph_set_jobs(2);
    ph_stock *s = ph_stock_start(100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    for (int round = 0; round < 2; round++) {
        void *q = NULL;
        for (int ms = 0; ms < 10000 && !q; ms++) {
            q = ph_stock_take(s);
            if (!q)
                usleep(1000);
        }
        CU_ASSERT_PTR_NOT_NULL(q);
        free(q);
    }
    ph_stock_free(s);
    ph_set_jobs(0);
}

static void test_profile_alloc(void)
{
    ph_profile *p = ph_profile_new();
    size_t i;
    for (i = 1; i < 100; i++) {
        unsigned char *q = ph_profile_alloc(p, i * 7);
        CU_ASSERT_EQUAL((uintptr_t)q % alignof(max_align_t), 0);
        CU_ASSERT_EQUAL(q[i * 7 - 1], 0);
        memset(q, 0xff, i * 7);
    }
    ph_profile_free(p);
}

/* Grown from 1 KiB past the size where the copy goes to fresh pages: the
 * old bytes kept, every new one zero. */
static void test_recalloc(void)
{
    size_t old = 0, n = 1024;
    unsigned char *q = NULL;
    while (n <= ((size_t)8 << 20)) {
        q = ph_xrecalloc(q, old, n);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += q[i] != (i < old ? (unsigned char)(i % 251 + 1) : 0);
        CU_ASSERT_EQUAL(bad, 0);
        for (size_t i = old; i < n; i++)
            q[i] = (unsigned char)(i % 251 + 1);
        old = n;
        n = n * 3 + 1;
    }
    CU_ASSERT_PTR_EQUAL(ph_xrecalloc(q, old, old / 2), q);
    free(q);
}

/* The bytes past what the caller counted are zeros after growth, though
 * the block held other bytes there (a big growth hands its pages back to
 * the kernel, whose partial pages are written). */
static void test_recalloc_dirty(void)
{
    static const size_t cases[][3] = {      /* dirty, old, new */
        {(size_t)3 << 20, ((size_t)1 << 20) + 123, (size_t)5 << 20},
        {(size_t)100 << 10, 4097, ((size_t)1 << 20) + 4095},
        {(size_t)2 << 20, 1, ((size_t)2 << 20) + 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t dirty = cases[c][0], old = cases[c][1], n = cases[c][2];
        unsigned char *q = ph_xmalloc(dirty);
        memset(q, 0xa5, dirty);
        q = ph_xrecalloc(q, old, n);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += q[i] != (i < old ? 0xa5 : 0);
        CU_ASSERT_EQUAL(bad, 0);
        free(q);
    }
}

/* Whether every page of bytes [from, to) of m is resident (mincore). */
static int resident(unsigned char *m, size_t from, size_t to)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char vec[256];
    from &= ~(page - 1);
    size_t n = (to - from + page - 1) / page;
    if (n > sizeof vec || mincore(m + from, n * page, vec) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(vec[i] & 1))
            return 0;
    return 1;
}

/* ph_map_ahead maps up to the next multiple of PH_AHEAD_BYTES when an
 * item starts the memory or reaches such a multiple, and nothing when it
 * does not; never past the capacity given.  The resident pages of a fresh
 * mapping without huge pages say so.  Where the kernel refuses
 * MADV_POPULATE_WRITE nothing is mapped ahead, and only the values
 * written are checked. */
static void test_map_ahead(void)
{
    const size_t S = PH_AHEAD_BYTES, bytes = 4 * S;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(m != MAP_FAILED);
    (void)madvise(m, bytes, MADV_NOHUGEPAGE);
    int maps = 0;
#ifdef MADV_POPULATE_WRITE
    maps = madvise(m, page, MADV_POPULATE_WRITE) == 0;
#endif
    uint32_t *v = (uint32_t *)m;
    size_t cap = bytes / sizeof *v;
    ph_map_ahead(v, sizeof *v, 0, cap);         /* the memory's start */
    ph_map_ahead(v, sizeof *v, 1, cap);
    ph_map_ahead(v, sizeof *v, S / 8, cap);     /* within the stretch */
    if (maps) {
        CU_ASSERT_EQUAL(resident(m, 0, S), 1);
        CU_ASSERT_EQUAL(resident(m, S, S + page), 0);
    }
    ph_map_ahead(v, sizeof *v, S / 4, cap);     /* reaches S */
    if (maps) {
        CU_ASSERT_EQUAL(resident(m, S, 2 * S), 1);
        CU_ASSERT_EQUAL(resident(m, 2 * S, 2 * S + page), 0);
    }
    /* bytes across 2S from before it: up to 3S */
    ph_map_ahead_bytes(m, 2 * S - 10, 20, bytes);
    if (maps) {
        CU_ASSERT_EQUAL(resident(m, 2 * S, 3 * S), 1);
        CU_ASSERT_EQUAL(resident(m, 3 * S, 3 * S + page), 0);
    }
    /* a capacity two pages into the last stretch: no further */
    ph_map_ahead_bytes(m, 3 * S, 8, 3 * S + 2 * page);
    if (maps) {
        CU_ASSERT_EQUAL(resident(m, 3 * S, 3 * S + 2 * page), 1);
        CU_ASSERT_EQUAL(resident(m, 3 * S + 2 * page, 3 * S + 3 * page), 0);
    }
    for (size_t i = 0; i < cap; i++) {
        ph_map_ahead(v, sizeof *v, i, cap);
        v[i] = (uint32_t)(i * 2654435761u);
    }
    size_t bad = 0;
    for (size_t i = 0; i < cap; i++)
        bad += v[i] != (uint32_t)(i * 2654435761u);
    CU_ASSERT_EQUAL(bad, 0);
    munmap(m, bytes);
}

/* A big zeroed block is zeros, also where a freed dirty one was. */
static void test_big_calloc(void)
{
    size_t n = (size_t)3 << 20;
    unsigned char *q = ph_xmalloc(n);
    memset(q, 0xa5, n);
    free(q);
    for (int k = 0; k < 4; k++) {
        q = k & 1 ? ph_xcalloc(n / 8, 8) : ph_xcalloc_written(n / 8, 8);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += q[i] != 0;
        CU_ASSERT_EQUAL(bad, 0);
        memset(q, 0x5a, n);
        free(q);
    }
}

typedef struct kv {
    uint32_t key, index;
} kv;

static int cmp_kv(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* ph_qsort_top's first top are the full sort's, and it keeps every
 * element: sizes around its cut-over to qsort, keys with many ties. */
static void test_qsort_top(void)
{
    static const size_t sizes[] = {0, 1, 2, 31, 33, 100, 1000, 20000};
    uint32_t seed = 12345;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        kv *a = ph_xmalloc((n + 1) * sizeof *a);
        kv *sorted = ph_xmalloc((n + 1) * sizeof *sorted);
        const size_t tops[] = {0, 1, n / 3, n / 2, n ? n - 1 : 0, n, n + 7};
        for (size_t ti = 0; ti < sizeof tops / sizeof *tops; ti++) {
            size_t top = tops[ti];
            for (size_t i = 0; i < n; i++) {
                seed = seed * 1103515245u + 12345u;
                a[i] = (kv){(seed >> 16) % (n / 4 + 1), (uint32_t)i};
            }
            memcpy(sorted, a, n * sizeof *a);
            ph_qsort(sorted, n, sizeof *sorted, cmp_kv);
            ph_qsort_top(a, n, sizeof *a, top, cmp_kv);
            size_t want = top == 0 || top > n ? n : top, bad = 0;
            for (size_t i = 0; i < want; i++)
                bad += cmp_kv(&a[i], &sorted[i]) != 0;
            CU_ASSERT_EQUAL(bad, 0);
            ph_qsort(a, n, sizeof *a, cmp_kv);     /* nothing lost */
            CU_ASSERT(n == 0 || memcmp(a, sorted, n * sizeof *a) == 0);
        }
        free(a);
        free(sorted);
    }
}

void ph_test_register_arena(void)
{
    CU_pSuite s = CU_add_suite("arena", NULL, NULL);
    CU_add_test(s, "alignment and zeroing", test_alignment_and_zero);
    CU_add_test(s, "block growth", test_growth);
    CU_add_test(s, "grow and shrink the newest", test_grow_shrink_last);
    CU_add_test(s, "mark and rewind", test_mark_rewind);
    CU_add_test(s, "trim the newest block", test_trim);
    CU_add_test(s, "blocks from a stock", test_stock);
    CU_add_test(s, "a stock's own thread", test_stock_thread);
    CU_add_test(s, "profile alloc", test_profile_alloc);
    CU_add_test(s, "zeroed growth", test_recalloc);
    CU_add_test(s, "zeroed growth over other bytes", test_recalloc_dirty);
    CU_add_test(s, "memory mapped ahead of its writes", test_map_ahead);
    CU_add_test(s, "big zeroed blocks", test_big_calloc);
    CU_add_test(s, "first elements sorted", test_qsort_top);
}
