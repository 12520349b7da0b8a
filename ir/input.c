/* input.c -- ph_input: the bytes of one profile, all at once.  Regular files
 * are mapped, gzip (from a file, stdin or memory) is inflated in chunks into
 * one heap buffer, and pipes are read to the end.  On top sit a line reader
 * that hands out views without copying, a bounds-checked binary cursor, and
 * the record of the first error and of warnings per kind. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "io.h"
#include "ir/gz_members.h"
#include "ir/ir_priv.h"
#include "ir/jobs.h"

/* Readers get a progress call from the line reader every this many bytes. */
#define PROGRESS_STEP ((size_t)16 << 20)

typedef struct warning {
    const char *kind;   /* static key given by the reader */
    char *msg;          /* first message of the kind, with its prefix */
    uint64_t times;
} warning;

struct ph_input {
    char *name;                 /* display name */
    char *path;                 /* NULL for memory and stdin */
    char *exe;
    int raw_addresses;      /* names by address are welcome */
    const unsigned char *data;
    size_t size;
    size_t pos;                 /* line reader and binary cursor */
    uint64_t lineno;
    int was_gzip;
    void *map;                  /* mmap'ed file, or NULL */
    size_t maplen;
    int fd;                     /* the mapped file, open; or -1 */
    unsigned char *owned;       /* heap copy (gzip, pipes), or NULL */
    ph_progress_fn progress;
    void *progress_ctx;
    size_t next_progress;
    size_t dropped;             /* bytes given back (progress, release) */
    char *error;                /* first error, NULL if none */
    char *full;                 /* error + "\n" + note, built on demand */
    char *note;
    warning *warns;
    size_t nwarns, capwarns;
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = ph_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

static char *format_message(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

static char *format_message(const char *fmt, va_list ap)
{
    va_list aq;
    int n;
    char *s;

    va_copy(aq, ap);
    n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        n = 0;
    s = ph_xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static char *concat_message(const char *prefix, const char *msg)
{
    size_t a = strlen(prefix), b = strlen(msg);
    char *s = ph_xmalloc(a + b + 1);
    memcpy(s, prefix, a);
    memcpy(s + a, msg, b + 1);
    return s;
}

static ph_input *new_input(const char *name, const char *path)
{
    ph_mem_set_context(name);   /* an out-of-memory message names it */
    ph_input *in = ph_xcalloc(1, sizeof *in);
    in->name = dup_string(name);
    in->path = path ? dup_string(path) : NULL;
    in->next_progress = PROGRESS_STEP;
    in->fd = -1;
    return in;
}

/* ------------------------------------------------------------------ */
/* Gzip                                                                */

static int is_gzip(const unsigned char *d, size_t len)
{
    return len >= 2 && d[0] == 0x1f && d[1] == 0x8b;
}

/* Inflate every gzip member of src into a fresh heap buffer.  The output
 * grows by doubling; only the address space bounds it (a gzip bomb fails
 * with a message, not a crash).  Returns 0, or -1 with err and *bad_off
 * (offset in src where it went wrong). */
static int inflate_all(const unsigned char *src, size_t len,
                       unsigned char **out, size_t *outlen, size_t *bad_off,
                       char *err, size_t errsize)
{
    z_stream zs;
    size_t cap, used = 0, consumed = 0;
    unsigned char *buf = NULL;
    int rc = Z_OK;

    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 16) != Z_OK) {
        snprintf(err, errsize, "cannot start gzip decoder");
        *bad_off = 0;
        return -1;
    }
    cap = len < ((size_t)1 << 28) ? len * 4 : len;
    if (cap < 65536)
        cap = 65536;
    if (!ph_mem_allows(cap))
        goto toobig;
    buf = malloc(cap);
    if (!buf)
        goto nomem;
    for (;;) {
        size_t in_chunk, out_chunk;

        if (used == cap) {
            size_t ncap = cap * 2;
            unsigned char *nbuf;
            if (ncap < cap)
                goto nomem;
            if (!ph_mem_allows(ncap - cap))
                goto toobig;
            nbuf = realloc(buf, ncap);
            if (!nbuf)
                goto nomem;
            buf = nbuf;
            cap = ncap;
        }
        in_chunk = len - consumed;
        if (in_chunk > (1u << 30))
            in_chunk = 1u << 30;
        out_chunk = cap - used;
        if (out_chunk > (1u << 30))
            out_chunk = 1u << 30;
        zs.next_in = (unsigned char *)(uintptr_t)(src + consumed);
        zs.avail_in = (uInt)in_chunk;
        zs.next_out = buf + used;
        zs.avail_out = (uInt)out_chunk;
        rc = inflate(&zs, Z_NO_FLUSH);
        consumed += in_chunk - zs.avail_in;
        used += out_chunk - zs.avail_out;
        if (rc == Z_STREAM_END) {
            /* Another member may follow (cat a.gz b.gz); anything else
             * after the end is ignored, as gzip -d does. */
            if (is_gzip(src + consumed, len - consumed)) {
                inflateReset(&zs);
                continue;
            }
            break;
        }
        if (rc == Z_OK)
            continue;
        if (rc == Z_BUF_ERROR && zs.avail_out == 0)
            continue;   /* output full: grow and go on */
        if (rc == Z_BUF_ERROR && consumed == len) {
            snprintf(err, errsize,
                     "truncated gzip data (ends after %zu compressed bytes)",
                     len);
            *bad_off = len;
        } else if (rc == Z_MEM_ERROR) {
            goto nomem;
        } else {
            snprintf(err, errsize, "corrupt gzip data: %s",
                     zs.msg ? zs.msg : "bad stream");
            *bad_off = consumed;
        }
        inflateEnd(&zs);
        free(buf);
        return -1;
    }
    inflateEnd(&zs);
    if (used < cap) {   /* give back the unused tail of the last doubling */
        unsigned char *shrunk = realloc(buf, used ? used : 1);
        if (shrunk)
            buf = shrunk;
    }
    *out = buf;
    *outlen = used;
    return 0;

toobig:
    inflateEnd(&zs);
    free(buf);
    snprintf(err, errsize, "gzip data expands beyond the memory limit of "
             "%zu MiB (%zu bytes so far; raise it with --max-memory or "
             "PROFHUB_MAX_MEMORY)", ph_mem_limit() >> 20, used);
    *bad_off = consumed;
    return -1;

nomem:
    inflateEnd(&zs);
    free(buf);
    snprintf(err, errsize,
             "gzip data expands beyond available memory (%zu bytes so far)",
             used);
    *bad_off = consumed;
    return -1;
}

/* Members of profhub's gzip (gz_members.h), found by their sizes. */
typedef struct member {
    size_t at, size;      /* in the compressed bytes */
    size_t out;           /* where its bytes go in the inflated ones */
} member;

/* Inflating members [first, first + n) of m into out: one thread's half. */
typedef struct member_run {
    const unsigned char *src;
    const member *m;
    size_t first, n;
    unsigned char *out;
    int ok;
} member_run;

static void inflate_run(void *arg)
{
    member_run *r = arg;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    r->ok = d != NULL;
    for (size_t i = r->first; r->ok && i < r->first + r->n; i++) {
        const member *m = &r->m[i];
        size_t want = m[1].out - m->out, in_used, out_used;
        ph_prefault(r->out + m->out, want);
        r->ok = libdeflate_gzip_decompress_ex(d, r->src + m->at, m->size,
                                              r->out + m->out, want,
                                              &in_used, &out_used) ==
                    LIBDEFLATE_SUCCESS &&
                in_used == m->size && out_used == want;
    }
    libdeflate_free_decompressor(d);
}

/* When src is made of profhub's members only (anything after them not
 * gzip, as gzip -d ignores it), every member inflated into place, two
 * halves side by side: 0 with *out and *outlen; else, or when one does not
 * inflate to the size its trailer says, -1 (inflate_whole then reads the
 * members one after the other, and says what is wrong). */
static int inflate_members(const unsigned char *src, size_t len,
                           unsigned char **out, size_t *outlen)
{
    member *m = NULL;
    size_t n = 0, cap = 0, pos = 0, total = 0, size;
    while (pos < len && is_gzip(src + pos, len - pos)) {
        size = ph_gz_member_size(src + pos, len - pos);
        if (!size) {
            free(m);
            return -1;
        }
        if (n + 1 >= cap) {
            cap = cap ? 2 * cap : 256;
            m = ph_xrealloc(m, cap * sizeof *m);
        }
        m[n++] = (member){pos, size, total};
        total += ph_gz_member_inflated(src + pos, size);
        pos += size;
    }
    if (n < 2 || total == 0 || !ph_mem_allows(total)) {
        free(m);
        return -1;
    }
    m[n].out = total;                     /* the end of the last */
    unsigned char *buf = malloc(total);
    member_run a = {src, m, 0, n / 2, buf, 0};
    member_run b = {src, m, n / 2, n - n / 2, buf, 0};
    if (buf)
        ph_run_pair(inflate_run, &b, &a);
    free(m);
    if (!buf || !a.ok || !b.ok) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outlen = total;
    return 0;
}

/* Every gzip member inflated by libdeflate, one call a member (twice
 * zlib's speed or more on data in memory).  The buffer starts at the size
 * the last trailer says, exact for one member, and doubles when a member
 * does not fit (several members: profhub writes them a MiB each), that
 * member inflated again.  Returns 0 with *out and *outlen, or -1 for
 * everything else (over the memory limit, not decoding, empty): then
 * inflate_all takes the input, and says what is wrong with it. */
static int inflate_whole(const unsigned char *src, size_t len,
                         unsigned char **out, size_t *outlen)
{
    struct libdeflate_decompressor *d;
    size_t cap, used = 0, pos = 0, in_used, out_used;
    unsigned char *buf;
    enum libdeflate_result rc = LIBDEFLATE_BAD_DATA;

    if (len < 18)
        return -1;
    cap = (size_t)src[len - 4] | (size_t)src[len - 3] << 8 |
          (size_t)src[len - 2] << 16 | (size_t)src[len - 1] << 24;
    if (cap == 0)
        return -1;
    if (!ph_mem_allows(cap) || !(buf = malloc(cap)))
        return -1;
    ph_prefault(buf, cap);
    d = libdeflate_alloc_decompressor();
    while (d) {
        rc = libdeflate_gzip_decompress_ex(d, src + pos, len - pos,
                                           buf + used, cap - used, &in_used,
                                           &out_used);
        if (rc == LIBDEFLATE_INSUFFICIENT_SPACE) {
            unsigned char *more;
            if (cap > SIZE_MAX / 2 || !ph_mem_allows(cap) ||
                !(more = realloc(buf, 2 * cap)))
                break;
            buf = more;
            cap *= 2;
            continue;
        }
        if (rc != LIBDEFLATE_SUCCESS)
            break;
        used += out_used;
        pos += in_used;
        /* anything but another member after the end is ignored, as
         * gzip -d does (inflate_all's rule) */
        if (!is_gzip(src + pos, len - pos))
            break;
    }
    libdeflate_free_decompressor(d);
    if (rc != LIBDEFLATE_SUCCESS || used == 0) {
        free(buf);
        return -1;
    }
    if (used < cap) {   /* give back the room not used */
        unsigned char *shrunk = realloc(buf, used);
        if (shrunk)
            buf = shrunk;
    }
    *out = buf;
    *outlen = used;
    return 0;
}

/* Replace the raw bytes of in by their inflated form when they are gzip.
 * Returns 0, or -1 with err and *bad_off. */
static int unwrap(ph_input *in, size_t *bad_off, char *err, size_t errsize)
{
    unsigned char *out;
    size_t outlen;

    if (!is_gzip(in->data, in->size))
        return 0;
    if (inflate_members(in->data, in->size, &out, &outlen) < 0 &&
        inflate_whole(in->data, in->size, &out, &outlen) < 0 &&
        inflate_all(in->data, in->size, &out, &outlen, bad_off, err,
                    errsize) < 0)
        return -1;
    if (in->map) {
        munmap(in->map, in->maplen);
        in->map = NULL;
    }
    free(in->owned);
    in->owned = out;
    in->data = out;
    in->size = outlen;
    in->was_gzip = 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Opening                                                             */

/* Read a descriptor to its end (pipes, terminals, /proc files). */
static int slurp(ph_input *in, int fd, char *err, size_t errsize)
{
    size_t cap = 65536, used = 0;
    unsigned char *buf = ph_xmalloc(cap);

    for (;;) {
        ssize_t n;
        if (used == cap) {
            if (cap * 2 < cap) {
                free(buf);
                snprintf(err, errsize, "input too large");
                return -1;
            }
            cap *= 2;
            buf = ph_xrealloc(buf, cap);
        }
        n = read(fd, buf + used, cap - used);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errsize, "%s", strerror(errno));
            free(buf);
            return -1;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    in->owned = buf;
    in->data = buf;
    in->size = used;
    return 0;
}

static int map_file(ph_input *in, int fd, const struct stat *st, char *err,
                    size_t errsize)
{
    void *m;

    if (st->st_size == 0) {
        in->data = (const unsigned char *)"";
        in->size = 0;
        return 0;
    }
    if ((uintmax_t)st->st_size > SIZE_MAX) {
        snprintf(err, errsize, "file too large for the address space");
        return -1;
    }
    m = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED)
        return slurp(in, fd, err, errsize);   /* some filesystems refuse */
    madvise(m, (size_t)st->st_size, MADV_SEQUENTIAL);
    in->map = m;
    in->fd = fd;
    in->maplen = (size_t)st->st_size;
    in->data = m;
    in->size = (size_t)st->st_size;
    return 0;
}

ph_input *ph_input_open(const char *path, char *err, size_t errsize)
{
    ph_input *in;
    struct stat st;
    size_t bad_off = 0;
    int fd, rc;

    if (strcmp(path, "-") == 0) {
        in = new_input("<stdin>", NULL);
        rc = slurp(in, STDIN_FILENO, err, errsize);
    } else {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            snprintf(err, errsize, "%s", strerror(errno));
            return NULL;
        }
        if (fstat(fd, &st) < 0) {
            snprintf(err, errsize, "%s", strerror(errno));
            close(fd);
            return NULL;
        }
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errsize, "is a directory");
            close(fd);
            return NULL;
        }
        in = new_input(path, path);
        if (S_ISREG(st.st_mode))
            rc = map_file(in, fd, &st, err, errsize);
        else
            rc = slurp(in, fd, err, errsize);
        if (in->fd != fd)
            close(fd);
    }
    if (rc == 0)
        rc = unwrap(in, &bad_off, err, errsize);
    if (rc < 0) {
        ph_input_close(in);
        return NULL;
    }
    return in;
}

