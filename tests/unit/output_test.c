/* output_test.c -- ph_output: content through the buffer and gzip, the
 * temporary file renamed on commit and removed on abort or error, existing
 * targets kept intact, devices written in place, options and drop
 * warnings. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ir/gz_members.h"
#include "ir/io.h"
#include "ir/jobs.h"
#include "suites.h"

static char dir[64];

static int make_dir(void)
{
    strcpy(dir, "/tmp/ph-output-test-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    chmod(dir, 0700);
    rmdir(dir);
    return 0;
}

/* Number of entries in the test folder (temporary files included). */
static int count_entries(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static char *slurp(const char *path, size_t *len)
{
    char err[256];
    ph_input *in = ph_input_open(path, err, sizeof err);
    char *s;

    *len = 0;
    if (!in)
        return NULL;
    *len = ph_input_size(in);
    s = malloc(*len + 1);
    memcpy(s, ph_input_data(in), *len);
    s[*len] = '\0';
    ph_input_close(in);
    return s;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* A writer's recorded error: the first one is kept, commit fails with it
 * and leaves neither the target nor a temporary file. */
static void test_writer_error(void)
{
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/werr.out", dir);
    ph_output *out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    int before = count_entries();
    CU_ASSERT_PTR_NULL(ph_output_error(out));
    ph_output_puts(out, "half a file\n");
    CU_ASSERT_EQUAL(ph_output_error_set(out, "event %s: %d", "Ir", 7), -1);
    CU_ASSERT_EQUAL(ph_output_error_set(out, "second"), -1);
    CU_ASSERT_STRING_EQUAL(ph_output_error(out), "event Ir: 7");
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "event Ir: 7");
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    CU_ASSERT_EQUAL(count_entries(), before - 1);
}

static void test_commit(void)
{
    char path[128], err[256];
    ph_output *out;
    size_t len;
    char *s;

    snprintf(path, sizeof path, "%s/a.out", dir);
    out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_STRING_EQUAL(ph_output_path(out), path);
    ph_output_puts(out, "events: Ir\n");
    ph_output_u64(out, 0);
    ph_output_write(out, " ", 1);
    ph_output_u64(out, UINT64_MAX);
    ph_output_write(out, " ", 1);
    ph_output_i64(out, INT64_MIN);
    ph_output_printf(out, " %s=%d\n", "x", -3);
    /* Nothing visible under the target's name before commit. */
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    CU_ASSERT_EQUAL(count_entries(), 1);
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    s = slurp(path, &len);
    CU_ASSERT_STRING_EQUAL(s, "events: Ir\n0 18446744073709551615 "
                              "-9223372036854775808 x=-3\n");
    CU_ASSERT_EQUAL(count_entries(), 1);   /* no temporary file left */
    free(s);
    unlink(path);
}

/* Numbers written as printf writes them: around every power of ten and
 * at random. */
static void test_numbers(void)
{
    char path[128], err[256], want[32];
    size_t len, cap = 1 << 20, n = 0;
    char *expect = malloc(cap), *s;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    snprintf(path, sizeof path, "%s/n.out", dir);
    ph_output *out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    for (int k = 0; k < 3000; k++) {
        uint64_t v;
        if (k < 200) {
            v = (uint64_t)k;
        } else if (k < 260) {       /* 10^d - 1, 10^d, 10^d + 1 */
            uint64_t p = 1;
            for (int d = 0; d < (k - 200) / 3; d++)
                p *= 10;
            v = p - 1 + (uint64_t)((k - 200) % 3);
        } else {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            v = x >> (k % 64);
        }
        ph_output_u64(out, v);
        ph_output_write(out, "\n", 1);
        n += (size_t)snprintf(want, sizeof want, "%" PRIu64 "\n", v);
        memcpy(expect + n - strlen(want), want, strlen(want));
    }
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    s = slurp(path, &len);
    CU_ASSERT_EQUAL_FATAL(len, n);
    CU_ASSERT(memcmp(s, expect, n) == 0);
    free(s);
    free(expect);
    unlink(path);
}

static void test_large_and_gzip(void)
{
    char path[128], err[256], small[600];
    size_t big = 300000, len, i, want;
    char *block = malloc(big), *s;
    ph_output *out;

    for (i = 0; i < big; i++)
        block[i] = (char)('a' + i % 26);
    memset(small, 'z', sizeof small - 1);
    small[sizeof small - 1] = '\0';
    snprintf(path, sizeof path, "%s/b.pb.gz", dir);
    out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    ph_output_set_gzip(out);
    for (i = 0; i < 5; i++) {
        ph_output_puts(out, "head");
        ph_output_write(out, block, big);             /* bigger than buffer */
        ph_output_printf(out, "%s", small);           /* longer than 512 */
    }
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    s = slurp(path, &len);   /* ph_input unwraps the gzip */
    want = 5 * (4 + big + sizeof small - 1);
    CU_ASSERT_EQUAL_FATAL(len, want);
    CU_ASSERT(memcmp(s, "head", 4) == 0);
    CU_ASSERT(memcmp(s + 4, block, big) == 0);
    CU_ASSERT(memcmp(s + 4 + big, small, sizeof small - 1) == 0);
    CU_ASSERT(memcmp(s + want - sizeof small + 1, small,
                     sizeof small - 1) == 0);
    free(s);
    free(block);
    unlink(path);
}

/* The bytes of a file as they are. */
static unsigned char *raw_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    *len = 0;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    b = malloc(*len + 1);
    if (b && fread(b, 1, *len, f) != *len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

/* profhub's gzip: members that name their sizes (gz_members.h), end to
 * end over the whole file; read back the same by ph_input (the members
 * side by side) and by zlib, and by ph_input when a member's size is
 * wrong (the members then one after the other). */
static void test_gzip_members(void)
{
    char path[128], err[256];
    size_t want_len = (size_t)7 << 19, len, pos = 0, members = 0, size;
    unsigned char *want = malloc(want_len), *raw;
    char *s;
    for (size_t i = 0; i < want_len; i++)
        want[i] = (unsigned char)("profile "[i % 8] + (i >> 12) % 7);
    snprintf(path, sizeof path, "%s/m.pb.gz", dir);
    ph_output *out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    ph_output_set_gzip(out);
    ph_output_write(out, want, want_len);
    CU_ASSERT_EQUAL_FATAL(ph_output_commit(out, err, sizeof err), 0);
    raw = raw_file(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(raw);
    while (pos < len && (size = ph_gz_member_size(raw + pos, len - pos))) {
        pos += size;
        members++;
    }
    CU_ASSERT_EQUAL(pos, len);
    CU_ASSERT(members >= 4);
    s = slurp(path, &size);
    CU_ASSERT(size == want_len && memcmp(s, want, want_len) == 0);
    free(s);
    gzFile g = gzopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    unsigned char *z = malloc(want_len + 1);
    CU_ASSERT_EQUAL(gzread(g, z, (unsigned)want_len + 1), (int)want_len);
    CU_ASSERT(memcmp(z, want, want_len) == 0);
    gzclose(g);
    free(z);
    raw[PH_GZ_HEAD - 4] ^= 1;          /* the first member's size, wrong */
    FILE *f = fopen(path, "wb");
    CU_ASSERT_EQUAL(fwrite(raw, 1, len, f), len);
    fclose(f);
    s = slurp(path, &size);
    CU_ASSERT(size == want_len && memcmp(s, want, want_len) == 0);
    free(s);
    free(raw);
    free(want);
    unlink(path);
}

static void test_abort_keeps_existing(void)
{
    char path[128], err[256];
    struct stat st;
    ph_output *out;
    size_t len;
    char *s;

    snprintf(path, sizeof path, "%s/keep.out", dir);
    put_file(path, "old content\n");
    chmod(path, 0640);
    out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    ph_output_puts(out, "half-written new content");
    CU_ASSERT_EQUAL(count_entries(), 2);
    ph_output_abort(out);
    CU_ASSERT_EQUAL(count_entries(), 1);
    s = slurp(path, &len);
    CU_ASSERT_STRING_EQUAL(s, "old content\n");
    free(s);

    /* A commit replaces the file and keeps its mode. */
    out = ph_output_open(path, err, sizeof err);
    ph_output_puts(out, "new\n");
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    s = slurp(path, &len);
    CU_ASSERT_STRING_EQUAL(s, "new\n");
    free(s);
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 07777, 0640);
    unlink(path);
}

static void test_symlink(void)
{
    char path[128], link[128], err[256];
    struct stat st;
    ph_output *out;
    size_t len;
    char *s;

    snprintf(path, sizeof path, "%s/real.out", dir);
    snprintf(link, sizeof link, "%s/link.out", dir);
    put_file(path, "old\n");
    CU_ASSERT_EQUAL_FATAL(symlink("real.out", link), 0);
    out = ph_output_open(link, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    ph_output_puts(out, "through the link\n");
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(lstat(link, &st), 0);
    CU_ASSERT(S_ISLNK(st.st_mode));   /* the link is not replaced */
    s = slurp(path, &len);
    CU_ASSERT_STRING_EQUAL(s, "through the link\n");
    free(s);
    unlink(link);
    unlink(path);
}

static void test_open_failures(void)
{
    char path[128], err[256];
    ph_output *out;

    out = ph_output_open("/nonexistent-dir/x.out", err, sizeof err);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot create a temporary file in "
                                       "/nonexistent-dir"));
    out = ph_output_open(dir, err, sizeof err);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_STRING_EQUAL(err, "is a directory");
    out = ph_output_open("", err, sizeof err);
    CU_ASSERT_PTR_NULL(out);

    if (geteuid() != 0) {   /* root writes anywhere */
        snprintf(path, sizeof path, "%s/ro.out", dir);
        chmod(dir, 0500);
        out = ph_output_open(path, err, sizeof err);
        CU_ASSERT_PTR_NULL(out);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "Permission denied"));
        chmod(dir, 0700);
    }
    CU_ASSERT_EQUAL(count_entries(), 0);
}

