/* callgrind_test.c -- the callgrind reader and writer: the hand-made example
 * of the format notes (section 7) read from memory gives the documented
 * self / inclusive / called table; corner cases (CRLF, comments, tabs, hex,
 * missing costs, names defined in cfn=/cfi=, both jcnd= forms, several
 * parts); errors; and round trips read -> write -> read compared
 * structurally (functions, rows per position, calls, jumps, parts,
 * events), on the example and on every real sample in samples/callgrind;
 * a run's thread and dump files loaded as parts; the one-pass cost-line
 * tokenizer, and every sample read the same through it and without it. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "exporters/exporters.h"
#include "importers/callgrind_priv.h"
#include "importers/importers.h"
#include "ir/jobs.h"
#include "suites.h"
#include "test_files.h"

static const char example[] =
    "# callgrind format\n"
    "version: 1\n"
    "creator: handmade-example\n"
    "pid: 42\n"
    "cmd: ./demo input.txt\n"
    "part: 1\n"
    "positions: line\n"
    "events: Ir Dr\n"
    "event: Ir : Instructions executed\n"
    "event: W = Ir + 2 Dr : Weighted cost\n"
    "summary: 630 94\n"
    "\n"
    "ob=(1) demo\n"
    "fl=(1) demo.c\n"
    "fn=(1) main\n"
    "10 20 4\n"
    "cfn=(2) parse\n"
    "calls=2 30\n"
    "11 500 70\n"
    "+1 10\n"
    "cfi=(2) util.c\n"
    "cfn=(3) helper\n"
    "calls=1 5\n"
    "12 100 20\n"
    "\n"
    "fn=(2)\n"
    "30 200 50\n"
    "+2 100\n"
    "cfi=(2)\n"
    "cfn=(3)\n"
    "calls=4 5\n"
    "33 200 20\n"
    "\n"
    "fl=(2)\n"
    "fn=(3)\n"
    "5 280 40\n"
    "6 20\n"
    "\n"
    "totals: 630 94\n";

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static ph_profile *read_mem(const char *text, size_t len, ph_input **inp)
{
    ph_input *in = ph_input_memory(text, len, "t.callgrind");
    ph_profile *p = ph_profile_new();

    if (ph_callgrind_read(in, p) != 0) {
        ph_profile_free(p);
        p = NULL;
    }
    if (inp)
        *inp = in;
    else
        ph_input_close(in);
    return p;
}

static ph_profile *read_text(const char *text)
{
    return read_mem(text, strlen(text), NULL);
}

static ph_func *find_fn(ph_profile *p, const char *name)
{
    size_t i;

    for (i = 0; i < ph_func_count(p); i++)
        if (strcmp(ph_str_get(p, ph_func_at(p, i)->name), name) == 0)
            return ph_func_at(p, i);
    return NULL;
}

static void check_fn(ph_profile *p, const char *name, const char *file,
                     int64_t sir, int64_t sdr, int64_t iir, int64_t idr,
                     uint64_t called)
{
    ph_func *f = find_fn(p, name);
    const int64_t *v;

    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, f->file->name), file);
    v = ph_func_self(p, f, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(v[0], sir);
    CU_ASSERT_EQUAL(v[1], sdr);
    v = ph_func_incl(p, f, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(v[0], iir);
    CU_ASSERT_EQUAL(v[1], idr);
    CU_ASSERT_EQUAL(ph_func_calls(p, f, PH_ALL_PARTS), called);
}

/* The table of the notes, section 7. */
static void check_example(ph_profile *p)
{
    const int64_t *t;
    ph_event *w;

    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(ph_func_count(p), 3);
    check_fn(p, "main", "demo.c", 30, 4, 630, 94, 0);
    check_fn(p, "parse", "demo.c", 300, 50, 500, 70, 2);
    check_fn(p, "helper", "util.c", 300, 40, 300, 40, 5);
    t = ph_totals(p, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(t[0], 630);
    CU_ASSERT_EQUAL(t[1], 94);
    w = ph_event_find(p, "W");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT(w->flags & PH_EV_DERIVED);
    CU_ASSERT_EQUAL(ph_event_eval(p, w, t), 818.0);
    CU_ASSERT_EQUAL(ph_event_eval(p, w, ph_func_self(p, find_fn(p, "main"),
                                                     PH_ALL_PARTS)), 38.0);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, w->long_name), "Weighted cost");
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, ph_event_find(p, "Ir")->long_name),
                           "Instructions executed");
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "cmd"), "./demo input.txt");
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "pid"), "42");
    CU_ASSERT_EQUAL(ph_part_count(p), 1);
    CU_ASSERT_EQUAL(ph_part_at(p, 0)->pid, 42);
    CU_ASSERT_EQUAL(ph_part_at(p, 0)->number, 1);
}

/* Canonical text of everything the IR holds, one sorted line per item, so
 * two profiles compare without caring about creation order or ids. */
static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct lines {
    char **v;
    size_t n, cap;
} lines;

static void add_line(lines *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = s;
}

static const char *fname(ph_profile *p, const ph_file *f)
{
    return f ? ph_str_get(p, f->name) : "";
}

