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
#include "ir/jobs.h"
#include "suites.h"
#include "test_files.h"

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

/* Name lines of a callgrind file that break its compression: an id given
 * its text twice, used before its text, or not the next number of its
 * kind (objects, files, functions; each part starts afresh).  *defs: the
 * functions given their text. */
static size_t bad_names(char *text, size_t *defs)
{
    static const char *const keys[] = {"ob", "cob", "fl", "fi", "fe", "cfi",
                                       "jfi", "fn", "cfn", "jfn"};
    static const int kind[] = {0, 0, 1, 1, 1, 1, 1, 2, 2, 2};
    unsigned char *seen[3] = {NULL, NULL, NULL};
    size_t cap = 1 << 20, next[3] = {0, 0, 0}, bad = 0;
    for (int k = 0; k < 3; k++)
        seen[k] = calloc(cap, 1);
    *defs = 0;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        if (strncmp(l, "part:", 5) == 0) {
            for (int k = 0; k < 3; k++) {
                memset(seen[k], 0, cap);
                next[k] = 0;
            }
            continue;
        }
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            size_t kl = strlen(keys[i]);
            char *end;
            if (strncmp(l, keys[i], kl) != 0 || strncmp(l + kl, "=(", 2))
                continue;
            unsigned long id = strtoul(l + kl + 2, &end, 10);
            int k = kind[i], named = end[0] == ')' && end[1] == ' ';
            if (id == 0 || id >= cap || end[0] != ')') {
                bad++;
            } else if (named) {
                bad += seen[k][id] || id != next[k] + 1;
                seen[k][id] = 1;
                next[k] = id;
                *defs += k == 2;
            } else {
                bad += !seen[k][id];
            }
        }
    }
    for (int k = 0; k < 3; k++)
        free(seen[k]);
    return bad;
}

/* The callgrind writer makes a part's functions in pieces on two threads
 * and writes the pieces in order, their name lines made there: the file
 * is the one a single thread writes, every name is given its text once,
 * at its first use, and it reads back the same.  The sample has functions
 * enough for two pieces. */
