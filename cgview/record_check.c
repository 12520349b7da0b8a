/* record_check.c -- what "profhub record" checks around the run so that
 * it never hands back an empty or partial profile without a word: before,
 * that the program exists and is not statically linked (the runtime is
 * preloaded, and a static binary never loads it); after, what the
 * experiment holds: no process image at all (the runtime never ran: an
 * error, no file), an image that wrote no END chunk (killed by SIGKILL or
 * similar: its last samples are missing), images without a sample (ran
 * less CPU time than one interval), threads without a sampling timer.
 * The experiment is walked chunk by chunk (runtime/FORMAT.md); only PROC
 * and END payloads are read. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgview/cli.h"
#include "cgview/record_check.h"
#include "runtime/expfmt.h"

/* ------------------------------------------------------------------ */
/* Before the run                                                      */

static int runnable(const char *path)
{
    struct stat st;

    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
        return -1;
    }
    return 0;
}

int ph_record_resolve(const char *prog, char *path, size_t size)
{
    const char *p, *env;
    int saved = ENOENT;

    if (!*prog) {
        errno = ENOENT;
        return -1;
    }
    if (strchr(prog, '/')) {
        snprintf(path, size, "%s", prog);
        return runnable(path);
    }
    env = getenv("PATH");
    p = env && *env ? env : "/usr/local/bin:/usr/bin:/bin";
    while (p) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);

        /* an empty entry is the current folder, as for execvp */
        snprintf(path, size, "%.*s%s%s", (int)n, p, n ? "/" : "", prog);
        if (runnable(path) == 0)
            return 0;
        if (errno != ENOENT && errno != ENOTDIR)
            saved = errno;
        p = colon ? colon + 1 : NULL;
    }
    errno = saved;
    return -1;
}

int ph_record_is_static(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), dynamic = 0, rc = 0;
    Elf *e;
    GElf_Ehdr eh;
    size_t n;

    if (fd < 0)
        return 0;
    elf_version(EV_CURRENT);
    e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh) &&
        (eh.e_type == ET_EXEC || eh.e_type == ET_DYN) &&
        elf_getphdrnum(e, &n) == 0) {
        for (size_t i = 0; i < n; i++) {
            GElf_Phdr ph;

            if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_INTERP)
                dynamic = 1;
        }
        /* a shared library (no entry) is not a program to judge */
        rc = !dynamic && eh.e_entry != 0;
    }
    if (e)
        elf_end(e);
    close(fd);
    return rc;
}

/* ------------------------------------------------------------------ */
/* After the run                                                       */

typedef struct image {
    uint64_t instance;
    uint32_t pid;
    char exe[64];
    int ended;
    uint32_t last_reason;   /* of the last END */
    int exec_lost;          /* exec'ed an image that did not record */
    uint64_t samples;
    uint32_t no_timer;
    size_t blobs;
} image;

typedef struct review {
    image *im;
    size_t n;
} review;

static image *find_image(review *r, uint64_t instance)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->im[i].instance == instance)
            return &r->im[i];
    return NULL;
}

static void add_proc(review *r, const unsigned char *c, size_t len)
{
    image *im;
    size_t pos = PH_PROC_FIXED;
    uint32_t sl;

    if (len < PH_PROC_FIXED + 8)
        return;
    r->im = ph_xrealloc(r->im, (r->n + 1) * sizeof *r->im);
    im = &r->im[r->n++];
    memset(im, 0, sizeof *im);
    im->instance = ph_get64(c);
    im->pid = ph_get32(c + 8);
    sl = ph_get32(c + pos);                 /* collector name */
    if (sl > len - pos - 4)
        return;
    pos += 4 + sl;
    if (len - pos < 4)
        return;
    sl = ph_get32(c + pos);                 /* executable path */
    if (sl > len - pos - 4)
        return;
    {
        const unsigned char *s = c + pos + 4;
        const unsigned char *slash = NULL;

        for (uint32_t i = 0; i < sl; i++)
            if (s[i] == '/')
                slash = s + i;
        if (slash) {
            sl -= (uint32_t)(slash + 1 - s);
            s = slash + 1;
        }
        if (sl >= sizeof im->exe)
            sl = sizeof im->exe - 1;
        memcpy(im->exe, s, sl);
        for (uint32_t i = 0; i < sl; i++)   /* the name goes to a terminal */
            if (im->exe[i] < 0x20 || im->exe[i] == 0x7f)
                im->exe[i] = '?';
    }
}

static void add_end(review *r, const unsigned char *c, size_t len)
{
    image *im;

    if (len < PH_END_FIXED || !(im = find_image(r, ph_get64(c))))
        return;
    im->ended = 1;
    im->last_reason = ph_get32(c + 12);
    im->no_timer += ph_get32(c + 20);
    im->samples += ph_get64(c + 32);
}

static void add_blob(review *r, const unsigned char *c, size_t len)
{
    image *im;

    if (len >= 8 && (im = find_image(r, ph_get64(c))))
        im->blobs++;
}

