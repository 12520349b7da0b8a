/* merge.c -- "profhub merge IN... -o OUT": sum profiles (and the parts of
 * one profile) into one, streaming: one input is loaded, added and freed
 * before the next.  --stats prints per-function balance across the inputs
 * (or the parts of a single input): min, max, mean, standard deviation and
 * imbalance (max - mean) / max, Open|SpeedShop's load-balance view. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/report.h"

static const char usage[] =
    "Usage: profhub merge [OPTIONS] IN... -o OUT\n"
    "       profhub merge --stats [OPTIONS] IN...\n"
    "\n"
    "Sum the profiles IN (any formats; functions matched by name, file and\n"
    "object; events by name) and the parts of each into one part of OUT.\n"
    "\n"
    "  -o, --output OUT   the merged profile (format from -t or extension)\n"
    "  -t, --to FMT       format of OUT\n"
    "      --stats        per function: min, max, mean, stddev, imbalance\n"
    "                     across the inputs (one input: across its parts)\n"
    "  -e, --event E      event of --stats (default: the first)\n"
    PH_CLI_DERIVED_HELP
    "  -n, --top N        --stats rows (default 50 in text; 0 = all)\n"
    "  -f, --format F     --stats as text | csv | json | yaml\n"
    "  -w, --width N      text fits N columns (default: $COLUMNS, the\n"
    "                     terminal; no cut when not a terminal)\n"
    "  -F, --from FMT     read the inputs as FMT instead of recognising them\n"
    "      --exe PROG     the profiled program (gmon.out needs it)\n"
    "      --raw-addresses\n"
    "                     no --exe: name gmon.out code by address\n"
    "  -h, --help         show this help\n";

typedef struct opts {
    const char *out, *to, *exe, *event, *from;
    ph_cli_derived derived;  /* --define, --config: on OUT and --stats */
    int stats;
    uint64_t top;
    int top_set;
    ph_report_format fmt;
    char **in;
    size_t nin;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    enum { OPT_STATS = 256, OPT_FMT, OPT_EXE };
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "to", required_argument, NULL, 't' },
        { "stats", no_argument, NULL, OPT_STATS },
        { "event", required_argument, NULL, 'e' },
        PH_CLI_DERIVED_OPTIONS,
        { "top", required_argument, NULL, 'n' },
        { "format", required_argument, NULL, 'f' },
        { "from", required_argument, NULL, 'F' },
        { "exe", required_argument, NULL, OPT_EXE },
        PH_CLI_RAW_ADDRESSES_OPTION,
        { "width", required_argument, NULL, 'w' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;

    o->fmt = PH_REPORT_TEXT;
    ph_report_set_width(NULL);
    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":o:t:e:n:f:F:w:h", longopts, NULL)) != -1) {
        if (ph_cli_derived_option(&o->derived, c, optarg))
            continue;
        switch (c) {
        case 'F':
            if (ph_cli_check_format("merge", optarg, 1) < 0)
                return PH_EXIT_USAGE;
            o->from = optarg;
            break;
        case 'o': o->out = optarg; break;
        case 't': o->to = optarg; break;
        case 'e': o->event = optarg; break;
        case OPT_STATS: o->stats = 1; break;
        case OPT_EXE: o->exe = optarg; break;
        case PH_OPT_RAW_ADDRESSES: ph_cli_raw_addresses = 1; break;
        case 'n':
            if (ph_cli_count("merge", "--top", optarg, &o->top) < 0)
                return PH_EXIT_USAGE;
            o->top_set = 1;
            break;
        case 'f':
            if (ph_cli_report_format("merge", optarg,
                                     PH_REPORT_TEXT | PH_REPORT_CSV |
                                         PH_REPORT_JSON | PH_REPORT_YAML,
                                     &o->fmt) < 0)
                return PH_EXIT_USAGE;
            break;
        case 'w':
            if (ph_report_set_width(optarg) < 0)
                return ph_cli_usage_error("merge", "--width: expected a number "
                                          "of columns (40 or more), got "
                                          "\"%s\"", optarg);
            break;
        case 'h':
            fputs(usage, stdout);
            return -1;
        default:
            return ph_cli_bad_option("merge", argv, c);
        }
    }
    if (optind >= argc)
        return ph_cli_usage_error("merge", "missing input files");
    if (!o->out && !o->stats)
        return ph_cli_usage_error("merge", "missing -o OUT (or --stats)");
    o->in = argv + optind;
    o->nin = (size_t)(argc - optind);
    if (!o->top_set)
        o->top = o->fmt == PH_REPORT_TEXT ? 50 : 0;
    return 0;
}

