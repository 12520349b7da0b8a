/* cachegrind_test.c -- the cachegrind reader and writer: real samples read
 * from memory sum to their summary: line; the corner cases of the format
 * notes (dot counts, missing counts, fl= resetting the function, CRLF,
 * comments, repeated lines); errors and the summary warning; a round trip
 * read -> write -> read that gives the same IR, compared structurally; and
 * what the writer drops from a profile it cannot hold whole. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/importers.h"
#include "exporters/exporters.h"
#include "suites.h"
#include "test_files.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static ph_profile *read_text(const char *text, ph_input **inp)
{
    ph_input *in = ph_input_memory(text, strlen(text), "t.cg");
    ph_profile *p = ph_profile_new();
    if (ph_cachegrind_read(in, p) != 0) {
        ph_profile_free(p);
        p = NULL;
    }
    if (inp)
        *inp = in;
    else
        ph_input_close(in);
    return p;
}

static const ph_func *find_fn(ph_profile *p, const char *file,
                              const char *name)
{
    ph_file *fl = file ? ph_file_get(p, ph_str_intern0(p, file)) : NULL;
    return ph_func_find(p, ph_str_intern0(p, name), fl, NULL);
}

/* Rows of f merged per line, sorted by line: n rows of (line, costs). */
typedef struct line_costs {
    uint32_t line;
    int64_t c[16];
} line_costs;