static void put_func(FILE *m, ph_profile *p, const ph_func *f)
{
    fprintf(m, "%s@%s@%s", ph_str_get(p, f->name), fname(p, f->file),
            f->object ? ph_str_get(p, f->object->name) : "");
}

static void put_vec(FILE *m, const int64_t *v, size_t n, size_t width)
{
    size_t k;

    for (k = 0; k < width; k++)
        fprintf(m, " %lld", (long long)(k < n && v ? v[k] : 0));
}

static lines describe(ph_profile *p)
{
    lines l = {NULL, 0, 0};
    size_t i, nr = ph_event_nreal(p);
    char *s;
    size_t len;
    FILE *m;

    for (i = 0; i < ph_event_count(p); i++) {
        const ph_event *e = ph_event_at(p, i);
        m = open_memstream(&s, &len);
        fprintf(m, "event %zu %s slot %d formula '%s' long '%s'", i,
                ph_str_get(p, e->name), e->slot,
                ph_str_get(p, e->formula), ph_str_get(p, e->long_name));
        fclose(m);
        add_line(&l, s);
    }
    for (i = 0; i < ph_part_count(p); i++) {
        const ph_part *pt = ph_part_at(p, i);
        m = open_memstream(&s, &len);
        fprintf(m, "part %zu kind %d number %lld tid %lld trigger '%s'", i,
                (int)pt->kind, (long long)pt->number, (long long)pt->tid,
                ph_str_get(p, pt->trigger));
        fclose(m);
        add_line(&l, s);
    }
    for (i = 0; i < ph_func_count(p) * ph_part_count(p); i++) {
        ph_func *f = ph_func_at(p, i / ph_part_count(p));
        size_t pi = i % ph_part_count(p);
        ph_row_iter it;
        ph_row r;
        ph_row_iter_init(&it, p, f, ph_part_at(p, pi));
        while (ph_row_next(&it, &r)) {
            m = open_memstream(&s, &len);
            fputs("row ", m);
            put_func(m, p, f);
            fprintf(m, " part %zu at 0x%llx:%u in %s:", pi,
                    (unsigned long long)r.addr, r.line, fname(p, r.file));
            put_vec(m, r.cost, nr, nr);
            fclose(m);
            add_line(&l, s);
        }
    }
    ph_call_iter ci;
    for (const ph_call *c = ph_calls_all(&ci, p); c; c = ph_call_next(&ci)) {
        m = open_memstream(&s, &len);
        fputs("call ", m);
        put_func(m, p, c->caller);
        fputs(" -> ", m);
        put_func(m, p, c->callee);
        fprintf(m, " part %u at 0x%llx:%u in %s target 0x%llx:%u x%llu:",
                (unsigned)c->part->index, (unsigned long long)c->addr,
                c->line, fname(p, c->file),
                (unsigned long long)c->target_addr, c->target_line,
                (unsigned long long)c->count);
        put_vec(m, c->incl, c->width, nr);
        fclose(m);
        add_line(&l, s);
    }
    ph_jump_iter ji;
    for (const ph_jump *j = ph_jumps_all(&ji, p); j; j = ph_jump_next(&ji)) {
        m = open_memstream(&s, &len);
        fputs("jump ", m);
        put_func(m, p, j->from);
        fputs(" -> ", m);
        put_func(m, p, j->to);
        fprintf(m, " part %u at 0x%llx:%u in %s to %s 0x%llx:%u %llu/%llu "
                "cond %d", (unsigned)j->part->index,
                (unsigned long long)j->addr, j->line, fname(p, j->file),
                fname(p, j->to_file), (unsigned long long)j->target_addr,
                j->target_line, (unsigned long long)j->followed,
                (unsigned long long)j->executed, j->conditional);
        fclose(m);
        add_line(&l, s);
    }
    qsort(l.v, l.n, sizeof *l.v, compare_lines);
    return l;
}

static void free_lines(lines *l)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* Equal descriptions; prints the first difference. */
static int same_ir(ph_profile *a, ph_profile *b, const char *what)
{
    lines x = describe(a), y = describe(b);
    size_t i, n = x.n < y.n ? x.n : y.n;
    int ok = x.n == y.n;

    for (i = 0; i < n; i++) {
        if (strcmp(x.v[i], y.v[i]) != 0) {
            fprintf(stderr, "\n%s: first difference:\n  %s\n  %s\n", what,
                    x.v[i], y.v[i]);
            ok = 0;
            break;
        }
    }
    if (ok == 0 && i == n)
        fprintf(stderr, "\n%s: %zu vs %zu items\n", what, x.n, y.n);
    free_lines(&x);
    free_lines(&y);
    return ok;
}

/* Write p as callgrind into memory (through a temporary file) and read it
 * back. */
