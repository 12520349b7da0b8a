/* report_html.c -- "profhub report IN [--base OLD] -o report.html": one
 * self-contained HTML page (no network, no external script or font) with
 * the events and totals, a sortable table of the top functions, the flame
 * graph and, with --base, the table of changes and the differential flame
 * graph.  The pictures are the svg exporter's, inline; a search box
 * highlights frames whose name matches.  Works from a file:// URL. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cgview/cli.h"
#include "exporters/svg.h"

static const char usage[] =
    "Usage: profhub report [OPTIONS] IN [--base OLD] -o REPORT.html\n"
    "\n"
    "Write one self-contained HTML page about the profile IN: events and\n"
    "totals, the top functions (click a column to sort), the flame graph\n"
    "(click a frame to zoom; the search box highlights), and with --base\n"
    "the changes from OLD and the differential flame graph.  The page\n"
    "needs no network and opens from a file:// URL.\n"
    "\n"
    "  -o, --output OUT     the file to write (- for standard output)\n"
    "  -b, --base OLD       the profile to compare IN with\n"
    "  -e, --event NAME     the event of the tables and pictures\n"
    "  -n, --top N          rows in each table (default 50)\n"
    "      --min-width PCT  merge frames narrower than PCT (default 0.1)\n"
    "      --exe PROG       the profiled program (gmon.out needs it)\n"
    "      --raw-addresses  no --exe: name gmon.out code by address\n"
    "  -h, --help           show this help\n";

typedef struct opts {
    const char *in, *out, *base, *event, *minwidth, *exe;
    uint64_t top;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    enum { OPT_MINW = 256, OPT_EXE };
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "base", required_argument, NULL, 'b' },
        { "event", required_argument, NULL, 'e' },
        { "top", required_argument, NULL, 'n' },
        { "min-width", required_argument, NULL, OPT_MINW },
        { "exe", required_argument, NULL, OPT_EXE },
        PH_CLI_RAW_ADDRESSES_OPTION,
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;

    o->top = 50;
    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":o:b:e:n:h", longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'o': o->out = optarg; break;
        case 'b': o->base = optarg; break;
        case 'e': o->event = optarg; break;
        case 'n':
            if (ph_cli_count("report", "--top", optarg, &o->top) < 0)
                return PH_EXIT_USAGE;
            break;
        case OPT_MINW: o->minwidth = optarg; break;
        case OPT_EXE: o->exe = optarg; break;
        case PH_OPT_RAW_ADDRESSES: ph_cli_raw_addresses = 1; break;
        case 'h':
            fputs(usage, stdout);
            return -1;
        default:
            return ph_cli_bad_option("report", argv, c);
        }
    }
    if (optind >= argc)
        return ph_cli_usage_error("report", "missing input file");
    if (optind + 1 < argc)
        return ph_cli_usage_error("report", "unexpected argument \"%s\"",
                                  argv[optind + 1]);
    o->in = argv[optind];
    if (!o->out)
        return ph_cli_usage_error("report", "missing -o REPORT.html");
    return 0;
}

/* ------------------------------------------------------------------ */
/* HTML pieces                                                         */

static void html(ph_output *out, const char *s)
{
    const char *run = s;
    for (; *s; s++) {
        const char *rep = *s == '<' ? "&lt;" : *s == '>' ? "&gt;" :
                          *s == '&' ? "&amp;" : *s == '"' ? "&quot;" : NULL;
        if (!rep)
            continue;
        ph_output_write(out, run, (size_t)(s - run));
        ph_output_puts(out, rep);
        run = s + 1;
    }
    ph_output_puts(out, run);
}

/* A number cell: the exact value for sorting, commas for reading. */
static void num_cell(ph_output *out, double v)
{
    char buf[48];
    if (v == floor(v) && fabs(v) < 9e18)
        ph_cli_commas(buf, (int64_t)v);
    else
        ph_cli_number(buf, v, 1);
    ph_output_printf(out, "<td class=\"n\" data-v=\"%.17g\">%s</td>", v, buf);
}

static void pct_cell(ph_output *out, double part, double whole)
{
    if (whole == 0)
        ph_output_puts(out, "<td class=\"n\" data-v=\"0\">-</td>");
    else
        ph_output_printf(out, "<td class=\"n\" data-v=\"%.17g\">%.2f%%</td>",
                         100 * part / whole, 100 * part / whole);
}

