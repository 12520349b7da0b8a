/* rt_blob.c -- blob pool, zlib compression and chunk writes.
 * Runs inside the target.  rt_blob_take/rt_blob_ready run in the signal
 * handler (signal paths: no malloc, no stdio, no locks); compression runs
 * in the writer thread, or at exit/exec/fatal signal in the flushing
 * thread with a deflate stream initialised at start (no allocation then).
 * Every chunk goes out in one writev() on an O_APPEND descriptor, so
 * threads and processes sharing the file never interleave. */
#include "config.h"

#include <errno.h>
#include <semaphore.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

#include "runtime/rt_priv.h"

/* ------------------------------------------------------------------ */
/* Pool                                                               */

static rt_blob *pool;          /* RT_POOL blobs, mmap'ed at start */
static sem_t writer_sem;
static pthread_t writer;
static int writer_running;
static _Atomic int writer_quit;

int rt_blob_init(void)
{
    void *m = mmap(NULL, sizeof(rt_blob) * RT_POOL, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

    if (m == MAP_FAILED)
        return -1;
    pool = m;
    sem_init(&writer_sem, 0, 0);
    return 0;
}

rt_blob *rt_blob_take(const rt_thread *t)
{
    static _Atomic unsigned hint;
    unsigned start = atomic_fetch_add_explicit(&hint, 1,
                                               memory_order_relaxed);

    if (!pool)
        return NULL;
    for (unsigned k = 0; k < RT_POOL; k++) {
        rt_blob *b = &pool[(start + k) % RT_POOL];
        int expect = BLOB_FREE;

        if (atomic_load_explicit(&b->state, memory_order_relaxed) !=
            BLOB_FREE)
            continue;
        if (!atomic_compare_exchange_strong(&b->state, &expect,
                                            BLOB_FILLING))
            continue;
        b->pid = rt.pid;
        b->tid = t->tid;
        b->posix_tid = t->posix_tid;
        b->t0 = b->t1 = rt_now();
        b->a0 = UINT64_MAX;
        b->a1 = 0;
        b->dropped = t->dropped;
        atomic_store_explicit(&b->used, 0, memory_order_release);
        return b;
    }
    return NULL;
}

void rt_blob_ready(rt_blob *b)
{
    int expect = BLOB_FILLING;

    if (atomic_compare_exchange_strong(&b->state, &expect, BLOB_READY))
        sem_post(&writer_sem);   /* async-signal-safe */
}

/* ------------------------------------------------------------------ */
/* Compression: one deflate stream per writer, memory from a static     */
/* arena so nothing is allocated after start.                          */

#define ZARENA (192 * 1024)

typedef struct compressor {
    z_stream z;
    int ok;
    size_t used;
    unsigned char arena[ZARENA];
    unsigned char out[PH_CHUNK_HEADER + PH_BLOB_FIXED +
                      RT_BLOB_WORDS * 8 + 1024];
} compressor;

static compressor zwriter, zflush;
static _Atomic int zflush_busy;

static void *arena_alloc(void *opaque, unsigned items, unsigned size)
{
    compressor *c = opaque;
    size_t n = ((size_t)items * size + 15) & ~(size_t)15;

    if (c->used + n > ZARENA)
        return Z_NULL;
    c->used += n;
    return c->arena + c->used - n;
}

static void arena_free(void *opaque, void *p)
{
    (void)opaque;
    (void)p;   /* the arena lives as long as the process */
}

static void init_compressor(compressor *c)
{
    memset(&c->z, 0, sizeof c->z);
    c->used = 0;
    c->z.zalloc = arena_alloc;
    c->z.zfree = arena_free;
    c->z.opaque = c;
    /* level 1, 16 KiB window, memLevel 7: about 100 KiB of state */
    c->ok = deflateInit2(&c->z, 1, Z_DEFLATED, 14, 7,
                         Z_DEFAULT_STRATEGY) == Z_OK;
}

/* ------------------------------------------------------------------ */
/* Chunks                                                             */

/* One writev of a whole chunk; nothing when the descriptor no longer is
 * the experiment (the program closed it and reused the number).  fstat
 * and writev are async-signal-safe. */
static void write_all(const struct iovec *iov, int n)
{
    struct stat st;

    if (fstat(rt.fd, &st) != 0 || (uint64_t)st.st_dev != rt.fd_dev ||
        (uint64_t)st.st_ino != rt.fd_ino)
        return;
    for (;;) {
        ssize_t w = writev(rt.fd, iov, n);

        if (w >= 0 || errno != EINTR)
            break;
    }
}

static void fill_chunk_header(unsigned char *h, uint32_t type,
                              const unsigned char *payload, size_t len,
                              const unsigned char *more, size_t morelen)
{
    uLong crc = crc32(0L, Z_NULL, 0);

    crc = crc32(crc, payload, (uInt)len);
    if (more)
        crc = crc32(crc, more, (uInt)morelen);
    ph_put32(h, type);
    ph_put32(h + 4, (uint32_t)(len + morelen));
    ph_put32(h + 8, (uint32_t)crc);
    ph_put32(h + 12, 0);
}

void rt_chunk_write(uint32_t type, const void *payload, size_t len)
{
    unsigned char h[PH_CHUNK_HEADER];
    struct iovec iov[2];

    if (rt.fd < 0)
        return;
    fill_chunk_header(h, type, payload, len, NULL, 0);
    iov[0].iov_base = h;
    iov[0].iov_len = sizeof h;
    iov[1].iov_base = (void *)payload;
    iov[1].iov_len = len;
    write_all(iov, 2);
}

/* Compress blob b with c and append it as one chunk. */
static void write_blob(compressor *c, rt_blob *b)
{
    uint32_t used = atomic_load_explicit(&b->used, memory_order_acquire);
    unsigned char *hdr = c->out + PH_CHUNK_HEADER;
    unsigned char *zdata = hdr + PH_BLOB_FIXED;
    size_t zcap = sizeof c->out - PH_CHUNK_HEADER - PH_BLOB_FIXED;
    struct iovec iov;

    if (used == 0 || !c->ok || rt.fd < 0)
        return;
    if (deflateReset(&c->z) != Z_OK)
        return;
    c->z.next_in = (Bytef *)b->words;
    c->z.avail_in = used * 8;
    c->z.next_out = zdata;
    c->z.avail_out = (uInt)zcap;
    if (deflate(&c->z, Z_FINISH) != Z_STREAM_END)
        return;
    ph_put64(hdr, rt.instance);
    ph_put32(hdr + 8, rt.experiment);
    ph_put32(hdr + 12, 0);               /* collector id */
    ph_put32(hdr + 16, b->pid);
    ph_put32(hdr + 20, b->tid);
    ph_put64(hdr + 24, b->posix_tid);
    ph_put64(hdr + 32, b->t0);
    ph_put64(hdr + 40, b->t1);
    ph_put64(hdr + 48, b->a0 == UINT64_MAX ? 0 : b->a0);
    ph_put64(hdr + 56, b->a1);
    ph_put32(hdr + 64, rt.coll ? rt.coll->encoding : 0);
    ph_put32(hdr + 68, used);
    ph_put32(hdr + 72, b->dropped);
    ph_put32(hdr + 76, (uint32_t)c->z.total_out);
    fill_chunk_header(c->out, PH_CHUNK_BLOB, hdr,
                      PH_BLOB_FIXED + c->z.total_out, NULL, 0);
    iov.iov_base = c->out;
    iov.iov_len = PH_CHUNK_HEADER + PH_BLOB_FIXED + c->z.total_out;
    write_all(&iov, 1);
}

/* Write every blob in one of the states in mask with compressor c. */
static void drain(compressor *c, unsigned mask)
{
    if (!pool)
        return;
    for (unsigned k = 0; k < RT_POOL; k++) {
        rt_blob *b = &pool[k];
        int s = atomic_load(&b->state);

        if (!(mask & (1u << s)))
            continue;
        if (!atomic_compare_exchange_strong(&b->state, &s, BLOB_WRITING))
            continue;
        write_blob(c, b);
        atomic_store(&b->state, BLOB_FREE);
    }
}

/* ------------------------------------------------------------------ */
/* Writer thread                                                      */

static void *writer_main(void *arg)
{
    (void)arg;
    while (!atomic_load(&writer_quit)) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        sem_timedwait(&writer_sem, &ts);
        drain(&zwriter, 1u << BLOB_READY);
    }
    return NULL;
}

