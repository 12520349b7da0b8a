/* inject.c -- an LD_PRELOAD shim for tests (jq's idea): make the Nth call
 * of one libc function fail, to check that profhub's outputs survive I/O
 * and memory failures.  Inside the tested program; no profhub code.
 *   PH_INJECT_FN     write, fsync, rename, open (open, openat, mkostemp)
 *                    or malloc
 *   PH_INJECT_AT     N: the Nth call (1-based) fails; 0 never fails
 *   PH_INJECT_COUNT  a file that gets, at exit, how many calls were made
 * write() to stderr is neither counted nor failed, so messages show. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *fn_name;
static long fail_at, calls;
static int ready;

static void setup(void)
{
    const char *at;

    if (ready)
        return;
    ready = 1;
    fn_name = getenv("PH_INJECT_FN");
    at = getenv("PH_INJECT_AT");
    fail_at = at ? atol(at) : 0;
}

/* Whether this call of name fails (counting it). */
static int hit(const char *name, int err)
{
    setup();
    if (!fn_name || strcmp(fn_name, name) != 0)
        return 0;
    if (++calls != fail_at)
        return 0;
    errno = err;
    return 1;
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("PH_INJECT_COUNT");
    char buf[32];
    int fd, n;

    if (!path)
        return;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    n = snprintf(buf, sizeof buf, "%ld\n", calls);
    if (write(fd, buf, (size_t)n) < 0)
        n = 0;
    close(fd);
}

#define NEXT(name) \
    static __typeof__(&name) real_##name; \
    if (!real_##name) \
        real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *p, size_t n)
{
    NEXT(write);
    if (fd != 2 && hit("write", ENOSPC))
        return -1;
    return real_write(fd, p, n);
}

int fsync(int fd)
{
    NEXT(fsync);
    if (hit("fsync", EIO))
        return -1;
    return real_fsync(fd);
}

int rename(const char *from, const char *to)
{
    NEXT(rename);
    if (hit("rename", EXDEV))
        return -1;
    return real_rename(from, to);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    mode_t mode;

    NEXT(open);
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
    if (hit("open", EMFILE))
        return -1;
    return real_open(path, flags, mode);
}

int openat(int dir, const char *path, int flags, ...)
{
    va_list ap;
    mode_t mode;

    NEXT(openat);
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
    if (hit("open", EMFILE))
        return -1;
    return real_openat(dir, path, flags, mode);
}

int mkostemp(char *tmpl, int flags)
{
    NEXT(mkostemp);
    if (hit("open", EMFILE))
        return -1;
    return real_mkostemp(tmpl, flags);
}

void *malloc(size_t n)
{
    static void *(*real_malloc)(size_t);
    static int in_dlsym;

    if (!real_malloc) {
        if (in_dlsym)
            return NULL;   /* dlsym's own allocation: glibc copes */
        in_dlsym = 1;
        real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
        in_dlsym = 0;
    }
    if (hit("malloc", ENOMEM))
        return NULL;
    return real_malloc(n);
}
