/* summary.c -- "profhub summary FILE" (and "cgview FILE"): parse the
 * options, load the profile, add the derived events (KCachegrind's
 * built-in ones, the config file's, --define's), build the cost table and
 * hand it to the view asked for (report_table.c, report_graph.c,
 * report_annotate.c). */
#include "config.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/report.h"
#include "cgview/summary_filter.h"

static const char usage_fmt[] =
    "Usage: %s [OPTIONS] FILE...\n"
    "\n"
    "Summarise a profile: command, parts, every event with its total, then\n"
    "the costliest functions with inclusive and self cost and calls.\n"
    "Several FILEs are read as the parts of one profile.\n"
    "\n"
    "What to show:\n"
    "  -e, --event EV         show and sort by event EV (real or derived)\n"
    PH_CLI_DERIVED_HELP
    "  -s, --sort KEY         self (default), inclusive or calls\n"
    "  -n, --top N            show N entries (default 50; 0 = all)\n"
    "  -t, --threshold PCT    hide entries below PCT%% of the total\n"
    "  -g, --group BY         function (default), file (of the code), "
    "function-file,\n"
    "                         object or class\n"
    "      --part N           only part N (1-based, as listed); default: all\n"
    "      --thread N         only the part of thread N\n"
PH_VIEW_FILTER_USAGE
    "      --no-cycles        no <cycle N> entries, no cycle rule\n"
    "\n"
    "Around one function (FN: a name, else a regular expression):\n"
    "      --callers FN       who calls FN, with costs and call counts\n"
    "      --callees FN       what FN calls\n"
    "  -b, --butterfly FN     both\n"
    "      --tree             callers and callees of every function shown\n"
    "      --traces           every sample's stack (go tool pprof -traces)\n"
    "  -a, --annotate FN      FN's source lines with their costs\n"
    "      --disasm FN        FN's instruction addresses with their costs\n"
    "                         (callgrind --dump-instr=yes), objdump's text\n"
    "      --gprof            text in gprof's call-graph style: [N] entries,\n"
    "                         parents, children, cycles as a whole; FN of\n"
    "                         the options above may be '<cycle N>'; with\n"
    "                         --annotate, the source as gprof -A prints it\n"
    "      --source-dir DIR   look for source files in DIR\n"
    "      --context N        lines around each costly line (default 8)\n"
    "\n"
    "Input and output:\n"
    "  -F, --from FMT         read FILE as FMT instead of recognising it\n"
    "      --exe PROG         the profiled program (gmon.out needs it)\n"
    "      --raw-addresses    no --exe: name gmon.out code by address\n"
    "  -f, --format FMT       text (default), csv, json or yaml\n"
    "  -w, --width N          text fits N columns (default: $COLUMNS, the\n"
    "                         terminal; no cut when not a terminal)\n"
    "  -h, --help             show this help\n";

enum {
    OPT_EXE = 256, OPT_PART, OPT_THREAD, OPT_NO_CYCLES, OPT_CALLERS,
    OPT_CALLEES, OPT_TREE, OPT_TRACES, OPT_SOURCE_DIR, OPT_CONTEXT, OPT_GPROF,
    OPT_DISASM,
};