/* Walk the chunks; -1 when the file cannot be read at all. */
static int walk(const char *exp, review *r)
{
    FILE *f = fopen(exp, "rb");
    /* room for the file header first, then each chunk header */
    unsigned char h[PH_EXP_HEADER_FIXED > PH_CHUNK_HEADER
                    ? PH_EXP_HEADER_FIXED : PH_CHUNK_HEADER], *buf = NULL;
    uint32_t hl;

    if (!f)
        return -1;
    if (fread(h, 1, PH_EXP_HEADER_FIXED, f) != PH_EXP_HEADER_FIXED ||
        memcmp(h, PH_EXP_MAGIC, PH_EXP_MAGIC_LEN) != 0) {
        fclose(f);
        return -1;
    }
    hl = ph_get32(h + 12);
    if (fseek(f, (long)hl, SEEK_SET) != 0) {
        fclose(f);
        return -1;
    }
    buf = ph_xmalloc(PH_CHUNK_MAX);
    while (fread(h, 1, PH_CHUNK_HEADER, f) == PH_CHUNK_HEADER) {
        uint32_t type = ph_get32(h), len = ph_get32(h + 4);
        size_t want;

        if (len > PH_CHUNK_MAX)
            break;
        /* BLOBs: the fixed part only (the instance) */
        want = type == PH_CHUNK_BLOB && len > 8 ? 8 : len;
        if (fread(buf, 1, want, f) != want)
            break;
        if (want < len && fseek(f, (long)(len - want), SEEK_CUR) != 0)
            break;
        if (type == PH_CHUNK_PROC)
            add_proc(r, buf, len);
        else if (type == PH_CHUNK_END)
            add_end(r, buf, len);
        else if (type == PH_CHUNK_BLOB)
            add_blob(r, buf, want);
    }
    free(buf);
    fclose(f);
    return 0;
}

/* "name pid P, name pid Q, ..." of the images where pick holds. */
static void list_images(const review *r, int (*pick)(const image *),
                        char *out, size_t size, size_t *count)
{
    size_t len = 0, shown = 0;

    out[0] = '\0';
    *count = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (!pick(&r->im[i]))
            continue;
        (*count)++;
        if (shown < 5 && len < size)
            len += (size_t)snprintf(out + len, size - len, "%s%s pid %u",
                                    shown ? ", " : "", r->im[i].exe,
                                    r->im[i].pid);
        else if (shown == 5 && len < size)
            len += (size_t)snprintf(out + len, size - len, ", ...");
        shown++;
    }
}

static int no_end(const image *im) { return !im->ended; }
static int exec_lost(const image *im) { return im->exec_lost; }
/* an image that exec'ed goes on as the next one: not counted alone */
static int no_samples(const image *im)
{
    return im->ended && !im->samples && im->last_reason != PH_END_EXEC;
}
static int no_timer(const image *im) { return im->no_timer > 0; }

int ph_record_review(const char *exp, const char *prog,
                     const char *interval)
{
    review r = { NULL, 0 };
    char list[512];
    size_t n;
    uint64_t total = 0;
    int any_blob = 0;

    if (walk(exp, &r) != 0) {
        ph_cli_error("record: %s: the experiment cannot be read", exp);
        return -1;
    }
    if (r.n == 0) {
        ph_cli_error("record: %s never loaded the profhub runtime (a "
                     "static or setuid program, or one that clears "
                     "LD_PRELOAD?): nothing was recorded, no profile "
                     "written", prog);
        return -1;
    }
    for (size_t i = 0; i < r.n; i++) {
        total += r.im[i].samples;
        any_blob |= r.im[i].blobs > 0;
        /* an exec that worked is followed by the new image's PROC */
        if (r.im[i].ended && r.im[i].last_reason == PH_END_EXEC) {
            r.im[i].exec_lost = 1;
            for (size_t j = i + 1; j < r.n; j++)
                if (r.im[j].pid == r.im[i].pid)
                    r.im[i].exec_lost = 0;
        }
    }
    list_images(&r, exec_lost, list, sizeof list, &n);
    if (n)
        ph_cli_warning("record: %zu process%s (%s) exec'ed a program that "
                       "never loaded the profhub runtime (static or "
                       "setuid?): what %s ran is not in the profile", n,
                       n > 1 ? "es" : "", list, n > 1 ? "they" : "it");
    list_images(&r, no_end, list, sizeof list, &n);
    if (n)
        ph_cli_warning("record: %zu process%s (%s) ended without writing "
                       "%s last samples (no END record: killed by SIGKILL?): "
                       "%s profile is incomplete", n, n > 1 ? "es" : "",
                       list, n > 1 ? "their" : "its",
                       n > 1 ? "their" : "its");
    list_images(&r, no_samples, list, sizeof list, &n);
    if (n)
        ph_cli_warning("record: %zu process%s recorded no sample (%s): "
                       "%s less than one sampling interval (%s)", n,
                       n > 1 ? "es" : "", list, n > 1 ? "each ran" : "it ran",
                       interval);
    list_images(&r, no_timer, list, sizeof list, &n);
    if (n)
        ph_cli_warning("record: in %zu process%s (%s) some threads got no "
                       "sampling timer (timer_create failed): their CPU "
                       "time is missing", n, n > 1 ? "es" : "", list);
    if (total == 0 && !any_blob)
        ph_cli_warning("record: the profile of %s has no samples", prog);
    free(r.im);
    return 0;
}
