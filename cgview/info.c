/* info.c -- "profhub info FILE": what a profile holds: format, command and
 * other metadata, parts, events (long names, units, formulas), totals per
 * event, and counts of functions, calls, context nodes and samples.  The
 * metadata, parts and events are built once as grids (grid.h); the text
 * report lays them out as lines, JSON, YAML and key,value CSV write them
 * through the report emitter. */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/grid.h"

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

/* What info says, built once: the data formats write it through the
 * emitter and the text report lays the same values out as lines. */
typedef struct info {
    const char *path, *format, *command, *approx;
    ph_grid *meta, *parts, *events;
} info;

/* The counts, in this order; text leaves out those with text 0. */
static const struct {
    const char *key;
    size_t (*count)(const ph_profile *);
    int text;
} counts[] = {
    {"functions", ph_func_count, 1}, {"calls", ph_call_count, 1},
    {"contexts", ph_node_count, 1},  {"samples", ph_sample_count, 1},
    {"objects", ph_object_count, 1}, {"files", ph_file_count, 1},
    {"jumps", ph_jump_count, 0},
};

/* Text: a column of width 0 is its cell's text as is (sep "" glues it). */
#define GLUED .head = "", .sep = "", .flags = PH_GRID_FIXED

/* One {key, value} row per metadata entry; text writes "key: value"
 * with values at column 15, and "cmd" as "command:" on its own line. */
static ph_grid *meta_grid(const ph_profile *p)
{
    ph_grid *g = ph_grid_new(2);
    size_t key = ph_grid_add_col(g, &(ph_grid_col){
        .key = "key", .head = "", .width = 13,
        .flags = PH_GRID_FIXED | PH_GRID_LEFT});
    size_t val = ph_grid_add_col(g, &(ph_grid_col){
        .key = "value", .head = "", .sep = " ", .flags = PH_GRID_LEFT});
    size_t i, n = ph_meta_count(p);
    char label[256];

    for (i = 0; i < n; i++) {
        const char *k, *v;
        ph_meta_at(p, i, &k, &v);
        ph_grid_row(g);
        ph_grid_str(g, key, k);
        snprintf(label, sizeof label, "%s:", k);
        ph_grid_text(g, key, label);
        ph_grid_str(g, val, v);
        if (strcmp(k, "cmd") == 0)
            ph_grid_data_only(g);
    }
    return g;
}

static void glued_int(ph_grid *g, size_t col, const char *word, int64_t v)
{
    char buf[64] = "";   /* text leaves out a number below 0: not known */
    ph_grid_int(g, col, v);
    if (v >= 0)
        snprintf(buf, sizeof buf, " %s %" PRId64, word, v);
    ph_grid_text(g, col, buf);
}

/* One row per part: kind, numbers, label and totals of the real additive
 * events; text shows the first four additive events' totals. */
static ph_grid *parts_grid(ph_profile *p)
{
    ph_grid *g = ph_grid_new(1);
    size_t i, j, n = ph_part_count(p), nev = ph_event_count(p);
    size_t idx = ph_grid_add_col(g, &(ph_grid_col){
        .key = "index", .head = "", .width = 4,
        .flags = PH_GRID_FIXED | PH_GRID_LEFT});
    size_t kind = ph_grid_add_col(g, &(ph_grid_col){
        .key = "kind", .head = "", .sep = " ", .flags = PH_GRID_FIXED});
    size_t num = ph_grid_add_col(g, &(ph_grid_col){.key = "number", GLUED});
    size_t pid = ph_grid_add_col(g, &(ph_grid_col){.key = "pid", GLUED});
    size_t tid = ph_grid_add_col(g, &(ph_grid_col){.key = "tid", GLUED});
    size_t name = ph_grid_add_col(g, &(ph_grid_col){.key = "name", GLUED});
    /* Set in every row, so that no real event still writes {}. */
    size_t tots = ph_grid_add_col(g, &(ph_grid_col){.group = "totals"});
    size_t *col = ph_xcalloc(nev + 1, sizeof *col);
    char buf[40], text[256];

    for (j = 0; j < nev; j++) {
        const ph_event *ev = ph_event_at(p, j);
        int data = !(ev->flags & (PH_EV_NONADDITIVE | PH_EV_DERIVED));
        int shown = j < 4 && !(ev->flags & PH_EV_NONADDITIVE);
        col[j] = SIZE_MAX;
        if (data || shown)
            col[j] = ph_grid_add_col(g, &(ph_grid_col){
                .group = "totals",
                .key = data ? ph_str_get(p, ev->name) : NULL,
                .head = shown ? "" : NULL, .sep = "",
                .flags = PH_GRID_FIXED});
    }
    for (i = 0; i < n; i++) {
        const ph_part *pt = ph_part_at(p, i);
        const int64_t *tot = ph_totals(p, (int)i);
        ph_grid_row(g);
        ph_grid_uint(g, idx, pt->index);
        snprintf(text, sizeof text, "%" PRIu32, pt->index + 1);
        ph_grid_text(g, idx, text);
        ph_grid_str(g, kind, ph_cli_part_kind(pt->kind));
        glued_int(g, num, "part", pt->number);
        glued_int(g, pid, "pid", pt->pid);
        glued_int(g, tid, "tid", pt->tid);
        ph_grid_str(g, name, str_or_null(p, pt->name));
        if (pt->name) {
            snprintf(text, sizeof text, " \"%s\"", ph_str_get(p, pt->name));
            ph_grid_text(g, name, text);
        }
        ph_grid_null(g, tots);
        for (j = 0; j < nev; j++) {
            const ph_event *ev = ph_event_at(p, j);
            double v = ph_event_eval(p, ev, tot);
            if (col[j] == SIZE_MAX)
                continue;
            ph_grid_number_text(g, col[j], ph_cli_number(buf, v, 0));
            snprintf(text, sizeof text, "  %s %s", ph_str_get(p, ev->name),
                     ph_cli_number(buf, v, 1));
            ph_grid_text(g, col[j], text);
        }
    }
    free(col);
    return g;
}

