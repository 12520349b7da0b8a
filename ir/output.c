/* output.c -- ph_output: bytes out through a 64 KiB buffer (past it, to a
 * file, MiB buffers that a second thread writes), optionally gzipped
 * (through MiB buffers, in members of up to a MiB, each compressed in one
 * call by libdeflate, on that thread), into a temporary file beside the
 * target that is renamed into place on commit and removed on abort or any
 * error, so an existing file is never truncated and a partial file never
 * appears.
 * "-" writes stdout; a target that exists but is not a regular file
 * (/dev/null, a FIFO) is written in place, never replaced.
 * The temporary is "DIR/.BASE.profhub-PID.XXXXXX": a run killed by SIGKILL
 * cannot remove it, so the next output to BASE removes those whose PID is
 * no longer running (regular files of ours only). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>

#include "io.h"
#include "ir/gz_members.h"
#include "ir_priv.h"
#include "jobs.h"

#define BUF_SIZE ((size_t)64 << 10)
/* The buffers handed to the writer thread, and the most a gzip member
 * holds: a hand-over costs two wake-ups, as much as deflating 64 KiB.
 * Readers take the members one after the other as one stream (gzip -d,
 * Go's compress/gzip, zlib, our ph_input); deflate's window is 32 KiB,
 * so a member of a MiB compresses as well as one stream. */
#define JOB_SIZE ((size_t)1 << 20)

typedef struct option_kv {
    char *key, *value;
} option_kv;

typedef struct drop {
    char *kind, *what;
    uint64_t n;
} drop;

/* The end the bytes go out of: the file, through gzip when asked.  With
 * gzip on a thread, that thread owns it; its first error reaches the
 * output when the writer next waits for the thread. */
typedef struct sink {
    int fd;
    int gzip;
    struct libdeflate_compressor *zc;
    unsigned char *zbuf;    /* a member compressed, of zbuf_size bytes */
    size_t zbuf_size;
    size_t members;
    int err_no;
    const char *err_what;
} sink;

/* gzip and the writes to a file on a second thread (JOB_SIZE buffers
 * handed over one at a time): deflate took a tenth of a conversion to
 * pprof on the writer's thread, write() 4% of one to callgrind. */
typedef struct writer_thread {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned char *job;  /* the buffer handed over, NULL when none */
    size_t job_len;
    unsigned char *spare;   /* the buffer the thread gave back */
    int busy, quit;
} writer_thread;

struct ph_output {
    char *path;          /* as given */
    char *target;        /* file renamed onto (symlinks resolved) */
    char *tmp;           /* temporary file; NULL when writing in place */
    int is_stdout;
    int memory;          /* ph_output_memory: buf grows, nothing written */
    mode_t mode;         /* mode the committed file gets */
    unsigned char *buf;
    size_t used, cap;    /* cap: BUF_SIZE, or JOB_SIZE for the thread */
    sink sk;             /* where the bytes go; the writer thread's when on */
    writer_thread *wt;   /* gzip and writes on a thread, or NULL */
    int err_no;          /* first write error (errno), 0 if none */
    const char *err_what;
    char *msg;           /* first writer error (ph_output_error_set) */
    option_kv *opts;
    size_t nopts;
    drop *drops;
    size_t ndrops;
};

/* Temporary files of the outputs now open, for ph_output_cleanup (called
 * from a signal handler: fixed slots, no locks, no allocation). */
#define MAX_LIVE 16
static char *volatile live[MAX_LIVE];

static void track_temp(char *tmp)
{
    size_t i;

    for (i = 0; i < MAX_LIVE; i++) {
        if (!live[i]) {
            live[i] = tmp;
            return;
        }
    }
}

static void untrack_temp(const char *tmp)
{
    size_t i;

    for (i = 0; tmp && i < MAX_LIVE; i++)
        if (live[i] == tmp)
            live[i] = NULL;
}

