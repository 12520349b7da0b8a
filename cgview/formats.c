/* formats.c -- "profhub formats": every format in the importer and
 * exporter tables, with its directions and file extensions, as a text
 * table, CSV, or JSON and YAML through the report emitter (a list of
 * objects with name, description, read, write and extensions). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgview/emit.h"

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

/* The space-separated extensions as a list. */
static void emit_extensions(ph_emit *em, const char *w)
{
    ph_emit_list(em, 1);
    while (w && *w) {
        size_t n = strcspn(w, " ");
        char buf[128];
        if (n > 0 && n < sizeof buf) {
            memcpy(buf, w, n);
            buf[n] = '\0';
            ph_emit_str(em, buf);
        }
        w += n;
        w += strspn(w, " ");
    }
    ph_emit_end(em);
}

/* JSON and YAML through the report emitter. */
static int print_data(const entry *e, size_t n, ph_report_format fmt)
{
    ph_emit *em = ph_emit_new(stdout, fmt);

    ph_emit_list(em, 0);
    for (size_t i = 0; i < n; i++) {
        ph_emit_map(em, 1);
        ph_emit_key(em, "name");
        ph_emit_str(em, e[i].name);
        ph_emit_key(em, "description");
        ph_emit_str(em, e[i].description);
        ph_emit_key(em, "read");
        ph_emit_bool(em, e[i].read);
        ph_emit_key(em, "write");
        ph_emit_bool(em, e[i].write);
        ph_emit_key(em, "extensions");
        emit_extensions(em, e[i].extensions);
        ph_emit_end(em);
    }
    ph_emit_end(em);
    if (ph_emit_free(em) < 0) {
        ph_cli_error("cannot write the list");
        return PH_EXIT_BAD;
    }
    return PH_EXIT_OK;
}

/* A table, one format a line; read and write say true or false, as the
 * JSON does. */
static void print_csv(const entry *e, size_t n)
{
    puts("name,description,read,write,extensions");
    for (size_t i = 0; i < n; i++) {
        ph_csv_str(stdout, e[i].name, 1);
        ph_csv_str(stdout, e[i].description, 0);
        ph_csv_str(stdout, e[i].read ? "true" : "false", 0);
        ph_csv_str(stdout, e[i].write ? "true" : "false", 0);
        ph_csv_str(stdout, e[i].extensions, 0);
        putchar('\n');
    }
}

static void print_text(const entry *e, size_t n)
{
    int wname = 6, wext = 10;
    size_t i;

    if (n == 0) {
        puts("no formats are registered in this build");
        return;
    }
    for (i = 0; i < n; i++) {
        int a = (int)strlen(e[i].name);
        int b = e[i].extensions ? (int)strlen(e[i].extensions) : 0;
        if (a > wname)
            wname = a;
        if (b > wext)
            wext = b;
    }
    printf("%-*s  %-4s  %-5s  %-*s  %s\n", wname, "FORMAT", "READ", "WRITE",
           wext, "EXTENSIONS", "DESCRIPTION");
    for (i = 0; i < n; i++)
        printf("%-*s  %-4s  %-5s  %-*s  %s\n", wname, e[i].name,
               e[i].read ? "yes" : "-", e[i].write ? "yes" : "-", wext,
               e[i].extensions && *e[i].extensions ? e[i].extensions : "-",
               e[i].description ? e[i].description : "");
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
    c = PH_EXIT_OK;
    if (fmt == PH_REPORT_JSON || fmt == PH_REPORT_YAML)
        c = print_data(e, n, fmt);
    else if (fmt == PH_REPORT_CSV)
        print_csv(e, n);
    else
        print_text(e, n);
    free(e);
    return c;
}
