/* diff.c -- "profhub diff BASE NEW": what changed between two runs, for
 * any two inputs, as a report (text, CSV, JSON, YAML), as a signed profile
 * (-o FILE through any exporter), and as a gate for CI (--fail-if, exit 3).
 * Matching and sums are analysis/profile_diff.c's; this file parses and
 * prints. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgview/fail_rule.h"
#include "cgview/report.h"

#define MAX_RULES 16

static const char usage[] =
    "Usage: profhub diff [OPTIONS] BASE NEW\n"
    "\n"
    "Compare two profiles of any formats: totals, then the functions (or\n"
    "files, objects, lines, call paths) sorted by the absolute change of\n"
    "one event.  Rows present on one side only are marked '-' (base only)\n"
    "or '+' (new only).\n"
    "\n"
    "  -e, --event E          event to sort by (default: BASE's default\n"
    "                         event, else the first both profiles have)\n"
    PH_CLI_DERIVED_HELP
    "      --match M          name+file+program (default: the two main\n"
    "                         programs pair whatever their names, other\n"
    "                         objects by file name) | name | name+file |\n"
    "                         name+file+object (the object's whole path)\n"
    "      --by B             function (default) | file | object | line | path\n"
    "      --rename-fn S      s/OLD/NEW/ on function names before matching\n"
    "      --rename-file S    s/OLD/NEW/ on file names before matching\n"
    "      --normalize        scale NEW to BASE's total before subtracting\n"
    "      --threshold PCT    hide rows whose change is under PCT% of the\n"
    "                         base total\n"
    "  -n, --top N            show N rows (default 50 in text, all otherwise;\n"
    "                         0 = all)\n"
    "  -f, --format F         text | csv | json | yaml\n"
    "  -w, --width N          text fits N columns (default: $COLUMNS, the\n"
    "                         terminal; no cut when not a terminal)\n"
    "  -F, --from FMT         read BASE and NEW as FMT instead of recognising\n"
    "                         them\n"
    "      --fail-if RULE     exit 3 when RULE holds: 'EVENT > +5%',\n"
    "                         'fn:NAME EVENT > +2%', 'EVENT > 1000' (repeatable)\n"
    "  -o, --output OUT       also write NEW - BASE as a profile\n"
    "  -t, --to FMT           format of OUT (default: from its extension)\n"
    "      --exe PROG         the profiled program (gmon.out needs it)\n"
    "      --raw-addresses    no --exe: name gmon.out code by address\n"
    "  -h, --help             show this help\n"
    "\n"
    "Exit status: 0 ok, 1 bad input, 2 usage, 3 a --fail-if rule held.\n";

typedef struct opts {
    const char *base, *newp, *event, *out, *to, *exe, *from;
    ph_cli_derived derived;  /* --define, --config: on both sides */
    ph_diff_opts d;
    ph_rename rfn[MAX_RULES], rfile[MAX_RULES];
    ph_fail_rule rules[MAX_RULES];
    size_t nrules;
    double threshold;
    uint64_t top;
    int top_set;
    ph_report_format fmt;
} opts;

static int parse_choice(const char *cmd, const char *opt, const char *arg,
                        const char *const *names, int *out)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(arg, names[i]) == 0) {
            *out = i;
            return 0;
        }
    ph_cli_usage_error(cmd, "unknown %s \"%s\"", opt, arg);
    return -1;
}

