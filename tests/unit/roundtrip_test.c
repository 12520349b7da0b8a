/* roundtrip_test.c -- the writers whose format profhub also reads
 * (callgrind, cachegrind, pprof): a real sample written to a file and read
 * back holds the same events, the same totals and the same self costs per
 * function; a writer that cannot write records its error on the output,
 * and the commit then fails and leaves nothing behind. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/format.h"
#include "suites.h"

static char dir[] = "/tmp/ph_roundtrip.XXXXXX";

static int make_dir(void)
{
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void)
{
    return rmdir(dir);
}

static ph_profile *load(const char *path)
{
    char err[1024];
    ph_input *in = NULL;
    ph_profile *p = ph_load(path, NULL, NULL, &in, err, sizeof err);
    if (!p)
        fprintf(stderr, "\n%s\n", err);
    if (in)
        ph_input_close(in);
    return p;
}

/* Write p with the writer called name into path; 0 or -1. */
static int write_to(const ph_profile *p, const char *name, const char *path)
{
    char err[1024] = "";
    const ph_format *w = ph_exporter_find(name);
    ph_output *out = ph_output_open(path, err, sizeof err);
    if (!w || !out)
        return -1;
    if (w->write(p, out) < 0) {
        ph_output_abort(out);
        return -1;
    }
    return ph_output_commit(out, err, sizeof err);
}

/* Self cost of event ev (by name) of every function called fn in p. */
static int64_t self_of(ph_profile *p, const char *fn, const char *ev)
{
    const ph_event *e = ph_event_find(p, ev);
    int64_t sum = 0;
    if (!e)
        return -1;
    for (size_t i = 0; i < ph_func_count(p); i++) {
        const ph_func *f = ph_func_at(p, i);
        if (strcmp(ph_str_get(p, f->name), fn) == 0)
            sum += (int64_t)ph_event_eval(p, e, ph_func_self(p, f, PH_ALL_PARTS));
    }
    return sum;
}

static void check_roundtrip(const char *sample, const char *writer,
                            const char *ext)
{
    const char *top = getenv("top_srcdir");
    char in[1024], out[1024];
    snprintf(in, sizeof in, "%s/%s", top ? top : ".", sample);
    if (access(in, R_OK) != 0)
        return;   /* run outside make check */
    snprintf(out, sizeof out, "%s/out.%s", dir, ext);
    ph_profile *a = load(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL_FATAL(write_to(a, writer, out), 0);
    ph_profile *b = load(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    size_t n = ph_event_nreal(a), checked = 0;
    const int64_t *ta = ph_totals(a, PH_ALL_PARTS);
    const int64_t *tb = ph_totals(b, PH_ALL_PARTS);
    for (size_t k = 0; k < n; k++) {
        const ph_event *ea = ph_event_real(a, k);
        const char *name = ph_str_get(a, ea->name);
        const ph_event *eb = ph_event_find(b, name);
        CU_ASSERT_PTR_NOT_NULL(eb);
        if (!eb)
            continue;
        CU_ASSERT_EQUAL(ph_event_eval(a, ea, ta), ph_event_eval(b, eb, tb));
        /* Every function's self cost, by name. */
        for (size_t i = 0; i < ph_func_count(a); i++) {
            const char *fn = ph_str_get(a, ph_func_at(a, i)->name);
            int64_t va = self_of(a, fn, name), vb = self_of(b, fn, name);
            if (va != vb)
                fprintf(stderr, "\n%s %s %s: %lld, read back %lld\n", sample,
                        fn, name, (long long)va, (long long)vb);
            CU_ASSERT_EQUAL(va, vb);
            checked++;
        }
    }
    CU_ASSERT(checked > 100);
    ph_profile_free(a);
    ph_profile_free(b);
    unlink(out);
}

static void test_callgrind(void)
{
    check_roundtrip("samples/callgrind/chain.cache-branch.out", "callgrind",
                    "callgrind");
}

static void test_cachegrind(void)
{
    check_roundtrip("samples/cachegrind/chain.default.out", "cachegrind",
                    "cachegrind");
}

static void test_pprof(void)
{
    check_roundtrip("samples/pprof/gowork.cpu.pb.gz", "pprof", "pb.gz");
    check_roundtrip("samples/callgrind/chain.default.out", "pprof", "pb.gz");
}

/* A profile with no event (callgrind's writer may write an empty
 * profile; these cannot): each writer records why on the output, and the
 * commit fails with that message and leaves no file. */
static void test_error_on_output(void)
{
    static const char *const writers[] = {"cachegrind", "folded",
                                          "speedscope", "dot"};
    ph_profile *p = ph_profile_new();
    char path[1024], err[1024];
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++) {
        const ph_format *w = ph_exporter_find(writers[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        snprintf(path, sizeof path, "%s/empty.%s", dir, writers[i]);
        ph_output *out = ph_output_open(path, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        CU_ASSERT_EQUAL(w->write(p, out), -1);
        CU_ASSERT_PTR_NOT_NULL(ph_output_error(out));
        if (ph_output_error(out))
            CU_ASSERT_PTR_NOT_NULL(strstr(ph_output_error(out),
                                          "no additive event"));
        CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "no additive event"));
        CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    }
    ph_profile_free(p);
}

void ph_test_register_roundtrip(void)
{
    CU_pSuite s = CU_add_suite("roundtrip", make_dir, remove_dir);
    CU_add_test(s, "callgrind read back", test_callgrind);
    CU_add_test(s, "cachegrind read back", test_cachegrind);
    CU_add_test(s, "pprof read back", test_pprof);
    CU_add_test(s, "writer error on the output", test_error_on_output);
}
