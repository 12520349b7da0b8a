/* draw.c -- "profhub draw KIND IN... -o OUT.svg": pictures of a profile
 * (flame graph, differential flame graph, callee treemap, call graph)
 * through the svg exporter, whose options the command-line flags set.
 * Several inputs of one picture are summed first; a diff takes BASE then
 * NEW. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cgview/cli.h"
#include "exporters/svg.h"

#define MAX_INPUTS 64

static const char usage[] =
    "Usage: profhub draw KIND [OPTIONS] IN... -o OUT.svg\n"
    "       profhub draw diff [OPTIONS] BASE NEW -o OUT.svg\n"
    "\n"
    "Draw a picture of a profile as a self-contained SVG (no network; an\n"
    "inline script zooms on click and the picture stays whole without it).\n"
    "KIND is one of:\n"
    "  flame       flame graph: frames as wide as their inclusive cost\n"
    "  diff        differential flame graph of BASE -> NEW: shape from NEW,\n"
    "              blue where a frame's self cost fell, red where it rose\n"
    "  treemap     callee map: nested boxes of inclusive cost\n"
    "  callgraph   callers and callees around a function (needs Graphviz)\n"
    "Several inputs of one picture are summed.  Flat profiles (callgrind,\n"
    "gprof) get stacks approximated by gprof's rule, said in the subtitle.\n"
    "\n"
    "  -o, --output OUT.svg the file to write (- for standard output)\n"
    "  -e, --event NAME     the event drawn (default: summary's, the\n"
    "                       profile's default sample type or first event)\n"
    PH_CLI_DERIVED_HELP
    "      --inverted       icicle: the root at the top (flame, diff)\n"
    "      --color WHAT     object (default) or self: colour frames by\n"
    "                       object or by self share (flame)\n"
    "      --highlight RE   draw frames whose name matches RE in magenta\n"
    "      --min-width PCT  merge frames narrower than PCT of the total\n"
    "                       into one \"...\" per parent (default 0.1)\n"
    "      --normalize      diff: scale NEW to BASE's total\n"
    "      --root FUNC      treemap, callgraph: the function at the root\n"
    "                       (default: main, else the top of the stacks)\n"
    "      --depth N        treemap, callgraph: levels (default 6, 2)\n"
    "      --title TEXT     the heading\n"
    "      --exe PROG       the profiled program (gmon.out needs it)\n"
    "      --raw-addresses  no --exe: name gmon.out code by address\n"
    "  -h, --help           show this help\n";

typedef struct opts {
    const char *out, *exe;
    const char *in[MAX_INPUTS];
    size_t nin;
    char *kv[16];
    size_t nkv;
    ph_cli_derived derived;  /* --define, --config */
} opts;

static int parse(int argc, char **argv, opts *o)
{
    enum { OPT_INV = 256, OPT_COLOR, OPT_HL, OPT_MINW, OPT_NORM, OPT_ROOT,
           OPT_DEPTH, OPT_TITLE, OPT_EXE };
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "event", required_argument, NULL, 'e' },
        { "inverted", no_argument, NULL, OPT_INV },
        { "color", required_argument, NULL, OPT_COLOR },
        { "highlight", required_argument, NULL, OPT_HL },
        { "min-width", required_argument, NULL, OPT_MINW },
        { "normalize", no_argument, NULL, OPT_NORM },
        { "root", required_argument, NULL, OPT_ROOT },
        { "depth", required_argument, NULL, OPT_DEPTH },
        { "title", required_argument, NULL, OPT_TITLE },
        { "exe", required_argument, NULL, OPT_EXE },
        PH_CLI_RAW_ADDRESSES_OPTION,
        PH_CLI_DERIVED_OPTIONS,
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    /* Options become the svg writer's KEY=VALUE options. */
    static const struct { int c; const char *key; } keys[] = {
        { 'e', "event" }, { OPT_COLOR, "color" }, { OPT_HL, "highlight" },
        { OPT_MINW, "minwidth" }, { OPT_ROOT, "root" },
        { OPT_DEPTH, "depth" }, { OPT_TITLE, "title" },
        { OPT_INV, "inverted" }, { OPT_NORM, "normalize" },
    };
    int c;

    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":o:e:h", longopts, NULL)) != -1) {
        if (c == 'o') {
            o->out = optarg;
            continue;
        }
        if (c == OPT_EXE) {
            o->exe = optarg;
            continue;
        }
        if (c == PH_OPT_RAW_ADDRESSES) {
            ph_cli_raw_addresses = 1;
            continue;
        }
        if (ph_cli_derived_option(&o->derived, c, optarg))
            continue;
        if (c == 'h') {
            fputs(usage, stdout);
            return -1;
        }
        size_t k;
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (keys[k].c == c)
                break;
        if (k == sizeof keys / sizeof keys[0])
            return ph_cli_bad_option("draw", argv, c);
        const char *v = optarg ? optarg : "1";
        size_t n = strlen(keys[k].key) + strlen(v) + 2;
        char *kv = ph_xmalloc(n);
        snprintf(kv, n, "%s=%s", keys[k].key, v);
        if (o->nkv == sizeof o->kv / sizeof o->kv[0]) {
            free(kv);
            return ph_cli_usage_error("draw", "too many options");
        }
        o->kv[o->nkv++] = kv;
    }
    for (; optind < argc; optind++) {
        if (o->nin == MAX_INPUTS)
            return ph_cli_usage_error("draw", "more than %d inputs",
                                      MAX_INPUTS);
        o->in[o->nin++] = argv[optind];
    }
    return 0;
}

