/* alloc.c -- malloc that never returns NULL (ph_oom on failure) and keeps
 * within the memory limit, fresh memory mapped before it is written
 * (ph_prefault), a qsort safe on empty arrays, saturating sums of costs,
 * the growable pointer vector and the open-addressing table used across
 * ir/.
 */
#include "config.h"

#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io.h"
#include "ir_priv.h"

/* ------------------------------------------------------------------ */
/* The memory limit (--max-memory, PROFHUB_MAX_MEMORY)                 */

/* Every allocation of the library goes through ph_x*alloc (the arena, the
 * tables, protobuf-c through ph_pb_allocator, the gzip buffer asks
 * ph_mem_allows): each call adds its size to a counter, and every
 * CHECK_STEP bytes the memory in use (the resident set: what free() gave
 * back is not counted) is compared with the limit.  A single request beyond the
 * limit fails at once.  Over the limit, ph_oom says so, naming the file
 * being read (ph_mem_set_context) and the limit. */
#define CHECK_STEP ((size_t)32 << 20)

static size_t mem_limit;            /* bytes; 0 = none */
static size_t mem_since_check;      /* atomic: readers run on threads */
static int mem_over;                /* the limit, not malloc, said no */
static _Thread_local char mem_context[256];  /* this thread's file */

void ph_mem_set_limit(size_t bytes) { mem_limit = bytes; }
size_t ph_mem_limit(void) { return mem_limit; }

void ph_mem_set_context(const char *name)
{
    snprintf(mem_context, sizeof mem_context, "%s", name ? name : "");
}

const char *ph_mem_context(void) { return mem_context; }

/* Memory in use: the resident set (/proc/self/statm), which also holds
 * what protobuf-c, zlib and libc allocate; else the malloc heap. */
static size_t memory_in_use(void)
{
    char buf[128];
    size_t i = 0, resident = 0;
    ssize_t n = -1;
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);

    if (fd >= 0) {
        n = read(fd, buf, sizeof buf - 1);
        close(fd);
    }
    if (n <= 0) {
        struct mallinfo2 mi = mallinfo2();
        return mi.uordblks + mi.hblkhd;
    }
    buf[n] = '\0';
    while (buf[i] && buf[i] != ' ')     /* skip the total size */
        i++;
    while (buf[i] == ' ')
        i++;
    while (buf[i] >= '0' && buf[i] <= '9')
        resident = resident * 10 + (size_t)(buf[i++] - '0');
    return resident * ph_page_size();
}

int ph_mem_allows(size_t n)
{
    if (!mem_limit)
        return 1;
    if (n > mem_limit) {
        mem_over = 1;
        return 0;
    }
    if (__atomic_add_fetch(&mem_since_check, n, __ATOMIC_RELAXED) <
        CHECK_STEP)
        return 1;
    __atomic_store_n(&mem_since_check, 0, __ATOMIC_RELAXED);
    if (memory_in_use() + n > mem_limit) {
        mem_over = 1;
        return 0;
    }
    return 1;
}

void ph_oom(void)
{
    char msg[512];
    int n;
    const char *ctx = mem_context[0] ? mem_context : NULL;

    /* snprintf and write(2), not stdio streams: we may be out of memory
     * for their buffers. */
    if (mem_over)
        n = snprintf(msg, sizeof msg, "profhub: %s%sout of memory: more "
                     "than the limit of %zu MiB would be in use (raise it "
                     "with --max-memory or PROFHUB_MAX_MEMORY)\n",
                     ctx ? ctx : "", ctx ? ": " : "", mem_limit >> 20);
    else
        n = snprintf(msg, sizeof msg, "profhub: %s%sout of memory\n",
                     ctx ? ctx : "", ctx ? ": " : "");
    if (n > 0) {
        ssize_t r = write(2, msg, (size_t)n < sizeof msg ? (size_t)n
                                                          : sizeof msg - 1);
        (void)r;
    }
    /* An output's temporary file must not outlive the process (STYLE:
     * no partial output); the commit path may be what ran out. */
    ph_output_cleanup();
    exit(1);
}

/* No block asks for transparent huge pages (MADV_HUGEPAGE).  On the
 * virtual machines profhub is measured on, the first write to a huge page
 * new to the process runs at 0.45-0.8 GB/s (the host backs memory the
 * guest gave back only when it is used again), to 4 KiB pages at
 * 2.8 GB/s: asking cost every big command 5-30% of its wall time, and the
 * TLB misses it saved were within the noise (tests/bench/README.md,
 * nineteenth round).  A system with huge pages always on still gives
 * them. */
void *ph_xmalloc(size_t n)
{
    if (!ph_mem_allows(n))
        ph_oom();
    void *q = malloc(n ? n : 1);
    if (!q)
        ph_oom();
    return q;
}

/* From this size on, calloc takes fresh pages from the kernel (glibc's
 * mmap threshold starts at 128 KiB) and does not write them. */
#define FRESH_ZEROS ((size_t)1 << 20)

