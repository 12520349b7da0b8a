/* report_gprof_source.c -- "summary --gprof --annotate FN": FN's source
 * files as gprof -A prints them, each function's entry line prefixed
 * with the calls into it (gprof's flat "called" column, self-recursive
 * calls apart) and "#####" for a function nobody called; every other
 * line with blanks.  gprof's "Top 10 Lines" and "Execution Summary" are
 * left out. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gprof.h"
#include "cgview/cli.h"
#include "cgview/report.h"

/* The calls into the function whose entry is at line, or -1: none is. */
static int64_t entry_calls(const ph_report *r, const ph_gprof *g,
                           const ph_file *file, uint32_t line)
{
    for (size_t i = 0; i < ph_func_count(r->p); i++) {
        const ph_func *f = ph_func_at(r->p, i);
        const ph_gprof_fn *gf;
        if (f->file != file || f->line != line)
            continue;
        gf = ph_gprof_find(g, f);
        return gf ? (int64_t)gf->calls : 0;
    }
    return -1;
}

static int print_file(const ph_report *r, const ph_gprof *g,
                      const ph_file *file)
{
    const char *name = ph_str_get(r->p, file->name);
    FILE *in = ph_report_open_source(r, name);
    char buf[8192];
    uint32_t line = 1;
    int bol = 1;

    if (!in) {
        fprintf(stderr, "profhub: warning: %s: source file not found%s\n",
                name, r->source_dir ? "" : " (try --source-dir)");
        return 0;
    }
    printf("*** File %s:\n", name);
    while (fgets(buf, sizeof buf, in)) {
        if (bol) {
            int64_t c = entry_calls(r, g, file, line);
            if (c > 0)
                printf("%12lld -> ", (long long)c);
            else if (c == 0)
                printf("%12s -> ", "#####");
            else
                printf("%16s", "");
        }
        size_t len = strlen(buf);   /* 0 at a NUL byte */
        fputs(buf, stdout);
        bol = len > 0 && buf[len - 1] == '\n';
        line += bol;
    }
    if (!bol)
        putchar('\n');
    fputs("\n\n", stdout);   /* gprof's spacing */
    fclose(in);
    return 1;
}

int ph_report_gprof_source(ph_report *r)
{
    const ph_func **fs = NULL;
    const ph_file **done;
    size_t n, ndone = 0;
    ph_gprof *g;

    if (!r->ev) {
        ph_cli_file_error(r->path, "the profile has no events");
        return PH_EXIT_BAD;
    }
    if ((n = ph_report_matching(r, &fs)) == 0)
        return PH_EXIT_BAD;
    g = ph_gprof_compute(r->p, r->ev, r->topts.part);
    done = ph_xmalloc(n * sizeof *done);
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        if (!fs[i]->file || !fs[i]->file->name)
            continue;
        while (k < ndone && done[k] != fs[i]->file)
            k++;
        if (k < ndone)
            continue;
        done[ndone++] = fs[i]->file;
        print_file(r, g, fs[i]->file);
    }
    free(done);
    free(fs);
    ph_gprof_free(g);
    return PH_EXIT_OK;
}
