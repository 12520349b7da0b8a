/* info.c -- "profhub info FILE": what a profile holds: format, command and
 * other metadata, parts, events (long names, units, formulas), totals per
 * event, and counts of functions, calls, context nodes and samples; as
 * text, or JSON, YAML and key,value CSV through the report emitter. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "cgview/emit.h"

static const char usage[] =
    "Usage: profhub info [OPTIONS] FILE\n"
    "\n"
    "Describe a profile: its format, command, parts, events with their\n"
    "formulas, totals per event, and how many functions, calls, contexts\n"
    "and samples it holds.\n"
    "\n"
    "  -F, --from FMT     read FILE as FMT instead of recognising it\n"
    "      --exe PROG     the profiled program (gmon.out needs it)\n"
    "      --raw-addresses\n"
    "                     no --exe: name gmon.out code by address\n"
    "  -f, --format FMT   text (default), csv, json or yaml\n"
    "  -h, --help         show this help\n";

static const char *str_or_null(const ph_profile *p, ph_str s)
{
    return s ? ph_str_get(p, s) : NULL;
}

/* A total as the text report rounds it (ph_cli_number, no commas). */
static void emit_total(ph_emit *em, double v)
{
    char buf[40];
    ph_emit_number_text(em, ph_cli_number(buf, v, 0));
}

/* {"EV": N, ...} of real additive events. */
static void emit_totals(ph_emit *em, ph_profile *p, const int64_t *tot)
{
    size_t i, n = ph_event_count(p);

    ph_emit_map(em, 1);
    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        if (ev->flags & (PH_EV_NONADDITIVE | PH_EV_DERIVED))
            continue;
        ph_emit_key(em, ph_str_get(p, ev->name));
        emit_total(em, ph_event_eval(p, ev, tot));
    }
    ph_emit_end(em);
}

/* The data formats (JSON, YAML, CSV) from one sequence of calls. */
static int print_data(ph_profile *p, const char *path, ph_report_format fmt)
{
    const int64_t *tot = ph_totals(p, PH_ALL_PARTS);
    ph_emit *em = ph_emit_new(stdout, fmt);
    size_t i, n;

    ph_emit_map(em, 0);
    ph_emit_key(em, "file");
    ph_emit_str(em, path);
    ph_emit_key(em, "format");
    ph_emit_str(em, ph_profile_format(p));
    ph_emit_key(em, "command");
    ph_emit_str(em, ph_meta_get(p, "cmd"));
    ph_emit_key(em, "approximated");
    ph_emit_str(em, ph_profile_approx(p));
    ph_emit_key(em, "metadata");
    ph_emit_list(em, 1);
    n = ph_meta_count(p);
    for (i = 0; i < n; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        ph_emit_map(em, 1);
        ph_emit_key(em, "key");
        ph_emit_str(em, k);
        ph_emit_key(em, "value");
        ph_emit_str(em, v);
        ph_emit_end(em);
    }
    ph_emit_end(em);
    ph_emit_key(em, "parts");
    ph_emit_list(em, 0);
    n = ph_part_count(p);
    for (i = 0; i < n; i++) {
        const ph_part *pt = ph_part_at(p, i);
        ph_emit_map(em, 1);
        ph_emit_key(em, "index");
        ph_emit_uint(em, pt->index);
        ph_emit_key(em, "kind");
        ph_emit_str(em, ph_cli_part_kind(pt->kind));
        ph_emit_key(em, "number");
        ph_emit_int(em, pt->number);
        ph_emit_key(em, "pid");
        ph_emit_int(em, pt->pid);
        ph_emit_key(em, "tid");
        ph_emit_int(em, pt->tid);
        ph_emit_key(em, "name");
        ph_emit_str(em, str_or_null(p, pt->name));
        ph_emit_key(em, "totals");
        emit_totals(em, p, ph_totals(p, (int)i));
        ph_emit_end(em);
    }
    ph_emit_end(em);
    ph_emit_key(em, "events");
    ph_emit_list(em, 0);
    n = ph_event_count(p);
    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        ph_emit_map(em, 1);
        ph_emit_key(em, "name");
        ph_emit_str(em, ph_str_get(p, ev->name));
        ph_emit_key(em, "long_name");
        ph_emit_str(em, str_or_null(p, ev->long_name));
        ph_emit_key(em, "unit");
        ph_emit_str(em, str_or_null(p, ev->unit));
        ph_emit_key(em, "formula");
        ph_emit_str(em, str_or_null(p, ev->formula));
        ph_emit_key(em, "scale");
        ph_emit_num(em, ev->scale != 0 ? ev->scale : 1.0);
        ph_emit_key(em, "derived");
        ph_emit_bool(em, (ev->flags & PH_EV_DERIVED) != 0);
        ph_emit_key(em, "total");
        if (ev->flags & PH_EV_NONADDITIVE)
            ph_emit_null(em);
        else
            emit_total(em, ph_event_eval(p, ev, tot));
        ph_emit_end(em);
    }
    ph_emit_end(em);
    ph_emit_key(em, "counts");
    ph_emit_map(em, 1);
    const struct {
        const char *key;
        size_t (*count)(const ph_profile *);
    } counts[] = {
        {"functions", ph_func_count},   {"calls", ph_call_count},
        {"contexts", ph_node_count},    {"samples", ph_sample_count},
        {"objects", ph_object_count},   {"files", ph_file_count},
        {"jumps", ph_jump_count},
    };
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        ph_emit_key(em, counts[k].key);
        ph_emit_uint(em, counts[k].count(p));
    }
    ph_emit_end(em);
    ph_emit_end(em);
    if (ph_emit_free(em) < 0) {
        ph_cli_error("cannot write the report");
        return PH_EXIT_BAD;
    }
    return PH_EXIT_OK;
}

