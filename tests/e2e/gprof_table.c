/* gprof_table.c -- print what analysis/gprof_prop.c computes for gmon.out
 * files (summed when several, as gprof -s), one line per function and per
 * cycle, in the form tests/e2e/gprof2tsv prints gprof's own -p/-q output,
 * so peer_gmon.sh can compare the two.
 *   usage: gprof_table PROG GMON...   (PROG "-": no executable)
 *   fn<TAB>name<TAB>self<TAB>calls<TAB>self_calls<TAB>children<TAB>cycle
 *   cycle<TAB>N<TAB>self<TAB>calls<TAB>self_calls<TAB>children
 * Seconds are printed with two decimals, as gprof prints them.  A function
 * with no time and no calls is left out, as gprof prints it nowhere (not
 * in -p, not as an entry of -q), even when it calls others: main when no
 * tick reached the program.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gprof.h"
#include "importers/importers.h"

int main(int argc, char **argv)
{
    ph_input **ins;
    ph_profile *p;
    ph_gprof *g;
    int n = argc - 2, rc = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: gprof_table PROG GMON...\n");
        return 2;
    }
    ins = calloc((size_t)n, sizeof *ins);
    if (!ins)
        return 2;
    for (int i = 0; i < n; i++) {
        char err[256];
        ins[i] = ph_input_open(argv[i + 2], err, sizeof err);
        if (!ins[i]) {
            fprintf(stderr, "%s: %s\n", argv[i + 2], err);
            return 1;
        }
    }
    if (strcmp(argv[1], "-") != 0)   /* "-": no executable */
        ph_input_set_exe(ins[0], argv[1]);
    else
        ph_input_set_raw_addresses(ins[0], 1);
    p = ph_profile_new();
    if (ph_gmon_read_many(ins, (size_t)n, p) != 0) {
        for (int i = 0; i < n; i++)
            if (ph_input_error(ins[i]))
                fprintf(stderr, "%s\n", ph_input_error(ins[i]));
        rc = 1;
    } else {
        g = ph_gprof_compute(p, NULL, PH_ALL_PARTS);
        for (size_t i = 0; i < ph_gprof_count(g); i++) {
            const ph_gprof_fn *e = ph_gprof_at(g, i);
            if (!e->calls && !e->self_calls && e->self == 0 &&
                e->children == 0)
                continue;
            printf("fn\t%s\t%.2f\t%llu\t%llu\t%.2f\t%u\n",
                   ph_str_get(p, e->func->name), e->self,
                   (unsigned long long)e->calls,
                   (unsigned long long)e->self_calls, e->children, e->cycle);
        }
        for (size_t i = 0; i < ph_gprof_ncycles(g); i++) {
            const ph_gprof_cycle *c = ph_gprof_cycle_at(g, i);
            printf("cycle\t%u\t%.2f\t%llu\t%llu\t%.2f\n", c->number, c->self,
                   (unsigned long long)c->calls,
                   (unsigned long long)c->self_calls, c->children);
        }
        ph_gprof_free(g);
    }
    ph_profile_free(p);
    for (int i = 0; i < n; i++)
        ph_input_close(ins[i]);
    free(ins);
    return rc;
}