static void test_write_error(void)
{
    char err[256];
    struct stat st;
    ph_output *out;
    int i;

    /* /dev/full: a device is written in place (never renamed over) and
     * every write fails with ENOSPC; commit reports it. */
    if (stat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode))
        return;
    out = ph_output_open("/dev/full", err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    for (i = 0; i < 3000; i++)
        ph_output_puts(out, "a line that goes nowhere at all............\n");
    CU_ASSERT_EQUAL(ph_output_commit(out, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "No space left on device"));
    CU_ASSERT_EQUAL(stat("/dev/full", &st), 0);
    CU_ASSERT(S_ISCHR(st.st_mode));
}

static void test_options_and_drops(void)
{
    char path[128], err[256];
    ph_output *out;
    uint64_t n = 0;

    snprintf(path, sizeof path, "%s/o.dot", dir);
    out = ph_output_open(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NULL(ph_output_option(out, "nodefraction"));
    ph_output_set_option(out, "nodefraction", "0.01");
    ph_output_set_option(out, "edgefraction", "0.001");
    ph_output_set_option(out, "nodefraction", "0.05");
    CU_ASSERT_STRING_EQUAL(ph_output_option(out, "nodefraction"), "0.05");
    CU_ASSERT_STRING_EQUAL(ph_output_option(out, "edgefraction"), "0.001");

    ph_output_drop(out, "inline", 5, "inlined frames (format has no inline "
                                     "records)");
    ph_output_drop(out, "parts", 2, "parts (summed into one)");
    ph_output_drop(out, "inline", 7, "ignored text");
    ph_output_drop(out, "nothing", 0, "not a drop");
    CU_ASSERT_EQUAL(ph_output_drop_count(out), 2);
    CU_ASSERT_STRING_EQUAL(ph_output_drop_at(out, 0, &n),
                           "inlined frames (format has no inline records)");
    CU_ASSERT_EQUAL(n, 12);
    CU_ASSERT_STRING_EQUAL(ph_output_drop_at(out, 1, &n),
                           "parts (summed into one)");
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_PTR_NULL(ph_output_drop_at(out, 2, &n));
    ph_output_abort(out);
    CU_ASSERT_EQUAL(count_entries(), 0);
}

static void test_cleanup(void)
{
    char a[128], b[128], err[256];
    ph_output *x, *y;

    snprintf(a, sizeof a, "%s/x.out", dir);
    snprintf(b, sizeof b, "%s/y.out", dir);
    x = ph_output_open(a, err, sizeof err);
    y = ph_output_open(b, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(y);
    CU_ASSERT_EQUAL(count_entries(), 2);
    ph_output_cleanup();   /* what the front end's SIGINT handler does */
    CU_ASSERT_EQUAL(count_entries(), 0);
    ph_output_abort(x);
    ph_output_abort(y);
    /* Committed outputs are no longer tracked. */
    x = ph_output_open(a, err, sizeof err);
    ph_output_puts(x, "kept\n");
    CU_ASSERT_EQUAL(ph_output_commit(x, err, sizeof err), 0);
    ph_output_cleanup();
    CU_ASSERT_EQUAL(access(a, F_OK), 0);
    unlink(a);
}

/* An output kept in memory grows as it is written, past its first
 * buffer, holds the bytes in order, and starts again when cleared. */
static void test_memory(void)
{
    ph_output *out = ph_output_memory();
    char want[256 * 1024];
    size_t len = 0, n = 0;
    for (size_t i = 0; i < sizeof want; i++)
        want[i] = (char)('a' + i % 23);
    while (n < sizeof want) {       /* pieces of several sizes */
        size_t k = 1 + n % 5000;
        if (k > sizeof want - n)
            k = sizeof want - n;
        ph_output_write(out, want + n, k);
        n += k;
    }
    const unsigned char *b = ph_output_memory_bytes(out, &len);
    CU_ASSERT_EQUAL(len, sizeof want);
    CU_ASSERT(len == sizeof want && memcmp(b, want, len) == 0);
    ph_output_memory_clear(out);
    ph_output_u64(out, 18446744073709551615ull);
    ph_output_puts(out, " x");
    b = ph_output_memory_bytes(out, &len);
    CU_ASSERT(len == 22 && memcmp(b, "18446744073709551615 x", 22) == 0);
    ph_output_abort(out);
}

/* ph_run_ordered's pieces: each made once, before it is given; given in
 * order; never more than `ahead` made and not given. */
#define PIECES 300
#define AHEAD 3
typedef struct pieces_seen {
    int made[PIECES];
    size_t given;               /* read by the makers: atomic */
    int sides[2];
    int bad;
} pieces_seen;

static void make_one(void *arg, size_t i, int side)
{
    pieces_seen *s = arg;
    volatile unsigned spin = 0;
    if (i >= __atomic_load_n(&s->given, __ATOMIC_ACQUIRE) + AHEAD ||
        side < 0 || side > 1)
        __atomic_store_n(&s->bad, 1, __ATOMIC_RELAXED);
    for (unsigned k = 0; k < (i % 7) * 2000; k++)   /* uneven pieces */
        spin += k;
    s->made[i]++;
    s->sides[side > 0]++;
}

static void give_one(void *arg, size_t i)
{
    pieces_seen *s = arg;
    if (i != s->given || s->made[i] != 1)
        __atomic_store_n(&s->bad, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&s->given, s->given + 1, __ATOMIC_RELEASE);
}

static void test_ordered_pieces(void)
{
    for (int jobs = 1; jobs <= 2; jobs++) {
        pieces_seen s;
        memset(&s, 0, sizeof s);
        ph_set_jobs(jobs);
        ph_run_ordered(PIECES, AHEAD, 2, make_one, give_one, &s);
        CU_ASSERT_EQUAL(s.bad, 0);
        CU_ASSERT_EQUAL(s.given, PIECES);
        CU_ASSERT_EQUAL(s.sides[0] + s.sides[1], PIECES);
        if (jobs == 1)
            CU_ASSERT_EQUAL(s.sides[1], 0);
    }
    ph_set_jobs(0);
}

/* A thread ph_run_pair, ph_run_beside or ph_run_ordered starts names the
 * starting thread's file in an out-of-memory message (ph_mem_context),
 * even when that thread goes on to another file at once. */
typedef struct context_seen {
    char seen[2][64];
    int switch_to;              /* this side names another file first;
                                   for pieces: the other side made one */
} context_seen;

static void see_context(void *arg)
{
    context_seen *c = arg;
    if (c->switch_to)
        ph_mem_set_context("other.out");
    snprintf(c->seen[c->switch_to], sizeof c->seen[0], "%s",
             ph_mem_context());
}

static void see_context_piece(void *arg, size_t i, int side)
{
    context_seen *c = arg;
    (void)i;
    /* this side waits (2 s at most) for the other to make a piece */
    for (int t = 0; side == 0 && t < 2000 &&
                    !__atomic_load_n(&c->switch_to, __ATOMIC_ACQUIRE); t++)
        usleep(1000);
    snprintf(c->seen[side], sizeof c->seen[0], "%s", ph_mem_context());
    if (side == 1)
        __atomic_store_n(&c->switch_to, 1, __ATOMIC_RELEASE);
}

static void give_nothing(void *arg, size_t i)
{
    (void)arg;
    (void)i;
}

static void test_thread_context(void)
{
    context_seen first, second, pieces;
    memset(&first, 0, sizeof first);
    memset(&second, 0, sizeof second);
    memset(&pieces, 0, sizeof pieces);
    second.switch_to = 1;
    ph_set_jobs(2);
    ph_mem_set_context("t.out");
    ph_run_pair(see_context, &first, &second);
    CU_ASSERT_STRING_EQUAL(first.seen[0], "t.out");    /* the new thread */
    CU_ASSERT_STRING_EQUAL(second.seen[1], "other.out");
    ph_mem_set_context("t.out");
    memset(&first, 0, sizeof first);
    ph_run_beside(see_context, &first, &second);
    CU_ASSERT_STRING_EQUAL(first.seen[0], "t.out");
    ph_mem_set_context("t.out");
    /* pieces slow enough that the other side makes some */
    ph_run_ordered(64, 4, 2, see_context_piece, give_nothing, &pieces);
    CU_ASSERT_STRING_EQUAL(pieces.seen[0], "t.out");
    CU_ASSERT_STRING_EQUAL(pieces.seen[1], "t.out");
    ph_mem_set_context(NULL);
    ph_set_jobs(0);
}

void ph_test_register_output(void)
{
    CU_pSuite s = CU_add_suite("output", make_dir, remove_dir);

    CU_add_test(s, "commit renames into place", test_commit);
    CU_add_test(s, "numbers as printf writes them", test_numbers);
    CU_add_test(s, "threads name the file they work for",
                test_thread_context);
    CU_add_test(s, "large writes and gzip", test_large_and_gzip);
    CU_add_test(s, "gzip members that name their sizes", test_gzip_members);
    CU_add_test(s, "abort keeps an existing file", test_abort_keeps_existing);
    CU_add_test(s, "symlink target", test_symlink);
    CU_add_test(s, "open failures", test_open_failures);
    CU_add_test(s, "write error", test_write_error);
    CU_add_test(s, "writer error recorded on the output", test_writer_error);
    CU_add_test(s, "options and drops", test_options_and_drops);
    CU_add_test(s, "cleanup on a signal", test_cleanup);
    CU_add_test(s, "an output in memory", test_memory);
    CU_add_test(s, "pieces made side by side, given in order",
                test_ordered_pieces);
}