static int cmp_lines(const void *a, const void *b)
{
    const line_costs *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

static line_costs *merged_rows(const ph_profile *p, const ph_func *f,
                               size_t *n)
{
    size_t cap = 16, k, nev = ph_event_nreal(p);
    line_costs *v = calloc(cap, sizeof *v);
    ph_row_iter it;
    ph_row r;
    *n = 0;
    ph_row_iter_init(&it, p, f, NULL);
    while (ph_row_next(&it, &r)) {
        for (k = 0; k < *n && v[k].line != r.line; k++)
            ;
        if (k == *n) {
            if (*n == cap) {
                v = realloc(v, 2 * cap * sizeof *v);
                memset(v + cap, 0, cap * sizeof *v);
                cap *= 2;
            }
            v[k].line = r.line;
            (*n)++;
        }
        for (size_t e = 0; e < nev && e < 16; e++)
            v[k].c[e] += r.cost[e];
    }
    qsort(v, *n, sizeof *v, cmp_lines);
    return v;
}

/* a and b hold the same events, metadata, functions (by name and file)
 * and per-line costs. */
static void check_same_ir(ph_profile *a, ph_profile *b)
{
    size_t i, nev = ph_event_nreal(a);
    CU_ASSERT_EQUAL_FATAL(ph_event_nreal(b), nev);
    for (i = 0; i < nev; i++)
        CU_ASSERT_STRING_EQUAL(ph_str_get(a, ph_event_real(a, i)->name),
                               ph_str_get(b, ph_event_real(b, i)->name));
    CU_ASSERT_STRING_EQUAL(ph_meta_get(a, "cmd"), ph_meta_get(b, "cmd"));
    CU_ASSERT_EQUAL(ph_meta_count(a), ph_meta_count(b));
    CU_ASSERT_EQUAL(ph_func_count(a), ph_func_count(b));
    CU_ASSERT_EQUAL(ph_part_count(b), 1);
    CU_ASSERT_EQUAL(memcmp(ph_totals(a, PH_ALL_PARTS),
                           ph_totals(b, PH_ALL_PARTS), nev * sizeof(int64_t)),
                    0);
    for (i = 0; i < ph_func_count(a); i++) {
        const ph_func *fa = ph_func_at(a, i), *fb;
        size_t na, nb;
        line_costs *ra, *rb;
        fb = find_fn(b, fa->file ? ph_str_get(a, fa->file->name) : NULL,
                     ph_str_get(a, fa->name));
        CU_ASSERT_PTR_NOT_NULL(fb);
        if (!fb)
            continue;
        ra = merged_rows(a, fa, &na);
        rb = merged_rows(b, fb, &nb);
        CU_ASSERT_EQUAL(na, nb);
        if (na == nb)
            CU_ASSERT_EQUAL(memcmp(ra, rb, na * sizeof *ra), 0);
        free(ra);
        free(rb);
    }
}

/* Write p as cachegrind into a temporary file, read it back. */
static ph_profile *round_trip(ph_profile *p, size_t *ndrops,
                              char *path, size_t pathsize)
{
    char err[256], tmpl[] = "/tmp/cachegrind_test.XXXXXX";
    ph_output *out;
    ph_input *in;
    ph_profile *q;
    int fd = mkstemp(tmpl);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    snprintf(path, pathsize, "%s", tmpl);
    out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(ph_cachegrind_write(p, out), 0);
    if (ndrops)
        *ndrops = ph_output_drop_count(out);
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    in = ph_input_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    q = ph_profile_new();
    if (ph_cachegrind_read(in, q) != 0) {
        fprintf(stderr, "\n  re-read failed: %s\n", ph_input_error(in));
        CU_FAIL("written file does not read back");
    }
    CU_ASSERT_EQUAL(ph_input_warning_count(in), 0);
    ph_input_close(in);
    return q;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void test_corner_cases(void)
{
    static const char text[] =
        "desc: I1 cache: 32768 B\r\n"
        "cmd: ./a b\r\n"
        "events: Ir Dr Dw \r\n"
        "# a comment\n"
        "\n"
        "fl=a.c\n"
        "fn=main\n"
        "10 1 2 3\n"
        "10 4 . 6\n"            /* repeated line adds; '.' is 0 */
        "11 5\n"                /* missing trailing counts are 0 */
        "fl=b.c\n"
        "12 7 7 7\n"            /* fl= reset the function: ??? in b.c */
        "fn=main\n"             /* another main: (main, b.c) */
        "3   1\t1 1  \n"
        "fl=a.c\n"
        "fn=main\n"
        "0 100\n"
        "summary: 118 10 17\n";
    ph_input *in;
    ph_profile *p = read_text(text, &in);
    const int64_t *s;
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(ph_input_warning_count(in), 0);
    CU_ASSERT_STRING_EQUAL(ph_profile_format(p), "cachegrind");
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "cmd"), "./a b");
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "desc"), "I1 cache: 32768 B");
    CU_ASSERT_EQUAL(ph_event_nreal(p), 3);
    CU_ASSERT_EQUAL(ph_part_count(p), 1);
    CU_ASSERT_EQUAL(ph_func_count(p), 3);
    s = ph_func_self(p, find_fn(p, "a.c", "main"), PH_ALL_PARTS);
    CU_ASSERT(s[0] == 110 && s[1] == 2 && s[2] == 9);
    s = ph_func_self(p, find_fn(p, "b.c", "???"), PH_ALL_PARTS);
    CU_ASSERT(s[0] == 7 && s[1] == 7 && s[2] == 7);
    s = ph_func_self(p, find_fn(p, "b.c", "main"), PH_ALL_PARTS);
    CU_ASSERT(s[0] == 1 && s[1] == 1 && s[2] == 1);
    s = ph_totals(p, PH_ALL_PARTS);
    CU_ASSERT(s[0] == 118 && s[1] == 10 && s[2] == 17);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ph_part_at(p, 0)->file_summary);
    CU_ASSERT_EQUAL(ph_part_at(p, 0)->file_summary[2], 17);
    ph_profile_free(p);
    ph_input_close(in);
}