/* One row per event: names, unit, formula, scale and total (null when
 * the event does not add up); text: name, total, and the rest as words. */
static ph_grid *events_grid(ph_profile *p)
{
    ph_grid *g = ph_grid_new(1);
    const int64_t *tot = ph_totals(p, PH_ALL_PARTS);
    size_t i, n = ph_event_count(p);
    size_t name = ph_grid_add_col(g, &(ph_grid_col){
        .key = "name", .head = "", .width = 4, .flags = PH_GRID_LEFT});
    size_t lname = ph_grid_add_col(g, &(ph_grid_col){.key = "long_name"});
    size_t unit = ph_grid_add_col(g, &(ph_grid_col){.key = "unit"});
    size_t form = ph_grid_add_col(g, &(ph_grid_col){.key = "formula"});
    size_t scale = ph_grid_add_col(g, &(ph_grid_col){.key = "scale"});
    size_t der = ph_grid_add_col(g, &(ph_grid_col){.key = "derived"});
    size_t total = ph_grid_add_col(g, &(ph_grid_col){
        .key = "total", .head = "", .width = 5});
    size_t about = ph_grid_add_col(g, &(ph_grid_col){
        .head = "", .sep = "", .flags = PH_GRID_LEFT});
    char buf[40], text[1024];

    for (i = 0; i < n; i++) {
        const ph_event *ev = ph_event_at(p, i);
        const char *ln = str_or_null(p, ev->long_name);
        const char *un = str_or_null(p, ev->unit);
        const char *fo = str_or_null(p, ev->formula);
        double v = ph_event_eval(p, ev, tot);
        ph_grid_row(g);
        ph_grid_str(g, name, ph_str_get(p, ev->name));
        ph_grid_str(g, lname, ln);
        ph_grid_str(g, unit, un);
        ph_grid_str(g, form, fo);
        ph_grid_num(g, scale, ev->scale != 0 ? ev->scale : 1.0);
        ph_grid_bool(g, der, (ev->flags & PH_EV_DERIVED) != 0);
        if (ev->flags & PH_EV_NONADDITIVE) {
            ph_grid_null(g, total);
            ph_grid_text(g, total, "-");
        } else {
            ph_grid_number_text(g, total, ph_cli_number(buf, v, 0));
            ph_grid_text(g, total, ph_cli_number(buf, v, 1));
        }
        snprintf(text, sizeof text, "%s%s%s%s%s%s%s", ln ? "  " : "",
                 ln ? ln : "", un ? " [" : "", un ? un : "", un ? "]" : "",
                 fo ? "  = " : "", fo ? fo : "");
        ph_grid_text(g, about, text);
    }
    return g;
}

static void info_build(info *in, ph_profile *p, const char *path)
{
    in->path = path;
    in->format = ph_profile_format(p);
    in->command = ph_meta_get(p, "cmd");
    in->approx = ph_profile_approx(p);
    in->meta = meta_grid(p);
    in->parts = parts_grid(p);
    in->events = events_grid(p);
}

static void info_free(info *in)
{
    ph_grid_free(in->meta);
    ph_grid_free(in->parts);
    ph_grid_free(in->events);
}

/* JSON, YAML and key,value CSV. */
static int print_data(const info *in, const ph_profile *p,
                      ph_report_format fmt)
{
    ph_emit *em = ph_emit_new(stdout, fmt);

    ph_emit_map(em, 0);
    ph_emit_key(em, "file");
    ph_emit_str(em, in->path);
    ph_emit_key(em, "format");
    ph_emit_str(em, in->format);
    ph_emit_key(em, "command");
    ph_emit_str(em, in->command);
    ph_emit_key(em, "approximated");
    ph_emit_str(em, in->approx);
    ph_emit_key(em, "metadata");
    ph_grid_emit(in->meta, em);
    ph_emit_key(em, "parts");
    ph_grid_emit(in->parts, em);
    ph_emit_key(em, "events");
    ph_grid_emit(in->events, em);
    ph_emit_key(em, "counts");
    ph_emit_map(em, 1);
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

/* "key:" and the value at column 15. */
static void field(const char *key, const char *value)
{
    int pad = 12 - (int)strlen(key);
    printf("%s:%*s %s\n", key, pad > 0 ? pad : 0, "", value);
}

static void field_count(const char *key, size_t n)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%zu", n);
    field(key, buf);
}

/* The text report: the same values as lines; the parts are listed when
 * there are several. */
static void print_text(const info *in, const ph_profile *p)
{
    field("file", in->path);
    field("format", in->format ? in->format : "?");
    if (in->command)
        field("command", in->command);
    ph_grid_print_rows(in->meta, stdout, "");
    field_count("parts", ph_grid_rows(in->parts));
    if (ph_grid_rows(in->parts) > 1)
        ph_grid_print_rows(in->parts, stdout, "  ");
    field_count("events", ph_grid_rows(in->events));
    ph_grid_print_rows(in->events, stdout, "  ");
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        if (counts[k].text)
            field_count(counts[k].key, counts[k].count(p));
    field("approximated", in->approx ? in->approx : "no");
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
    info in;
    info_build(&in, p, argv[optind]);
    if (fmt == PH_REPORT_TEXT)
        print_text(&in, p);
    else
        rc = print_data(&in, p, fmt);
    info_free(&in);
    ph_profile_free(p);
    return rc;
}