/* Per-function values of one event across columns (inputs or parts),
 * indexed by the merged profile's function id - 1. */
typedef struct stats {
    size_t ncols, nfunc;
    double *v;       /* nfunc * ncols, grown as functions appear */
} stats;

static void stats_grow(stats *s, size_t nfunc)
{
    if (nfunc <= s->nfunc)
        return;
    s->v = ph_xrealloc(s->v, nfunc * s->ncols * sizeof *s->v);
    memset(s->v + s->nfunc * s->ncols, 0,
           (nfunc - s->nfunc) * s->ncols * sizeof *s->v);
    s->nfunc = nfunc;
}

typedef struct stat_row {
    const ph_func *f;
    double min, max, mean, sd, imbalance;
} stat_row;

static int cmp_rows(const void *a, const void *b)
{
    const stat_row *x = a, *y = b;
    return x->max < y->max ? 1 : x->max > y->max ? -1 : 0;
}

static int print_stats(ph_profile *dst, const stats *s, const opts *o,
                       const char *event, const char *across)
{
    stat_row *rows = ph_xmalloc((s->nfunc + 1) * sizeof *rows);
    size_t n = 0;
    for (size_t i = 0; i < s->nfunc; i++) {
        const double *v = s->v + i * s->ncols;
        stat_row r = {ph_func_at(dst, i), v[0], v[0], 0, 0, 0};
        for (size_t k = 0; k < s->ncols; k++) {
            r.min = v[k] < r.min ? v[k] : r.min;
            r.max = v[k] > r.max ? v[k] : r.max;
            r.mean += v[k];
        }
        r.mean /= (double)s->ncols;
        for (size_t k = 0; k < s->ncols; k++)
            r.sd += (v[k] - r.mean) * (v[k] - r.mean);
        r.sd = sqrt(r.sd / (double)s->ncols);
        r.imbalance = r.max != 0 ? (r.max - r.mean) / r.max : 0;
        if (r.min != 0 || r.max != 0)
            rows[n++] = r;
    }
    ph_qsort(rows, n, sizeof *rows, cmp_rows);
    size_t shown = o->top && o->top < n ? o->top : n;
    int rc = PH_EXIT_OK;
    /* The rows once: name, file, object, then min, max, mean, stddev and
     * imbalance (text: with separators, imbalance in percent, the name
     * last). */
    static const char *const stat[] = {"min", "max", "mean", "stddev"};
    ph_grid *g = ph_grid_new(1);
    size_t name = ph_grid_add_col(g, &(ph_grid_col){ .key = "name",
                                                     .csv = "name" });
    size_t file = ph_grid_add_col(g, &(ph_grid_col){ .key = "file",
                                                     .csv = "file" });
    size_t obj = ph_grid_add_col(g, &(ph_grid_col){ .key = "object",
                                                    .csv = "object" });
    size_t col[4];
    for (int k = 0; k < 4; k++)
        col[k] = ph_grid_add_col(g, &(ph_grid_col){
            .key = stat[k], .csv = stat[k], .head = stat[k], .sep = " ",
            .width = 12, .flags = PH_GRID_FIXED });
    size_t imb = ph_grid_add_col(g, &(ph_grid_col){
        .key = "imbalance", .csv = "imbalance", .head = "imbal", .sep = " ",
        .width = 6, .flags = PH_GRID_FIXED });
    /* four columns past the width, as before the grid */
    size_t fn = ph_grid_add_col(g, &(ph_grid_col){
        .head = "function", .width = 24, .slack = 4,
        .flags = PH_GRID_FILL });
    for (size_t i = 0; i < shown; i++) {
        const stat_row *r = &rows[i];
        const double v[4] = {r->min, r->max, r->mean, r->sd};
        char buf[48];
        ph_grid_row(g);
        ph_grid_str(g, name, ph_str_get(dst, r->f->name));
        ph_grid_str(g, file, r->f->file ? ph_str_get(dst, r->f->file->name)
                                        : "");
        ph_grid_str(g, obj, r->f->object
                                ? ph_str_get(dst, r->f->object->name) : "");
        for (int k = 0; k < 4; k++) {
            ph_grid_num(g, col[k], v[k]);
            ph_grid_text(g, col[k], ph_cli_number(buf, v[k], 1));
        }
        ph_grid_num(g, imb, r->imbalance);
        snprintf(buf, sizeof buf, "%5.1f%%", r->imbalance * 100.0);
        ph_grid_text(g, imb, buf);
        ph_grid_text(g, fn, ph_str_get(dst, r->f->name));
    }
    if (o->fmt == PH_REPORT_TEXT) {
        printf("self %s across %zu %s\n", event, s->ncols, across);
        ph_grid_print_text(g, stdout);
    } else if (o->fmt == PH_REPORT_CSV) {
        ph_grid_print_csv(g, stdout);
    } else {
        ph_emit *em = ph_emit_new(stdout, o->fmt);
        ph_emit_map(em, 0);
        ph_emit_key(em, "event");
        ph_emit_str(em, event);
        ph_emit_key(em, "across");
        ph_emit_str(em, across);
        ph_emit_key(em, "columns");
        ph_emit_uint(em, s->ncols);
        ph_emit_key(em, "functions");
        ph_grid_emit(g, em);
        ph_emit_end(em);
        if (ph_emit_free(em) < 0)
            rc = PH_EXIT_BAD;
    }
    ph_grid_free(g);
    free(rows);
    return rc;
}