static int parse(int argc, char **argv, opts *o)
{
    enum { OPT_MATCH = 256, OPT_BY, OPT_RFN, OPT_RFILE, OPT_NORM, OPT_THR,
           OPT_FMT, OPT_FAIL, OPT_EXE };
    static const struct option longopts[] = {
        { "event", required_argument, NULL, 'e' },
        PH_CLI_DERIVED_OPTIONS,
        { "match", required_argument, NULL, OPT_MATCH },
        { "by", required_argument, NULL, OPT_BY },
        { "rename-fn", required_argument, NULL, OPT_RFN },
        { "rename-file", required_argument, NULL, OPT_RFILE },
        { "normalize", no_argument, NULL, OPT_NORM },
        { "threshold", required_argument, NULL, OPT_THR },
        { "top", required_argument, NULL, 'n' },
        { "format", required_argument, NULL, 'f' },
        { "from", required_argument, NULL, 'F' },
        { "fail-if", required_argument, NULL, OPT_FAIL },
        { "output", required_argument, NULL, 'o' },
        { "to", required_argument, NULL, 't' },
        { "exe", required_argument, NULL, OPT_EXE },
        PH_CLI_RAW_ADDRESSES_OPTION,
        { "width", required_argument, NULL, 'w' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const char *const matches[] = {"name+file+program", "name",
                                          "name+file", "name+file+object",
                                          NULL};
    static const char *const bys[] = {"function", "file", "object", "line",
                                      "path", NULL};
    char err[256];
    int c, v;

    o->fmt = PH_REPORT_TEXT;
    ph_report_set_width(NULL);
    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":e:n:o:t:f:F:w:h", longopts, NULL)) != -1) {
        if (ph_cli_derived_option(&o->derived, c, optarg))
            continue;
        switch (c) {
        case 'e': o->event = optarg; break;
        case 'F':
            if (ph_cli_check_format("diff", optarg, 1) < 0)
                return PH_EXIT_USAGE;
            o->from = optarg;
            break;
        case 'o': o->out = optarg; break;
        case 't': o->to = optarg; break;
        case OPT_EXE: o->exe = optarg; break;
        case PH_OPT_RAW_ADDRESSES: ph_cli_raw_addresses = 1; break;
        case OPT_NORM: o->d.normalize = 1; break;
        case OPT_MATCH:
            if (parse_choice("diff", "--match", optarg, matches, &v) < 0)
                return PH_EXIT_USAGE;
            o->d.match = (ph_match)v;
            break;
        case OPT_BY:
            if (parse_choice("diff", "--by", optarg, bys, &v) < 0)
                return PH_EXIT_USAGE;
            o->d.by = (ph_diff_by)v;
            break;
        case OPT_RFN:
        case OPT_RFILE: {
            int fn = c == OPT_RFN;
            size_t *n = fn ? &o->d.nrename_fn : &o->d.nrename_file;
            ph_rename *r = fn ? o->rfn : o->rfile;
            if (*n == MAX_RULES)
                return ph_cli_usage_error("diff", "too many rename rules");
            if (ph_rename_parse(&r[*n], optarg, err, sizeof err) < 0)
                return ph_cli_usage_error("diff", "%s: %s",
                                          fn ? "--rename-fn" : "--rename-file",
                                          err);
            (*n)++;
            break;
        }
        case OPT_THR: {
            size_t len = strlen(optarg);
            if (ph_parse_decimal(optarg, len, &o->threshold) != len ||
                o->threshold < 0)
                return ph_cli_usage_error("diff", "--threshold expects a "
                                          "percentage, got \"%s\"", optarg);
            break;
        }
        case 'n':
            if (ph_cli_count("diff", "--top", optarg, &o->top) < 0)
                return PH_EXIT_USAGE;
            o->top_set = 1;
            break;
        case 'f':
            if (ph_cli_report_format("diff", optarg,
                                     PH_REPORT_TEXT | PH_REPORT_CSV |
                                         PH_REPORT_JSON | PH_REPORT_YAML,
                                     &o->fmt) < 0)
                return PH_EXIT_USAGE;
            break;
        case OPT_FAIL:
            if (o->nrules == MAX_RULES)
                return ph_cli_usage_error("diff", "too many --fail-if rules");
            if (ph_fail_rule_parse(&o->rules[o->nrules], optarg) < 0)
                return ph_cli_usage_error("diff", "--fail-if expects "
                                          "'[fn:NAME] EVENT > +5%%', got "
                                          "\"%s\"", optarg);
            o->nrules++;
            break;
        case 'w':
            if (ph_report_set_width(optarg) < 0)
                return ph_cli_usage_error("diff", "--width: expected a number "
                                          "of columns (40 or more), got "
                                          "\"%s\"", optarg);
            break;
        case 'h':
            fputs(usage, stdout);
            return -1;
        default:
            return ph_cli_bad_option("diff", argv, c);
        }
    }
    if (argc - optind != 2)
        return ph_cli_usage_error("diff", "expected two profiles, BASE and "
                                  "NEW");
    o->base = argv[optind];
    o->newp = argv[optind + 1];
    if (!o->top_set)
        o->top = o->fmt == PH_REPORT_TEXT ? 50 : 0;
    o->d.rename_fn = o->rfn;
    o->d.rename_file = o->rfile;
    return 0;
}