/* The inputs, summed when there are several. */
static ph_profile *load_sum(const char *const *in, size_t n, const char *exe)
{
    if (n == 1)
        return ph_cli_load(in[0], NULL, exe);
    ph_merge_stream ms;
    ph_merge_stream_init(&ms, NULL);
    ph_cli_loads *loads = ph_cli_loads_start(in, n);
    for (size_t i = 0; i < n; i++) {
        ph_profile *src = ph_cli_loads_next(loads, NULL, exe);
        if (!src) {
            ph_cli_loads_end(loads);
            ph_profile_free(ph_merge_stream_finish(&ms));
            return NULL;
        }
        ph_merge_stream_add(&ms, src, NULL);
        ph_profile_free(src);
    }
    ph_cli_loads_end(loads);
    ph_profile *dst = ph_merge_stream_finish(&ms);
    ph_profile_set_format(dst, "merge");
    return dst;
}

static int draw(int kind, opts *o)
{
    ph_profile *base = NULL, *p;
    int rc = PH_EXIT_BAD;
    char err[1024];

    if (kind == PH_PICTURE_DIFF) {
        if (ph_cli_load_pair(o->in[0], o->in[1], NULL, o->exe, &base, &p) < 0)
            return PH_EXIT_BAD;
    } else {
        p = load_sum(o->in, o->nin, o->exe);
    }
    if (!p)
        goto done;
    if (ph_cli_derive(p, &o->derived) < 0 ||
        (base && ph_cli_derive(base, &o->derived) < 0)) {
        rc = PH_EXIT_USAGE;
        goto done;
    }
    ph_output *out = ph_output_open(o->out, err, sizeof err);
    if (!out) {
        ph_cli_file_error(o->out, "%s", err);
        goto done;
    }
    for (size_t i = 0; i < o->nkv; i++) {
        char *eq = strchr(o->kv[i], '=');
        *eq = '\0';
        ph_output_set_option(out, o->kv[i], eq + 1);
        *eq = '=';
    }
    rc = ph_cli_finish_output(o->out, "svg", out,
                              ph_svg_draw((ph_picture)kind, p, base, out));
done:
    if (p)
        ph_profile_free(p);
    if (base)
        ph_profile_free(base);
    return rc;
}

int ph_cmd_draw(int argc, char **argv)
{
    opts o;
    int rc, kind;

    memset(&o, 0, sizeof o);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return PH_EXIT_OK;
    }
    if (argc < 2)
        return ph_cli_usage_error("draw", "missing KIND (flame, diff, "
                                  "treemap or callgraph)");
    kind = ph_picture_find(argv[1]);
    if (kind < 0)
        return ph_cli_usage_error("draw", "unknown picture \"%s\" (flame, "
                                  "diff, treemap or callgraph)", argv[1]);
    rc = parse(argc - 1, argv + 1, &o);
    if (rc == 0 && !o.out)
        rc = ph_cli_usage_error("draw", "missing -o OUT.svg");
    if (rc == 0 && o.nin == 0)
        rc = ph_cli_usage_error("draw", "missing input file");
    if (rc == 0 && kind == PH_PICTURE_DIFF && o.nin != 2)
        rc = ph_cli_usage_error("draw", "diff takes two inputs, BASE and "
                                "NEW; got %zu", o.nin);
    if (rc == 0)
        rc = draw(kind, &o);
    for (size_t i = 0; i < o.nkv; i++)
        free(o.kv[i]);
    ph_cli_derived_free(&o.derived);
    return rc < 0 ? PH_EXIT_OK : rc;
}