static ph_profile *round_trip(ph_profile *p)
{
    char err[256], path[] = "/tmp/callgrind_test.XXXXXX";
    int fd = mkstemp(path);
    ph_output *out;
    ph_profile *q = NULL;
    FILE *f;
    char *buf;
    long n;

    if (fd < 0)
        return NULL;
    close(fd);
    out = ph_output_open(path, err, sizeof err);
    if (out && ph_callgrind_write(p, out) == 0 &&
        ph_output_commit(out, err, sizeof err) == 0) {
        f = fopen(path, "rb");
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = malloc((size_t)n + 1);
        if (fread(buf, 1, (size_t)n, f) == (size_t)n)
            q = read_mem(buf, (size_t)n, NULL);
        fclose(f);
        free(buf);
    }
    unlink(path);
    return q;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void test_example(void)
{
    ph_profile *p = read_text(example);

    check_example(p);
    ph_profile_free(p);
}

static void test_corner_cases(void)
{
    /* CRLF, tabs, hex, a comment in the body, a name first defined in a
     * cfn= line, a call cost line before any self cost. */
    const char *crlf =
        "events: Ir Dr\r\n"
        "# comment\r\n"
        "fl=(1) demo.c\r\n"
        "fn=(1) main\r\n"
        "cfn=(7) callee\r\n"
        "calls=1 0x10\r\n"
        "3\t0x10 2\r\n"
        "0xa\t\t5\r\n"
        "   \r\n"
        "fn=(7)\r\n"
        "16 0xF\r\n";
    ph_profile *p = read_text(crlf);
    ph_func *m, *c;

    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    m = find_fn(p, "main");
    c = find_fn(p, "callee");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(ph_func_self(p, m, PH_ALL_PARTS)[0], 5);
    CU_ASSERT_EQUAL(ph_func_self(p, m, PH_ALL_PARTS)[1], 0);
    CU_ASSERT_EQUAL(ph_func_self(p, c, PH_ALL_PARTS)[0], 15);
    CU_ASSERT_EQUAL(ph_func_incl(p, c, PH_ALL_PARTS)[0], 16);
    CU_ASSERT_EQUAL(ph_func_incl(p, c, PH_ALL_PARTS)[1], 2);
    CU_ASSERT_EQUAL(ph_call_count(p), 1);
    {
        ph_call_iter ci;
        const ph_call *call = ph_calls_all(&ci, p);
        CU_ASSERT_PTR_NOT_NULL_FATAL(call);
        CU_ASSERT_EQUAL(call->line, 3);
        CU_ASSERT_EQUAL(call->target_line, 16);
    }
    ph_profile_free(p);

    /* positions: instr line, relative subpositions and both jcnd forms;
     * the jump line moves the position. */
    p = read_text("positions: instr line\nevents: Ir\n"
                  "fl=f.c\nfn=f\n0x100 5 1\n+4 * 2\n"
                  "jcnd=3/7 +8 1\n* *\n"
                  "jcnd=7 3 -4 *\n+2 +1\n"
                  "jump=2 0x100 5\n+2 -1\n+1 * 4\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(ph_jump_count(p), 3);
    if (ph_jump_count(p) == 3) {
        ph_jump_iter ji;
        const ph_jump *j = ph_jumps_all(&ji, p);
        CU_ASSERT_EQUAL(j->addr, 0x104);
        CU_ASSERT_EQUAL(j->target_addr, 0x10c);
        CU_ASSERT_EQUAL(j->target_line, 1);
        CU_ASSERT_EQUAL(j->followed, 3);
        CU_ASSERT_EQUAL(j->executed, 7);
        CU_ASSERT(j->conditional);
        j = ph_jump_next(&ji);
        CU_ASSERT_EQUAL(j->executed, 7);
        CU_ASSERT_EQUAL(j->followed, 3);
        CU_ASSERT_EQUAL(j->addr, 0x106);
        CU_ASSERT_EQUAL(j->line, 6);
        j = ph_jump_next(&ji);
        CU_ASSERT(!j->conditional);
        CU_ASSERT_EQUAL(j->executed, 2);
        CU_ASSERT_EQUAL(j->addr, 0x108);
        CU_ASSERT_EQUAL(j->line, 5);
    }
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 7);
    ph_profile_free(p);

    /* A new part at each events:/part:/thread: after data; ids stay
     * file-wide (callgrind --combine-dumps reuses them). */
    p = read_text("part: 1\nevents: Ir\nfl=(1) a.c\nfn=(1) f\n1 5\n"
                  "totals: 5\npart: 2\nthread: 3\nevents: Ir\n"
                  "fl=(1)\nfn=(1)\n1 7\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(ph_part_count(p), 2);
    CU_ASSERT_EQUAL(ph_func_count(p), 1);
    CU_ASSERT_EQUAL(ph_totals(p, 0)[0], 5);
    CU_ASSERT_EQUAL(ph_totals(p, 1)[0], 7);
    CU_ASSERT_EQUAL(ph_part_at(p, 1)->tid, 3);
    CU_ASSERT_EQUAL(ph_part_at(p, 1)->kind, PH_PART_THREAD);
    ph_profile_free(p);
}

static void test_errors(void)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"events: Ir\nfn=(3)\n", "t.callgrind:2:4: undefined compressed "
         "function id (3)"},
        {"10 5\nevents: Ir\n", "t.callgrind:1:1: cost line before "
         "\"events:\""},
        {"events: Ir\nfn=f\n1 2 3\n", "t.callgrind:3:5: more costs than "
         "events (1 event)"},
        {"events: Ir\nfn=f\ncfn=g\ncalls=1 2\n", "t.callgrind:4:1: "
         "\"calls=\" at the end of the file, without its position line "
         "(truncated file?)"},
        {"", "t.callgrind:1:1: no data (empty file)"},
    };
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ph_input *in;
        ph_profile *p = read_mem(cases[i].text, strlen(cases[i].text), &in);
        CU_ASSERT_PTR_NULL(p);
        CU_ASSERT_PTR_NOT_NULL(ph_input_error(in));
        if (ph_input_error(in))
            CU_ASSERT_STRING_EQUAL(ph_input_error(in), cases[i].msg);
        ph_input_close(in);
    }
}

