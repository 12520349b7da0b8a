/* output.c -- ph_output: bytes out through a 64 KiB buffer, optionally
 * through a gzip stream, into a temporary file beside the target that is
 * renamed into place on commit and removed on abort or any error, so an
 * existing file is never truncated and a partial file never appears.
 * "-" writes stdout; a target that exists but is not a regular file
 * (/dev/null, a FIFO) is written in place, never replaced.
 * The temporary is "DIR/.BASE.profhub-PID.XXXXXX": a run killed by SIGKILL
 * cannot remove it, so the next output to BASE removes those whose PID is
 * no longer running (regular files of ours only). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io.h"

#define BUF_SIZE ((size_t)64 << 10)

typedef struct option_kv {
    char *key, *value;
} option_kv;

typedef struct drop {
    char *kind, *what;
    uint64_t n;
} drop;

struct ph_output {
    char *path;          /* as given */
    char *target;        /* file renamed onto (symlinks resolved) */
    char *tmp;           /* temporary file; NULL when writing in place */
    int fd;
    int is_stdout;
    mode_t mode;         /* mode the committed file gets */
    unsigned char *buf;
    size_t used;
    int gzip;
    z_stream zs;
    unsigned char *zbuf;
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
    out->fd = mkostemp(tmp, O_CLOEXEC);
    if (out->fd < 0) {
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
    out->fd = -1;
    if (strcmp(path, "-") == 0) {
        out->is_stdout = 1;
        out->fd = STDOUT_FILENO;
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
            out->fd = open(out->target, O_WRONLY | O_TRUNC | O_CLOEXEC);
            if (out->fd < 0) {
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

/* ------------------------------------------------------------------ */
/* Writing                                                             */

static void write_fd(ph_output *out, const unsigned char *p, size_t n)
{
    while (n > 0 && !out->err_no) {
        ssize_t w = write(out->fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            fail(out, "write error", errno);
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

/* Push n bytes at p through the gzip stream (flush: Z_NO_FLUSH or
 * Z_FINISH), writing compressed chunks as they fill. */
static void deflate_bytes(ph_output *out, const unsigned char *p, size_t n,
                          int flush)
{
    int rc;

    out->zs.next_in = (unsigned char *)(uintptr_t)p;
    out->zs.avail_in = (uInt)n;
    do {
        out->zs.next_out = out->zbuf;
        out->zs.avail_out = (uInt)BUF_SIZE;
        rc = deflate(&out->zs, flush);
        if (rc == Z_STREAM_ERROR) {
            fail(out, "gzip error", EIO);
            return;
        }
        write_fd(out, out->zbuf, BUF_SIZE - out->zs.avail_out);
    } while (!out->err_no &&
             (out->zs.avail_out == 0 || out->zs.avail_in > 0 ||
              (flush == Z_FINISH && rc != Z_STREAM_END)));
}

static void flush_buf(ph_output *out)
{
    if (out->used == 0)
        return;
    if (!out->err_no) {
        if (out->gzip)
            deflate_bytes(out, out->buf, out->used, Z_NO_FLUSH);
        else
            write_fd(out, out->buf, out->used);
    }
    out->used = 0;
}

void ph_output_write(ph_output *out, const void *data, size_t len)
{
    const unsigned char *p = data;

    if (out->err_no)
        return;
    if (len <= BUF_SIZE - out->used) {
        memcpy(out->buf + out->used, p, len);
        out->used += len;
        return;
    }
    flush_buf(out);
    if (len >= BUF_SIZE) {
        /* Large block: skip the copy (gzip takes it in 1 GiB slices). */
        while (len > 0 && !out->err_no) {
            size_t n = len > (1u << 30) ? (1u << 30) : len;
            if (out->gzip)
                deflate_bytes(out, p, n, Z_NO_FLUSH);
            else
                write_fd(out, p, n);
            p += n;
            len -= n;
        }
        return;
    }
    memcpy(out->buf, p, len);
    out->used = len;
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
    if (BUF_SIZE - out->used >= sizeof tmp && !out->err_no) {
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
    if (out->gzip)
        return;
    memset(&out->zs, 0, sizeof out->zs);
    /* level 1, as Go's runtime/pprof writes its profiles (BestSpeed): the
     * default level took a quarter of a conversion's CPU time for output
     * a fifth smaller */
    if (deflateInit2(&out->zs, 1, Z_DEFLATED, 15 + 16, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        fail(out, "cannot start gzip encoder", ENOMEM);
        return;
    }
    out->zbuf = ph_xmalloc(BUF_SIZE);
    out->gzip = 1;
}

/* ------------------------------------------------------------------ */
/* Commit and abort                                                    */

static void free_output(ph_output *out)
{
    size_t i;

    if (out->gzip)
        deflateEnd(&out->zs);
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
    free(out->zbuf);
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
    if (out->gzip && !out->err_no)
        deflate_bytes(out, NULL, 0, Z_FINISH);
    if (!out->is_stdout) {
        if (out->tmp && !out->err_no && fchmod(out->fd, out->mode) < 0)
            fail(out, "cannot set the mode of the temporary file", errno);
        if (close(out->fd) < 0)
            fail(out, "write error", errno);
        out->fd = -1;
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
    if (!out->is_stdout && out->fd >= 0)
        close(out->fd);
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