void *ph_xcalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        ph_oom();
    if (!ph_mem_allows(n * size))
        ph_oom();
    void *q = calloc(n ? n : 1, size ? size : 1);
    if (!q)
        ph_oom();
    return q;
}

/* A read of a fresh page maps the shared zero page: the write after it
 * faults again, copies it and flushes the TLB of every thread of the
 * process (an interrupt to each other core, an exit to the host on a
 * virtual machine).  Written first, a page faults once: the diff of the
 * cc1 file with itself spent 0.81 s in the kernel, then 0.25 s. */
void *ph_xcalloc_written(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        ph_oom();
    if (n * size < FRESH_ZEROS)
        return ph_xcalloc(n, size);
    void *q = ph_xmalloc_written(n * size);
    memset(q, 0, n * size);
    return q;
}

/* Below this, malloc's memory is mostly pages the process has written. */
#define PREFAULT_MIN ((size_t)64 << 10)

void *ph_xmalloc_written(size_t n)
{
    void *q = ph_xmalloc(n);
    if (n >= PREFAULT_MIN)
        ph_prefault(q, n);
    return q;
}

/* One madvise maps every page: on the virtual machines profhub is
 * measured on, a page fault is an exit to the host, and fresh memory
 * written a page at a time ran at 290-370 MB/s where the same memory
 * mapped first took its writes at 500-700 MB/s (hw_floor; the pprof
 * reader's inflated copy, the stock's blocks: 0.84-0.92x wall, twenty-
 * seventh round of tests/bench/README.md).  A kernel before 5.14 refuses
 * the advice, and the writes fault as before. */
void ph_prefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    uintptr_t from = (uintptr_t)p & ~(uintptr_t)(ph_page_size() - 1);
    if (n)
        (void)madvise((void *)from, (uintptr_t)p + n - from,
                      MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)n;
#endif
}

/* Asked once; atomic: the threads of a load ask at once (each writes the
 * same value). */
size_t ph_page_size(void)
{
    static size_t page;
    size_t p = __atomic_load_n(&page, __ATOMIC_RELAXED);
    if (!p) {
        p = (size_t)sysconf(_SC_PAGESIZE);
        __atomic_store_n(&page, p, __ATOMIC_RELAXED);
    }
    return p;
}

/* The whole pages within [from, to): [*a, *b), empty when *a >= *b. */
static void whole_pages(const void *from, const void *to, uintptr_t *a,
                        uintptr_t *b)
{
    uintptr_t page = ph_page_size();
    *a = ((uintptr_t)from + page - 1) & ~(page - 1);
    *b = (uintptr_t)to & ~(page - 1);
}

int ph_drop_pages(void *from, void *to)
{
    uintptr_t a, b;
    whole_pages(from, to, &a, &b);
    return a < b && madvise((void *)a, b - a, MADV_DONTNEED) == 0 ? 0 : -1;
}

void ph_map_stretch(void *base, size_t from, size_t to, size_t cap)
{
    if (to > cap)
        to = cap;
    if (to > from)
        ph_prefault((char *)base + from, to - from);
}

void *ph_xrealloc(void *p, size_t n)
{
    if (!ph_mem_allows(n))
        ph_oom();
    void *q = realloc(p, n ? n : 1);
    if (!q)
        ph_oom();
    return q;
}

/* Zeros over [from, to) of memory malloc gave: the whole pages handed
 * back to the kernel, which maps zeros there when they are next touched
 * (what is not touched stays out of the resident set), the partial pages
 * at the ends written. */
static void zero_untouched(unsigned char *from, unsigned char *to)
{
    uintptr_t a, b;
    whole_pages(from, to, &a, &b);
    if (ph_drop_pages(from, to) != 0) {
        memset(from, 0, (size_t)(to - from));
        return;
    }
    memset(from, 0, a - (uintptr_t)from);
    memset((void *)b, 0, (uintptr_t)to - b);
}

/* The room a block grows by stays unwritten until used (an array that
 * doubles uses part of it).  A big block grows by realloc, which moves
 * glibc's mapping of it without copying a byte (mremap): copied, half
 * of a growing array's pages were written twice, and the tree of a heap
 * profile with 10.9 million nodes spent 15% of its time in the copies. */
void *ph_xrecalloc(void *p, size_t old, size_t n)
{
    if (n <= old)
        return p;
    unsigned char *q = ph_xrealloc(p, n);
    if (n - old < FRESH_ZEROS)
        memset(q + old, 0, n - old);
    else
        zero_untouched(q + old, q + n);
    return q;
}

int ph_cost_overflow_flag;

int64_t ph_cost_add(int64_t a, int64_t b)
{
    return ph_add_sat(a, b);
}

int ph_cost_overflowed(void)
{
    return ph_cost_overflow_flag;
}

void ph_qsort(void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}

static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        unsigned char x = a[i];
        a[i] = b[i];
        b[i] = x;
    }
}

/* A quickselect in place: median of three pivots, then qsort what is left
 * after 64 rounds (a bad run of pivots) or under 32 elements. */