void ph_output_cleanup(void)
{
    size_t i;

    for (i = 0; i < MAX_LIVE; i++) {
        char *t = live[i];
        if (t)
            unlink(t);
    }
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = ph_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

static void fail(ph_output *out, const char *what, int err_no)
{
    if (!out->err_no) {
        out->err_no = err_no ? err_no : EIO;
        out->err_what = what;
    }
}

/* ------------------------------------------------------------------ */
/* Opening                                                             */

static mode_t default_mode(void)
{
    mode_t mask = umask(022);
    umask(mask);
    return 0666 & ~mask;
}

/* Remove DIR/.BASE.profhub-PID.XXXXXX files left by runs that were
 * killed: PID no longer exists, and the file is a regular file of ours. */
static void remove_stale_temps(const char *dir, const char *base,
                               size_t baselen)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int dfd;

    if (!d)
        return;
    dfd = dirfd(d);
    while ((de = readdir(d)) != NULL) {
        const char *n = de->d_name, *q;
        struct stat st;
        uint64_t pid;
        size_t used;

        if (n[0] != '.' || strncmp(n + 1, base, baselen) != 0 ||
            strncmp(n + 1 + baselen, ".profhub-", 9) != 0)
            continue;
        q = n + 1 + baselen + 9;
        used = ph_parse_u64(q, strlen(q), &pid);
        if (used == 0 || used == (size_t)-1 || pid == 0 ||
            pid > (uint64_t)INT_MAX || q[used] != '.' ||
            strlen(q + used + 1) != 6 || pid == (uint64_t)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;   /* still running, or not ours to ask about */
        if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode) && st.st_uid == geteuid())
            unlinkat(dfd, n, 0);
    }
    closedir(d);
}

/* Make the temporary file "DIR/.BASE.profhub-PID.XXXXXX" beside target. */
static int make_temp(ph_output *out, char *err, size_t errsize)
{
    const char *slash = strrchr(out->target, '/');
    size_t dirlen = slash ? (size_t)(slash - out->target) : 0;
    const char *base = slash ? slash + 1 : out->target;
    size_t baselen = strlen(base);
    char dir[PATH_MAX];
    char *tmp;

    if (baselen > 200)
        baselen = 200;
    if (slash && dirlen == 0)
        snprintf(dir, sizeof dir, "/");
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)dirlen, out->target);
    else
        snprintf(dir, sizeof dir, ".");
    remove_stale_temps(dir, base, baselen);
    tmp = ph_xmalloc(strlen(dir) + baselen + 48);
    sprintf(tmp, "%s/.%.*s.profhub-%ld.XXXXXX", strcmp(dir, "/") ? dir : "",
            (int)baselen, base, (long)getpid());
    out->sk.fd = mkostemp(tmp, O_CLOEXEC);
    if (out->sk.fd < 0) {
        snprintf(err, errsize, "cannot create a temporary file in %s: %s",
                 dir, strerror(errno));
        free(tmp);
        return -1;
    }
    out->tmp = tmp;
    track_temp(tmp);
    return 0;
}

ph_output *ph_output_open(const char *path, char *err, size_t errsize)
{
    ph_output *out = ph_xcalloc(1, sizeof *out);
    struct stat st;

    out->path = dup_string(path);
    out->buf = ph_xmalloc(BUF_SIZE);
    out->cap = BUF_SIZE;
    out->sk.fd = -1;
    if (strcmp(path, "-") == 0) {
        out->is_stdout = 1;
        out->sk.fd = STDOUT_FILENO;
        return out;
    }
    if (path[0] == '\0') {
        snprintf(err, errsize, "empty output file name");
        goto failed;
    }
    out->target = dup_string(path);
    out->mode = default_mode();
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *real = realpath(path, NULL);   /* write where the link points */
        if (real) {
            free(out->target);
            out->target = real;
        }
    }
    if (stat(out->target, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errsize, "is a directory");
            goto failed;
        }
        if (!S_ISREG(st.st_mode)) {
            /* A device or FIFO: renaming over it would destroy it. */
            out->sk.fd = open(out->target, O_WRONLY | O_TRUNC | O_CLOEXEC);
            if (out->sk.fd < 0) {
                snprintf(err, errsize, "%s", strerror(errno));
                goto failed;
            }
            return out;
        }
        if (access(out->target, W_OK) != 0) {
            snprintf(err, errsize, "%s", strerror(errno));
            goto failed;
        }
        out->mode = st.st_mode & 07777;
    }
    if (make_temp(out, err, errsize) < 0)
        goto failed;
    return out;

failed:
    free(out->target);
    free(out->path);
    free(out->buf);
    free(out);
    return NULL;
}

ph_output *ph_output_memory(void)
{
    ph_output *out = ph_xcalloc(1, sizeof *out);
    out->buf = ph_xmalloc(BUF_SIZE);
    out->cap = BUF_SIZE;
    out->sk.fd = -1;
    out->memory = 1;
    return out;
}

const unsigned char *ph_output_memory_bytes(const ph_output *out,
                                            size_t *len)
{
    *len = out->used;
    return out->buf;
}