ph_input *ph_input_memory(const void *data, size_t len, const char *name)
{
    ph_input *in = new_input(name ? name : "<memory>", NULL);
    size_t bad_off = 0;
    char err[256];

    in->data = len ? data : (const unsigned char *)"";
    in->size = len;
    if (unwrap(in, &bad_off, err, sizeof err) < 0) {
        ph_input_error_off(in, bad_off, "%s", err);
        in->data = (const unsigned char *)"";
        in->size = 0;
    }
    return in;
}

void ph_input_close(ph_input *in)
{
    size_t i;

    if (!in)
        return;
    if (in->map)
        munmap(in->map, in->maplen);
    if (in->fd >= 0)
        close(in->fd);
    free(in->owned);
    for (i = 0; i < in->nwarns; i++)
        free(in->warns[i].msg);
    free(in->warns);
    free(in->error);
    free(in->note);
    free(in->full);
    free(in->exe);
    free(in->path);
    free(in->name);
    free(in);
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */

const char *ph_input_name(const ph_input *in) { return in->name; }
const char *ph_input_path(const ph_input *in) { return in->path; }
const unsigned char *ph_input_data(const ph_input *in) { return in->data; }
size_t ph_input_size(const ph_input *in) { return in->size; }
int ph_input_was_gzip(const ph_input *in) { return in->was_gzip; }

int ph_input_fd(const ph_input *in)
{
    return in->map && in->data == (const unsigned char *)in->map ? in->fd
                                                                 : -1;
}

void ph_input_set_exe(ph_input *in, const char *path)
{
    free(in->exe);
    in->exe = path ? dup_string(path) : NULL;
}

const char *ph_input_exe(const ph_input *in) { return in->exe; }

void ph_input_set_raw_addresses(ph_input *in, int on)
{
    in->raw_addresses = on != 0;
}

int ph_input_raw_addresses(const ph_input *in) { return in->raw_addresses; }

void ph_input_set_progress(ph_input *in, ph_progress_fn fn, void *ctx)
{
    in->progress = fn;
    in->progress_ctx = ctx;
}

/* Pages of a mapped file this far behind the reader are given back. */
#define DROP_BEHIND ((size_t)256 << 10)

void ph_input_progress(ph_input *in, size_t done)
{
    /* The reader has passed these pages: drop them from memory so that a
     * big file does not count twice (mapping + profile) in the peak.  A
     * private, never written file mapping reads them again from the file
     * if anything touches them later (an error message, a name). */
    if (in->map && done > in->dropped + 2 * DROP_BEHIND &&
        done <= in->maplen) {
        size_t upto = (done - DROP_BEHIND) & ~(ph_page_size() - 1);
        if (upto > in->dropped &&
            ph_drop_pages((char *)in->map + in->dropped,
                          (char *)in->map + upto) == 0)
            in->dropped = upto;
    }
    if (in->progress)
        in->progress(in->progress_ctx, done, in->size);
}

/* Released bytes are given back in steps of this much at least. */
#define RELEASE_STEP ((size_t)2 << 20)

void ph_input_release(ph_input *in, size_t off)
{
    if (!in->owned || off > in->size || off < in->dropped + RELEASE_STEP)
        return;
    (void)ph_drop_pages((char *)in->owned + in->dropped,
                        (char *)in->owned + off);
    in->dropped = off;
}

/* ------------------------------------------------------------------ */
/* Line reader                                                         */

int ph_input_getline(ph_input *in, ph_line *line)
{
    const char *s, *nl;
    size_t left, len, adv;

    if (in->pos >= in->size)
        return 0;
    s = (const char *)in->data + in->pos;
    left = in->size - in->pos;
    nl = memchr(s, '\n', left);
    if (nl) {
        len = (size_t)(nl - s);
        adv = len + 1;
    } else {
        len = left;
        adv = left;
    }
    if (len > 0 && s[len - 1] == '\r')
        len--;
    in->pos += adv;
    in->lineno++;
    line->s = s;
    line->len = len;
    line->lineno = in->lineno;
    if (in->pos >= in->next_progress) {
        in->next_progress = in->pos + PROGRESS_STEP;
        ph_input_progress(in, in->pos);
    }
    return 1;
}

uint64_t ph_input_lineno(const ph_input *in) { return in->lineno; }

void ph_input_resume_lines(ph_input *in, size_t off, uint64_t lineno)
{
    in->pos = off < in->size ? off : in->size;
    in->lineno = lineno;
}

/* ------------------------------------------------------------------ */
/* Binary cursor                                                       */

size_t ph_input_offset(const ph_input *in) { return in->pos; }

int ph_input_seek(ph_input *in, size_t off)
{
    if (off > in->size)
        return ph_input_error_off(in, off,
                                  "offset beyond the end of data (size %zu)",
                                  in->size);
    in->pos = off;
    return 0;
}

size_t ph_input_left(const ph_input *in) { return in->size - in->pos; }

int ph_input_get_bytes(ph_input *in, size_t n, const unsigned char **p)
{
    *p = NULL;
    if (n > in->size - in->pos)
        return ph_input_error_off(in, in->pos,
                                  "unexpected end of data (need %zu bytes, "
                                  "%zu left)", n, in->size - in->pos);
    *p = in->data + in->pos;
    in->pos += n;
    return 0;
}

int ph_input_get_u8(ph_input *in, uint8_t *v)
{
    const unsigned char *p;
    *v = 0;
    if (ph_input_get_bytes(in, 1, &p) < 0)
        return -1;
    *v = p[0];
    return 0;
}

static uint64_t load_le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    while (n--)
        v = (v << 8) | p[n];
    return v;
}

