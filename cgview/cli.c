/* cli.c -- the helpers every profhub subcommand shares (see cli.h):
 * messages, option parsing, loading with a progress line on a terminal,
 * warnings once per kind, and number/JSON/CSV printers. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgview/cli.h"

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

typedef struct progress {
    const char *name;
    struct timespec last;
    int drawn;
} progress;

static void draw_progress(void *ctx, size_t done, size_t total)
{
    progress *pr = ctx;
    struct timespec now;
    long ms;

    clock_gettime(CLOCK_MONOTONIC, &now);
    ms = (long)(now.tv_sec - pr->last.tv_sec) * 1000 +
         (now.tv_nsec - pr->last.tv_nsec) / 1000000;
    /* last is the start of the load until the first line is drawn: loads
     * shorter than a second show nothing */
    if (ms < (pr->drawn ? 100 : 1000))
        return;
    pr->last = now;
    pr->drawn = 1;
    if (total)
        fprintf(stderr, "\r%s: reading %s %3u%%", ph_cli_prog, pr->name,
                (unsigned)(done * 100.0 / (double)total));
    else
        fprintf(stderr, "\r%s: reading %s %zu bytes", ph_cli_prog, pr->name,
                done);
    fflush(stderr);
}

static void clear_progress(progress *pr)
{
    if (pr->drawn)
        fputs("\r\033[K", stderr);
    pr->drawn = 0;
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

ph_profile *ph_cli_load(const char *path, const char *forced,
                        const char *exe)
{
    char err[4096], why[512];
    progress pr = { path, { 0, 0 }, 0 };
    ph_profile *p;
    ph_input *in;

    in = ph_input_open(path, why, sizeof why);
    if (!in) {
        ph_cli_file_error(path, "%s", why);
        return NULL;
    }
    if (exe)
        ph_input_set_exe(in, exe);
    ph_input_set_raw_addresses(in, ph_cli_raw_addresses);
    if (isatty(STDERR_FILENO)) {
        clock_gettime(CLOCK_MONOTONIC, &pr.last);
        ph_input_set_progress(in, draw_progress, &pr);
    }
    p = ph_load_input(in, forced, err, sizeof err);
    clear_progress(&pr);
    if (!p) {
        fflush(stdout);
        fprintf(stderr, "%s\n", err);   /* already "FILE:L:C: message" */
        ph_input_close(in);
        return NULL;
    }
    print_input_warnings(in);
    if (ph_profile_approx(p))
        ph_cli_warning("%s: approximated: %s", path, ph_profile_approx(p));
    ph_input_close(in);
    return p;
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
