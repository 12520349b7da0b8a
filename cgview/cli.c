/* cli.c -- the helpers every profhub subcommand shares (see cli.h):
 * messages, option parsing, loading with a progress line on a terminal,
 * warnings once per kind, and number/JSON/CSV printers. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgview/cli.h"
#include "ir/jobs.h"

const char *ph_cli_prog = "profhub";

/* ------------------------------------------------------------------ */
/* Messages                                                            */

void ph_cli_error(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    fprintf(stderr, "%s: ", ph_cli_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void ph_cli_file_error(const char *path, const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    fputs(path, stderr);
    if (fmt[0] != ':')
        fputs(": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void ph_cli_warning(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    fprintf(stderr, "%s: warning: ", ph_cli_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int ph_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    int cgview = strcmp(ph_cli_prog, "cgview") == 0;
    va_list ap;

    fflush(stdout);
    if (cgview || !cmd)
        fprintf(stderr, "%s: ", ph_cli_prog);
    else
        fprintf(stderr, "%s %s: ", ph_cli_prog, cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (cgview || !cmd)
        fprintf(stderr, "Try '%s --help' for more information.\n",
                ph_cli_prog);
    else
        fprintf(stderr, "Try '%s %s --help' for more information.\n",
                ph_cli_prog, cmd);
    return PH_EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

void ph_cli_opt_begin(void)
{
    optind = 0;   /* glibc: full re-initialisation */
    opterr = 0;
}

int ph_cli_bad_option(const char *cmd, char **argv, int c)
{
    const char *arg = argv[optind - 1];

    if (c == ':') {
        if (optopt && strncmp(arg, "--", 2) != 0)
            return ph_cli_usage_error(cmd, "option '-%c' needs a value",
                                      optopt);
        return ph_cli_usage_error(cmd, "option '%s' needs a value", arg);
    }
    if (optopt && strncmp(arg, "--", 2) != 0)
        return ph_cli_usage_error(cmd, "unknown option '-%c'", optopt);
    return ph_cli_usage_error(cmd, "unknown option '%s'", arg);
}

int ph_cli_report_format(const char *cmd, const char *arg, unsigned allowed,
                         ph_report_format *out)
{
    static const struct {
        const char *name;
        ph_report_format f;
    } names[] = {
        { "text", PH_REPORT_TEXT },
        { "csv", PH_REPORT_CSV },
        { "json", PH_REPORT_JSON },
        { "yaml", PH_REPORT_YAML },
    };
    char list[64] = "";
    size_t i;

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(allowed & names[i].f))
            continue;
        if (strcmp(arg, names[i].name) == 0) {
            *out = names[i].f;
            return 0;
        }
        if (list[0])
            strcat(list, ", ");
        strcat(list, names[i].name);
    }
    ph_cli_usage_error(cmd, "unknown report format \"%s\" (expected %s)",
                       arg, list);
    return -1;
}

int ph_cli_count(const char *cmd, const char *opt, const char *arg,
                 uint64_t *out)
{
    size_t len = strlen(arg);
    size_t n = ph_parse_u64(arg, len, out);

    if (n == 0 || n != len) {
        ph_cli_usage_error(cmd, "option '%s' expects a number, got \"%s\"",
                           opt, arg);
        return -1;
    }
    return 0;
}

int ph_cli_check_format(const char *cmd, const char *name, int read)
{
    const ph_format *here = read ? ph_importer_find(name)
                                 : ph_exporter_find(name);
    const ph_format *there = read ? ph_exporter_find(name)
                                  : ph_importer_find(name);

    if (here)
        return 0;
    if (there)
        ph_cli_usage_error(cmd, "format \"%s\" can only be %s (%s formats "
                           "lists every format and its directions)", name,
                           read ? "written" : "read", ph_cli_prog);
    else
        ph_cli_usage_error(cmd, "unknown format \"%s\" (%s formats lists "
                           "the known ones)", name, "profhub");
    return -1;
}

/* ------------------------------------------------------------------ */
/* Progress and loading                                                */

/* The progress line of one load, of a pair loaded side by side, or of
 * many files loaded one after the other: the bytes read, drawn as one
 * percentage. */
typedef struct progress {
    char name[1024];
    struct timespec last;
    int drawn;              /* once: drawn every 100 ms from then on */
    int on_screen;          /* to be cleared before anything is printed */
    pthread_mutex_t lock;   /* the pair's two loads report on two threads */
    size_t done[2], total[2];
    /* many files, by their sizes on disk (a compressed one's input is
     * bigger): those read before the current one, its own, and all of
     * them (0: one load or a pair) */
    size_t before, cur, all;
} progress;

/* One load: what to read, and the profile or the error it gave. */
typedef struct load {
    const char *path, *forced, *exe;
    progress *pr;           /* NULL: stderr is no terminal */
    int side;               /* its slot in pr */
    ph_input *in;
    ph_profile *p;
    char why[512];          /* the file could not be opened */
    char err[4096];         /* it could not be read: "FILE:L:C: message" */
} load;

static void progress_start(progress *pr, const char *a, const char *b)
{
    memset(pr, 0, sizeof *pr);
    snprintf(pr->name, sizeof pr->name, "%s%s%s", a, b ? " and " : "",
             b ? b : "");
    pthread_mutex_init(&pr->lock, NULL);
    clock_gettime(CLOCK_MONOTONIC, &pr->last);
}

/* The line, when it is due; under pr->lock. */
static void draw_locked(progress *pr)
{
    struct timespec now;
    long ms;

    clock_gettime(CLOCK_MONOTONIC, &now);
    ms = (long)(now.tv_sec - pr->last.tv_sec) * 1000 +
         (now.tv_nsec - pr->last.tv_nsec) / 1000000;
    /* last is the start of the load until the first line is drawn: loads
     * shorter than a second show nothing */
    if (ms >= (pr->drawn ? 100 : 1000)) {
        size_t done = pr->done[0] + pr->done[1];
        size_t total = pr->total[0] + pr->total[1];
        if (pr->all) {
            done = pr->before + (total ? (size_t)((double)pr->cur *
                                                  (double)done /
                                                  (double)total) : 0);
            total = pr->all;
        }
        pr->last = now;
        pr->drawn = pr->on_screen = 1;
        if (total)
            fprintf(stderr, "\r%s: reading %s %3u%%", ph_cli_prog, pr->name,
                    (unsigned)(done * 100.0 / (double)total));
        else
            fprintf(stderr, "\r%s: reading %s %zu bytes", ph_cli_prog,
                    pr->name, done);
        fflush(stderr);
    }
}

/* size is the input's, known from its opening (load_run) */
static void draw_progress(void *ctx, size_t done_now, size_t size)
{
    load *l = ctx;
    progress *pr = l->pr;

    (void)size;
    pthread_mutex_lock(&pr->lock);
    pr->done[l->side] = done_now;
    draw_locked(pr);
    pthread_mutex_unlock(&pr->lock);
}

/* The line taken off the screen, before a message or at the end. */
static void progress_clear(progress *pr)
{
    if (pr->on_screen)
        fputs("\r\033[K", stderr);
    pr->on_screen = 0;
}

static void progress_end(progress *pr)
{
    progress_clear(pr);
    pthread_mutex_destroy(&pr->lock);
}

static void print_input_warnings(const ph_input *in)
{
    size_t i, n = ph_input_warning_count(in);

    for (i = 0; i < n; i++) {
        uint64_t times = 0;
        const char *msg = ph_input_warning(in, i, &times);
        if (times > 1)
            ph_cli_warning("%s (%" PRIu64 " times)", msg, times);
        else
            ph_cli_warning("%s", msg);
    }
}

int ph_cli_raw_addresses;

/* Reads l; prints nothing (a pair's two loads run on two threads). */
static void load_run(void *arg)
{
    load *l = arg;

    l->in = ph_input_open(l->path, l->why, sizeof l->why);
    if (!l->in)
        return;
    if (l->exe)
        ph_input_set_exe(l->in, l->exe);
    ph_input_set_raw_addresses(l->in, ph_cli_raw_addresses);
    if (l->pr) {
        pthread_mutex_lock(&l->pr->lock);
        l->pr->total[l->side] = ph_input_size(l->in);
        pthread_mutex_unlock(&l->pr->lock);
        ph_input_set_progress(l->in, draw_progress, l);
    }
    l->p = ph_load_input(l->in, l->forced, l->err, sizeof l->err);
}

/* Prints l's error, or its warnings and approximation; its profile or
 * NULL. */
static ph_profile *load_report(load *l)
{
    /* a progress line still drawn (many files) is taken off first */
    int says = !l->in || !l->p || ph_input_warning_count(l->in) ||
               ph_profile_approx(l->p);
    if (says && l->pr)
        progress_clear(l->pr);
    if (!l->in) {
        ph_cli_file_error(l->path, "%s", l->why);
        return NULL;
    }
    if (!l->p) {
        fflush(stdout);
        fprintf(stderr, "%s\n", l->err);   /* already "FILE:L:C: message" */
    } else {
        print_input_warnings(l->in);
        if (ph_profile_approx(l->p))
            ph_cli_warning("%s: approximated: %s", l->path,
                           ph_profile_approx(l->p));
    }
    ph_input_close(l->in);
    return l->p;
}

static void load_init(load *l, const char *path, const char *forced,
                      const char *exe, progress *pr, int side)
{
    memset(l, 0, sizeof *l);
    l->path = path;
    l->forced = forced;
    l->exe = exe;
    l->pr = isatty(STDERR_FILENO) ? pr : NULL;
    l->side = side;
}

ph_profile *ph_cli_load(const char *path, const char *forced,
                        const char *exe)
{
    progress pr;
    load l;

    progress_start(&pr, path, NULL);
    load_init(&l, path, forced, exe, &pr, 0);
    load_run(&l);
    progress_end(&pr);
    return load_report(&l);
}

int ph_cli_load_pair(const char *a, const char *b, const char *forced,
                     const char *exe, ph_profile **pa, ph_profile **pb)
{
    progress pr;
    load l[2];

    progress_start(&pr, a, b);
    load_init(&l[0], a, forced, exe, &pr, 0);
    load_init(&l[1], b, forced, exe, &pr, 1);
    ph_run_pair(load_run, &l[0], &l[1]);
    progress_end(&pr);
    *pa = load_report(&l[0]);
    if (!*pa) {     /* as when read one after the other: one error */
        if (l[1].in)
            ph_input_close(l[1].in);
        ph_profile_free(l[1].p);
        return -1;
    }
    *pb = load_report(&l[1]);
    if (!*pb) {
        ph_profile_free(*pa);
        *pa = NULL;
        return -1;
    }
    return 0;
}

/* The bytes of path on disk; 0 for what is no regular file. */
static size_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size
                                                        : 0;
}

struct ph_cli_loads {
    const char *const *paths;
    size_t *size;           /* each path's file_size */
    size_t n, next;
    progress pr;
};

ph_cli_loads *ph_cli_loads_start(const char *const *paths, size_t n)
{
    ph_cli_loads *ls = ph_xcalloc(1, sizeof *ls);

    ls->paths = paths;
    ls->n = n;
    ls->size = ph_xcalloc(n + 1, sizeof *ls->size);
    progress_start(&ls->pr, "", NULL);
    for (size_t i = 0; i < n; i++)
        ls->pr.all += ls->size[i] = file_size(paths[i]);
    return ls;
}

ph_profile *ph_cli_loads_next(ph_cli_loads *ls, const char *forced,
                              const char *exe)
{
    progress *pr = &ls->pr;
    load l;

    if (ls->next == ls->n)
        return NULL;
    snprintf(pr->name, sizeof pr->name, "%zu of %zu files", ls->next + 1,
             ls->n);
    pr->cur = ls->size[ls->next];
    load_init(&l, ls->paths[ls->next++], forced, exe, pr, 0);
    load_run(&l);
    pr->before += pr->cur;
    pr->done[0] = pr->total[0] = pr->cur = 0;
    if (l.pr) {             /* small files make no progress calls */
        pthread_mutex_lock(&pr->lock);
        draw_locked(pr);
        pthread_mutex_unlock(&pr->lock);
    }
    return load_report(&l);
}

void ph_cli_loads_end(ph_cli_loads *ls)
{
    if (!ls)
        return;
    progress_end(&ls->pr);
    free(ls->size);
    free(ls);
}

void ph_cli_print_drops(const char *format, const ph_output *out)
{
    size_t i, n = ph_output_drop_count(out);

    for (i = 0; i < n; i++) {
        uint64_t count = 0;
        const char *what = ph_output_drop_at(out, i, &count);
        ph_cli_warning("%s: dropped %" PRIu64 " %s", format, count, what);
    }
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */

const char *ph_cli_commas(char *buf, int64_t v)
{
    char tmp[32];
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    size_t i = sizeof tmp, digits = 0, j = 0;

    tmp[--i] = '\0';
    do {
        if (digits && digits % 3 == 0)
            tmp[--i] = ',';
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
        digits++;
    } while (u);
    if (v < 0)
        buf[j++] = '-';
    memcpy(buf + j, tmp + i, sizeof tmp - i);
    return buf;
}

const char *ph_cli_number(char *buf, double v, int commas)
{
    /* From 1000 on, fractions say nothing in a column of counts: round. */
    if (isfinite(v) && fabs(v) < 9e18 && (v == floor(v) || fabs(v) >= 1000)) {
        v = round(v);
        if (commas)
            return ph_cli_commas(buf, (int64_t)v);
        snprintf(buf, 40, "%" PRId64, (int64_t)v);
        return buf;
    }
    snprintf(buf, 40, "%.4g", v);
    return buf;
}

void ph_cli_json_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");

    fputc('"', f);
    for (; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) {
                fprintf(f, "\\u%04x", *p);
            } else if (*p < 0x80) {
                fputc(*p, f);
            } else {
                /* names are bytes: invalid UTF-8 becomes U+FFFD */
                size_t k = ph_utf8_seq(p, strlen((const char *)p));
                if (k == 0) {
                    fputs("\\ufffd", f);
                } else {
                    fwrite(p, 1, k, f);
                    p += k - 1;
                }
            }
        }
    }
    fputc('"', f);
}

void ph_cli_csv_field(FILE *f, const char *s)
{
    s = s ? s : "";
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

const char *ph_cli_part_kind(ph_part_kind k)
{
    switch (k) {
    case PH_PART_WHOLE: return "whole";
    case PH_PART_THREAD: return "thread";
    case PH_PART_PROCESS: return "process";
    case PH_PART_DUMP: return "dump";
    case PH_PART_RANK: return "rank";
    }
    return "part";
}