/* Rows to show: threshold on |delta| against the base total, then top. */
static size_t rows_shown(const ph_diff *d, size_t e, const opts *o)
{
    double tot = fabs(ph_diff_base_total(d, e));
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) {
        const ph_diff_row *r = &d->rows[i];
        double delta = ph_diff_new_value(d, r, e) - ph_diff_base_value(d, r, e);
        if (o->threshold > 0 && tot > 0 &&
            fabs(delta) * 100.0 / tot < o->threshold)
            break;   /* sorted by |delta|: the rest are smaller */
        if (o->top && n == o->top)
            break;
        n++;
    }
    return n;
}

static const char *status_name(int status)
{
    return status == (PH_DIFF_IN_BASE | PH_DIFF_IN_NEW) ? "both"
           : status == PH_DIFF_IN_BASE                  ? "base-only"
                                                        : "new-only";
}

static const char *signed_num(char *buf, double v)
{
    /* buf holds 48 bytes; a number with separators needs under 40. */
    buf[0] = '+';
    ph_cli_number(buf + (v > 0), v, 1);
    return buf;
}

static const char *percent(char *buf, double part, double whole)
{
    if (whole == 0)
        snprintf(buf, 16, "%s", part == 0 ? "0.00%" : "n/a");
    else
        snprintf(buf, 16, "%+.2f%%", part * 100.0 / whole);
    return buf;
}

static const char *match_name(ph_match m)
{
    static const char *const names[] = {"name+file+program", "name",
                                        "name+file", "name+file+object"};
    return names[m];
}

static const char *event_name(const ph_diff *d, size_t e)
{
    return ph_str_get(d->base, d->bev[e]->name);
}

/* The totals: a row per event, keyed by its name in the data formats
 * ("Ir": {base: 1, new: 2, delta: 1}); text adds delta%. */
static ph_grid *totals_grid(const ph_diff *d)
{
    static const char *const what[] = {"base", "new", "delta"};
    ph_grid *g = ph_grid_new(1);
    size_t name, v[3], pc;
    char buf[48], fit[PH_REPORT_MAXW + 1];

    name = ph_grid_add_col(g, &(ph_grid_col){
        .key = "event", .head = "event", .width = 12,
        .flags = PH_GRID_KEY | PH_GRID_LEFT | PH_GRID_FIXED });
    for (int k = 0; k < 3; k++)
        v[k] = ph_grid_add_col(g, &(ph_grid_col){
            .key = what[k], .head = what[k], .sep = " ", .width = 15,
            .flags = PH_GRID_FIXED });
    pc = ph_grid_add_col(g, &(ph_grid_col){ .head = "delta%", .sep = " ",
                                            .width = 9,
                                            .flags = PH_GRID_FIXED });
    for (size_t e = 0; e < d->nevents; e++) {
        double bt = ph_diff_base_total(d, e), nt = ph_diff_new_total(d, e);
        ph_grid_row(g);
        ph_grid_str(g, name, event_name(d, e));
        ph_grid_text(g, name, ph_report_fit(fit, sizeof fit,
                                            event_name(d, e), 12));
        ph_grid_num(g, v[0], bt);
        ph_grid_text(g, v[0], ph_cli_number(buf, bt, 1));
        ph_grid_num(g, v[1], nt);
        ph_grid_text(g, v[1], ph_cli_number(buf, nt, 1));
        ph_grid_num(g, v[2], nt - bt);
        ph_grid_text(g, v[2], signed_num(buf, nt - bt));
        ph_grid_text(g, pc, percent(buf, nt - bt, bt));
    }
    return g;
}

static void print_text(const ph_diff *d, size_t ev, size_t shown,
                       const opts *o, const ph_grid *t, const ph_grid *g)
{
    static const char *const bys[] = {"function", "file", "object", "line",
                                      "call path"};

    printf("base: %s (%s)\n", o->base, ph_profile_format(d->base)
                                           ? ph_profile_format(d->base) : "?");
    printf("new:  %s (%s)\n", o->newp, ph_profile_format(d->newp)
                                           ? ph_profile_format(d->newp) : "?");
    printf("rows: by %s", bys[o->d.by]);
    if (o->d.by == PH_BY_FUNCTION)
        printf(", matched by %s", match_name(o->d.match));
    if (d->base_program || d->new_program)
        printf(" (main program %s <-> %s; other objects by file name)",
               d->base_program ? d->base_program : "?",
               d->new_program ? d->new_program : "?");
    if (o->d.normalize)
        printf(", NEW normalised to BASE's total");
    printf("\n\n");
    ph_grid_print_text(t, stdout);
    printf("\n%zu of %zu rows by |delta| of %s (- base only, + new only):\n",
           shown, d->count, event_name(d, ev));
    ph_grid_print_text(g, stdout);
}