void ph_output_memory_clear(ph_output *out)
{
    out->used = 0;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

static void sink_fail(sink *sk, const char *what, int err_no)
{
    if (!sk->err_no) {
        sk->err_no = err_no ? err_no : EIO;
        sk->err_what = what;
    }
}

static void write_fd(sink *sk, const unsigned char *p, size_t n)
{
    while (n > 0 && !sk->err_no) {
        ssize_t w = write(sk->fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            sink_fail(sk, "write error", errno);
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

/* n bytes at p written as gzip members of up to JOB_SIZE bytes each
 * (n may be 0: an empty member, the whole of an empty output), each
 * naming its size (gz_members.h). */
static void deflate_bytes(sink *sk, const unsigned char *p, size_t n)
{
    do {
        size_t m = n < JOB_SIZE ? n : JOB_SIZE;
        unsigned char *z = sk->zbuf;
        size_t zn = libdeflate_deflate_compress(
            sk->zc, p, m, z + PH_GZ_HEAD,
            sk->zbuf_size - PH_GZ_HEAD - PH_GZ_TAIL);
        if (zn == 0) {
            sink_fail(sk, "gzip error", EIO);
            return;
        }
        ph_gz_member_tail(z + PH_GZ_HEAD + zn, libdeflate_crc32(0, p, m), m);
        zn += PH_GZ_HEAD + PH_GZ_TAIL;
        ph_gz_member_head(z, zn);
        write_fd(sk, z, zn);
        sk->members++;
        p += m;
        n -= m;
    } while (n > 0 && !sk->err_no);
}

static void sink_put(sink *sk, const unsigned char *p, size_t n)
{
    if (sk->gzip)
        deflate_bytes(sk, p, n);
    else
        write_fd(sk, p, n);
}

/* The sink's first error becomes the output's (with the writer thread on:
 * only while that thread waits). */
static void take_sink_error(ph_output *out)
{
    if (out->sk.err_no)
        fail(out, out->sk.err_what, out->sk.err_no);
}

/* ------------------------------------------------------------------ */
/* gzip and writes on a thread                                         */

static void *writer_main(void *arg)
{
    ph_output *out = arg;
    writer_thread *wt = out->wt;
    pthread_mutex_lock(&wt->mu);
    for (;;) {
        while (!wt->job && !wt->quit)
            pthread_cond_wait(&wt->cv, &wt->mu);
        if (!wt->job)
            break;
        unsigned char *job = wt->job;
        size_t len = wt->job_len;
        wt->job = NULL;
        wt->busy = 1;
        pthread_mutex_unlock(&wt->mu);
        if (!out->sk.err_no)
            sink_put(&out->sk, job, len);
        pthread_mutex_lock(&wt->mu);
        wt->spare = job;
        wt->busy = 0;
        pthread_cond_broadcast(&wt->cv);
    }
    pthread_mutex_unlock(&wt->mu);
    return NULL;
}

/* Wait until the thread has nothing to do; the sink's error, if any,
 * becomes the output's. */
static void writer_wait(ph_output *out)
{
    writer_thread *wt = out->wt;
    pthread_mutex_lock(&wt->mu);
    while (wt->job || wt->busy)
        pthread_cond_wait(&wt->cv, &wt->mu);
    take_sink_error(out);
    pthread_mutex_unlock(&wt->mu);
}

/* Buffers of JOB_SIZE from now on. */
static void job_buffers(ph_output *out)
{
    out->buf = ph_xrealloc(out->buf, JOB_SIZE);
    out->cap = JOB_SIZE;
}

/* The thread, and buffers of JOB_SIZE (also when it cannot start). */
static void writer_start(ph_output *out)
{
    job_buffers(out);
    writer_thread *wt = ph_xcalloc(1, sizeof *wt);
    wt->spare = ph_xmalloc(JOB_SIZE);
    pthread_mutex_init(&wt->mu, NULL);
    pthread_cond_init(&wt->cv, NULL);
    out->wt = wt;
    if (pthread_create(&wt->th, NULL, writer_main, out) != 0) {
        out->wt = NULL;           /* all on this thread, then */
        pthread_mutex_destroy(&wt->mu);
        pthread_cond_destroy(&wt->cv);
        free(wt->spare);
        free(wt);
    }
}

/* Finish the thread's work and end it. */
static void writer_stop(ph_output *out)
{
    writer_thread *wt = out->wt;
    if (!wt)
        return;
    writer_wait(out);
    pthread_mutex_lock(&wt->mu);
    wt->quit = 1;
    pthread_cond_broadcast(&wt->cv);
    pthread_mutex_unlock(&wt->mu);
    pthread_join(wt->th, NULL);
    pthread_mutex_destroy(&wt->mu);
    pthread_cond_destroy(&wt->cv);
    free(wt->spare);
    free(wt);
    out->wt = NULL;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

static void flush_buf(ph_output *out)
{
    if (out->used == 0)
        return;
    if (out->wt) {
        /* hand the buffer over, write on into the one given back */
        writer_thread *wt = out->wt;
        writer_wait(out);
        if (out->err_no) {
            out->used = 0;
            return;
        }
        pthread_mutex_lock(&wt->mu);
        wt->job = out->buf;
        wt->job_len = out->used;
        out->buf = wt->spare;
        wt->spare = NULL;
        pthread_cond_broadcast(&wt->cv);
        pthread_mutex_unlock(&wt->mu);
    } else if (!out->err_no) {
        sink_put(&out->sk, out->buf, out->used);
        take_sink_error(out);
    }
    out->used = 0;
}

void ph_output_write(ph_output *out, const void *data, size_t len)
{
    const unsigned char *p = data;

    if (out->err_no)
        return;
    if (len <= out->cap - out->used) {
        memcpy(out->buf + out->used, p, len);
        out->used += len;
        return;
    }
    if (out->memory) {
        void *b = out->buf;
        ph_array_reserve(&b, &out->cap, out->used + len, 1);
        out->buf = b;
        memcpy(out->buf + out->used, p, len);
        out->used += len;
        return;
    }
    if (out->cap < JOB_SIZE && !out->sk.gzip && !out->is_stdout &&
        ph_jobs() > 1)
        writer_start(out);      /* more than a buffer: writes on a thread */
    flush_buf(out);
    if (len >= out->cap && !out->wt) {
        /* Large block: skip the copy (gzip takes it in 1 GiB slices). */
        while (len > 0 && !out->err_no) {
            size_t n = len > (1u << 30) ? (1u << 30) : len;
            sink_put(&out->sk, p, n);
            take_sink_error(out);
            p += n;
            len -= n;
        }
        return;
    }
    /* through the buffers, a buffer at a time */
    while (len > out->cap - out->used && !out->err_no) {
        size_t n = out->cap - out->used;
        memcpy(out->buf + out->used, p, n);
        out->used = out->cap;
        flush_buf(out);
        p += n;
        len -= n;
    }
    if (out->err_no)
        return;
    memcpy(out->buf + out->used, p, len);
    out->used += len;
}

void ph_output_puts(ph_output *out, const char *s)
{
    ph_output_write(out, s, strlen(s));
}

void ph_output_printf(ph_output *out, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fail(out, "formatting error", EINVAL);
        return;
    }
    if ((size_t)n < sizeof small) {
        ph_output_write(out, small, (size_t)n);
    } else {
        char *big = ph_xmalloc((size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        ph_output_write(out, big, (size_t)n);
        free(big);
    }
}

void ph_output_u64(ph_output *out, uint64_t v)
{
    char tmp[20];
    size_t i = sizeof tmp;

    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (out->cap - out->used >= sizeof tmp && !out->err_no) {
        memcpy(out->buf + out->used, tmp + i, sizeof tmp - i);
        out->used += sizeof tmp - i;
    } else {
        ph_output_write(out, tmp + i, sizeof tmp - i);
    }
}

void ph_output_i64(ph_output *out, int64_t v)
{
    if (v < 0) {
        ph_output_write(out, "-", 1);
        ph_output_u64(out, (uint64_t)0 - (uint64_t)v);
    } else {
        ph_output_u64(out, (uint64_t)v);
    }
}

void ph_output_set_gzip(ph_output *out)
{
    if (out->sk.gzip)
        return;
    /* level 1, as Go's runtime/pprof writes its profiles (BestSpeed): the
     * default level took a quarter of a conversion's CPU time for output
     * a fifth smaller; libdeflate's level 1 takes half zlib's time and
     * writes 5% less */
    out->sk.zc = libdeflate_alloc_compressor(1);
    if (!out->sk.zc) {
        fail(out, "cannot start gzip encoder", ENOMEM);
        return;
    }
    out->sk.zbuf_size = PH_GZ_HEAD +
                        libdeflate_deflate_compress_bound(out->sk.zc,
                                                          JOB_SIZE) +
                        PH_GZ_TAIL;
    out->sk.zbuf = ph_xmalloc(out->sk.zbuf_size);
    out->sk.gzip = 1;
    if (ph_jobs() > 1)
        writer_start(out);
    else
        job_buffers(out);   /* members of a MiB on this thread too */
}

/* ------------------------------------------------------------------ */
/* Commit and abort                                                    */

static void free_output(ph_output *out)
{
    size_t i;

    writer_stop(out);
    libdeflate_free_compressor(out->sk.zc);
    free(out->msg);
    for (i = 0; i < out->nopts; i++) {
        free(out->opts[i].key);
        free(out->opts[i].value);
    }
    for (i = 0; i < out->ndrops; i++) {
        free(out->drops[i].kind);
        free(out->drops[i].what);
    }
    free(out->opts);
    free(out->drops);
    free(out->sk.zbuf);
    free(out->buf);
    free(out->tmp);
    free(out->target);
    free(out->path);
    free(out);
}

int ph_output_commit(ph_output *out, char *err, size_t errsize)
{
    if (out->msg) {
        /* The writer failed: its message, and no file. */
        snprintf(err, errsize, "%s", out->msg);
        ph_output_abort(out);
        return -1;
    }
    flush_buf(out);
    writer_stop(out);
    if (out->sk.gzip && !out->err_no && out->sk.members == 0) {
        deflate_bytes(&out->sk, NULL, 0);   /* an empty gzip file */
        take_sink_error(out);
    }
    if (!out->is_stdout) {
        if (out->tmp && !out->err_no && fchmod(out->sk.fd, out->mode) < 0)
            fail(out, "cannot set the mode of the temporary file", errno);
        if (close(out->sk.fd) < 0)
            fail(out, "write error", errno);
        out->sk.fd = -1;
        if (out->tmp && !out->err_no &&
            rename(out->tmp, out->target) < 0)
            fail(out, "cannot rename the temporary file into place", errno);
        if (out->tmp && out->err_no)
            unlink(out->tmp);
        untrack_temp(out->tmp);
    }
    if (out->err_no) {
        snprintf(err, errsize, "%s: %s", out->err_what,
                 strerror(out->err_no));
        free_output(out);
        return -1;
    }
    free_output(out);
    return 0;
}

int ph_output_error_set(ph_output *out, const char *fmt, ...)
{
    if (out->msg)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    out->msg = ph_xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, fmt);
    vsnprintf(out->msg, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    return -1;
}

const char *ph_output_error(const ph_output *out)
{
    return out->msg;
}

void ph_output_abort(ph_output *out)
{
    if (!out)
        return;
    writer_stop(out);
    if (!out->is_stdout && out->sk.fd >= 0)
        close(out->sk.fd);
    if (out->tmp)
        unlink(out->tmp);
    untrack_temp(out->tmp);
    free_output(out);
}

/* ------------------------------------------------------------------ */
/* Options and drop warnings                                           */

void ph_output_set_option(ph_output *out, const char *key, const char *value)
{
    size_t i;

    for (i = 0; i < out->nopts; i++) {
        if (strcmp(out->opts[i].key, key) == 0) {
            free(out->opts[i].value);
            out->opts[i].value = dup_string(value);
            return;
        }
    }
    out->opts = ph_xrealloc(out->opts, (out->nopts + 1) * sizeof *out->opts);
    out->opts[out->nopts].key = dup_string(key);
    out->opts[out->nopts].value = dup_string(value);
    out->nopts++;
}

const char *ph_output_option(const ph_output *out, const char *key)
{
    size_t i;

    for (i = 0; i < out->nopts; i++)
        if (strcmp(out->opts[i].key, key) == 0)
            return out->opts[i].value;
    return NULL;
}

const char *ph_output_path(const ph_output *out) { return out->path; }

void ph_output_drop(ph_output *out, const char *kind, uint64_t n,
                    const char *what)
{
    size_t i;

    if (n == 0)
        return;
    for (i = 0; i < out->ndrops; i++) {
        if (strcmp(out->drops[i].kind, kind) == 0) {
            out->drops[i].n += n;
            return;
        }
    }
    out->drops = ph_xrealloc(out->drops,
                             (out->ndrops + 1) * sizeof *out->drops);
    out->drops[out->ndrops].kind = dup_string(kind);
    out->drops[out->ndrops].what = dup_string(what);
    out->drops[out->ndrops].n = n;
    out->ndrops++;
}

size_t ph_output_drop_count(const ph_output *out) { return out->ndrops; }

const char *ph_output_drop_at(const ph_output *out, size_t i, uint64_t *n)
{
    if (i >= out->ndrops)
        return NULL;
    if (n)
        *n = out->drops[i].n;
    return out->drops[i].what;
}