static const struct option longopts[] = {
    { "event", required_argument, NULL, 'e' },
    PH_CLI_DERIVED_OPTIONS,
    { "sort", required_argument, NULL, 's' },
    { "top", required_argument, NULL, 'n' },
    { "threshold", required_argument, NULL, 't' },
    { "group", required_argument, NULL, 'g' },
    { "part", required_argument, NULL, OPT_PART },
    { "thread", required_argument, NULL, OPT_THREAD },
    PH_VIEW_FILTER_LONGOPTS,
    { "no-cycles", no_argument, NULL, OPT_NO_CYCLES },
    { "callers", required_argument, NULL, OPT_CALLERS },
    { "callees", required_argument, NULL, OPT_CALLEES },
    { "butterfly", required_argument, NULL, 'b' },
    { "tree", no_argument, NULL, OPT_TREE },
    { "gprof", no_argument, NULL, OPT_GPROF },
    { "traces", no_argument, NULL, OPT_TRACES },
    { "annotate", required_argument, NULL, 'a' },
    { "disasm", required_argument, NULL, OPT_DISASM },
    { "source-dir", required_argument, NULL, OPT_SOURCE_DIR },
    { "context", required_argument, NULL, OPT_CONTEXT },
    { "from", required_argument, NULL, 'F' },
    { "exe", required_argument, NULL, OPT_EXE },
    PH_CLI_RAW_ADDRESSES_OPTION,
    { "format", required_argument, NULL, 'f' },
    { "width", required_argument, NULL, 'w' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

typedef struct options {
    const char *from, *exe, *evname;
    ph_cli_derived derived;  /* --define, --config */
    uint64_t part, thread;   /* 0 = not given (part is 1-based) */
    int has_thread;
    ph_view_filter vf;       /* filters and cut-offs (summary_filter.c) */
    char **more;             /* FILEs after the first: merged as parts */
    size_t nmore;
    char label[512];
} options;

/* ------------------------------------------------------------------ */
/* Option values                                                       */

static int parse_sort(const char *cmd, const char *arg, ph_sort *out)
{
    if (strcmp(arg, "self") == 0)
        *out = PH_SORT_SELF;
    else if (strcmp(arg, "inclusive") == 0 || strcmp(arg, "incl") == 0)
        *out = PH_SORT_INCL;
    else if (strcmp(arg, "calls") == 0)
        *out = PH_SORT_CALLS;
    else
        return ph_cli_usage_error(cmd, "unknown sort key \"%s\" (expected "
                                  "self, inclusive or calls)", arg), -1;
    return 0;
}

static int parse_group(const char *cmd, const char *arg, ph_group *out)
{
    static const char *const names[] = { "function", "file", "object",
                                         "class", "function-file" };
    for (size_t i = 0; i < 5; i++) {
        if (strcmp(arg, names[i]) == 0) {
            *out = (ph_group)i;
            return 0;
        }
    }
    ph_cli_usage_error(cmd, "unknown group \"%s\" (expected function, "
                       "file, function-file, object or class)", arg);
    return -1;
}

static int parse_percent(const char *cmd, const char *arg, double *out)
{
    size_t len = strlen(arg), used;
    double v = 0;

    used = ph_parse_decimal(arg, len, &v);
    if (used > 0 && arg[used] == '%')
        used++;
    if (used == 0 || used != len || !(v >= 0 && v <= 100)) {
        ph_cli_usage_error(cmd, "--threshold: expected a percentage "
                           "between 0 and 100, got \"%s\"", arg);
        return -1;
    }
    *out = v;
    return 0;
}

static int set_view(const char *cmd, ph_report *r, ph_view v, const char *fn)
{
    if (r->view != PH_VIEW_TABLE && r->view != v)
        return ph_cli_usage_error(cmd, "--callers, --callees, --butterfly, "
                                  "--tree, --traces, --annotate and --disasm "
                                  "exclude each other"), -1;
    r->view = v;
    r->fn = fn;
    return 0;
}

static int parse_options(int argc, char **argv, ph_report *r, options *o)
{
    const char *cmd = "summary";
    int c;

    ph_report_set_width(NULL);
    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":e:s:n:t:g:b:a:F:f:w:h", longopts,
                            NULL)) != -1) {
        uint64_t n;
        switch (c) {
        case 'e': o->evname = optarg; break;
        case PH_OPT_DEFINE:
        case PH_OPT_CONFIG:
            ph_cli_derived_option(&o->derived, c, optarg);
            break;
        case 's':
            if (parse_sort(cmd, optarg, &r->sort) < 0)
                return -1;
            break;
        case 'n':
            if (ph_cli_count(cmd, "--top", optarg, &n) < 0)
                return -1;
            r->top = (size_t)n;
            break;
        case 't':
            if (parse_percent(cmd, optarg, &r->threshold) < 0)
                return -1;
            break;
        case 'g':
            if (parse_group(cmd, optarg, &r->topts.group) < 0)
                return -1;
            break;
        case OPT_PART:
            if (ph_cli_count(cmd, "--part", optarg, &o->part) < 0)
                return -1;
            if (o->part == 0)
                return ph_cli_usage_error(cmd, "--part: parts are numbered "
                                          "from 1"), -1;
            break;
        case OPT_THREAD:
            if (ph_cli_count(cmd, "--thread", optarg, &o->thread) < 0)
                return -1;
            o->has_thread = 1;
            break;
        case OPT_NO_CYCLES: r->topts.cycles = 0; break;
        case OPT_CALLERS:
            if (set_view(cmd, r, PH_VIEW_CALLERS, optarg) < 0)
                return -1;
            break;
        case OPT_CALLEES:
            if (set_view(cmd, r, PH_VIEW_CALLEES, optarg) < 0)
                return -1;
            break;
        case 'b':
            if (set_view(cmd, r, PH_VIEW_BUTTERFLY, optarg) < 0)
                return -1;
            break;
        case OPT_TREE:
            if (set_view(cmd, r, PH_VIEW_TREE, NULL) < 0)
                return -1;
            break;
        case OPT_TRACES:
            if (set_view(cmd, r, PH_VIEW_TRACES, NULL) < 0)
                return -1;
            break;
        case 'a':
            if (set_view(cmd, r, PH_VIEW_ANNOTATE, optarg) < 0)
                return -1;
            break;
        case OPT_DISASM:
            if (set_view(cmd, r, PH_VIEW_DISASM, optarg) < 0)
                return -1;
            break;
        case OPT_SOURCE_DIR: r->source_dir = optarg; break;
        case OPT_CONTEXT:
            if (ph_report_parse_context(cmd, optarg, r) < 0)
                return -1;
            break;
        case OPT_GPROF: r->gprof = 1; break;
        case 'F': o->from = optarg; break;
        case OPT_EXE: o->exe = optarg; break;
        case PH_OPT_RAW_ADDRESSES: ph_cli_raw_addresses = 1; break;
        case 'f':
            if (ph_cli_report_format(cmd, optarg,
                                     PH_REPORT_TEXT | PH_REPORT_CSV |
                                         PH_REPORT_JSON | PH_REPORT_YAML,
                                     &r->fmt) < 0)
                return -1;
            break;
        case 'w':
            if (ph_report_set_width(optarg) < 0) {
                ph_cli_usage_error(cmd, "--width: expected a number of "
                                   "columns (40 or more), got \"%s\"",
                                   optarg);
                return -1;
            }
            break;
        case 'h':
            printf(usage_fmt, strcmp(ph_cli_prog, "cgview") == 0
                                  ? "cgview" : "profhub summary");
            return 1;
        default:
            switch (ph_view_filter_option(&o->vf, cmd, c, optarg)) {
            case 1: break;
            case 0: ph_cli_bad_option(cmd, argv, c); return -1;
            default: return -1;
            }
            break;
        }
    }
    if (optind >= argc)
        return ph_cli_usage_error(cmd, "missing FILE"), -1;
    if (o->part && o->has_thread)
        return ph_cli_usage_error(cmd, "--part and --thread exclude each "
                                  "other"), -1;
    if (o->from && ph_cli_check_format(cmd, o->from, 1) < 0)
        return -1;
    if (ph_view_filter_compile(&o->vf, cmd, r) < 0)
        return -1;
    r->vf = &o->vf;
    r->path = argv[optind];
    o->more = argv + optind + 1;
    o->nmore = (size_t)(argc - optind - 1);
    return 0;
}