static void test_summary_warning(void)
{
    ph_input *in;
    ph_profile *p = read_mem("events: Ir\nfn=f\n1 5\ntotals: 6\n", 31, &in);
    uint64_t times;

    CU_ASSERT_PTR_NOT_NULL(p);
    CU_ASSERT_EQUAL(ph_input_warning_count(in), 1);
    if (ph_input_warning_count(in) == 1)
        CU_ASSERT_PTR_NOT_NULL(strstr(ph_input_warning(in, 0, &times),
                                      "add up to 5"));
    ph_profile_free(p);
    ph_input_close(in);
}

/* What KCachegrind's loader tolerates (libcore/cachegrindloader.cpp): text
 * after the target of calls= (Xdebug 3's "calls=1 0 0"), costs with a
 * fraction (read as their integer part), and, from a writer other than
 * callgrind, a summary: larger than the data without totals:.  Each is
 * read with one warning per kind, counted. */
static void test_kcachegrind_tolerance(void)
{
    static const char text[] =
        "creator: xdebug 3.2.0\n"
        "events: Time Memory\n"
        "fl=(1) a.php\nfn=(1) f\n2 10.75 3\n"
        "fn=(2) main\n1 4 0\ncfl=(1)\ncfn=(1)\ncalls=1 0 0\n1 11 3\n"
        "cfl=(1)\ncfn=(1)\ncalls=1 0 0\n1 0.5 0\n"
        "summary: 100.25 7\n";
    ph_input *in;
    ph_profile *p = read_mem(text, sizeof text - 1, &in);
    const int64_t *t;
    uint64_t times = 0;
    size_t i, nw;
    int seen_extra = 0, seen_frac = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    t = ph_totals(p, PH_ALL_PARTS);
    CU_ASSERT_EQUAL(t[0], 14);
    CU_ASSERT_EQUAL(t[1], 3);
    nw = ph_input_warning_count(in);
    for (i = 0; i < nw; i++) {
        const char *w = ph_input_warning(in, i, &times);
        if (strstr(w, "after the target position")) {
            seen_extra = 1;
            CU_ASSERT_EQUAL(times, 2);
        }
        if (strstr(w, "integer part")) {
            seen_frac = 1;
            CU_ASSERT_EQUAL(times, 3);
        }
    }
    CU_ASSERT(seen_extra);
    CU_ASSERT(seen_frac);
    ph_profile_free(p);
    ph_input_close(in);

    /* The same cut short in a file callgrind wrote is still an error. */
    p = read_text("creator: callgrind-3.19.0\nevents: Ir\nfn=f\n1 5\n"
                  "summary: 9\n");
    CU_ASSERT_PTR_NULL(p);
}

static void test_sniff(void)
{
    CU_ASSERT_EQUAL(ph_callgrind_sniff((const unsigned char *)example,
                                       sizeof example - 1), 100);
    CU_ASSERT(ph_callgrind_sniff((const unsigned char *)
                                 "events: Ir\ncalls=1 2\n", 21) >= 80);
    CU_ASSERT_EQUAL(ph_callgrind_sniff((const unsigned char *)"hello", 5), 0);
}

