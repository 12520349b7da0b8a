/* convert.c -- "profhub convert IN -o OUT [-t FMT]": read a profile in any
 * known format and write it in another.  The output format comes from -t
 * or OUT's extension; the output is a temporary file renamed into place
 * only when everything was written, and whatever the target format could
 * not hold is said on stderr, once per kind. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgview/cli.h"

#define MAX_OPTIONS 64

static const char usage[] =
    "Usage: profhub convert [OPTIONS] IN -o OUT\n"
    "\n"
    "Convert the profile IN (format recognised by content; gzip is\n"
    "unwrapped) to OUT.  The output format is -t FMT or OUT's extension;\n"
    "-o - writes standard output (then -t is needed).  OUT is written to a\n"
    "temporary file renamed into place on success: a failed conversion\n"
    "never leaves a partial file nor touches an existing one.\n"
    "\n"
    "  -o, --output OUT     the file to write (- for standard output)\n"
    "  -t, --to FMT         output format (profhub formats lists them)\n"
    "  -F, --from FMT       read IN as FMT instead of recognising it\n"
    "      --exe PROG       the profiled program (gmon.out needs it)\n"
    "      --raw-addresses  no --exe: name gmon.out code by address\n"
    "  -O, --option K=V     an option for the writer (repeatable;\n"
    "                       event=E may name a derived event)\n"
    PH_CLI_DERIVED_HELP
    "  -h, --help           show this help\n";

typedef struct opts {
    const char *in, *out, *to, *from, *exe;
    ph_cli_derived derived;  /* --define, --config */
    char *kv[MAX_OPTIONS];
    size_t nkv;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    enum { OPT_EXE = 256 };
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "to", required_argument, NULL, 't' },
        { "from", required_argument, NULL, 'F' },
        { "exe", required_argument, NULL, OPT_EXE },
        PH_CLI_RAW_ADDRESSES_OPTION,
        { "option", required_argument, NULL, 'O' },
        PH_CLI_DERIVED_OPTIONS,
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;

    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":o:t:F:O:h", longopts, NULL)) !=
           -1) {
        if (ph_cli_derived_option(&o->derived, c, optarg))
            continue;
        switch (c) {
        case 'o': o->out = optarg; break;
        case 't': o->to = optarg; break;
        case 'F': o->from = optarg; break;
        case OPT_EXE: o->exe = optarg; break;
        case PH_OPT_RAW_ADDRESSES: ph_cli_raw_addresses = 1; break;
        case 'O':
            if (!strchr(optarg, '=') || optarg[0] == '=')
                return ph_cli_usage_error("convert", "option '-O' expects "
                                          "KEY=VALUE, got \"%s\"", optarg);
            if (o->nkv == MAX_OPTIONS)
                return ph_cli_usage_error("convert", "too many -O options");
            o->kv[o->nkv++] = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            return -1;
        default:
            return ph_cli_bad_option("convert", argv, c);
        }
    }
    if (optind >= argc)
        return ph_cli_usage_error("convert", "missing input file");
    if (optind + 1 < argc)
        return ph_cli_usage_error("convert", "unexpected argument \"%s\"",
                                  argv[optind + 1]);
    o->in = argv[optind];
    if (!o->out)
        return ph_cli_usage_error("convert", "missing -o OUT");
    return 0;
}

int ph_cmd_convert(int argc, char **argv)
{
    opts o;
    const ph_format *writer;
    ph_profile *p;
    int rc;

    memset(&o, 0, sizeof o);
    rc = parse(argc, argv, &o);
    if (rc < 0) {
        ph_cli_derived_free(&o.derived);
        return PH_EXIT_OK;   /* --help */
    }
    if (rc != 0 || !(writer = ph_cli_writer("convert", o.out, o.to)) ||
        (o.from && ph_cli_check_format("convert", o.from, 1) < 0)) {
        ph_cli_derived_free(&o.derived);
        return rc ? rc : PH_EXIT_USAGE;
    }
    p = ph_cli_load(o.in, o.from, o.exe);
    if (!p) {
        rc = PH_EXIT_BAD;
    } else if (ph_cli_derive(p, &o.derived) < 0) {
        rc = PH_EXIT_USAGE;
    } else {
        rc = ph_cli_check_options("convert", p, writer, o.kv, o.nkv);
        if (rc == PH_EXIT_OK)
            rc = ph_cli_save(p, writer, o.out, o.kv, o.nkv);
    }
    ph_profile_free(p);
    ph_cli_derived_free(&o.derived);
    return rc;
}