/* The columns of a row: name, file, object, then base, new and delta of
 * every event as data (CSV: base_EV, new_EV, delta_EV event by event,
 * after the status), status; in text, the sorting event's base, new,
 * delta, delta%, ratio, then the mark and the name. */
typedef struct diff_cols {
    size_t name, file, object, status, value[3];
    size_t text[5], mark, label;
} diff_cols;

static void declare(const ph_diff *d, ph_grid *g, diff_cols *c)
{
    static const char *const what[] = {"base", "new", "delta"};
    static const char *const heads[] = {"base", "new", "delta", "delta%",
                                        "ratio"};
    static const int widths[] = {13, 13, 13, 8, 6};

    c->name = ph_grid_add_col(g, &(ph_grid_col){ .key = "name",
                                                 .csv = "name",
                                                 .csv_pos = 1 });
    c->file = ph_grid_add_col(g, &(ph_grid_col){ .key = "file",
                                                 .csv = "file",
                                                 .csv_pos = 2 });
    c->object = ph_grid_add_col(g, &(ph_grid_col){ .key = "object",
                                                   .csv = "object",
                                                   .csv_pos = 3 });
    for (int k = 0; k < 3; k++) {
        c->value[k] = ph_grid_add_col(g, &(ph_grid_col){ .group = what[k] });
        for (size_t e = 0; e < d->nevents; e++) {
            char h[160];
            snprintf(h, sizeof h, "%s_%s", what[k], event_name(d, e));
            ph_grid_add_col(g, &(ph_grid_col){
                .key = event_name(d, e), .group = what[k], .csv = h,
                .csv_pos = 5 + 3 * (int)e + k });
        }
    }
    c->status = ph_grid_add_col(g, &(ph_grid_col){ .key = "status",
                                                   .csv = "status",
                                                   .csv_pos = 4 });
    for (int k = 0; k < 5; k++)
        c->text[k] = ph_grid_add_col(g, &(ph_grid_col){
            .head = heads[k], .sep = " ", .width = widths[k],
            .flags = PH_GRID_FIXED });
    c->mark = ph_grid_add_col(g, &(ph_grid_col){ .head = "", .sep = " ",
                                                 .width = 1,
                                                 .flags = PH_GRID_FIXED });
    /* one column past the width, as before the grid */
    c->label = ph_grid_add_col(g, &(ph_grid_col){ .head = "name", .sep = "",
                                                  .width = 22, .slack = 1,
                                                  .flags = PH_GRID_FILL });
}

static void add_row(const ph_diff *d, ph_grid *g, const diff_cols *c,
                    const ph_diff_row *r, size_t ev)
{
    double tot = ph_diff_base_total(d, ev);
    double bv = ph_diff_base_value(d, r, ev), nv = ph_diff_new_value(d, r, ev);
    char a[48], b[48], x[48], p[16], ratio[16];

    ph_grid_row(g);
    ph_grid_str(g, c->name, ph_diff_str(d, r->name));
    ph_grid_str(g, c->file, ph_diff_str(d, r->file));
    ph_grid_str(g, c->object, ph_diff_str(d, r->object));
    for (int k = 0; k < 3; k++) {
        size_t col = c->value[k];
        ph_grid_null(g, col++);
        for (size_t e = 0; e < d->nevents; e++) {
            double be = ph_diff_base_value(d, r, e);
            double ne = ph_diff_new_value(d, r, e);
            ph_grid_num(g, col++, k == 0 ? be : k == 1 ? ne : ne - be);
        }
    }
    ph_grid_str(g, c->status, status_name(r->status));
    if (bv != 0)
        snprintf(ratio, sizeof ratio, "%.2f", nv / bv);
    else
        snprintf(ratio, sizeof ratio, "-");
    ph_grid_text(g, c->text[0], ph_cli_number(a, bv, 1));
    ph_grid_text(g, c->text[1], ph_cli_number(b, nv, 1));
    ph_grid_text(g, c->text[2], signed_num(x, nv - bv));
    ph_grid_text(g, c->text[3], percent(p, nv - bv, tot));
    ph_grid_text(g, c->text[4], ratio);
    ph_grid_text(g, c->mark, r->status == PH_DIFF_IN_BASE  ? "-"
                             : r->status == PH_DIFF_IN_NEW ? "+"
                                                           : " ");
    ph_grid_text(g, c->label, ph_diff_str(d, r->name));
}