static void test_round_trip_example(void)
{
    ph_profile *p = read_text(example), *q;

    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    q = round_trip(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    check_example(q);
    CU_ASSERT(same_ir(p, q, "example"));
    ph_profile_free(p);
    ph_profile_free(q);
}

/* A profile with events and no part (nothing ever ran) is written with
 * its events: line, so that it reads back (issue 15 item 11). */
static void test_round_trip_no_parts(void)
{
    ph_profile *p = ph_profile_new(), *q;

    ph_event_add(p, "Ir");
    CU_ASSERT_EQUAL_FATAL(ph_part_count(p), 0);
    q = round_trip(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL(ph_event_nreal(q), 1);
    ph_profile_free(p);
    ph_profile_free(q);
}

/* Every real sample that is a single file (the run's sibling files are
 * not loaded from memory). */
/* The real samples: open_samples, then next_sample gives the bytes of
 * each (NULL at the end) and its file name. */
static DIR *open_samples(void)
{
    const char *top = getenv("top_srcdir");
    char dir[1024];

    snprintf(dir, sizeof dir, "%s/samples/callgrind", top ? top : ".");
    return opendir(dir);
}

static char *next_sample(DIR *d, long *len, const char **name)
{
    const char *top = getenv("top_srcdir");
    struct dirent *de;
    char path[2048];

    while ((de = readdir(d)) != NULL) {
        char *buf;
        if (de->d_name[0] == '.' || strstr(de->d_name, ".out") == NULL)
            continue;
        snprintf(path, sizeof path, "%s/samples/callgrind/%s",
                 top ? top : ".", de->d_name);
        size_t n;
        buf = ph_test_read_file(path, &n);
        *len = (long)n;
        if (buf && n == 0) {    /* the empty base of --separate-threads */
            free(buf);
            buf = NULL;
        }
        if (buf) {
            *name = de->d_name;
            return buf;
        }
    }
    return NULL;
}

/* check(name, buf, len) on every real callgrind sample, which must
 * say whether it compared the sample; at least one must be compared. */
static void each_sample(int (*check)(const char *, const char *, long))
{
    DIR *d = open_samples();
    const char *name;
    char *buf;
    long len;
    int n = 0;

    if (!d)
        return;
    while ((buf = next_sample(d, &len, &name)) != NULL) {
        n += check(name, buf, len);
        free(buf);
    }
    closedir(d);
    CU_ASSERT(n > 0);
}

/* Whether entry b of table tb has the values of entry a of ta in ev. */
static int same_entry(const ph_table *ta, const ph_entry *a,
                      const ph_table *tb, const ph_entry *b,
                      const ph_event *ev)
{
    return b->func == a->func && b->cycle == a->cycle &&
           b->is_cycle == a->is_cycle && b->calls == a->calls &&
           b->self_calls == a->self_calls &&
           ph_entry_value(tb, b, ev, 0) == ph_entry_value(ta, a, ev, 0) &&
           ph_entry_value(tb, b, ev, 1) == ph_entry_value(ta, a, ev, 1);
}

/* A table of one event holds the values of the events it reads: its
 * entries have the values they have in the table of every event, in the
 * same order, and those it leaves out have none in that event. */
static int one_event_tables_agree(const char *name, const char *buf,
                                  long len)
{
    ph_profile *p = read_mem(buf, (size_t)len, NULL);
    CU_ASSERT_PTR_NOT_NULL(p);
    if (!p)
        return 0;
    for (size_t i = 0; i < ph_event_count(p); i++) {
        const ph_event *ev = ph_event_at(p, i);
        ph_table_opts o = {.group = PH_GROUP_FUNCTION, .part = PH_ALL_PARTS,
                           .cycles = 1};
        ph_table *all = ph_table_build(p, &o);
        o.only = ev;
        ph_table *one = ph_table_build(p, &o);
        CU_ASSERT_PTR_NOT_NULL(one->kept);
        size_t k = 0;
        int same = 1;
        for (size_t j = 0; same && j < all->count; j++) {
            const ph_entry *a = &all->entries[j];
            if (k < one->count && same_entry(all, a, one, &one->entries[k],
                                             ev)) {
                k++;
                continue;
            }
            same = ph_entry_value(all, a, ev, 0) == 0 &&
                   ph_entry_value(all, a, ev, 1) == 0 && !a->calls &&
                   !a->self_calls;
        }
        if (!same || k != one->count)
            fprintf(stderr, "%s: %s: the tables differ\n", name,
                    ph_str_get(p, ev->name));
        CU_ASSERT(same && k == one->count);
        ph_table_free(one);
        ph_table_free(all);
    }
    ph_profile_free(p);
    return 1;
}

static void test_one_event_tables(void)
{
    each_sample(one_event_tables_agree);
}

static int round_trips(const char *name, const char *buf, long len)
{
    ph_profile *p = read_mem(buf, (size_t)len, NULL), *q;
    CU_ASSERT_PTR_NOT_NULL(p);
    if (!p)
        return 0;
    q = round_trip(p);
    CU_ASSERT_PTR_NOT_NULL(q);
    if (q) {
        CU_ASSERT(same_ir(p, q, name));
        ph_profile_free(q);
    }
    ph_profile_free(p);
    return 1;
}

static void test_round_trip_samples(void)
{
    each_sample(round_trips);
}

/* The one-pass cost-line tokenizer: what it reads, what it leaves to the
 * ordinary parser. */
static void test_cost_tokens(void)
{
    static const struct {
        const char *line;       /* with its line end */
        unsigned ntok;          /* PH_CGTOK_NONE: the ordinary parser's */
        uint64_t v1;            /* the second token's value */
        uint8_t k0;             /* the first token's kind */
        size_t len;             /* the line without its end */
    } cases[] = {
        {"12 3 0\n", 3, 3, PH_CGTOK_ABS, 6},
        {"+2 * 5\r\n", 3, 0, PH_CGTOK_PLUS, 6},
        {"-7\t0x1F  9 \n", 3, 31, PH_CGTOK_MINUS, 11},
        {"* 0X10\n", 2, 16, PH_CGTOK_SAME, 6},
        {"9999999999999999999 1\n", 2, 1, PH_CGTOK_ABS, 21},
        {"10000000000000000000 1\n", PH_CGTOK_NONE, 0, 0, 0}, /* 20 digits */
        {"0x 1\n", PH_CGTOK_NONE, 0, 0, 0},
        {"12+4 1\n", PH_CGTOK_NONE, 0, 0, 0},          /* a range */
        {"1 2.5\n", PH_CGTOK_NONE, 0, 0, 0},           /* a fraction */
        {"1 2\r3\n", PH_CGTOK_NONE, 0, 0, 0},
        {"1 2", PH_CGTOK_NONE, 0, 0, 0},                /* no line end */
        {"1 +\n", PH_CGTOK_NONE, 0, 0, 0},
        {"1 **\n", PH_CGTOK_NONE, 0, 0, 0},
        /* one-digit tokens, read four at a time while a digit follows */
        {"7 0 1 0 9 3\n", 6, 0, PH_CGTOK_ABS, 11},
        {"1 2 3 4 5 6 7 8\n", 8, 2, PH_CGTOK_ABS, 15},
        {"1 2 3 4 \n", 4, 2, PH_CGTOK_ABS, 8},
        {"1 2 3 4  5\n", 5, 2, PH_CGTOK_ABS, 10},
        {"1\t2 3 4 5\n", 5, 2, PH_CGTOK_ABS, 9},
        {"3 5 0 0 1 2\r\n", 6, 5, PH_CGTOK_ABS, 11},
        {"1 2 3 4 5x\n", PH_CGTOK_NONE, 0, 0, 0},
        {"1 : 3 4 5\n", PH_CGTOK_NONE, 0, 0, 0},
        {"1 2 / 4 5\n", PH_CGTOK_NONE, 0, 0, 0},
        {"1 2 3 4 5 6 7 8 9\n", PH_CGTOK_NONE, 0, 0, 0},  /* over 8 */
    };
    uint64_t val[8];
    uint8_t kind[8];
    size_t i;
    const char *nul = "1 2\0003\n", *three = "1 2 3\n", *e, *next;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *l = cases[i].line;
        size_t n = strlen(l);
        unsigned got = ph_cg_cost_tokens(l, l + n, 8, val, kind, &e, &next);
        CU_ASSERT_EQUAL(got, cases[i].ntok);
        if (got != cases[i].ntok || got == PH_CGTOK_NONE)
            continue;
        CU_ASSERT_EQUAL(val[1], cases[i].v1);
        CU_ASSERT_EQUAL(kind[0], cases[i].k0);
        CU_ASSERT_EQUAL((size_t)(e - l), cases[i].len);
        CU_ASSERT_PTR_EQUAL(next, l + n);
    }
    /* Every value of a line read four at a time, then one at a time. */
    {
        static const char *const four = "7 0 1 0 9 3 2 8 6 4\n";
        static const uint64_t want[] = {7, 0, 1, 0, 9, 3, 2, 8, 6, 4};
        uint64_t v[10];
        uint8_t k[10];
        CU_ASSERT_EQUAL_FATAL(ph_cg_cost_tokens(four, four + strlen(four),
                                                10, v, k, &e, &next), 10);
        for (i = 0; i < 10; i++) {
            CU_ASSERT_EQUAL(v[i], want[i]);
            CU_ASSERT_EQUAL(k[i], PH_CGTOK_ABS);
        }
    }
    /* A NUL byte stops it: the data ends there, the scanner decides. */
    CU_ASSERT_EQUAL(ph_cg_cost_tokens(nul, nul + 6, 8, val, kind, &e, &next),
                    PH_CGTOK_NONE);
    /* More tokens than asked for. */
    CU_ASSERT_EQUAL(ph_cg_cost_tokens(three, three + 6, 2, val, kind, &e,
                                      &next), PH_CGTOK_NONE);
}

/* The look-ahead threads' packing of cachegrind's count lines: the line
 * number and the counts as strtoull reads them, packed as ph_costs_put
 * packs them and added to the sums; a line it leaves to the parser leaves
 * the sums as they were. */
static void test_pack_line(void)
{
    static const char *const packed[] = {
        "12 3 0\n", "5\n", "5 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
        "5 0 0 0 0 0 0 0 1\n", "7 0 1 0 9 3 2 8 6 4 1 2 3 4\n",
        "1 2 3 4 5\r\n", "1\t2 3\n", "1 2 3 4 \n", "1  2  \n",
        "1 100 64 63 0\n", "3 999999999999999999\n", "4294967295 1\n",
        "0007 0012 0\n", "2 99999999999999 1\n", "2 0 100000000000000\n",
        "9 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n",
    };
    static const char *const refused[] = {
        "+1 2\n", "1 +2\n", "1 -2\n", "1 0x10\n", "1 .\n", "1 2",
        "1 2\r3\n", "1 2x\n", "1 2 3 4 5 6 7 8 9 x\n", "1 2 3 4\r5\n",
        "3 1000000000000000000\n", "4294967296 1\n", "-1 2\n", "1\v2\n",
        "9 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 "
        "25\n",
    };
    unsigned char rec[PH_CGPACK_ROOM], want[PH_CGPACK_ROOM];
    uint64_t sum[PH_CGPACK_MAX], before[PH_CGPACK_MAX];
    const char *e, *next;
    size_t i, k;

    for (k = 0; k < PH_CGPACK_MAX; k++)
        sum[k] = before[k] = 1000 + k;
    for (i = 0; i < sizeof packed / sizeof *packed; i++) {
        const char *l = packed[i], *end = l + strlen(l);
        int64_t v[PH_CGPACK_MAX];
        char *q;
        unsigned n = 0, ncounts, len;
        uint32_t first;
        int big = 0;
        unsigned long long line = strtoull(l, &q, 10);
        while (*q == ' ' || *q == '\t')
            q++;
        while (*q != '\n' && *q != '\r') {
            char *t = q;
            v[n++] = (int64_t)strtoull(t, &q, 10);
            big |= q - t > 14;  /* a count of 15 digits or more */
            while (*q == ' ' || *q == '\t')
                q++;
        }
        unsigned char *got = ph_cg_pack_line(l, end, rec, sum, &e, &next);
        CU_ASSERT_PTR_NOT_NULL_FATAL(got);
        const unsigned char *costs = ph_cgpacked_get(rec, &first, &ncounts,
                                                     &len);
        size_t wlen = (size_t)(ph_costs_put(want, v, n) - want);
        CU_ASSERT_EQUAL(first, line);
        CU_ASSERT_EQUAL(ncounts, n);
        CU_ASSERT_EQUAL((rec[0] & PH_CGPACK_BIG) != 0, big);
        CU_ASSERT_EQUAL(len, wlen);
        CU_ASSERT(len == wlen && memcmp(costs, want, wlen) == 0);
        CU_ASSERT_PTR_EQUAL(got, costs + len);
        CU_ASSERT_PTR_EQUAL(e, q);
        CU_ASSERT_PTR_EQUAL(next, end);
        for (k = 0; k < n; k++)
            before[k] += (uint64_t)v[k];
        CU_ASSERT(memcmp(sum, before, sizeof sum) == 0);
    }
    for (i = 0; i < sizeof refused / sizeof *refused; i++) {
        const char *l = refused[i];
        CU_ASSERT_PTR_NULL(ph_cg_pack_line(l, l + strlen(l), rec, sum, &e,
                                           &next));
        CU_ASSERT(memcmp(sum, before, sizeof sum) == 0);
    }
}

/* A run's later cost lines read straight into rows: the positions as
 * ph_cg_cost_tokens reads them, the counts packed as ph_costs_put packs
 * them and added to the sums; anything else refused, the sums as they
 * were (the tokens then say). */
static void test_row_parse(void)
{
    static const char *const read[] = {
        "+3 0 1 2\n", "0x7020 0 1\n", "* +2 5\n", "-4 * 0 0 0 1\n",
        "0X1f 12\n", "+3 0 1 2 3 4\r\n", "+1\t0 9\n", "+1 0 1 2 3 4 \n",
        "+0x10 -0 999999999999999999 7\n",
        "0xffffffffffffffff 4294967295 0\n",
        "+1 2 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 "
        "24\n",
    };
    static const char *const refused[] = {
        "+3 0 +1\n", "+3 0 1.5\n", "+3 0 1x\n", "+3\n", "+x 0 1\n",
        "0x 0 1\n", "+3 0 1", "+3 0 1234567890123456789\n", "+3 0 -1\n",
        "+3 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 "
        "24 25\n", "+3 0x1 1 2 3 4\r5\n", "*+1 0 1\n",
    };
    unsigned char got[PH_CGPACK_ROOM], want[PH_CGPACK_ROOM];
    uint64_t sum[PH_CGPACK_MAX], before[PH_CGPACK_MAX], val[64], pos[2];
    uint8_t kind[64], pkind[2];
    const char *e, *next, *we, *wnext;
    size_t i, k;

    for (k = 0; k < PH_CGPACK_MAX; k++)
        sum[k] = before[k] = 1000 + k;
    for (i = 0; i < sizeof read / sizeof *read; i++) {
        const char *l = read[i], *end = l + strlen(l);
        unsigned n = ph_cg_cost_tokens(l, end, 64, val, kind, &we, &wnext), c;
        int64_t v[PH_CGPACK_MAX];
        CU_ASSERT_FATAL(n != PH_CGTOK_NONE && n >= 2);
        const char *q = ph_cg_row_positions(l, end, 2, pkind, pos);
        CU_ASSERT_PTR_NOT_NULL_FATAL(q);
        CU_ASSERT(pkind[0] == kind[0] && pos[0] == val[0]);
        CU_ASSERT(pkind[1] == kind[1] && pos[1] == val[1]);
        unsigned char *stop = ph_cg_row_counts(q, end, got, sum, &c, &e,
                                               &next);
        CU_ASSERT_PTR_NOT_NULL_FATAL(stop);
        CU_ASSERT_EQUAL(c, n - 2);
        for (k = 2; k < n; k++)
            v[k - 2] = (int64_t)val[k];
        size_t wlen = (size_t)(ph_costs_put(want, v, n - 2) - want);
        CU_ASSERT(stop - got == (ptrdiff_t)wlen &&
                  memcmp(got, want, wlen) == 0);
        CU_ASSERT_PTR_EQUAL(e, we);
        CU_ASSERT_PTR_EQUAL(next, wnext);
        for (k = 2; k < n; k++)
            before[k - 2] += val[k];
        CU_ASSERT(memcmp(sum, before, sizeof sum) == 0);
    }
    for (i = 0; i < sizeof refused / sizeof *refused; i++) {
        const char *l = refused[i], *end = l + strlen(l);
        const char *q = ph_cg_row_positions(l, end, 2, pkind, pos);
        unsigned c;
        CU_ASSERT(!q || !ph_cg_row_counts(q, end, got, sum, &c, &e, &next));
        CU_ASSERT(memcmp(sum, before, sizeof sum) == 0);
    }
}

/* Every real sample reads the same with one thread, a blank before each
 * line (no line starts with a token: the ordinary parser reads them all)
 * and with two threads (the look-ahead workers tokenize). */
static int reads_every_way(const char *name, const char *buf, long len)
{
    char *blank = malloc(2 * (size_t)len + 2), *w = blank;
    ph_profile *p, *q, *t;
    int ok;

    *w++ = ' ';
    for (long i = 0; i < len; i++) {
        *w++ = buf[i];
        if (buf[i] == '\n' && i + 1 < len)
            *w++ = ' ';
    }
    ph_set_jobs(1);
    p = read_mem(buf, (size_t)len, NULL);
    q = read_mem(blank, (size_t)(w - blank), NULL);
    ph_set_jobs(2);
    t = read_mem(buf, (size_t)len, NULL);
    ph_set_jobs(0);
    CU_ASSERT_PTR_NOT_NULL(p);
    CU_ASSERT_PTR_NOT_NULL(q);
    CU_ASSERT_PTR_NOT_NULL(t);
    ok = p && q && t;
    if (ok) {
        CU_ASSERT(same_ir(p, q, name));
        CU_ASSERT(same_ir(p, t, name));
    }
    ph_profile_free(p);
    ph_profile_free(q);
    ph_profile_free(t);
    free(blank);
    return ok;
}

static void test_fast_path_samples(void)
{
    each_sample(reads_every_way);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A run's files: the 0-byte base that --separate-threads=yes leaves, two
 * threads and one earlier dump, loaded as parts in the documented order
 * (dumps by number, then the final dump; threads by number). */
static void test_run_files(void)
{
    char dir[] = "/tmp/callgrind_run.XXXXXX", base[1024], err[256];
    static const char *names[] = {"cg.out", "cg.out-02", "cg.out-01",
                                  "cg.out.1-02", "cg.out.x", "other.out-01"};
    ph_input *in;
    ph_profile *p;
    size_t i;

    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    write_file(dir, "cg.out", "");
    write_file(dir, "cg.out-02", "part: 2\nthread: 2\nevents: Ir\n"
               "fn=f\n1 20\n");
    write_file(dir, "cg.out-01", "part: 2\nthread: 1\nevents: Ir\n"
               "fn=f\n1 10\n");
    write_file(dir, "cg.out.1-02", "part: 1\nthread: 2\nevents: Ir\n"
               "fn=f\n1 5\n");
    write_file(dir, "cg.out.x", "not a sibling");
    write_file(dir, "other.out-01", "not a sibling");
    snprintf(base, sizeof base, "%s/cg.out", dir);
    in = ph_input_open(base, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    p = ph_profile_new();
    CU_ASSERT_EQUAL(ph_callgrind_read(in, p), 0);
    CU_ASSERT_EQUAL_FATAL(ph_part_count(p), 3);
    CU_ASSERT_EQUAL(ph_totals(p, 0)[0], 5);
    CU_ASSERT_EQUAL(ph_totals(p, 1)[0], 10);
    CU_ASSERT_EQUAL(ph_totals(p, 2)[0], 20);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, ph_part_at(p, 0)->name),
                           "cg.out.1-02");
    CU_ASSERT_EQUAL(ph_part_at(p, 1)->tid, 1);
    CU_ASSERT_EQUAL(ph_part_at(p, 2)->kind, PH_PART_THREAD);
    ph_profile_free(p);
    ph_input_close(in);

    /* Without siblings, the empty file is "no data". */
    snprintf(base, sizeof base, "%s/lone.out", dir);
    write_file(dir, "lone.out", "");
    in = ph_input_open(base, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    p = ph_profile_new();
    CU_ASSERT_EQUAL(ph_callgrind_read(in, p), -1);
    CU_ASSERT_PTR_NOT_NULL(ph_input_error(in));
    if (ph_input_error(in))
        CU_ASSERT_PTR_NOT_NULL(strstr(ph_input_error(in), "no data"));
    ph_profile_free(p);
    ph_input_close(in);

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(base, sizeof base, "%s/%s", dir, names[i]);
        unlink(base);
    }
    snprintf(base, sizeof base, "%s/lone.out", dir);
    unlink(base);
    rmdir(dir);
}

void ph_test_register_callgrind(void)
{
    CU_pSuite s = CU_add_suite("callgrind", NULL, NULL);

    CU_add_test(s, "notes example table", test_example);
    CU_add_test(s, "corner cases", test_corner_cases);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "summary warning", test_summary_warning);
    CU_add_test(s, "what KCachegrind tolerates", test_kcachegrind_tolerance);
    CU_add_test(s, "sniff", test_sniff);
    CU_add_test(s, "round trip, example", test_round_trip_example);
    CU_add_test(s, "round trip, no parts", test_round_trip_no_parts);
    CU_add_test(s, "round trip, samples", test_round_trip_samples);
    CU_add_test(s, "a run's files as parts", test_run_files);
    CU_add_test(s, "a table of one event = the table of every event",
                test_one_event_tables);
    CU_add_test(s, "one-pass cost-line tokens", test_cost_tokens);
    CU_add_test(s, "cachegrind's count lines packed", test_pack_line);
    CU_add_test(s, "a run's cost lines read into rows", test_row_parse);
    CU_add_test(s, "one-pass reading = the ordinary parser",
                test_fast_path_samples);
}
