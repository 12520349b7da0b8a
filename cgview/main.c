/* main.c -- profhub, the command-line front end: a table of subcommands,
 * each in its own file.  Invoked as "cgview" it is "profhub summary".
 * Only cgview/ prints; library calls return errors for it to show. */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgview/cli.h"
#include "ir/jobs.h"

/* One row per subcommand, in the order "profhub --help" lists them. */
static const ph_command commands[] = {
    { "summary", ph_cmd_summary, "print totals and the costliest functions" },
    { "info", ph_cmd_info, "describe a profile: format, parts, events, counts" },
    { "convert", ph_cmd_convert, "convert a profile to another format" },
    { "diff", ph_cmd_diff, "compare two profiles; gate a CI run with --fail-if" },
    { "merge", ph_cmd_merge, "sum profiles or parts; balance statistics" },
    { "draw", ph_cmd_draw, "draw a flame graph, diff, treemap or call graph (SVG)" },
    { "report", ph_cmd_report, "write one HTML page: tables and flame graphs" },
    { "formats", ph_cmd_formats, "list the formats profhub reads and writes" },
    { "record", ph_cmd_record, "run a program under a collector and write its profile" },
    { "collectors", ph_cmd_collectors, "list the collectors with their parameters and metrics" },
    { NULL, NULL, NULL }
};

static void print_help(FILE *f)
{
    const ph_command *c;

    fprintf(f,
            "Usage: profhub COMMAND [OPTIONS] [ARGS]\n"
            "       profhub --help | --version\n"
            "       cgview [OPTIONS] FILE   (same as profhub summary)\n"
            "\n"
            "Read performance profiles (callgrind, cachegrind, gprof, pprof,\n"
            "drcctprof, ...), convert them and summarise them.\n"
            "\n"
            "Commands:\n");
    for (c = commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    fprintf(f,
            "\n"
            "'profhub COMMAND --help' describes a command's options.\n"
            "Every command that reads takes --jobs N: threads to read with\n"
            "(default: every processor; also PROFHUB_JOBS).\n"
            "Every command takes --max-memory SIZE (512M, 4G; 0 = none;\n"
            "default $PROFHUB_MAX_MEMORY, else half the physical memory).\n"
            "Exit status: 0 ok, 1 bad input or failed output, 2 usage error,\n"
            "3 a diff --fail-if rule held.\n");
}

/* N of "--jobs N": a whole number of threads from 1 up. */
static int jobs_value(const char *what, const char *v, int *n)
{
    char *end;
    long x;

    errno = 0;
    x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < 1 || x > 1024) {
        ph_cli_usage_error(NULL, "%s: expected a number of threads from 1 "
                           "to 1024, got \"%s\"", what, v);
        return -1;
    }
    *n = (int)x;
    return 0;
}

/* "--jobs N" (or "--jobs=N"), taken out of argv wherever it stands before
 * "--", else PROFHUB_JOBS: the threads a reader may use for one input
 * (default: every processor).  Every command that reads takes it. */
static int take_jobs(int *argc, char **argv)
{
    const char *env = getenv("PROFHUB_JOBS");
    int i, n = 0;

    for (i = 1; i < *argc && strcmp(argv[i], "--") != 0; i++) {
        const char *v = NULL;
        int used = 0;
        if (strcmp(argv[i], "--jobs") == 0) {
            if (i + 1 >= *argc)
                return ph_cli_usage_error(NULL, "option '--jobs' needs a "
                                          "number of threads"), -1;
            v = argv[i + 1];
            used = 2;
        } else if (strncmp(argv[i], "--jobs=", 7) == 0) {
            v = argv[i] + 7;
            used = 1;
        }
        if (!v)
            continue;
        if (jobs_value("--jobs", v, &n) < 0)
            return -1;
        memmove(argv + i, argv + i + used,
                (size_t)(*argc + 1 - i - used) * sizeof *argv);
        *argc -= used;
        i--;
    }
    if (n == 0 && env && *env && jobs_value("PROFHUB_JOBS", env, &n) < 0)
        return -1;
    ph_set_jobs(n);
    return 0;
}

/* Interrupted: remove any temporary output file, then die of the signal
 * as if it had not been caught. */
static void on_signal(int sig)
{
    ph_output_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Report a saturated sum of costs, and a failed write to stdout (full
 * disk, closed pipe). */
static int finish(int rc)
{
    if (ph_cost_overflowed())
        ph_cli_warning("a sum of costs went beyond 64 bits; it was kept at "
                       "the limit (+/-9223372036854775807), not wrapped");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        ph_cli_error("write error on standard output: %s", strerror(errno));
        return rc ? rc : PH_EXIT_BAD;
    }
    return rc;
}

