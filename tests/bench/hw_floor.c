/* hw_floor.c -- what this machine allows a reader before it parses a byte
 * (`make bench` prints it under its table): the rate at which a cached
 * file is read and its lines found, through read() and through mmap (the
 * callgrind reader maps its input), and the rate at which fresh memory
 * takes its first write, in 4 KiB pages and in huge pages (the IR's
 * blocks).  Each figure is the best of a few passes, but the first write
 * to huge pages new to the process, which is what a reader pays (on a
 * virtual machine the host may back a guest's free memory only when it is
 * used again).
 *
 *   hw_floor FILE [MiB of fresh memory, default 256]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PASSES 3
#define HUGE ((size_t)2 << 20)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static size_t count_lines(const char *p, size_t n)
{
    size_t lines = 0;
    const char *end = p + n;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        lines++;
        p++;
    }
    return lines;
}

/* Seconds to read path in 1 MiB pieces and find its line ends. */
static double by_read(const char *path)
{
    static char buf[1 << 20];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    double t = now();
    ssize_t n;
    size_t lines = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        lines += count_lines(buf, (size_t)n);
    t = now() - t;
    close(fd);
    return lines ? t : -1;
}

/* Seconds to map path afresh and find its line ends. */
static double by_map(const char *path, size_t size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    double t = now();
    char *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return -1;
    madvise(m, size, MADV_SEQUENTIAL);
    size_t lines = count_lines(m, size);
    munmap(m, size);
    t = now() - t;
    return lines ? t : -1;
}

/* Seconds for the first write to every page of n fresh bytes; with
 * populate, their pages mapped by one madvise first (ph_prefault), timed
 * with the writes. */
static double first_touch(size_t n, int huge, int populate)
{
    char *m = mmap(NULL, n + HUGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    char *a = (char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
    madvise(a, n, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    double t = now();
#ifdef MADV_POPULATE_WRITE
    int refused = populate && madvise(a, n, MADV_POPULATE_WRITE) != 0;
#else
    int refused = populate;
#endif
    memset(a, 1, n);
    t = now() - t;
    munmap(m, n + HUGE);
    return refused ? -1 : t;
}

/* The best of n timings of mb megabytes. */
static void report(const char *what, double mb, const double *t, int n)
{
    double s = -1;
    for (int i = 0; i < n; i++)
        if (t[i] > 0 && (s < 0 || t[i] < s))
            s = t[i];
    if (s > 0)
        printf("%s: %.0f MB/s (%.1f MB in %.3f s)\n", what, mb / s, mb, s);
    else
        printf("%s: failed\n", what);
}

int main(int argc, char **argv)
{
    struct stat st;
    if (argc < 2 || stat(argv[1], &st) != 0 || st.st_size <= 0) {
        fprintf(stderr, "usage: hw_floor FILE [MiB]\n");
        return 2;
    }
    size_t size = (size_t)st.st_size;
    size_t fresh = (size_t)(argc > 2 ? atol(argv[2]) : 256) << 20;
    double t[PASSES];
    double mb_file = (double)size / 1e6, mb_fresh = (double)fresh / 1e6;

    /* huge pages first: the first write of a process is what a reader
     * pays; later ones reuse what the process gave back */
    for (int i = 0; i < PASSES; i++)
        t[i] = first_touch(fresh, 1, 0);
    report("first write, huge pages, new to the process", mb_fresh, t, 1);
    report("first write, huge pages, given back and taken again", mb_fresh,
           t + 1, PASSES - 1);
    for (int i = 0; i < PASSES; i++)
        t[i] = first_touch(fresh, 0, 0);
    report("first write, 4 KiB pages", mb_fresh, t, PASSES);
    for (int i = 0; i < PASSES; i++)
        t[i] = first_touch(fresh, 0, 1);
    report("first write, 4 KiB pages mapped by one madvise first", mb_fresh,
           t, PASSES);
    by_read(argv[1]);   /* into the page cache */
    for (int i = 0; i < PASSES; i++)
        t[i] = by_read(argv[1]);
    report("read() and line ends", mb_file, t, PASSES);
    for (int i = 0; i < PASSES; i++)
        t[i] = by_map(argv[1], size);
    report("mmap and line ends", mb_file, t, PASSES);
    return 0;
}