static void test_summary_mismatch(void)
{
    ph_input *in;
    uint64_t times = 0;
    ph_profile *p = read_text("cmd: x\nevents: A B\nfl=f\nfn=g\n1 2 3\n"
                              "summary: 2 4\n", &in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(ph_input_warning_count(in), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(ph_input_warning(in, 0, &times),
                                  "B = 4 but the counts add up to 3"));
    CU_ASSERT_EQUAL(times, 1);
    ph_profile_free(p);
    ph_input_close(in);
}

static void test_errors(void)
{
    static const struct { const char *text, *msg; } bad[] = {
        { "cmd: x\nevents: A\nfl=f\nfn=g\n1 2 3\nsummary: 2\n",
          "t.cg:5:5: count line has more counts than the 1 events, extra \"3\"" },
        { "cmd: x\nfl=f\n", "t.cg:2:1: expected \"desc:\", \"cmd:\" or "
          "\"events:\" before any data, got \"fl=f\"" },
        { "cmd: x\nevents: A\nfn=g\n1 2\n", "t.cg:4:4: missing \"summary:\" "
          "line at the end (truncated file?)" },
        { "cmd: x\nevents: A\nfn=g\n1 0x\nsummary: 2\n",
          "t.cg:4:3: expected a count, got \"0x\"" },
        { "cmd: x\nevents: A\nfn=g\nx 1\nsummary: 2\n",
          "t.cg:4:1: unexpected \"x\", expected \"fl=\", \"fn=\", a count "
          "line or \"summary:\"" },
        { "", "t.cg:1:1: empty file, no cachegrind data" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ph_input *in;
        ph_profile *p = read_text(bad[i].text, &in);
        CU_ASSERT_PTR_NULL(p);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ph_input_error(in));
        if (strcmp(ph_input_error(in), bad[i].msg) != 0)
            fprintf(stderr, "\n  got      %s\n  expected %s\n",
                    ph_input_error(in), bad[i].msg);
        CU_ASSERT_STRING_EQUAL(ph_input_error(in), bad[i].msg);
        ph_input_close(in);
    }
}

static void test_sniff(void)
{
    static const char cg[] = "desc: I1 cache: x\ncmd: ./a\nevents: Ir\n"
                             "fl=(below main).c\nfn=(below main)\n1 2\n";
    static const char cl[] = "# callgrind format\nversion: 1\ncmd: ./a\n";
    static const char cl2[] = "cmd: ./a\npositions: line\nevents: Ir\n";
    static const char cl3[] = "cmd: ./a\nevents: Ir\nfl=(1) a.c\nfn=(2) m\n";
    CU_ASSERT_EQUAL(ph_cachegrind_sniff((const unsigned char *)cg,
                                        sizeof cg - 1), 90);
    /* no "events:" yet: ours only when no other format claims the bytes
     * (below folded's 10: a folded frame may be named "desc: ...") */
    CU_ASSERT_EQUAL(ph_cachegrind_sniff((const unsigned char *)cg, 12), 8);
    CU_ASSERT_EQUAL(ph_cachegrind_sniff((const unsigned char *)cl,
                                        sizeof cl - 1), 0);
    CU_ASSERT_EQUAL(ph_cachegrind_sniff((const unsigned char *)cl2,
                                        sizeof cl2 - 1), 0);
    CU_ASSERT_EQUAL(ph_cachegrind_sniff((const unsigned char *)cl3,
                                        sizeof cl3 - 1), 0);
    CU_ASSERT_EQUAL(ph_cachegrind_sniff((const unsigned char *)"", 0), 0);
}

/* Every real sample: read from memory, totals equal its summary: line, no
 * warning; then written and read back: the same IR. */
static void test_samples(void)
{
    const char *top = getenv("top_srcdir");
    char folder[1024], path[2048], tmp[256];
    struct dirent *de;
    DIR *d;
    int seen = 0;
    if (!top)
        top = ".";
    snprintf(folder, sizeof folder, "%s/samples/cachegrind", top);
    d = opendir(folder);
    if (!d)
        return;   /* run outside make check */
    while ((de = readdir(d)) != NULL) {
        size_t len = 0, n = strlen(de->d_name);
        char *buf;
        ph_input *in;
        ph_profile *p, *q;
        if (n < 4 || strcmp(de->d_name + n - 4, ".out") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", folder, de->d_name);
        buf = ph_test_read_file(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
        in = ph_input_memory(buf, len, de->d_name);
        p = ph_profile_new();
        CU_ASSERT_EQUAL_FATAL(ph_cachegrind_read(in, p), 0);
        CU_ASSERT_EQUAL(ph_input_warning_count(in), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ph_part_at(p, 0)->file_summary);
        CU_ASSERT_EQUAL(memcmp(ph_totals(p, PH_ALL_PARTS),
                               ph_part_at(p, 0)->file_summary,
                               ph_event_nreal(p) * sizeof(int64_t)), 0);
        q = round_trip(p, NULL, tmp, sizeof tmp);
        check_same_ir(p, q);
        unlink(tmp);
        ph_profile_free(q);
        ph_profile_free(p);
        ph_input_close(in);
        free(buf);
        seen++;
    }
    closedir(d);
    CU_ASSERT(seen > 0);
}

/* A profile the format cannot hold whole: two parts, a call, a derived
 * event, addresses, negative values.  The written file sums the parts,
 * keeps negative values, and the drops are reported. */
static void test_lossy_write(void)
{
    ph_profile *p = ph_profile_new(), *q;
    size_t ndrops = 0;
    char tmp[256], err[128];
    int ec;
    ph_part *p1, *p2;
    ph_file *fa;
    ph_func *f, *g;
    const int64_t c1[] = { 10, -4 }, c2[] = { 5, 1 }, inc[] = { 3, 3 };
    const int64_t *s;
    ph_event_add(p, "Ir");
    ph_event_add(p, "Dr");
    CU_ASSERT_PTR_NOT_NULL(ph_event_define(p, "W", "Ir + 2 Dr", &ec, err,
                                           sizeof err));
    p1 = ph_part_add(p, PH_PART_THREAD);
    p2 = ph_part_add(p, PH_PART_THREAD);
    fa = ph_file_get(p, ph_str_intern0(p, "a.c"));
    f = ph_func_get(p, ph_str_intern0(p, "f"), fa, NULL);
    g = ph_func_get(p, ph_str_intern0(p, "g"), fa, NULL);
    ph_row_add(p, f, p1, 0x1000, 7, fa, c1, 2);
    ph_row_add(p, f, p2, 0x1004, 7, fa, c2, 2);
    ph_row_add(p, g, p1, 0, 9, fa, c2, 1);
    ph_call_add(p, f, p1, 0x1000, 7, fa, g, 0, 9, 1, inc, 2);
    q = round_trip(p, &ndrops, tmp, sizeof tmp);
    unlink(tmp);
    CU_ASSERT_EQUAL(ndrops, 4);   /* formulas, calls, parts, addresses */
    s = ph_func_self(q, find_fn(q, "a.c", "f"), PH_ALL_PARTS);
    CU_ASSERT(s[0] == 15 && s[1] == -3);
    s = ph_totals(q, PH_ALL_PARTS);
    CU_ASSERT(s[0] == 20 && s[1] == -3);
    CU_ASSERT_EQUAL(ph_event_count(q), 2);
    CU_ASSERT_STRING_EQUAL(ph_meta_get(q, "cmd"), "<unknown>");
    ph_profile_free(q);
    ph_profile_free(p);
}

void ph_test_register_cachegrind(void)
{
    CU_pSuite s = CU_add_suite("cachegrind", NULL, NULL);
    CU_add_test(s, "corner cases", test_corner_cases);
    CU_add_test(s, "summary mismatch warns", test_summary_mismatch);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "sniff", test_sniff);
    CU_add_test(s, "real samples and round trip", test_samples);
    CU_add_test(s, "lossy write", test_lossy_write);
}