/* One line per part when there are several: kind, numbers, label, and
 * the part's total of the first events. */
static void print_parts_text(ph_profile *p)
{
    size_t i, j, n = ph_part_count(p), nev = ph_event_count(p);
    char buf[40];

    printf("parts:        %zu\n", n);
    for (i = 0; i < n && n > 1; i++) {
        const ph_part *pt = ph_part_at(p, i);
        const int64_t *tot = ph_totals(p, (int)i);
        printf("  %-4" PRIu32 " %s", pt->index + 1,
               ph_cli_part_kind(pt->kind));
        if (pt->number >= 0)
            printf(" part %" PRId64, pt->number);
        if (pt->pid >= 0)
            printf(" pid %" PRId64, pt->pid);
        if (pt->tid >= 0)
            printf(" tid %" PRId64, pt->tid);
        if (pt->name)
            printf(" \"%s\"", ph_str_get(p, pt->name));
        for (j = 0; j < nev && j < 4; j++) {
            const ph_event *ev = ph_event_at(p, j);
            if (ev->flags & PH_EV_NONADDITIVE)
                continue;
            printf("  %s %s", ph_str_get(p, ev->name),
                   ph_cli_number(buf, ph_event_eval(p, ev, tot), 1));
        }
        putchar('\n');
    }
}

/* Spaces after "key:" so values line up at column 15. */
static int k_pad(const char *k)
{
    int n = 12 - (int)strlen(k);
    return n > 0 ? n : 0;
}

static void print_text(ph_profile *p, const char *path)
{
    const int64_t *tot = ph_totals(p, PH_ALL_PARTS);
    size_t i, n = ph_event_count(p), meta = ph_meta_count(p);
    int wname = 4, wtot = 5;
    char buf[40];

    printf("file:         %s\n", path);
    printf("format:       %s\n", ph_profile_format(p) ? ph_profile_format(p)
                                                      : "?");
    if (ph_meta_get(p, "cmd"))
        printf("command:      %s\n", ph_meta_get(p, "cmd"));
    for (i = 0; i < meta; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        if (strcmp(k, "cmd") != 0)
            printf("%s:%*s %s\n", k, k_pad(k), "", v);
    }
    print_parts_text(p);
    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        int a = (int)ph_str_len(p, ev->name);
        int b = (int)strlen(ph_cli_number(buf, ph_event_eval(p, ev, tot), 1));
        wname = a > wname ? a : wname;
        wtot = b > wtot ? b : wtot;
    }
    printf("events:       %zu\n", n);
    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        printf("  %-*s  %*s", wname, ph_str_get(p, ev->name), wtot,
               (ev->flags & PH_EV_NONADDITIVE)
                   ? "-"
                   : ph_cli_number(buf, ph_event_eval(p, ev, tot), 1));
        if (ev->long_name)
            printf("  %s", ph_str_get(p, ev->long_name));
        if (ev->unit)
            printf(" [%s]", ph_str_get(p, ev->unit));
        if (ev->formula)
            printf("  = %s", ph_str_get(p, ev->formula));
        putchar('\n');
    }
    printf("functions:    %zu\n", ph_func_count(p));
    printf("calls:        %zu\n", ph_call_count(p));
    printf("contexts:     %zu\n", ph_node_count(p));
    printf("samples:      %zu\n", ph_sample_count(p));
    printf("objects:      %zu\n", ph_object_count(p));
    printf("files:        %zu\n", ph_file_count(p));
    printf("approximated: %s\n", ph_profile_approx(p) ? ph_profile_approx(p)
                                                      : "no");
}

int ph_cmd_info(int argc, char **argv)
{
    enum { OPT_EXE = 256 };
    static const struct option longopts[] = {
        { "from", required_argument, NULL, 'F' },
        { "exe", required_argument, NULL, OPT_EXE },
        PH_CLI_RAW_ADDRESSES_OPTION,
        { "format", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    ph_report_format fmt = PH_REPORT_TEXT;
    const char *from = NULL, *exe = NULL;
    ph_profile *p;
    int c;

    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":F:f:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'F':
            from = optarg;
            break;
        case OPT_EXE:
            exe = optarg;
            break;
        case PH_OPT_RAW_ADDRESSES:
            ph_cli_raw_addresses = 1;
            break;
        case 'f':
            if (ph_cli_report_format("info", optarg,
                                     PH_REPORT_TEXT | PH_REPORT_CSV |
                                         PH_REPORT_JSON | PH_REPORT_YAML,
                                     &fmt) < 0)
                return PH_EXIT_USAGE;
            break;
        case 'h':
            fputs(usage, stdout);
            return PH_EXIT_OK;
        default:
            return ph_cli_bad_option("info", argv, c);
        }
    }
    if (optind >= argc)
        return ph_cli_usage_error("info", "missing FILE");
    if (optind + 1 < argc)
        return ph_cli_usage_error("info", "unexpected argument \"%s\"",
                                  argv[optind + 1]);
    if (from && ph_cli_check_format("info", from, 1) < 0)
        return PH_EXIT_USAGE;
    p = ph_cli_load(argv[optind], from, exe);
    if (!p)
        return PH_EXIT_BAD;
    int rc = PH_EXIT_OK;
    if (fmt == PH_REPORT_TEXT)
        print_text(p, argv[optind]);
    else
        rc = print_data(p, argv[optind], fmt);
    ph_profile_free(p);
    return rc;
}
