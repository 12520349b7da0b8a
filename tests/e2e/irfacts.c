/* irfacts.c -- print what the IR holds for a profile as TSV facts, for the
 * peer checks (peer_callgrind.sh, peer_cachegrind.sh): totals, self rows per
 * (row file, function), call records, and profhub's own per-function self
 * and inclusive.  tests/e2e/annotate2tsv turns the facts into the numbers
 * callgrind_annotate / cg_annotate print.  Usage: irfacts FILE
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/format.h"
#include "ir/io.h"
#include "ir/ir.h"

static const char *name_or_unknown(const ph_profile *p, ph_str s)
{
    return s ? ph_str_get(p, s) : "???";
}

/* "file:function", the key both annotate tools use. */
static void put_key(const ph_profile *p, const ph_file *file,
                    const ph_func *f)
{
    printf("%s:%s", name_or_unknown(p, file ? file->name : 0),
           name_or_unknown(p, f->name));
}

static void put_costs(const int64_t *c, size_t n)
{
    for (size_t k = 0; k < n; k++)
        printf("\t%" PRId64, c ? c[k] : 0);
    printf("\n");
}

/* Self rows of f summed per row file (a function's rows span few files). */
static void print_rows(ph_profile *p, ph_func *f, size_t n)
{
    enum { MAXF = 64 };
    ph_file *files[MAXF];
    int64_t *sums = calloc(MAXF * (n ? n : 1), sizeof *sums);
    size_t nf = 0;
    ph_row_iter it;
    ph_row r;
    if (!sums)
        ph_oom();
    ph_row_iter_init(&it, p, f, NULL);
    while (ph_row_next(&it, &r)) {
        ph_file *file = r.file ? r.file : f->file;
        size_t i = 0;
        while (i < nf && files[i] != file)
            i++;
        if (i == nf) {
            if (nf == MAXF) {
                fprintf(stderr, "irfacts: too many files in one function\n");
                exit(2);
            }
            files[nf++] = file;
        }
        for (size_t k = 0; k < n; k++)
            sums[i * n + k] += r.cost[k];
    }
    for (size_t i = 0; i < nf; i++) {
        printf("row\t");
        put_key(p, files[i], f);
        put_costs(sums + i * n, n);
    }
    free(sums);
}

int main(int argc, char **argv)
{
    char err[512];
    ph_input *in = NULL;
    if (argc != 2) {
        fprintf(stderr, "usage: irfacts FILE\n");
        return 2;
    }
    ph_profile *p = ph_load(argv[1], NULL, NULL, &in, err, sizeof err);
    if (!p) {
        const char *msg = in ? ph_input_error(in) : NULL;
        fprintf(stderr, "irfacts: %s\n", msg ? msg : err);
        if (in)
            ph_input_close(in);
        return 1;
    }
    size_t n = ph_event_nreal(p);
    printf("events");
    for (size_t k = 0; k < n; k++)
        printf("\t%s", ph_str_get(p, ph_event_real(p, k)->name));
    printf("\n");
    printf("parts\t%zu\n", ph_part_count(p));
    printf("total");
    put_costs(ph_totals(p, PH_ALL_PARTS), n);
    /* The summary:/totals: lines as written in the file (last part's). */
    for (size_t i = 0; i < ph_part_count(p); i++) {
        ph_part *part = ph_part_at(p, i);
        for (int t = 0; t < 2; t++) {
            const int64_t *v = t ? part->file_totals : part->file_summary;
            if (!v)
                continue;
            printf("%s\t%zu", t ? "ftotals" : "fsummary", i);
            for (size_t k = 0; k < n; k++)
                printf("\t%" PRId64, k < part->file_width ? v[k] : 0);
            printf("\n");
        }
        printf("ptotal\t%zu", i);
        put_costs(ph_totals(p, (int)i), n);
    }

    size_t nf = ph_func_count(p);
    for (size_t i = 0; i < nf; i++) {
        ph_func *f = ph_func_at(p, i);
        print_rows(p, f, n);
        printf("phself\t");
        put_key(p, f->file, f);
        put_costs(ph_func_self(p, f, PH_ALL_PARTS), n);
        printf("phincl\t");
        put_key(p, f->file, f);
        put_costs(ph_func_incl(p, f, PH_ALL_PARTS), n);
    }
    int64_t *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        ph_oom();
    ph_call_iter it;
    for (const ph_call *c = ph_calls_all(&it, p); c; c = ph_call_next(&it)) {
        printf("call\t");
        put_key(p, c->file ? c->file : c->caller->file, c->caller);
        printf("\t");
        put_key(p, c->callee->file, c->callee);
        for (size_t k = 0; k < n; k++)
            v[k] = ph_call_incl(c, k);
        printf("\t%d\t%" PRIu64, c->caller == c->callee, c->count);
        put_costs(v, n);
    }
    free(v);
    ph_profile_free(p);
    ph_input_close(in);
    return 0;
}
