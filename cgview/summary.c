/* summary.c -- "profhub summary FILE" (and "cgview FILE"): the basic facts
 * of a profile, its totals, and the costliest functions by self cost of
 * one event, with inclusive cost beside.  The entry point of the summary
 * report; the analysis-backed report (issue "cgview") extends it. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/cli.h"

static const char usage_fmt[] =
    "Usage: %s [OPTIONS] FILE\n"
    "\n"
    "Summarise a profile: command, events and totals, then the functions\n"
    "with the highest self cost of one event, with their inclusive cost.\n"
    "\n"
    "  -e, --event EV     sort by event EV (default: the first event)\n"
    "  -n, --top N        show N functions (default 20; 0 = all)\n"
    "  -F, --from FMT     read FILE as FMT instead of recognising it\n"
    "      --exe PROG     the profiled program (gmon.out needs it)\n"
    "  -f, --format FMT   text (default), csv or json\n"
    "  -h, --help         show this help\n";

typedef struct row {
    const ph_func *f;
    double self, incl;
} row;

static int compare_rows(const void *a, const void *b)
{
    const row *x = a, *y = b;

    if (x->self != y->self)
        return x->self < y->self ? 1 : -1;
    if (x->incl != y->incl)
        return x->incl < y->incl ? 1 : -1;
    return x->f->id < y->f->id ? -1 : x->f->id > y->f->id;
}

static double percent(double v, double total)
{
    return total != 0 ? 100.0 * v / total : 0.0;
}

static row *rank_functions(ph_profile *p, const ph_event *ev, size_t *n)
{
    size_t i, nf = ph_func_count(p);
    row *r = ph_xcalloc(nf + 1, sizeof *r);

    for (i = 0; i < nf; i++) {
        const ph_func *f = ph_func_at(p, i);
        r[i].f = f;
        r[i].self = ph_event_eval(p, ev, ph_func_self(p, f, PH_ALL_PARTS));
        r[i].incl = ph_event_eval(p, ev, ph_func_incl(p, f, PH_ALL_PARTS));
    }
    qsort(r, nf, sizeof *r, compare_rows);
    *n = nf;
    return r;
}

static void print_where(const ph_profile *p, const ph_func *f)
{
    const char *file = f->file && f->file->name
                           ? ph_str_get(p, f->file->name) : NULL;
    const char *obj = f->object && f->object->name
                          ? ph_str_get(p, f->object->name) : NULL;

    if (!file && !obj)
        return;
    fputs("  (", stdout);
    if (file) {
        fputs(file, stdout);
        if (f->line)
            printf(":%" PRIu32, f->line);
    }
    if (obj)
        printf("%s%s", file ? ", " : "", obj);
    putchar(')');
}

static void print_text(ph_profile *p, const char *path, const ph_event *ev,
                       const row *r, size_t nr, size_t top)
{
    const int64_t *tot = ph_totals(p, PH_ALL_PARTS);
    double total = ev ? ph_event_eval(p, ev, tot) : 0;
    size_t i, n = ph_event_count(p);
    char a[40], b[40];

    printf("profile:  %s (%s)\n", path,
           ph_profile_format(p) ? ph_profile_format(p) : "?");
    if (ph_meta_get(p, "cmd"))
        printf("command:  %s\n", ph_meta_get(p, "cmd"));
    if (ph_part_count(p) > 1)
        printf("parts:    %zu (summed)\n", ph_part_count(p));
    if (ph_profile_approx(p))
        printf("note:     approximated: %s\n", ph_profile_approx(p));
    for (i = 0; i < n; i++) {
        const ph_event *e = ph_event_at(p, i);
        if (e->flags & PH_EV_NONADDITIVE)
            continue;
        printf("%s %-10s %s", i ? "         " : "totals:  ",
               ph_str_get(p, e->name),
               ph_cli_number(a, ph_event_eval(p, e, tot), 1));
        if (e->long_name)
            printf("  %s", ph_str_get(p, e->long_name));
        putchar('\n');
    }
    if (!ev || nr == 0)
        return;
    if (top == 0 || top > nr)
        top = nr;
    printf("\ntop %zu of %zu functions by self %s:\n", top, nr,
           ph_str_get(p, ev->name));
    printf("%16s %7s %16s %7s  %s\n", "self", "%", "inclusive", "%",
           "function");
    for (i = 0; i < top; i++) {
        printf("%16s %6.2f%% %16s %6.2f%%  %s",
               ph_cli_number(a, r[i].self, 1), percent(r[i].self, total),
               ph_cli_number(b, r[i].incl, 1), percent(r[i].incl, total),
               ph_str_get(p, r[i].f->name));
        print_where(p, r[i].f);
        putchar('\n');
    }
}

static void print_csv(ph_profile *p, const ph_event *ev, const row *r,
                      size_t nr, size_t top)
{
    size_t i;
    char a[40], b[40];

    if (top == 0 || top > nr)
        top = nr;
    printf("function,file,line,object,self_%s,incl_%s\n",
           ev ? ph_str_get(p, ev->name) : "", ev ? ph_str_get(p, ev->name)
                                                 : "");
    for (i = 0; i < top && ev; i++) {
        const ph_func *f = r[i].f;
        ph_cli_csv_field(stdout, ph_str_get(p, f->name));
        putchar(',');
        ph_cli_csv_field(stdout, f->file ? ph_str_get(p, f->file->name)
                                         : "");
        printf(",%" PRIu32 ",", f->line);
        ph_cli_csv_field(stdout, f->object ? ph_str_get(p, f->object->name)
                                           : "");
        printf(",%s,%s\n", ph_cli_number(a, r[i].self, 0),
               ph_cli_number(b, r[i].incl, 0));
    }
}

static void print_json(ph_profile *p, const char *path, const ph_event *ev,
                       const row *r, size_t nr, size_t top)
{
    const int64_t *tot = ph_totals(p, PH_ALL_PARTS);
    size_t i, n = ph_event_count(p);
    char a[40], b[40];

    fputs("{\n  \"file\": ", stdout);
    ph_cli_json_string(stdout, path);
    fputs(",\n  \"format\": ", stdout);
    ph_cli_json_string(stdout, ph_profile_format(p));
    fputs(",\n  \"totals\": {", stdout);
    for (i = 0; i < n; i++) {
        const ph_event *e = ph_event_at(p, i);
        if (e->flags & PH_EV_NONADDITIVE)
            continue;
        fputs(i ? ", " : "", stdout);
        ph_cli_json_string(stdout, ph_str_get(p, e->name));
        printf(": %s", ph_cli_number(a, ph_event_eval(p, e, tot), 0));
    }
    fputs("},\n  \"event\": ", stdout);
    if (ev)
        ph_cli_json_string(stdout, ph_str_get(p, ev->name));
    else
        fputs("null", stdout);
    fputs(",\n  \"functions\": [", stdout);
    if (top == 0 || top > nr)
        top = nr;
    for (i = 0; i < top && ev; i++) {
        const ph_func *f = r[i].f;
        fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", stdout);
        ph_cli_json_string(stdout, ph_str_get(p, f->name));
        fputs(", \"file\": ", stdout);
        ph_cli_json_string(stdout, f->file ? ph_str_get(p, f->file->name)
                                           : "");
        printf(", \"line\": %" PRIu32 ", \"object\": ", f->line);
        ph_cli_json_string(stdout, f->object
                                       ? ph_str_get(p, f->object->name) : "");
        printf(", \"self\": %s, \"inclusive\": %s}",
               ph_cli_number(a, r[i].self, 0),
               ph_cli_number(b, r[i].incl, 0));
    }
    puts(top && ev ? "\n  ]\n}" : "]\n}");
}

int ph_cmd_summary(int argc, char **argv)
{
    enum { OPT_EXE = 256 };
    static const struct option longopts[] = {
        { "event", required_argument, NULL, 'e' },
        { "top", required_argument, NULL, 'n' },
        { "from", required_argument, NULL, 'F' },
        { "exe", required_argument, NULL, OPT_EXE },
        { "format", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *cmd = "summary";
    ph_report_format fmt = PH_REPORT_TEXT;
    const char *from = NULL, *exe = NULL, *evname = NULL;
    uint64_t top = 20;
    const ph_event *ev = NULL;
    ph_profile *p;
    row *r;
    size_t nr;
    int c;

    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":e:n:F:f:h", longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'e': evname = optarg; break;
        case 'n':
            if (ph_cli_count(cmd, "--top", optarg, &top) < 0)
                return PH_EXIT_USAGE;
            break;
        case 'F': from = optarg; break;
        case OPT_EXE: exe = optarg; break;
        case 'f':
            if (ph_cli_report_format(cmd, optarg,
                                     PH_REPORT_TEXT | PH_REPORT_CSV |
                                         PH_REPORT_JSON,
                                     &fmt) < 0)
                return PH_EXIT_USAGE;
            break;
        case 'h':
            printf(usage_fmt, strcmp(ph_cli_prog, "cgview") == 0
                                  ? "cgview" : "profhub summary");
            return PH_EXIT_OK;
        default:
            return ph_cli_bad_option(cmd, argv, c);
        }
    }
    if (optind >= argc)
        return ph_cli_usage_error(cmd, "missing FILE");
    if (optind + 1 < argc)
        return ph_cli_usage_error(cmd, "unexpected argument \"%s\"",
                                  argv[optind + 1]);
    if (from && ph_cli_check_format(cmd, from, 1) < 0)
        return PH_EXIT_USAGE;
    p = ph_cli_load(argv[optind], from, exe);
    if (!p)
        return PH_EXIT_BAD;
    if (evname) {
        ev = ph_event_find(p, evname);
        if (!ev) {
            ph_cli_error("%s: no event \"%s\" in this profile",
                         argv[optind], evname);
            ph_profile_free(p);
            return PH_EXIT_BAD;
        }
    } else if (ph_event_count(p) > 0) {
        ev = ph_event_at(p, 0);
    }
    r = ev ? rank_functions(p, ev, &nr) : NULL;
    if (!r)
        nr = 0;
    if (fmt == PH_REPORT_JSON)
        print_json(p, argv[optind], ev, r, nr, (size_t)top);
    else if (fmt == PH_REPORT_CSV)
        print_csv(p, ev, r, nr, (size_t)top);
    else
        print_text(p, argv[optind], ev, r, nr, (size_t)top);
    free(r);
    ph_profile_free(p);
    return PH_EXIT_OK;
}