/* ------------------------------------------------------------------ */
/* After loading                                                       */

/* Every FILE after the first is loaded and merged into the first, each of
 * its parts a new part (events matched by name).  Without --part or
 * --thread no view reads one part's records alone: the parts stay as
 * descriptors (the header lists them) and the records are summed as the
 * files load, so that a thousand FILEs take the memory of a few. */
static int load_more(ph_report *r, options *o)
{
    ph_merge_opts mo;
    ph_merge_stream ms;
    ph_profile *sum;
    size_t i;

    if (!o->nmore)
        return 0;
    memset(&mo, 0, sizeof mo);
    mo.scale = 1;
    mo.fold_parts = !o->part && !o->has_thread;
    if (mo.fold_parts)
        ph_merge_stream_init(&ms, &mo);
    ph_cli_loads *loads = ph_cli_loads_start((const char *const *)o->more,
                                             o->nmore);
    for (i = 0; i < o->nmore; i++) {
        ph_profile *q = ph_cli_loads_next(loads, o->from, o->exe);
        if (!q)
            break;
        if (mo.fold_parts)
            ph_merge_stream_add(&ms, q, NULL);
        else
            ph_merge_into(r->p, q, &mo);
        ph_profile_free(q);
    }
    ph_cli_loads_end(loads);
    if (mo.fold_parts) {
        sum = ph_merge_stream_finish(&ms);
        if (i == o->nmore)
            ph_merge_into(r->p, sum, &mo);
        ph_profile_free(sum);
    }
    if (i < o->nmore)
        return -1;
    snprintf(o->label, sizeof o->label, "%s (+%zu more)", r->path,
             o->nmore);
    r->path = o->label;
    return 0;
}

