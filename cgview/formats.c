/* formats.c -- "profhub formats": every format in the importer and
 * exporter tables, with its directions and file extensions, as a text
 * table, CSV, or JSON and YAML through the report emitter (a list of
 * objects with name, description, read, write and extensions). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgview/grid.h"

static const char usage[] =
    "Usage: profhub formats [--format text|csv|json|yaml]\n"
    "\n"
    "List the formats profhub reads and writes.\n"
    "\n"
    "  -f, --format FMT   text (default), csv, json or yaml: a list of\n"
    "                     {name, description, read, write, extensions}\n"
    "  -h, --help         show this help\n";

typedef struct entry {
    const char *name, *description, *extensions;
    int read, write;
} entry;

/* Merge both tables by name: importers in their order, then formats that
 * are only written.  Returns the number of entries (caller frees). */
static size_t collect(entry **out)
{
    size_t ni = ph_importer_count(), ne = ph_exporter_count(), n = 0, i, j;
    entry *e = ph_xcalloc(ni + ne + 1, sizeof *e);

    for (i = 0; i < ni; i++) {
        const ph_format *f = ph_importer_at(i);
        e[n].name = f->name;
        e[n].description = f->description;
        e[n].extensions = f->extensions;
        e[n].read = 1;
        e[n].write = ph_exporter_find(f->name) != NULL;
        n++;
    }
    for (i = 0; i < ne; i++) {
        const ph_format *f = ph_exporter_at(i);
        for (j = 0; j < ni; j++)
            if (strcmp(e[j].name, f->name) == 0)
                break;
        if (j < ni) {
            /* Both directions: the writer's extensions name the files it
             * makes, so prefer them when the reader gave none. */
            if (!e[j].extensions || !*e[j].extensions)
                e[j].extensions = f->extensions;
            continue;
        }
        e[n].name = f->name;
        e[n].description = f->description;
        e[n].extensions = f->extensions;
        e[n].write = 1;
        n++;
    }
    *out = e;
    return n;
}

/* One row a format: name, description, read and write (true/false; text
 * says yes or -), extensions (a list in JSON/YAML, the words in CSV and
 * text).  Text puts the description last. */
static ph_grid *build(const entry *e, size_t n)
{
    ph_grid *g = ph_grid_new(1);
    size_t name = ph_grid_add_col(g, &(ph_grid_col){
        .key = "name", .csv = "name", .head = "FORMAT", .width = 6,
        .flags = PH_GRID_LEFT });
    size_t desc = ph_grid_add_col(g, &(ph_grid_col){ .key = "description",
                                                     .csv = "description" });
    size_t rd = ph_grid_add_col(g, &(ph_grid_col){
        .key = "read", .csv = "read", .head = "READ", .width = 4,
        .flags = PH_GRID_LEFT | PH_GRID_FIXED });
    size_t wr = ph_grid_add_col(g, &(ph_grid_col){
        .key = "write", .csv = "write", .head = "WRITE", .width = 5,
        .flags = PH_GRID_LEFT | PH_GRID_FIXED });
    size_t ext = ph_grid_add_col(g, &(ph_grid_col){
        .key = "extensions", .csv = "extensions", .head = "EXTENSIONS",
        .width = 10, .flags = PH_GRID_LEFT | PH_GRID_WORDS });
    size_t desc_text = ph_grid_add_col(g, &(ph_grid_col){
        .head = "DESCRIPTION", .flags = PH_GRID_LEFT });

    for (size_t i = 0; i < n; i++) {
        const char *x = e[i].extensions ? e[i].extensions : "";
        ph_grid_row(g);
        ph_grid_str(g, name, e[i].name);
        ph_grid_str(g, desc, e[i].description);
        ph_grid_bool(g, rd, e[i].read);
        ph_grid_text(g, rd, e[i].read ? "yes" : "-");
        ph_grid_bool(g, wr, e[i].write);
        ph_grid_text(g, wr, e[i].write ? "yes" : "-");
        ph_grid_str(g, ext, x);
        if (!*x)
            ph_grid_text(g, ext, "-");
        ph_grid_text(g, desc_text, e[i].description ? e[i].description : "");
    }
    return g;
}

/* The rows in the format asked for. */
static int print(const entry *e, size_t n, ph_report_format fmt)
{
    ph_grid *g = build(e, n);
    ph_emit *em;
    int rc = PH_EXIT_OK;

    if (fmt == PH_REPORT_TEXT && n == 0) {
        puts("no formats are registered in this build");
    } else if (fmt == PH_REPORT_TEXT) {
        ph_grid_print_text(g, stdout);
    } else if (fmt == PH_REPORT_CSV) {
        ph_grid_print_csv(g, stdout);
    } else {
        em = ph_emit_new(stdout, fmt);
        ph_grid_emit(g, em);
        if (ph_emit_free(em) < 0) {
            ph_cli_error("cannot write the list");
            rc = PH_EXIT_BAD;
        }
    }
    ph_grid_free(g);
    return rc;
}

int ph_cmd_formats(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "format", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    ph_report_format fmt = PH_REPORT_TEXT;
    entry *e;
    size_t n;
    int c;

    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, ":f:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (ph_cli_report_format("formats", optarg,
                                     PH_REPORT_TEXT | PH_REPORT_CSV |
                                         PH_REPORT_JSON | PH_REPORT_YAML,
                                     &fmt) < 0)
                return PH_EXIT_USAGE;
            break;
        case 'h':
            fputs(usage, stdout);
            return PH_EXIT_OK;
        default:
            return ph_cli_bad_option("formats", argv, c);
        }
    }
    if (optind < argc)
        return ph_cli_usage_error("formats", "unexpected argument \"%s\"",
                                  argv[optind]);
    n = collect(&e);
    c = print(e, n, fmt);
    free(e);
    return c;
}