static void test_callgrind_pieces(void)
{
    const char *sample = "samples/callgrind/chain.callers8.out";
    const char *top = getenv("top_srcdir");
    char in[1024], one[1024], two[1024];
    snprintf(in, sizeof in, "%s/%s", top ? top : ".", sample);
    if (access(in, R_OK) != 0)
        return;   /* run outside make check */
    snprintf(one, sizeof one, "%s/one.callgrind", dir);
    snprintf(two, sizeof two, "%s/two.callgrind", dir);
    ph_profile *p = load(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    ph_set_jobs(1);
    CU_ASSERT_EQUAL(write_to(p, "callgrind", one), 0);
    ph_set_jobs(2);
    CU_ASSERT_EQUAL(write_to(p, "callgrind", two), 0);
    ph_set_jobs(0);
    size_t n1 = 0, n2 = 0, defs = 0;
    char *a = ph_test_read_file(one, &n1), *b = ph_test_read_file(two, &n2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT(n1 == n2 && memcmp(a, b, n1) == 0);
    CU_ASSERT_EQUAL(bad_names(b, &defs), 0);
    CU_ASSERT(defs > 256);
    free(a);
    free(b);
    unlink(one);
    unlink(two);
    ph_profile_free(p);
    check_roundtrip(sample, "callgrind", "callgrind");
}

/* Line ends and NUL in a name, which would end its line or its name for
 * callgrind's readers, are written as '?', and the writer says so. */
static void test_callgrind_name_on_one_line(void)
{
    static const char name[] = "a\nb\rc\0d\n";
    char path[1024], err[1024];
    ph_profile *p = ph_profile_new();
    ph_part *part = ph_part_add(p, PH_PART_WHOLE);
    ph_event_add(p, "Ir");
    ph_func *f = ph_func_get(p, ph_str_intern(p, name, sizeof name - 1),
                             NULL, NULL);
    ph_row_add(p, f, part, 0, 1, NULL, (int64_t[]){5}, 1);
    snprintf(path, sizeof path, "%s/names.callgrind", dir);
    ph_output *out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(ph_exporter_find("callgrind")->write(p, out), 0);
    uint64_t times = 0;
    int said = 0;
    for (size_t i = 0; i < ph_output_drop_count(out); i++)
        if (strstr(ph_output_drop_at(out, i, &times), "line end"))
            said = times == 1;
    CU_ASSERT(said);
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    size_t len = 0;
    char *text = ph_test_read_file(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nfn=(1) a?b?c?d?\n"));
    free(text);
    unlink(path);
    ph_profile_free(p);
}

/* The stack of names (top first, "" the empty name; a trailing '^':
 * entered inlined) ending in a sample of value v. */
static void add_stack(ph_profile *p, const char *const *names, int64_t v)
{
    ph_node *node = NULL;
    for (; *names; names++) {
        size_t n = strlen(*names);
        int inlined = n && (*names)[n - 1] == '^';
        ph_func *f = ph_func_get(p, ph_str_intern(p, *names, n - inlined),
                                 NULL, NULL);
        node = ph_node_child(p, node, f, NULL, 0, 0,
                             inlined ? PH_FRAME_INLINED : 0);
    }
    ph_sample_add(p, node, NULL, &v, 1, NULL, 0);
}

/* Whether text holds line (with its '\n') as a whole line. */
static int has_line(const char *text, const char *line)
{
    for (const char *s = text; (s = strstr(s, line)) != NULL; s++)
        if (s == text || s[-1] == '\n')
            return 1;
    return 0;
}

/* Folded names: ';' written ':', control bytes '?', a blank that would
 * begin a line '?', ": " ":_", the empty name "???", an inlined frame
 * below the top "_[i]", each change counted once a line it is on; lines
 * that share their callers with the lines before (the writer keeps the
 * line before up to the frame they share) and lines that do not. */
static void test_folded_names(void)
{
    static const char *const s1[] = {" lead", "a;b", "k: v", NULL};
    static const char *const s2[] = {" lead", "a;b", "", NULL};
    static const char *const s3[] = {"x\ny", " lead^", NULL};
    static const char *const s4[] = {"top", "mid", "leaf", NULL};
    static const char *const s5[] = {"top", NULL};
    static const char *const s6[] = {"alt", NULL};
    static const char *const s7[] = {"top", "mid", "leaf2", NULL};
    static const char *const s8[] = {"top", "other", NULL};
    static const char *const want[] = {
        "?lead;a:b;k:_v 3\n", "?lead;a:b;??? 2\n", "x?y; lead_[i] 1\n",
        "top;mid;leaf 4\n", "top 6\n", "alt 7\n", "top;mid;leaf2 8\n",
        "top;other 5\n"};
    char path[1024], err[1024];
    ph_profile *p = ph_profile_new();
    ph_event_add(p, "samples");
    add_stack(p, s1, 3);
    add_stack(p, s2, 2);
    add_stack(p, s3, 1);
    add_stack(p, s4, 4);
    add_stack(p, s5, 6);
    add_stack(p, s6, 7);
    add_stack(p, s7, 8);
    add_stack(p, s8, 5);
    snprintf(path, sizeof path, "%s/names.folded", dir);
    ph_output *out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(ph_exporter_find("folded")->write(p, out), 0);
    uint64_t times = 0, renamed = 0;
    for (size_t i = 0; i < ph_output_drop_count(out); i++)
        if (strstr(ph_output_drop_at(out, i, &times), "frame names"))
            renamed = times;
    CU_ASSERT_EQUAL(renamed, 7);    /* 3 + 3 + 1: the lines' changed names */
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    size_t len = 0, lines = 0;
    char *text = ph_test_read_file(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (!has_line(text, want[i]))
            fprintf(stderr, "\nno line \"%s\" in:\n%s", want[i], text);
        CU_ASSERT(has_line(text, want[i]));
    }
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    CU_ASSERT_EQUAL(lines, sizeof want / sizeof want[0]);
    free(text);
    unlink(path);
    ph_profile_free(p);
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
    CU_add_test(s, "callgrind pieces on two threads",
                test_callgrind_pieces);
    CU_add_test(s, "callgrind names on one line",
                test_callgrind_name_on_one_line);
    CU_add_test(s, "folded names and shared lines", test_folded_names);
    CU_add_test(s, "cachegrind read back", test_cachegrind);
    CU_add_test(s, "pprof read back", test_pprof);
    CU_add_test(s, "writer error on the output", test_error_on_output);
}