static int print_data(const ph_diff *d, const opts *o, const ph_grid *t,
                      const ph_grid *g)
{
    ph_emit *em = ph_emit_new(stdout, o->fmt);
    ph_emit_map(em, 0);
    ph_emit_key(em, "base");
    ph_emit_str(em, o->base);
    ph_emit_key(em, "new");
    ph_emit_str(em, o->newp);
    ph_emit_key(em, "match");
    ph_emit_map(em, 1);
    ph_emit_key(em, "rule");
    ph_emit_str(em, o->d.by == PH_BY_FUNCTION ? match_name(o->d.match)
                                             : "name");
    ph_emit_key(em, "base_program");
    ph_emit_str(em, d->base_program);
    ph_emit_key(em, "new_program");
    ph_emit_str(em, d->new_program);
    ph_emit_end(em);
    ph_emit_key(em, "events");
    ph_emit_list(em, 0);
    for (size_t e = 0; e < d->nevents; e++) {
        const ph_event *ev = d->bev[e];
        ph_emit_map(em, 1);
        ph_emit_key(em, "name");
        ph_emit_str(em, event_name(d, e));
        ph_emit_key(em, "long_name");
        ph_emit_str(em, ev->long_name ? ph_str_get(d->base, ev->long_name)
                                      : NULL);
        ph_emit_key(em, "formula");
        ph_emit_str(em, ev->formula ? ph_str_get(d->base, ev->formula)
                                    : NULL);
        ph_emit_end(em);
    }
    ph_emit_end(em);
    ph_emit_key(em, "totals");
    ph_grid_emit(t, em);
    ph_emit_key(em, "rows");
    ph_grid_emit(g, em);
    ph_emit_end(em);
    return ph_emit_free(em) < 0 ? PH_EXIT_BAD : PH_EXIT_OK;
}

/* Evaluate the --fail-if rules; print the first that holds.  Returns 1
 * when one held, 0 when none, -1 on a rule naming an unknown event. */
static int check_rules(const ph_diff *d, const opts *o)
{
    for (size_t i = 0; i < o->nrules; i++) {
        const ph_fail_rule *r = &o->rules[i];
        size_t e = ph_diff_event_index(d, r->event);
        if (e == (size_t)-1) {
            ph_cli_usage_error("diff", "--fail-if '%s': no event \"%s\" in "
                               "both profiles", r->text, r->event);
            return -1;
        }
        double bv = 0, nv = 0;
        int found = 0;
        if (r->fn[0]) {
            for (size_t k = 0; k < d->count; k++) {
                if (strcmp(ph_diff_str(d, d->rows[k].name), r->fn) != 0)
                    continue;
                bv += ph_diff_base_value(d, &d->rows[k], e);
                nv += ph_diff_new_value(d, &d->rows[k], e);
                found = 1;
            }
            if (!found) {
                ph_cli_usage_error("diff", "--fail-if '%s': no function "
                                   "\"%s\" in either profile", r->text, r->fn);
                return -1;
            }
        } else {
            bv = ph_diff_base_total(d, e);
            nv = ph_diff_new_total(d, e);
        }
        double change = nv - bv;
        if (r->percent)
            change = bv != 0 ? change * 100.0 / fabs(bv)
                             : (change > 0 ? INFINITY : change < 0 ? -INFINITY
                                                                   : 0);
        int held = r->op == '>' ? change > r->bound : change < r->bound;
        if (held) {
            char a[48], b[48], c[48], p[16];
            fflush(stdout);
            ph_cli_error("fail-if '%s' holds: %s%s%s %s -> %s (%s, %s)",
                         r->text, r->fn[0] ? r->fn : "", r->fn[0] ? " " : "",
                         r->event, ph_cli_number(a, bv, 1),
                         ph_cli_number(b, nv, 1), signed_num(c, nv - bv),
                         percent(p, nv - bv, fabs(bv)));
            return 1;
        }
    }
    return 0;
}