static const char style[] =
    "<style>\n"
    "body{font-family:Verdana,Arial,sans-serif;font-size:13px;margin:16px;"
    "color:#222;background:#fff}\n"
    "h1{font-size:20px}h2{font-size:16px;margin-top:28px}\n"
    "table{border-collapse:collapse;margin:6px 0}\n"
    "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}\n"
    "th{background:#eee;cursor:pointer;user-select:none}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "td.up{color:#b00}td.down{color:#00b}\n"
    ".ph-note{color:#666}\n"
    ".ph-pic{display:block;max-width:100%;height:auto}\n"
    "</style>\n";

/* Sorting (click a header; again to reverse) and the frame search. */
static const char script[] =
    "<script>\n"
    "(function () {\n"
    "  document.querySelectorAll('table.ph-sort').forEach(function (t) {\n"
    "    t.querySelectorAll('th').forEach(function (th, col) {\n"
    "      th.addEventListener('click', function () {\n"
    "        var body = t.tBodies[0], rows = Array.prototype.slice.call("
    "body.rows);\n"
    "        var down = th.getAttribute('data-dir') !== 'down';\n"
    "        t.querySelectorAll('th').forEach(function (h) {"
    " h.removeAttribute('data-dir'); });\n"
    "        th.setAttribute('data-dir', down ? 'down' : 'up');\n"
    "        rows.sort(function (a, b) {\n"
    "          var x = a.cells[col], y = b.cells[col];\n"
    "          var u = x.getAttribute('data-v'), v = y.getAttribute('data-v');"
    "\n"
    "          var r = u !== null ? (+u) - (+v) :"
    " x.textContent.localeCompare(y.textContent);\n"
    "          return down ? -r : r;\n"
    "        });\n"
    "        rows.forEach(function (r) { body.appendChild(r); });\n"
    "      });\n"
    "    });\n"
    "  });\n"
    "  var box = document.querySelector('input.ph-search'),"
    " said = document.querySelector('.ph-hits');\n"
    "  if (!box) return;\n"
    "  box.addEventListener('input', function () {\n"
    "    var re = null, n = 0;\n"
    "    if (box.value) {\n"
    "      try { re = new RegExp(box.value); }\n"
    "      catch (e) { re = new RegExp(box.value.replace("
    "/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&')); }\n"
    "    }\n"
    "    document.querySelectorAll('g.ph-f').forEach(function (g) {\n"
    "      var r = g.querySelector('rect'), t = g.querySelector('title');\n"
    "      if (!r.hasAttribute('data-fill'))"
    " r.setAttribute('data-fill', r.getAttribute('fill'));\n"
    "      var hit = re && t && re.test(t.textContent.split('\\n')[0]);\n"
    "      g.classList.toggle('ph-hit', !!hit);\n"
    "      r.setAttribute('fill', hit ? 'rgb(230,0,230)' :"
    " r.getAttribute('data-fill'));\n"
    "      if (hit) n++;\n"
    "    });\n"
    "    said.textContent = box.value ? n + ' frames match' : '';\n"
    "  });\n"
    "})();\n"
    "</script>\n";

/* ------------------------------------------------------------------ */
/* Sections                                                            */

static void events_section(ph_output *out, ph_profile *p)
{
    const int64_t *tot = ph_totals(p, PH_ALL_PARTS);
    ph_output_puts(out, "<h2>Events and totals</h2>\n<table class=\"ph-events"
                   "\"><thead><tr><th>Event</th><th>Description</th>"
                   "<th>Total</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < ph_event_count(p); i++) {
        const ph_event *ev = ph_event_at(p, i);
        if (ev->flags & PH_EV_BUILTIN)
            continue;
        ph_output_puts(out, "<tr><td>");
        html(out, ph_str_get(p, ev->name));
        ph_output_puts(out, "</td><td>");
        if (ev->long_name)
            html(out, ph_str_get(p, ev->long_name));
        if (ev->formula) {
            ph_output_puts(out, ev->long_name ? " = " : "= ");
            html(out, ph_str_get(p, ev->formula));
        }
        ph_output_puts(out, "</td>");
        num_cell(out, ph_event_eval(p, ev, tot));
        ph_output_puts(out, "</tr>\n");
    }
    ph_output_puts(out, "</tbody></table>\n");
}

static void top_section(ph_output *out, ph_profile *p, const ph_event *ev,
                        uint64_t top)
{
    ph_table_opts to;
    memset(&to, 0, sizeof to);
    to.group = PH_GROUP_FUNCTION;
    to.part = PH_ALL_PARTS;
    to.cycles = 1;
    ph_table *t = ph_table_build(p, &to);
    ph_table_sort(t, ev, PH_SORT_SELF);
    double total = ph_event_eval(p, ev, t->totals);
    const char *evn = ph_str_get(p, ev->name);
    ph_output_printf(out, "<h2>Top functions</h2>\n<p class=\"ph-note\">%zu "
                     "functions; the %llu with the highest self cost of ",
                     t->count, (unsigned long long)top);
    html(out, evn);
    ph_output_puts(out, ". Click a column to sort.</p>\n<table class=\"ph-top "
                   "ph-sort\"><thead><tr><th>Function</th>");
    ph_output_printf(out, "<th>Self</th><th>Self %%</th><th>Inclusive</th>"
                     "<th>Incl. %%</th><th>Calls</th><th>File</th>"
                     "<th>Object</th></tr></thead><tbody>\n");
    for (size_t i = 0, shown = 0; i < t->count && shown < top; i++) {
        const ph_entry *e = &t->entries[i];
        if (e->is_cycle)
            continue;
        shown++;
        double self = ph_entry_value(t, e, ev, 0);
        double incl = e->has_incl ? ph_entry_value(t, e, ev, 1) : 0;
        ph_output_puts(out, "<tr><td>");
        html(out, ph_entry_name(t, e));
        ph_output_puts(out, "</td>");
        num_cell(out, self);
        pct_cell(out, self, total);
        num_cell(out, incl);
        pct_cell(out, incl, total);
        num_cell(out, (double)e->calls);
        ph_output_puts(out, "<td>");
        html(out, e->file);
        ph_output_puts(out, "</td><td>");
        html(out, e->object);
        ph_output_puts(out, "</td></tr>\n");
    }
    ph_output_puts(out, "</tbody></table>\n");
    ph_table_free(t);
}

static int diff_section(ph_output *out, ph_profile *base, ph_profile *p,
                        const ph_event *ev, uint64_t top)
{
    ph_diff_opts o;
    memset(&o, 0, sizeof o);
    ph_diff *d = ph_diff_build(base, p, &o);
    size_t e = ph_diff_event_index(d, ph_str_get(p, ev->name));
    if (e == (size_t)-1) {
        ph_cli_error("the base profile has no event \"%s\"",
                     ph_str_get(p, ev->name));
        ph_diff_free(d);
        return -1;
    }
    ph_diff_sort(d, e, (size_t)top);
    double bt = ph_diff_base_total(d, e), nt = ph_diff_new_total(d, e);
    ph_output_puts(out, "<h2>Changes from the base</h2>\n<p class=\"ph-note\">"
                   "Self cost of ");
    html(out, ph_str_get(p, ev->name));
    ph_output_puts(out, " per function, largest changes first; total ");
    char a[48], b[48];
    ph_output_printf(out, "%s &rarr; %s.</p>\n", ph_cli_commas(a, (int64_t)bt),
                     ph_cli_commas(b, (int64_t)nt));
    ph_output_puts(out, "<table class=\"ph-diff ph-sort\"><thead><tr>"
                   "<th>Function</th><th>Base</th><th>New</th><th>Change</th>"
                   "<th>Change %</th><th>File</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < d->count && i < top; i++) {
        const ph_diff_row *r = &d->rows[i];
        double bv = ph_diff_base_value(d, r, e), nv = ph_diff_new_value(d, r,
                                                                         e);
        if (bv == nv)
            break;
        ph_output_printf(out, "<tr class=\"%s\"><td>", nv < bv ? "down"
                                                               : "up");
        html(out, ph_diff_str(d, r->name));
        ph_output_puts(out, "</td>");
        num_cell(out, bv);
        num_cell(out, nv);
        num_cell(out, nv - bv);
        pct_cell(out, nv - bv, bv);
        ph_output_puts(out, "<td>");
        html(out, ph_diff_str(d, r->file));
        ph_output_puts(out, "</td></tr>\n");
    }
    ph_output_puts(out, "</tbody></table>\n");
    ph_diff_free(d);
    return 0;
}

static int picture(ph_output *out, ph_picture kind, ph_profile *p,
                   ph_profile *base, const char *path)
{
    if (ph_svg_draw(kind, p, base, out) < 0) {
        ph_cli_file_error(path, "%s", ph_output_error(out));
        return -1;
    }
    return 0;
}

static int write_report(const opts *o, ph_profile *p, ph_profile *base,
                        ph_output *out)
{
    const ph_event *ev = o->event ? ph_event_find(p, o->event)
                                  : ph_default_event(p);
    if (!ev) {
        if (o->event)
            ph_cli_error("%s: no event \"%s\"", o->in, o->event);
        else
            ph_cli_error("%s: the profile has no events", o->in);
        return -1;
    }
    ph_output_set_option(out, "embed", "1");
    ph_output_set_option(out, "event", ph_str_get(p, ev->name));
    if (o->minwidth)
        ph_output_set_option(out, "minwidth", o->minwidth);
    ph_output_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                   "charset=\"utf-8\">\n<title>profhub report: ");
    html(out, o->in);
    ph_output_puts(out, "</title>\n");
    ph_output_puts(out, style);
    ph_output_puts(out, "</head><body>\n<h1>Profile ");
    html(out, o->in);
    ph_output_puts(out, "</h1>\n<p class=\"ph-note\">Format ");
    html(out, ph_profile_format(p) ? ph_profile_format(p) : "?");
    if (ph_meta_get(p, "cmd")) {
        ph_output_puts(out, "; command ");
        html(out, ph_meta_get(p, "cmd"));
    }
    if (base) {
        ph_output_puts(out, "; compared with ");
        html(out, o->base);
    }
    if (ph_profile_approx(p)) {
        ph_output_puts(out, ". Approximated: ");
        html(out, ph_profile_approx(p));
    }
    ph_output_puts(out, ". Made by " PACKAGE_NAME " " PACKAGE_VERSION
                   ".</p>\n");
    events_section(out, p);
    top_section(out, p, ev, o->top);
    ph_output_puts(out, "<h2>Flame graph</h2>\n<p><input class=\"ph-search\" "
                   "type=\"search\" placeholder=\"search (regular "
                   "expression)\" size=\"40\"> <span class=\"ph-hits\">"
                   "</span></p>\n");
    if (picture(out, PH_PICTURE_FLAME, p, NULL, o->in) < 0)
        return -1;
    if (base) {
        if (diff_section(out, base, p, ev, o->top) < 0)
            return -1;
        ph_output_puts(out, "<h2>Differential flame graph</h2>\n");
        if (picture(out, PH_PICTURE_DIFF, p, base, o->in) < 0)
            return -1;
    }
    ph_output_puts(out, script);
    ph_output_puts(out, "</body></html>\n");
    return 0;
}

int ph_cmd_report(int argc, char **argv)
{
    opts o;
    int rc;
    ph_profile *p = NULL, *base = NULL;
    char err[1024];

    memset(&o, 0, sizeof o);
    rc = parse(argc, argv, &o);
    if (rc < 0)
        return PH_EXIT_OK;
    if (rc > 0)
        return rc;
    rc = PH_EXIT_BAD;
    if (o.base && !(base = ph_cli_load(o.base, NULL, o.exe)))
        return PH_EXIT_BAD;
    if (!(p = ph_cli_load(o.in, NULL, o.exe)))
        goto done;
    ph_output *out = ph_output_open(o.out, err, sizeof err);
    if (!out) {
        ph_cli_file_error(o.out, "%s", err);
        goto done;
    }
    if (write_report(&o, p, base, out) < 0) {
        ph_output_abort(out);   /* the message is printed */
        goto done;
    }
    rc = ph_cli_finish_output(o.out, "report", out, 0);
done:
    if (p)
        ph_profile_free(p);
    if (base)
        ph_profile_free(base);
    return rc;
}