int ph_input_get_u16le(ph_input *in, uint16_t *v)
{
    const unsigned char *p;
    *v = 0;
    if (ph_input_get_bytes(in, 2, &p) < 0)
        return -1;
    *v = (uint16_t)load_le(p, 2);
    return 0;
}

int ph_input_get_u32le(ph_input *in, uint32_t *v)
{
    const unsigned char *p;
    *v = 0;
    if (ph_input_get_bytes(in, 4, &p) < 0)
        return -1;
    *v = (uint32_t)load_le(p, 4);
    return 0;
}

int ph_input_get_u64le(ph_input *in, uint64_t *v)
{
    const unsigned char *p;
    *v = 0;
    if (ph_input_get_bytes(in, 8, &p) < 0)
        return -1;
    *v = load_le(p, 8);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Errors and warnings                                                 */

static void set_error(ph_input *in, char *prefix, char *msg)
{
    in->error = concat_message(prefix, msg);
    free(msg);
}

int ph_input_error_at(ph_input *in, uint64_t line, uint64_t col,
                      const char *fmt, ...)
{
    char prefix[64];
    va_list ap;
    char *msg, *pre;

    if (in->error)
        return -1;
    va_start(ap, fmt);
    msg = format_message(fmt, ap);
    va_end(ap);
    if (line && col)
        snprintf(prefix, sizeof prefix, ":%" PRIu64 ":%" PRIu64 ": ", line,
                 col);
    else if (line)
        snprintf(prefix, sizeof prefix, ":%" PRIu64 ": ", line);
    else
        snprintf(prefix, sizeof prefix, ": ");
    pre = concat_message(in->name, prefix);
    set_error(in, pre, msg);
    free(pre);
    return -1;
}

int ph_input_error_off(ph_input *in, uint64_t off, const char *fmt, ...)
{
    char prefix[64];
    va_list ap;
    char *msg, *pre;

    if (in->error)
        return -1;
    va_start(ap, fmt);
    msg = format_message(fmt, ap);
    va_end(ap);
    snprintf(prefix, sizeof prefix, ": offset 0x%" PRIx64 ": ", off);
    pre = concat_message(in->name, prefix);
    set_error(in, pre, msg);
    free(pre);
    return -1;
}

void ph_input_note_at(ph_input *in, uint64_t line, uint64_t col,
                      const char *fmt, ...)
{
    char prefix[80];
    va_list ap;
    char *msg, *pre;

    if (in->note)
        return;
    va_start(ap, fmt);
    msg = format_message(fmt, ap);
    va_end(ap);
    if (line && col)
        snprintf(prefix, sizeof prefix, ":%" PRIu64 ":%" PRIu64 ": note: ",
                 line, col);
    else if (line)
        snprintf(prefix, sizeof prefix, ":%" PRIu64 ": note: ", line);
    else
        snprintf(prefix, sizeof prefix, ": note: ");
    pre = concat_message(in->name, prefix);
    in->note = concat_message(pre, msg);
    free(pre);
    free(msg);
}

const char *ph_input_error(const ph_input *in)
{
    ph_input *w = (ph_input *)(uintptr_t)in;   /* cache the joined text */
    size_t a, b;

    if (!in->error)
        return NULL;
    if (!in->note)
        return in->error;
    if (!in->full) {
        a = strlen(in->error);
        b = strlen(in->note);
        w->full = ph_xmalloc(a + b + 2);
        memcpy(w->full, in->error, a);
        w->full[a] = '\n';
        memcpy(w->full + a + 1, in->note, b + 1);
    }
    return in->full;
}

void ph_input_warn(ph_input *in, const char *kind, uint64_t line,
                   const char *fmt, ...)
{
    char prefix[64];
    va_list ap;
    char *msg, *pre;
    size_t i;

    for (i = 0; i < in->nwarns; i++) {
        if (in->warns[i].kind == kind || strcmp(in->warns[i].kind, kind) == 0) {
            in->warns[i].times++;
            return;
        }
    }
    if (in->nwarns == in->capwarns) {
        in->capwarns = in->capwarns ? in->capwarns * 2 : 8;
        in->warns = ph_xrealloc(in->warns, in->capwarns * sizeof *in->warns);
    }
    va_start(ap, fmt);
    msg = format_message(fmt, ap);
    va_end(ap);
    if (line)
        snprintf(prefix, sizeof prefix, ":%" PRIu64 ": ", line);
    else
        snprintf(prefix, sizeof prefix, ": ");
    pre = concat_message(in->name, prefix);
    in->warns[in->nwarns].kind = kind;
    in->warns[in->nwarns].msg = concat_message(pre, msg);
    in->warns[in->nwarns].times = 1;
    in->nwarns++;
    free(pre);
    free(msg);
}

size_t ph_input_warning_count(const ph_input *in) { return in->nwarns; }

const char *ph_input_warning(const ph_input *in, size_t i, uint64_t *times)
{
    if (i >= in->nwarns)
        return NULL;
    if (times)
        *times = in->warns[i].times;
    return in->warns[i].msg;
}