int rt_writer_start(void)
{
    sigset_t all, old;
    int rc;

    if (!zwriter.ok)
        init_compressor(&zwriter);
    if (!zflush.ok)
        init_compressor(&zflush);
    atomic_store(&writer_quit, 0);
    /* The writer inherits a full signal mask: it is never sampled and
     * never takes the program's signals. */
    sigfillset(&all);
    rt_real_sigmask(SIG_SETMASK, &all, &old);
    rc = rt_real_pthread_create(&writer, NULL, writer_main, NULL);
    rt_real_sigmask(SIG_SETMASK, &old, NULL);
    writer_running = rc == 0;
    return rc == 0 ? 0 : -1;
}

void rt_writer_stop(void)
{
    if (!writer_running)
        return;
    atomic_store(&writer_quit, 1);
    sem_post(&writer_sem);
    pthread_join(writer, NULL);
    writer_running = 0;
}

/* Write everything buffered.  emergency: called from a fatal signal
 * handler; the writer thread is not joined and a flush already running in
 * another thread wins. */
void rt_blob_flush_all(int emergency)
{
    int expect = 0;

    if (!emergency)
        rt_writer_stop();
    if (!atomic_compare_exchange_strong(&zflush_busy, &expect, 1))
        return;
    drain(&zflush, (1u << BLOB_FILLING) | (1u << BLOB_READY));
    atomic_store(&zflush_busy, 0);
}

/* Forked child: the parent owns every blob in flight; start empty. */
void rt_blob_reset_all(void)
{
    if (!pool)
        return;
    for (unsigned k = 0; k < RT_POOL; k++)
        atomic_store(&pool[k].state, BLOB_FREE);
    sem_destroy(&writer_sem);
    sem_init(&writer_sem, 0, 0);
    writer_running = 0;
    atomic_store(&zflush_busy, 0);
}