void ph_qsort_top(void *base, size_t n, size_t size, size_t top,
                  int (*cmp)(const void *, const void *))
{
    unsigned char *k = base;
    size_t lo = 0, hi = n;          /* the top-th lies in [lo, hi] */
    unsigned rounds = 64;
#define AT(i) (k + (i) * size)

    if (top == 0 || top >= n) {
        ph_qsort(base, n, size, cmp);
        return;
    }
    while (hi - lo > 32 && rounds--) {
        size_t mid = lo + (hi - lo) / 2, p = lo + 1;
        if (cmp(AT(mid), AT(lo)) < 0)
            swap_bytes(AT(mid), AT(lo), size);
        if (cmp(AT(hi - 1), AT(mid)) < 0) {
            swap_bytes(AT(hi - 1), AT(mid), size);
            if (cmp(AT(mid), AT(lo)) < 0)
                swap_bytes(AT(mid), AT(lo), size);
        }
        swap_bytes(AT(lo), AT(mid), size);      /* the median is the pivot */
        for (size_t i = lo + 1; i < hi; i++)
            if (cmp(AT(i), AT(lo)) < 0)
                swap_bytes(AT(i), AT(p++), size);
        swap_bytes(AT(lo), AT(p - 1), size);    /* its place: p - 1 */
        if (top < p)
            hi = p - 1;
        else
            lo = p;
        if (lo >= top || hi <= top)
            break;
    }
    if (lo < top && hi > top)
        ph_qsort(AT(lo), hi - lo, size, cmp);
#undef AT
    ph_qsort(base, top, size, cmp);
}

/* ------------------------------------------------------------------ */
/* Vectors                                                             */

void ph_vec_grow(ph_vec *x)
{
    size_t cap = x->cap ? x->cap * 2 : 16;
    if (cap < x->cap || cap > SIZE_MAX / sizeof *x->v)
        ph_oom();
    x->v = ph_xrealloc(x->v, cap * sizeof *x->v);
    x->cap = cap;
}

void ph_vec_free(ph_vec *x)
{
    free(x->v);
    x->v = NULL;
    x->n = x->cap = 0;
}

void ph_array_reserve(void **arr, size_t *cap, size_t need, size_t elsz)
{
    size_t c = *cap;
    if (need <= c)
        return;
    if (c < 16)
        c = 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            ph_oom();
        c *= 2;
    }
    if (c > SIZE_MAX / elsz)
        ph_oom();
    *arr = ph_xrecalloc(*arr, *cap * elsz, c * elsz);
    *cap = c;
}

/* ------------------------------------------------------------------ */
/* Hash table                                                          */

void ph_htab_init(ph_htab *t, size_t cap)
{
    size_t c = 16;
    while (c < cap)
        c *= 2;
    /* written at random: a page soon holds a hash in use */
    t->h = ph_xmalloc_written(c * sizeof *t->h);
    t->v = ph_xcalloc_written(c, sizeof *t->v);
    t->mask = c - 1;
    t->n = 0;
}

void ph_htab_free(ph_htab *t)
{
    free(t->h);
    free(t->v);
    t->h = NULL;
    t->v = NULL;
    t->mask = 0;
    t->n = 0;
}

/* Up to 3/4 full: the stored hashes keep a probe within a cache line or
 * two, and a table of every function of a profile (16 bytes a slot) is
 * half the size it is at 1/2. */
static int htab_fits(size_t n, size_t cap)
{
    return n <= cap / 4 * 3;
}

/* At least cap slots, every item put back by its stored hash. */
static void grow_htab(ph_htab *t, size_t cap)
{
    size_t oldcap = t->mask + 1, i;
    uint64_t *oh = t->h;
    void **ov = t->v;
    if (cap > SIZE_MAX / sizeof *t->h)
        ph_oom();
    ph_htab_init(t, cap);
    for (i = 0; i < oldcap; i++) {
        if (ov[i]) {
            size_t j = oh[i] & t->mask;
            while (t->v[j])
                j = (j + 1) & t->mask;
            t->h[j] = oh[i];
            t->v[j] = ov[i];
            t->n++;
        }
    }
    free(oh);
    free(ov);
}

void ph_htab_reserve(ph_htab *t, size_t n)
{
    size_t cap = t->v ? t->mask + 1 : 16;
    if (n > SIZE_MAX / 4 - t->n)
        ph_oom();
    while (!htab_fits(t->n + n, cap))
        cap *= 2;
    if (!t->v)
        ph_htab_init(t, cap);
    else if (cap > t->mask + 1)
        grow_htab(t, cap);
}

void ph_htab_insert(ph_htab *t, uint64_t h, void *item)
{
    size_t i;
    if (!t->v)
        ph_htab_init(t, 16);
    if (!htab_fits(t->n + 1, t->mask + 1))
        grow_htab(t, 2 * (t->mask + 1));
    i = h & t->mask;
    while (t->v[i])
        i = (i + 1) & t->mask;
    t->h[i] = h;
    t->v[i] = item;
    t->n++;
}