/* Record column col of the stats: f's self value of event name in src. */
static void record_column(stats *s, ph_profile *dst, ph_profile *src,
                          ph_func **map, const char *event, int part,
                          size_t col)
{
    const ph_event *ev = ph_event_find(src, event);
    stats_grow(s, ph_func_count(dst));
    if (!ev)
        return;
    for (size_t i = 0; i < ph_func_count(src); i++) {
        const ph_func *f = ph_func_at(src, i);
        double v = ph_event_eval(src, ev, ph_func_self(src, f, part));
        s->v[(map[i]->id - 1) * s->ncols + col] += v;
    }
}

int ph_cmd_merge(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    const ph_format *w = NULL;
    if (rc == 0 && o.out && !(w = ph_cli_writer("merge", o.out, o.to)))
        rc = PH_EXIT_USAGE;
    if (rc != 0) {
        ph_cli_derived_free(&o.derived);
        return rc < 0 ? PH_EXIT_OK : rc;
    }

    ph_merge_stream ms;
    ph_merge_stream_init(&ms, NULL);
    stats st = {.ncols = o.nin};
    const char *event = o.event, *across = "inputs";
    char first_event[128] = "";
    rc = PH_EXIT_OK;
    ph_cli_loads *loads = ph_cli_loads_start((const char *const *)o.in,
                                             o.nin);
    for (size_t i = 0; i < o.nin && rc == PH_EXIT_OK; i++) {
        ph_profile *src = ph_cli_loads_next(loads, o.from, o.exe);
        if (!src) {
            rc = PH_EXIT_BAD;
            break;
        }
        /* --stats reads each input's events, derived ones included. */
        if (o.stats && ph_cli_derive(src, &o.derived) < 0) {
            ph_profile_free(src);
            rc = PH_EXIT_USAGE;
            break;
        }
        ph_func **map = ph_xcalloc(ph_func_count(src) + 1, sizeof *map);
        ph_merge_stream_add(&ms, src, map);
        ph_profile *dst = ms.sum;
        if (!event && ph_event_count(src)) {
            snprintf(first_event, sizeof first_event, "%s",
                     ph_str_get(src, ph_event_at(src, 0)->name));
            event = first_event;
        }
        if (o.stats && event && !ph_event_find(src, event)) {
            rc = ph_cli_usage_error("merge", "%s: no event \"%s\"", o.in[i],
                                    event);
        } else if (o.stats && o.nin == 1) {
            /* One input: balance across its parts. */
            size_t np = ph_part_count(src);
            st.ncols = np ? np : 1;
            across = "parts";
            for (size_t k = 0; k < np; k++)
                record_column(&st, dst, src, map, event, (int)k, k);
        } else if (o.stats) {
            record_column(&st, dst, src, map, event, PH_ALL_PARTS, i);
        }
        free(map);
        ph_profile_free(src);
    }
    ph_cli_loads_end(loads);
    ph_profile *dst = ph_merge_stream_finish(&ms);
    if (rc == PH_EXIT_OK && o.stats && event)
        rc = print_stats(dst, &st, &o, event, across);
    /* The merged profile's derived events are written where the format
     * holds formulas: defined once on the sum of every input's events. */
    if (rc == PH_EXIT_OK && w && ph_cli_derive(dst, &o.derived) < 0)
        rc = PH_EXIT_USAGE;
    if (rc == PH_EXIT_OK && w) {
        ph_profile_set_format(dst, "merge");
        rc = ph_cli_save(dst, w, o.out, NULL, 0);
    }
    free(st.v);
    ph_cli_derived_free(&o.derived);
    ph_profile_free(dst);
    return rc;
}