static int select_part(ph_report *r, const options *o)
{
    ph_profile *p = r->p;
    size_t i, n = ph_part_count(p);

    r->topts.part = PH_ALL_PARTS;
    if (o->part) {
        if (o->part > n) {
            ph_cli_file_error(r->path, "--part %llu: the profile has %zu "
                              "part%s", (unsigned long long)o->part, n,
                         n == 1 ? "" : "s");
            return -1;
        }
        r->topts.part = (int)(o->part - 1);
    } else if (o->has_thread) {
        for (i = 0; i < n; i++)
            if (ph_part_at(p, i)->tid == (int64_t)o->thread)
                break;
        if (i == n) {
            ph_cli_file_error(r->path, "--thread %llu: no part of that "
                              "thread", (unsigned long long)o->thread);
            return -1;
        }
        r->topts.part = (int)i;
    }
    return 0;
}

static int choose_event(ph_report *r, const options *o)
{
    ph_profile *p = r->p;

    if (o->evname) {
        r->ev = ph_event_find(p, o->evname);
        if (!r->ev) {
            ph_cli_file_error(r->path, "no event \"%s\" in this profile",
                              o->evname);
            return -1;
        }
        return 0;
    }
    r->ev = ph_default_event(p);
    return 0;
}

/* Flat data whose calls carry no cost (gmon.out's arcs): inclusive cost
 * is gprof's (analysis/gprof_incl.c). */
static void apply_gprof(ph_report *r)
{
    const char *approx;

    if (r->topts.group != PH_GROUP_FUNCTION || r->table->gprof_lines)
        return;   /* a line symbol has no inclusive time in gprof -l */
    approx = ph_table_gprof_incl(r->p, r->table, r->topts.part);
    if (approx)
        r->approx = approx;
}

/* Text reports are about one event: entries where it is zero (self,
 * inclusive and calls) move to the end and are not listed; gprof's own
 * event keeps its called functions, as gprof's flat profile lists them
 * with 0.00.  Machine formats keep every entry (they carry every event). */
static int has_cost(const ph_table *t, const ph_entry *e, void *ctx)
{
    const ph_report *r = ctx;
    return ph_entry_value(t, e, r->ev, 0) != 0 || ph_report_self(r, e) != 0 ||
           (e->has_incl && ph_entry_value(t, e, r->ev, 1) != 0) ||
           ((r->sort == PH_SORT_CALLS || ph_has_credits(r->p, r->ev)) &&
            (e->calls || e->self_calls));
}

