/* info.c -- "profhub info FILE": what a profile holds: format, command and
 * other metadata, parts, events (long names, units, formulas), totals per
 * event, and counts of functions, calls, context nodes and samples; as
 * text or JSON. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "cgview/cli.h"

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
    "  -f, --format FMT   text (default) or json\n"
    "  -h, --help         show this help\n";

static const char *str_or_null(const ph_profile *p, ph_str s)
{
    return s ? ph_str_get(p, s) : NULL;
}

static void json_kv_str(const char *key, const char *v, int comma)
{
    printf("  \"%s\": ", key);
    if (v)
        ph_cli_json_string(stdout, v);
    else
        fputs("null", stdout);
    fputs(comma ? ",\n" : "\n", stdout);
}

static void json_number(double v)
{
    char buf[40];
    fputs(ph_cli_number(buf, v, 0), stdout);
}

/* ", "totals": {"EV": N, ...}" of real additive events. */
static void print_json_totals(ph_profile *p, const int64_t *tot)
{
    size_t i, n = ph_event_count(p);
    int first = 1;

    fputs(", \"totals\": {", stdout);
    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        if (ev->flags & (PH_EV_NONADDITIVE | PH_EV_DERIVED))
            continue;
        fputs(first ? "" : ", ", stdout);
        ph_cli_json_string(stdout, ph_str_get(p, ev->name));
        fputs(": ", stdout);
        json_number(ph_event_eval(p, ev, tot));
        first = 0;
    }
    putchar('}');
}

static void print_json(ph_profile *p, const char *path)
{
    const int64_t *tot = ph_totals(p, PH_ALL_PARTS);
    size_t i, n;

    puts("{");
    json_kv_str("file", path, 1);
    json_kv_str("format", ph_profile_format(p), 1);
    json_kv_str("command", ph_meta_get(p, "cmd"), 1);
    json_kv_str("approximated", ph_profile_approx(p), 1);
    fputs("  \"metadata\": [", stdout);
    n = ph_meta_count(p);
    for (i = 0; i < n; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        fputs(i ? ", " : "", stdout);
        fputs("{\"key\": ", stdout);
        ph_cli_json_string(stdout, k);
        fputs(", \"value\": ", stdout);
        ph_cli_json_string(stdout, v);
        putchar('}');
    }
    puts("],");
    fputs("  \"parts\": [", stdout);
    n = ph_part_count(p);
    for (i = 0; i < n; i++) {
        const ph_part *pt = ph_part_at(p, i);
        printf("%s\n    {\"index\": %" PRIu32 ", \"kind\": \"%s\", "
               "\"number\": %" PRId64 ", \"pid\": %" PRId64
               ", \"tid\": %" PRId64 ", \"name\": ",
               i ? "," : "", pt->index, ph_cli_part_kind(pt->kind),
               pt->number, pt->pid, pt->tid);
        if (pt->name)
            ph_cli_json_string(stdout, ph_str_get(p, pt->name));
        else
            fputs("null", stdout);
        print_json_totals(p, ph_totals(p, (int)i));
        putchar('}');
    }
    puts(n ? "\n  ]," : "],");
    fputs("  \"events\": [", stdout);
    n = ph_event_count(p);
    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        printf("%s\n    {\"name\": ", i ? "," : "");
        ph_cli_json_string(stdout, ph_str_get(p, ev->name));
        fputs(", \"long_name\": ", stdout);
        if (ev->long_name)
            ph_cli_json_string(stdout, str_or_null(p, ev->long_name));
        else
            fputs("null", stdout);
        fputs(", \"unit\": ", stdout);
        if (ev->unit)
            ph_cli_json_string(stdout, str_or_null(p, ev->unit));
        else
            fputs("null", stdout);
        fputs(", \"formula\": ", stdout);
        if (ev->formula)
            ph_cli_json_string(stdout, str_or_null(p, ev->formula));
        else
            fputs("null", stdout);
        printf(", \"scale\": %.17g", ev->scale != 0 ? ev->scale : 1.0);
        printf(", \"derived\": %s, \"total\": ",
               (ev->flags & PH_EV_DERIVED) ? "true" : "false");
        if (ev->flags & PH_EV_NONADDITIVE)
            fputs("null", stdout);
        else
            json_number(ph_event_eval(p, ev, tot));
        putchar('}');
    }
    puts(n ? "\n  ]," : "],");
    printf("  \"counts\": {\"functions\": %zu, \"calls\": %zu, "
           "\"contexts\": %zu, \"samples\": %zu, \"objects\": %zu, "
           "\"files\": %zu, \"jumps\": %zu}\n",
           ph_func_count(p), ph_call_count(p), ph_node_count(p),
           ph_sample_count(p), ph_object_count(p), ph_file_count(p),
           ph_jump_count(p));
    puts("}");
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
                                     PH_REPORT_TEXT | PH_REPORT_JSON,
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
    if (fmt == PH_REPORT_JSON)
        print_json(p, argv[optind]);
    else
        print_text(p, argv[optind]);
    ph_profile_free(p);
    return PH_EXIT_OK;
}