/* "512M", "2G", "1048576": bytes, with an optional K/M/G/T suffix (powers
 * of 1024); 0 means no limit.  Returns 0, or -1 when s is no size. */
static int parse_size(const char *s, size_t *bytes)
{
    uint64_t v;
    size_t n = strlen(s), used = ph_parse_u64(s, n, &v);
    unsigned shift = 0;

    if (used == 0 || used == (size_t)-1)
        return -1;
    if (used < n) {
        const char *units = "KMGT", *u;
        if (used + 1 != n || !(u = strchr(units, s[used] & ~0x20)))
            return -1;
        shift = 10 * (unsigned)(u - units + 1);
    }
    if (shift && v > (SIZE_MAX >> shift))
        return -1;
    *bytes = (size_t)v << shift;
    return 0;
}

/* The memory limit: --max-memory SIZE (anywhere before "--", taken out
 * of argv so that no command sees it), else PROFHUB_MAX_MEMORY, else half
 * of the physical memory.  Returns 0, or -1 after a usage message. */
static int set_memory_limit(int *argc, char **argv)
{
    const char *arg = getenv("PROFHUB_MAX_MEMORY");
    const char *from = "PROFHUB_MAX_MEMORY";
    size_t bytes;
    int i, j;

    for (i = 1; i < *argc && strcmp(argv[i], "--") != 0; i++) {
        int take = 0;
        if (strncmp(argv[i], "--max-memory=", 13) == 0) {
            arg = argv[i] + 13;
            take = 1;
        } else if (strcmp(argv[i], "--max-memory") == 0) {
            if (i + 1 >= *argc) {
                ph_cli_usage_error(NULL, "--max-memory needs a size");
                return -1;
            }
            arg = argv[i + 1];
            take = 2;
        }
        if (!take)
            continue;
        from = "--max-memory";
        for (j = i; j + take <= *argc; j++)
            argv[j] = argv[j + take];
        *argc -= take;
        i--;
    }
    if (arg && *arg) {
        if (parse_size(arg, &bytes) < 0) {
            ph_cli_usage_error(NULL, "%s: expected a size such as 512M or "
                               "4G, got \"%s\"", from, arg);
            return -1;
        }
    } else {
        long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
        bytes = pages > 0 && psize > 0 ? (size_t)pages / 2 * (size_t)psize
                                       : 0;
    }
    ph_mem_set_limit(bytes);
    return 0;
}

int main(int argc, char **argv)
{
    const ph_command *c;
    const char *name;

    /* A file size limit must fail the write (and remove the temporary
     * file), not kill the process half-way. */
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
#if defined M_MMAP_THRESHOLD && defined M_TRIM_THRESHOLD
    /* Fixed thresholds: blocks from 256 KiB up are always mapped, and the
     * free top of the heap is given back from 1 MiB.  glibc's own rise to
     * the largest block freed and twice that, so a merge, which frees
     * each input's profile in turn, kept 2.5 MiB more than it used (the
     * peak of 1,000 small inputs was 1.5x that of 10).  A lower trim
     * threshold costs page faults on every input. */
    mallopt(M_MMAP_THRESHOLD, 256 << 10);
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
#endif

    if (take_jobs(&argc, argv) < 0 || set_memory_limit(&argc, argv) < 0)
        return PH_EXIT_USAGE;
    if (argc > 0 && strcmp(base_name(argv[0]), "cgview") == 0) {
        ph_cli_prog = "cgview";
        return finish(ph_cmd_summary(argc, argv));
    }
    if (argc < 2) {
        print_help(stderr);
        return PH_EXIT_USAGE;
    }
    name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        print_help(stdout);
        return finish(PH_EXIT_OK);
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        ph_cli_print_version(stdout);
        return finish(PH_EXIT_OK);
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            print_help(stdout);
            return finish(PH_EXIT_OK);
        }
        for (c = commands; c->name; c++) {
            if (strcmp(c->name, argv[2]) == 0) {
                char help[] = "--help";
                char *av[] = { argv[2], help, NULL };
                return finish(c->run(2, av));
            }
        }
        return ph_cli_usage_error(NULL, "unknown command \"%s\"", argv[2]);
    }
    for (c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return finish(c->run(argc - 1, argv + 1));
    if (name[0] == '-')
        return ph_cli_usage_error(NULL, "unknown option '%s'", name);
    return ph_cli_usage_error(NULL, "unknown command \"%s\"", name);
}