static void move_zeros_last(ph_report *r)
{
    r->listed = r->table->count;
    if (r->fmt == PH_REPORT_TEXT && r->ev)
        r->listed = ph_table_keep(r->table, r->listed, has_cost, r);
}

/* Entries the report shows: the first top ones above the threshold. */
static size_t count_shown(const ph_report *r)
{
    const ph_table *t = r->table;
    size_t i, n = r->listed;

    if (r->top && r->top < n)
        n = r->top;
    n = ph_view_filter_shown(r->vf, r, n);
    if (r->threshold <= 0 || !r->ev)
        return n;
    for (i = 0; i < n; i++) {
        const ph_entry *e = &t->entries[i];
        double v = ph_entry_value(t, e, r->ev, r->sort != PH_SORT_SELF);
        double pc = ph_report_percent(r, r->ev, v);
        if (!isnan(pc) && fabs(pc) < r->threshold)
            break;
    }
    return i;
}

int ph_cmd_summary(int argc, char **argv)
{
    ph_report r;
    options o;
    int rc;

    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    ph_view_filter_init(&o.vf);
    r.fmt = PH_REPORT_TEXT;
    r.top = 50;
    r.context = 8;
    r.topts.cycles = 1;
    rc = parse_options(argc, argv, &r, &o);
    if (rc != 0) {
        rc = rc > 0 ? PH_EXIT_OK : PH_EXIT_USAGE;
        goto out;
    }
    r.p = ph_cli_load(r.path, o.from, o.exe);
    if (!r.p || load_more(&r, &o) < 0) {
        rc = PH_EXIT_BAD;
        goto out;
    }
    rc = PH_EXIT_USAGE;
    if (ph_cli_derive(r.p, &o.derived) < 0)
        goto out;
    rc = PH_EXIT_BAD;
    if (select_part(&r, &o) < 0 || choose_event(&r, &o) < 0)
        goto out;
    /* text --annotate prints lines, not entries: the totals will do */
    r.topts.totals_only = r.view == PH_VIEW_ANNOTATE &&
                          r.fmt == PH_REPORT_TEXT && !r.gprof;
    /* the text table shows one event: its values are all it needs */
    if (r.fmt == PH_REPORT_TEXT && r.view == PH_VIEW_TABLE && !r.gprof)
        r.topts.only = r.ev;
    r.table = ph_table_build(r.p, &r.topts);
    apply_gprof(&r);
    /* what is not listed is set aside before sorting, and only the
     * entries shown need their order */
    move_zeros_last(&r);
    ph_view_filter_cut(&o.vf, &r);
    ph_table_sort_top(r.table, r.listed, r.ev, r.sort, r.top);
    r.shown = count_shown(&r);
    switch (r.gprof && r.fmt == PH_REPORT_TEXT &&
            r.view != PH_VIEW_ANNOTATE && r.view != PH_VIEW_TREE &&
            r.view != PH_VIEW_DISASM
                ? -1 : (int)r.view) {
    case -1: rc = ph_report_gprof(&r); break;
    case PH_VIEW_ANNOTATE:
        rc = r.gprof && r.fmt == PH_REPORT_TEXT ? ph_report_gprof_source(&r)
                                                : ph_report_annotate(&r);
        break;
    case PH_VIEW_TABLE: rc = ph_report_table(&r); break;
    case PH_VIEW_TRACES: rc = ph_report_traces(&r); break;
    case PH_VIEW_DISASM: rc = ph_report_disasm(&r); break;
    default: rc = ph_report_graph(&r); break;
    }
out:
    ph_table_free(r.table);
    if (r.p)
        ph_profile_free(r.p);
    ph_view_filter_free(&o.vf);
    ph_cli_derived_free(&o.derived);
    return rc;
}
