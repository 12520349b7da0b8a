/* input_test.c -- ph_input: files (mapped, gzip, empty, missing, a
 * directory), memory buffers with gzip (one or several members, truncated,
 * corrupt), the line reader's line ends and numbering, the binary cursor,
 * and the exact forms of errors, notes and warnings. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ir/io.h"
#include "suites.h"

/* gzip-compress len bytes (caller frees). */
static unsigned char *gzip_bytes(const void *data, size_t len, size_t *outlen)
{
    z_stream zs;
    size_t cap = len + len / 100 + 128;
    unsigned char *out = malloc(cap);

    memset(&zs, 0, sizeof zs);
    deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    zs.next_in = (unsigned char *)(uintptr_t)data;
    zs.avail_in = (uInt)len;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    CU_ASSERT_EQUAL(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *outlen = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

static char *write_temp(const void *data, size_t len)
{
    char *path = strdup("/tmp/ph-input-test-XXXXXX");
    int fd = mkstemp(path);

    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

static int line_is(const ph_line *l, const char *s)
{
    return l->len == strlen(s) && memcmp(l->s, s, l->len) == 0;
}

static void test_lines(void)
{
    static const char text[] = "first\nsecond\r\n\nlast";
    ph_input *in = ph_input_memory(text, sizeof text - 1, "t.txt");
    ph_line l;

    CU_ASSERT_PTR_NULL(ph_input_error(in));
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 1);
    CU_ASSERT(line_is(&l, "first"));
    CU_ASSERT_EQUAL(l.lineno, 1);
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 1);
    CU_ASSERT(line_is(&l, "second"));   /* "\r\n" stripped */
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 1);
    CU_ASSERT(line_is(&l, ""));
    CU_ASSERT_EQUAL(l.lineno, 3);
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 1);
    CU_ASSERT(line_is(&l, "last"));     /* final line without "\n" */
    CU_ASSERT_EQUAL(ph_input_lineno(in), 4);
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 0);
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 0);
    /* Views point into the data: no copies. */
    CU_ASSERT_PTR_EQUAL(l.s, (const char *)ph_input_data(in) + 15);
    ph_input_close(in);

    in = ph_input_memory("a\n", 2, "one");
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 1);
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 0);  /* no phantom line */
    CU_ASSERT_EQUAL(ph_input_lineno(in), 1);
    ph_input_close(in);

    in = ph_input_memory("", 0, "empty");
    CU_ASSERT_EQUAL(ph_input_size(in), 0);
    CU_ASSERT_EQUAL(ph_input_getline(in, &l), 0);
    ph_input_close(in);
}

static void test_memory_gzip(void)
{
    static const char text[] = "events: Ir\nfn=main\n1 2\n";
    size_t n1, n2;
    unsigned char *a = gzip_bytes(text, 11, &n1);
    unsigned char *b = gzip_bytes(text + 11, sizeof text - 12, &n2);
    unsigned char *both = malloc(n1 + n2);
    ph_input *in;

    /* Two members, as "cat a.gz b.gz" makes: one stream of text. */
    memcpy(both, a, n1);
    memcpy(both + n1, b, n2);
    in = ph_input_memory(both, n1 + n2, "two.gz");
    CU_ASSERT_PTR_NULL(ph_input_error(in));
    CU_ASSERT(ph_input_was_gzip(in));
    CU_ASSERT_EQUAL(ph_input_size(in), sizeof text - 1);
    CU_ASSERT(memcmp(ph_input_data(in), text, sizeof text - 1) == 0);
    CU_ASSERT_EQUAL(ph_input_fd(in), -1);   /* its bytes are no file's */
    ph_input_close(in);

    /* Truncated: an error at the end of the compressed bytes. */
    in = ph_input_memory(a, n1 - 4, "cut.gz");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ph_input_error(in));
    CU_ASSERT(strncmp(ph_input_error(in), "cut.gz: offset 0x", 17) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(ph_input_error(in), "truncated gzip"));
    CU_ASSERT_EQUAL(ph_input_size(in), 0);
    CU_ASSERT_EQUAL(ph_input_fd(in), -1);
    ph_input_close(in);

    /* Corrupt deflate data after a valid header. */
    memset(a + 10, 0xff, n1 - 10);
    in = ph_input_memory(a, n1, "bad.gz");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ph_input_error(in));
    CU_ASSERT_PTR_NOT_NULL(strstr(ph_input_error(in), "gzip"));
    ph_input_close(in);
    free(a);
    free(b);
    free(both);
}