/* NEW - BASE as a profile: NEW at +1, BASE at -1 with pprof's base label
 * (its -diff_base convention), both into one part. */
static int write_diff(const opts *o, ph_profile *b, ph_profile *n)
{
    const ph_format *w = ph_cli_writer("diff", o->out, o->to);
    if (!w)
        return PH_EXIT_USAGE;
    ph_profile *dst = ph_profile_new();
    ph_merge_opts mo = {
        .scale = 1, .into = ph_part_add(dst, PH_PART_WHOLE),
        .rename_fn = o->d.rename_fn, .nrename_fn = o->d.nrename_fn,
        .rename_file = o->d.rename_file, .nrename_file = o->d.nrename_file,
    };
    ph_merge_into(dst, n, &mo);
    mo.scale = -1;
    mo.label_key = "pprof::base";
    mo.label_value = "true";
    ph_merge_into(dst, b, &mo);
    ph_profile_set_format(dst, "diff");
    int rc = ph_cli_save(dst, w, o->out, NULL, 0);
    ph_profile_free(dst);
    return rc;
}

int ph_cmd_diff(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc < 0)
        return PH_EXIT_OK;
    if (rc > 0)
        goto done;
    rc = PH_EXIT_BAD;
    ph_profile *b, *n;
    if (ph_cli_load_pair(o.base, o.newp, o.from, o.exe, &b, &n) < 0)
        goto done;
    if (ph_cli_derive(b, &o.derived) < 0 || ph_cli_derive(n, &o.derived) < 0) {
        ph_profile_free(b);
        ph_profile_free(n);
        rc = PH_EXIT_USAGE;
        goto done;
    }
    /* Built-ins are compared when named (-e, --fail-if), so a diff lists
     * the events the files hold. */
    const char *named[MAX_RULES + 1];
    size_t nnamed = 0;
    if (o.event)
        named[nnamed++] = o.event;
    for (size_t i = 0; i < o.nrules; i++)
        named[nnamed++] = o.rules[i].event;
    o.d.builtins = named;
    o.d.nbuiltins = nnamed;
    ph_diff *d = ph_diff_build(b, n, &o.d);
    const ph_event *def = ph_default_event(b);
    size_t ev = def ? ph_diff_event_index(d, ph_str_get(b, def->name)) : 0;
    if (ev == (size_t)-1)
        ev = 0;
    if (d->nevents == 0) {
        ph_cli_error("%s and %s have no event in common", o.base, o.newp);
    } else if (o.event &&
               (ev = ph_diff_event_index(d, o.event)) == (size_t)-1) {
        rc = ph_cli_usage_error("diff", "no event \"%s\" in both profiles",
                                o.event);
    } else {
        ph_diff_sort(d, ev, (size_t)o.top);
        size_t shown = rows_shown(d, ev, &o);
        ph_grid *g = ph_grid_new(0), *t = totals_grid(d);
        diff_cols cols;
        declare(d, g, &cols);
        for (size_t i = 0; i < shown; i++)
            add_row(d, g, &cols, &d->rows[i], ev);
        rc = PH_EXIT_OK;
        if (o.fmt == PH_REPORT_TEXT)
            print_text(d, ev, shown, &o, t, g);
        else if (o.fmt == PH_REPORT_CSV)
            ph_grid_print_csv(g, stdout);
        else
            rc = print_data(d, &o, t, g);
        ph_grid_free(g);
        ph_grid_free(t);
        int gate = rc == PH_EXIT_OK ? check_rules(d, &o) : 0;
        if (gate < 0)
            rc = PH_EXIT_USAGE;
        if (rc == PH_EXIT_OK && o.out)
            rc = write_diff(&o, b, n);
        if (rc == PH_EXIT_OK && gate > 0)
            rc = PH_EXIT_GATE;
    }
    ph_diff_free(d);
    ph_profile_free(b);
    ph_profile_free(n);
done:
    ph_cli_derived_free(&o.derived);
    for (size_t i = 0; i < o.d.nrename_fn; i++)
        ph_rename_free(&o.rfn[i]);
    for (size_t i = 0; i < o.d.nrename_file; i++)
        ph_rename_free(&o.rfile[i]);
    return rc;
}
