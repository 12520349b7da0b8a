/* gmon_test.c -- the gmon reader on real samples (samples/gmon/NAME/
 * {prog,gmon.out}, made by samples/regen.sh): each function's self time,
 * as gprof credits it, and the total equal what `gprof -b -p` prints, run
 * here (skipped when gprof is missing); gprof -l's line credits add up
 * to their function's; every prefix of a real file either
 * reads or fails with a recorded error, never a crash; a file that is not
 * gmon data is refused by its sniff. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/importers.h"
#include "suites.h"

static const char *sample_dir(const char *name, char *buf, size_t size)
{
    const char *top = getenv("top_srcdir");
    snprintf(buf, size, "%s/samples/gmon/%s", top ? top : ".", name);
    return buf;
}

static ph_profile *read_sample(const char *dir, ph_input **inp)
{
    char path[1200], prog[1200], err[256];
    snprintf(path, sizeof path, "%s/gmon.out", dir);
    snprintf(prog, sizeof prog, "%s/prog", dir);
    ph_input *in = ph_input_open(path, err, sizeof err);
    if (!in)
        return NULL;
    ph_input_set_exe(in, prog);
    ph_profile *p = ph_profile_new();
    if (ph_gmon_read(in, p) != 0) {
        fprintf(stderr, "\n%s\n", ph_input_error(in));
        ph_profile_free(p);
        p = NULL;
    }
    *inp = in;
    return p;
}

/* Every row of gprof's flat profile against p: the function's self time
 * (gprof's credit, in seconds) to gprof's 2 decimals, and the last
 * cumulative time against p's total.  The number of rows, or -1. */
static int compare_with_gprof(const char *dir, ph_profile *p)
{
    char cmd[2600], line[1024];
    int rows = 0;
    snprintf(cmd, sizeof cmd, "gprof -b -p '%s/prog' '%s/gmon.out' 2>/dev/null",
             dir, dir);
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    const ph_event *ev = ph_event_real(p, 0);
    double scale = ev->scale != 0 ? ev->scale : 1;
    double total = ph_totals(p, PH_ALL_PARTS)[ev->slot] * scale;
    double last_cum = -1;
    while (fgets(line, sizeof line, f)) {
        double pct, cum, self, a, b;
        unsigned long calls;
        int n = 0, m = 0;
        /* "  81.28      0.56     0.56 51078000  0.01  0.01  mix": three
         * numbers, the call columns when there were calls, the name (C++
         * names hold spaces: "geom::Rect::area() const"). */
        if (sscanf(line, "%lf %lf %lf %n", &pct, &cum, &self, &n) != 3)
            continue;
        if (sscanf(line + n, "%lu %lf %lf %n", &calls, &a, &b, &m) == 3)
            n += m;
        char *name = line + n;
        name[strcspn(name, "\n")] = '\0';
        if (!*name)
            continue;
        last_cum = cum;
        ph_func *fn = NULL;
        double ours = 0;
        for (size_t i = 0; !fn && i < ph_func_count(p); i++)
            if (strcmp(ph_str_get(p, ph_func_at(p, i)->name), name) == 0)
                fn = ph_func_at(p, i);
        CU_ASSERT_PTR_NOT_NULL(fn);
        if (!fn)
            continue;
        ours = ph_has_credits(p, ev) ? ph_func_credit(p, fn)
                                     : (double)ph_func_self(p, fn, PH_ALL_PARTS)[ev->slot];
        ours *= scale;
        if (fabs(ours - self) > 0.0051)
            fprintf(stderr, "\n%s %s: self %.4f s, gprof %.2f s\n", dir, name,
                    ours, self);
        CU_ASSERT(fabs(ours - self) <= 0.0051);
        rows++;
    }
    if (pclose(f) != 0)
        return -1;
    if (rows > 0)
        CU_ASSERT(fabs(last_cum - total) <= 0.0051);
    return rows;
}