static void test_big_gzip(void)
{
    /* 3 MiB of text inflates through several output chunks. */
    size_t len = 3u << 20, n, i;
    char *text = malloc(len);
    unsigned char *gz;
    ph_input *in;
    ph_line l;
    uint64_t lines = 0;

    for (i = 0; i < len; i++)
        text[i] = (i % 64 == 63) ? '\n' : (char)('a' + i % 26);
    gz = gzip_bytes(text, len, &n);
    in = ph_input_memory(gz, n, "big.gz");
    CU_ASSERT_EQUAL(ph_input_size(in), len);
    CU_ASSERT(memcmp(ph_input_data(in), text, len) == 0);
    while (ph_input_getline(in, &l))
        lines++;
    CU_ASSERT_EQUAL(lines, len / 64);
    ph_input_close(in);
    free(gz);
    free(text);
}

static void test_files(void)
{
    static const char text[] = "hello\nworld\n";
    char err[256];
    size_t n;
    unsigned char *gz = gzip_bytes(text, sizeof text - 1, &n);
    char *plain = write_temp(text, sizeof text - 1);
    char *packed = write_temp(gz, n);
    char *empty = write_temp("", 0);
    ph_input *in;

    in = ph_input_open(plain, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL(ph_input_size(in), sizeof text - 1);
    CU_ASSERT(!ph_input_was_gzip(in));
    CU_ASSERT_STRING_EQUAL(ph_input_name(in), plain);
    CU_ASSERT_STRING_EQUAL(ph_input_path(in), plain);
    {   /* the mapped file stays open: read again, the same bytes */
        char again[sizeof text];
        CU_ASSERT_FATAL(ph_input_fd(in) >= 0);
        CU_ASSERT_EQUAL(pread(ph_input_fd(in), again, sizeof text - 1, 0),
                        (ssize_t)(sizeof text - 1));
        CU_ASSERT(memcmp(again, ph_input_data(in), sizeof text - 1) == 0);
    }
    ph_input_close(in);

    in = ph_input_open(packed, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT(ph_input_was_gzip(in));
    CU_ASSERT_EQUAL(ph_input_size(in), sizeof text - 1);
    CU_ASSERT(memcmp(ph_input_data(in), text, sizeof text - 1) == 0);
    ph_input_close(in);

    in = ph_input_open(empty, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL(ph_input_size(in), 0);
    ph_input_close(in);

    CU_ASSERT_PTR_NULL(ph_input_open("/nonexistent/profile", err,
                                     sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "No such file or directory");
    CU_ASSERT_PTR_NULL(ph_input_open("/tmp", err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "is a directory");

    /* A corrupt gzip file fails at open with a message. */
    gz[n / 2] ^= 0x55;
    gz[n / 2 + 1] ^= 0x55;
    unlink(packed);
    free(packed);
    packed = write_temp(gz, n);
    in = ph_input_open(packed, err, sizeof err);
    CU_ASSERT_PTR_NULL(in);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "gzip"));
    ph_input_close(in);

    unlink(plain);
    unlink(packed);
    unlink(empty);
    free(plain);
    free(packed);
    free(empty);
    free(gz);
}

static void test_errors(void)
{
    ph_input *in = ph_input_memory("x", 1, "callgrind.out.4711");

    CU_ASSERT_PTR_NULL(ph_input_error(in));
    CU_ASSERT_EQUAL(ph_input_error_at(in, 42, 7, "expected a number after "
                                      "\"%s\", got \"%s\"", "calls=", "x12"),
                    -1);
    CU_ASSERT_STRING_EQUAL(ph_input_error(in),
                           "callgrind.out.4711:42:7: expected a number after "
                           "\"calls=\", got \"x12\"");
    /* Only the first error is kept. */
    ph_input_error_at(in, 50, 1, "second");
    ph_input_note_at(in, 30, 1, "in function block started here");
    CU_ASSERT_STRING_EQUAL(ph_input_error(in),
                           "callgrind.out.4711:42:7: expected a number after "
                           "\"calls=\", got \"x12\"\n"
                           "callgrind.out.4711:30:1: note: in function "
                           "block started here");
    ph_input_close(in);

    in = ph_input_memory("x", 1, "t");
    ph_input_error_at(in, 3, 0, "no column");
    CU_ASSERT_STRING_EQUAL(ph_input_error(in), "t:3: no column");
    ph_input_close(in);

    in = ph_input_memory("x", 1, "cpu.pb.gz");
    CU_ASSERT_EQUAL(ph_input_error_off(in, 0x1a3, "string index %d out of "
                                       "range (table has %d)", 97, 40), -1);
    CU_ASSERT_STRING_EQUAL(ph_input_error(in), "cpu.pb.gz: offset 0x1a3: "
                           "string index 97 out of range (table has 40)");
    ph_input_close(in);
}

static void test_warnings(void)
{
    ph_input *in = ph_input_memory("x", 1, "f.out");
    static const char kind[] = "summary-mismatch";
    uint64_t times = 0;
    int i;

    for (i = 0; i < 3; i++)
        ph_input_warn(in, kind, (uint64_t)(10 + i), "summary differs (%d)",
                      i);
    ph_input_warn(in, "other", 0, "no position");
    CU_ASSERT_EQUAL(ph_input_warning_count(in), 2);
    CU_ASSERT_STRING_EQUAL(ph_input_warning(in, 0, &times),
                           "f.out:10: summary differs (0)");
    CU_ASSERT_EQUAL(times, 3);
    CU_ASSERT_STRING_EQUAL(ph_input_warning(in, 1, &times),
                           "f.out: no position");
    CU_ASSERT_EQUAL(times, 1);
    CU_ASSERT_PTR_NULL(ph_input_warning(in, 2, &times));
    CU_ASSERT_PTR_NULL(ph_input_error(in));   /* warnings are not errors */
    ph_input_close(in);
}

static void test_cursor(void)
{
    static const unsigned char bytes[] = { 1, 0x34, 0x12, 0x78, 0x56, 0x34,
                                           0x12, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
    ph_input *in = ph_input_memory(bytes, sizeof bytes, "gmon.out");
    const unsigned char *p;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;

    CU_ASSERT_EQUAL(ph_input_get_u8(in, &u8), 0);
    CU_ASSERT_EQUAL(u8, 1);
    CU_ASSERT_EQUAL(ph_input_seek(in, 1), 0);
    CU_ASSERT_EQUAL(ph_input_get_u16le(in, &u16), 0);
    CU_ASSERT_EQUAL(u16, 0x1234);
    CU_ASSERT_EQUAL(ph_input_get_u32le(in, &u32), 0);
    CU_ASSERT_EQUAL(u32, 0x12345678);
    CU_ASSERT_EQUAL(ph_input_get_u64le(in, &u64), 0);
    CU_ASSERT_EQUAL(u64, 0x0203040506070809ull);
    CU_ASSERT_EQUAL(ph_input_offset(in), 15);
    CU_ASSERT_EQUAL(ph_input_left(in), 1);
    CU_ASSERT_EQUAL(ph_input_get_bytes(in, 2, &p), -1);
    CU_ASSERT_STRING_EQUAL(ph_input_error(in), "gmon.out: offset 0xf: "
                           "unexpected end of data (need 2 bytes, 1 left)");
    CU_ASSERT_EQUAL(ph_input_offset(in), 15);   /* unchanged on failure */
    ph_input_close(in);

    in = ph_input_memory(bytes, sizeof bytes, "m");
    CU_ASSERT_EQUAL(ph_input_seek(in, sizeof bytes), 0);
    CU_ASSERT_EQUAL(ph_input_seek(in, sizeof bytes + 1), -1);
    CU_ASSERT_PTR_NOT_NULL(ph_input_error(in));
    ph_input_close(in);
}

typedef struct calls {
    int n;
    size_t last, total;
} calls;

static void count_progress(void *ctx, size_t done, size_t total)
{
    calls *c = ctx;
    c->n++;
    c->last = done;
    c->total = total;
}

static void test_progress(void)
{
    size_t len = 40u << 20;   /* 40 MiB of short lines */
    char *text = malloc(len);
    calls c = { 0, 0, 0 };
    ph_input *in;
    ph_line l;

    memset(text, 'x', len);
    for (size_t i = 99; i < len; i += 100)
        text[i] = '\n';
    in = ph_input_memory(text, len, "big");
    ph_input_set_exe(in, "./prog");
    CU_ASSERT_STRING_EQUAL(ph_input_exe(in), "./prog");
    ph_input_set_progress(in, count_progress, &c);
    while (ph_input_getline(in, &l))
        ;
    CU_ASSERT(c.n >= 2 && c.n <= 3);   /* every 16 MiB, not every line */
    CU_ASSERT_EQUAL(c.total, len);
    CU_ASSERT(c.last <= len);
    ph_input_progress(in, len);
    CU_ASSERT_EQUAL(c.last, len);
    ph_input_close(in);
    free(text);
}

void ph_test_register_input(void)
{
    CU_pSuite s = CU_add_suite("input", NULL, NULL);

    CU_add_test(s, "line ends and numbering", test_lines);
    CU_add_test(s, "gzip in memory", test_memory_gzip);
    CU_add_test(s, "gzip of several MiB", test_big_gzip);
    CU_add_test(s, "files", test_files);
    CU_add_test(s, "error forms", test_errors);
    CU_add_test(s, "warnings once per kind", test_warnings);
    CU_add_test(s, "binary cursor", test_cursor);
    CU_add_test(s, "progress", test_progress);
}