static void test_against_gprof(void)
{
    static const char *const names[] = {"recursion-pie", "recursion-nopie",
                                        "chain-pie", "shapes-pie"};
    char dir[1024];
    int compared = 0;
    if (system("gprof --version >/dev/null 2>&1") != 0)
        return;   /* no peer */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ph_input *in = NULL;
        sample_dir(names[i], dir, sizeof dir);
        if (access(dir, R_OK) != 0)
            continue;
        ph_profile *p = read_sample(dir, &in);
        CU_ASSERT_PTR_NOT_NULL(p);
        if (p) {
            int rows = compare_with_gprof(dir, p);
            CU_ASSERT(rows > 0);
            compared += rows > 0;
            ph_profile_free(p);
        }
        if (in)
            ph_input_close(in);
    }
    CU_ASSERT(compared > 0 || access(sample_dir("", dir, sizeof dir), R_OK));
}

/* gprof -l's line symbols split each function symbol's range, so a
 * function's line credits add up to its own credit (gprof's -p time);
 * each symbol starts before it ends, in address order. */
static void test_line_credits(void)
{
    static const char *const names[] = {"recursion-pie", "recursion-nopie",
                                        "chain-pie", "chain-nopie"};
    char dir[1024];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ph_input *in = NULL;
        sample_dir(names[i], dir, sizeof dir);
        if (access(dir, R_OK) != 0)
            continue;
        ph_profile *p = read_sample(dir, &in);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        size_t n, nf = ph_func_count(p);
        const ph_line_credit *lc = ph_line_credits(p, &n);
        double *sum = calloc(nf + 1, sizeof *sum);
        CU_ASSERT(n > 0);
        for (size_t k = 0; k < n; k++) {
            CU_ASSERT(lc[k].addr < lc[k].end);
            if (k > 0)
                CU_ASSERT(lc[k - 1].addr < lc[k].addr);
            sum[lc[k].func->id - 1] += lc[k].credit;
        }
        for (size_t f = 0; f < nf; f++) {
            const ph_func *fn = ph_func_at(p, f);
            double want = ph_func_credit(p, fn);
            if (fabs(sum[fn->id - 1] - want) > 1e-9 * (1 + want))
                fprintf(stderr, "\n%s %s: lines %.6f, function %.6f\n",
                        names[i], ph_str_get(p, fn->name), sum[fn->id - 1],
                        want);
            CU_ASSERT(fabs(sum[fn->id - 1] - want) <= 1e-9 * (1 + want));
        }
        free(sum);
        ph_profile_free(p);
        if (in)
            ph_input_close(in);
    }
}

static void test_prefixes(void)
{
    char dir[1024], path[1200], prog[1200];
    sample_dir("recursion-pie", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/gmon.out", dir);
    snprintf(prog, sizeof prog, "%s/prog", dir);
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    static unsigned char data[1 << 20];
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    CU_ASSERT_FATAL(len > 64 && len < sizeof data);
    CU_ASSERT(ph_gmon_sniff(data, len) > 0);
    size_t failed = 0;
    for (size_t n = 0; n < len; n += n < 64 ? 1 : 97) {
        ph_input *in = ph_input_memory(data, n, "t.gmon");
        ph_input_set_exe(in, prog);
        ph_profile *p = ph_profile_new();
        if (ph_gmon_read(in, p) != 0) {
            CU_ASSERT_PTR_NOT_NULL(ph_input_error(in));
            failed++;
        }
        ph_profile_free(p);
        ph_input_close(in);
    }
    CU_ASSERT(failed > 0);   /* a short header at least is refused */
    static const char text[] = "events: Ir\nfn=main\n1 2\n";
    CU_ASSERT_EQUAL(ph_gmon_sniff((const unsigned char *)text,
                                  sizeof text - 1), 0);
}

void ph_test_register_gmon(void)
{
    CU_pSuite s = CU_add_suite("gmon", NULL, NULL);
    CU_add_test(s, "self time against gprof", test_against_gprof);
    CU_add_test(s, "line credits add up to the function's",
                test_line_credits);
    CU_add_test(s, "every prefix of a real file", test_prefixes);
}
