/* native_test.c -- the native experiment reader (importers/native_in.c,
 * native_sym.c) on experiments built in memory by a small encoder that
 * follows runtime/FORMAT.md: blob decoding and costs, placeholder
 * replication, parts per thread and image, symbolisation of this test's
 * own functions through libelf, and the offset errors for bad input. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "importers/importers.h"
#include "runtime/expfmt.h"
#include "suites.h"

/* ------------------------------------------------------------------ */
/* A tiny experiment encoder                                           */

typedef struct buf {
    unsigned char *d;
    size_t len, cap;
} buf;

static void put(buf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 256;
        b->d = realloc(b->d, b->cap);
    }
    memcpy(b->d + b->len, p, n);
    b->len += n;
}

static void put32(buf *b, uint32_t v)
{
    unsigned char x[4];

    ph_put32(x, v);
    put(b, x, 4);
}

static void put64(buf *b, uint64_t v)
{
    unsigned char x[8];

    ph_put64(x, v);
    put(b, x, 8);
}

static void header(buf *b, const char *collector)
{
    char text[128];
    int n = snprintf(text, sizeof text, "collector=%s\ncmd=test\n",
                     collector);

    put(b, PH_EXP_MAGIC, 8);
    put32(b, PH_EXP_VERSION);   /* major 1, minor 0 */
    put32(b, (uint32_t)(PH_EXP_HEADER_FIXED + n));
    put32(b, 42);
    put32(b, 0);
    put(b, text, (size_t)n);
}

static void chunk(buf *b, uint32_t type, const buf *payload)
{
    put32(b, type);
    put32(b, (uint32_t)payload->len);
    put32(b, (uint32_t)crc32(crc32(0L, Z_NULL, 0), payload->d,
                             (uInt)payload->len));
    put32(b, 0);
    put(b, payload->d, payload->len);
}

static void proc_chunk(buf *b, uint64_t instance, uint32_t pid,
                       uint32_t enc)
{
    buf p = { 0 };

    put64(&p, instance);
    put32(&p, pid);
    put32(&p, 1);
    put64(&p, 0);
    put64(&p, 1000000);   /* 1 ms per sample */
    put32(&p, enc);
    put32(&p, 0);
    put32(&p, 6);
    put(&p, "pcsamp", 6);
    put32(&p, 9);
    put(&p, "/bin/prog", 9);
    put32(&p, 0);
    chunk(b, PH_CHUNK_PROC, &p);
    free(p.d);
}

static void maps_chunk(buf *b, uint64_t instance, uint64_t start,
                       uint64_t end, uint64_t off, const char *path)
{
    buf p = { 0 };

    put64(&p, instance);
    put64(&p, 0);
    put32(&p, 1);
    put32(&p, 1);
    put64(&p, start);
    put64(&p, end);
    put64(&p, off);
    put32(&p, (uint32_t)strlen(path));
    put(&p, path, strlen(path));
    chunk(b, PH_CHUNK_MAPS, &p);
    free(p.d);
}

static void blob_chunk(buf *b, uint64_t instance, uint32_t tid, uint32_t enc,
                       const uint64_t *w, uint32_t n)
{
    buf p = { 0 };
    unsigned char raw[8 * 256], z[4096];
    uLongf zl = sizeof z;

    for (uint32_t i = 0; i < n; i++)
        ph_put64(raw + 8 * i, w[i]);
    CU_ASSERT_FATAL(compress(z, &zl, raw, 8 * n) == Z_OK);
    put64(&p, instance);
    put32(&p, 42);
    put32(&p, 0);
    put32(&p, 1);
    put32(&p, tid);
    put64(&p, tid);
    for (int i = 0; i < 4; i++)
        put64(&p, 0);
    put32(&p, enc);
    put32(&p, n);
    put32(&p, 0);
    put32(&p, (uint32_t)zl);
    put(&p, z, zl);
    chunk(b, PH_CHUNK_BLOB, &p);
    free(p.d);
}

/* Read b; NULL on error with the message copied into msg. */
static ph_profile *read_exp(const buf *b, char *msg, size_t size)
{
    ph_input *in = ph_input_memory(b->d, b->len, "t.phx");
    ph_profile *p = ph_profile_new();

    msg[0] = '\0';
    if (ph_native_read(in, p) != 0) {
        snprintf(msg, size, "%s", ph_input_error(in));
        ph_profile_free(p);
        p = NULL;
    } else if (ph_input_warning_count(in) > 0) {
        uint64_t times;

        snprintf(msg, size, "%s", ph_input_warning(in, 0, &times));
    }
    ph_input_close(in);
    return p;
}

static int64_t self_of(ph_profile *p, const char *name, size_t slot)
{
    for (size_t i = 0; i < ph_func_count(p); i++) {
        ph_func *f = ph_func_at(p, i);

        if (strcmp(ph_str_get(p, f->name), name) == 0)
            return ph_func_self(p, f, PH_ALL_PARTS)[slot];
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void test_pc_blob(void)
{
    static const uint64_t w[] = { 0x1000, 0x2000, 0x1000 };
    buf b = { 0 };
    char msg[512];
    ph_profile *p;

    header(&b, "pcsamp");
    proc_chunk(&b, 7, 100, PH_REC_PC_ENC);
    blob_chunk(&b, 7, 100, PH_REC_PC_ENC, w, 3);
    p = read_exp(&b, msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(msg, "");
    CU_ASSERT_EQUAL(ph_part_count(p), 1);
    CU_ASSERT_EQUAL(ph_part_at(p, 0)->pid, 100);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 3);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[1], 3000000);
    /* outside every mapping: named by the absolute address */
    CU_ASSERT_EQUAL(self_of(p, "0x1000", 0), 2);
    CU_ASSERT_EQUAL(self_of(p, "0x2000", 0), 1);
    CU_ASSERT_STRING_EQUAL(ph_meta_get(p, "collector"), "pcsamp");
    ph_profile_free(p);
    free(b.d);
}

static void test_placeholders(void)
{
    /* stack A<-B (A leaf), 2 placeholders, stack C, 1 placeholder */
    static const uint64_t w[] = { 2, 0xa0, 0xb1, 0, 0, 1, 0xc0, 0 };
    static const uint64_t early[] = { 0, 1, 0xd0 };
    buf b = { 0 };
    char msg[512];
    ph_profile *p;

    header(&b, "usertime");
    proc_chunk(&b, 7, 100, PH_REC_STACK_ENC);
    blob_chunk(&b, 7, 100, PH_REC_STACK_ENC, w, 8);
    blob_chunk(&b, 7, 101, PH_REC_STACK_ENC, early, 3);
    p = read_exp(&b, msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(self_of(p, "0xa0", 0), 3);   /* 1 + 2 repeated */
    CU_ASSERT_EQUAL(self_of(p, "0xc0", 0), 2);   /* 1 + 1 repeated */
    CU_ASSERT_EQUAL(self_of(p, "0xd0", 0), 1);
    /* the caller's return address 0xb1 is looked up as 0xb0 */
    CU_ASSERT_EQUAL(self_of(p, "0xb0", 0), 0);
    CU_ASSERT_EQUAL(ph_totals(p, PH_ALL_PARTS)[0], 6);
    CU_ASSERT_EQUAL(ph_part_count(p), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "1 placeholder samples came before"));
    ph_profile_free(p);
    free(b.d);
}

__attribute__((noinline)) int ph_native_test_target(int x);
__attribute__((noinline)) int ph_native_test_target(int x)
{
    return x * 3 + 1;
}

/* Map this test program as the runtime would, then resolve one of its
 * own functions through libelf. */
static void test_symbols(void)
{
    uint64_t pc = (uint64_t)(uintptr_t)&ph_native_test_target + 2;
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096], path[4096] = "";
    unsigned long long s = 0, e = 0, off = 0;
    buf b = { 0 };
    char msg[512];
    ph_profile *p;

    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    while (fgets(line, sizeof line, f)) {
        char perms[8];

        if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perms,
                   &off, path) == 5 && pc >= s && pc < e)
            break;
        path[0] = '\0';
    }
    fclose(f);
    CU_ASSERT_FATAL(path[0] == '/');
    CU_ASSERT_EQUAL(ph_native_test_target(1), 4);
    header(&b, "pcsamp");
    proc_chunk(&b, 9, 5, PH_REC_PC_ENC);
    maps_chunk(&b, 9, s, e, off, path);
    blob_chunk(&b, 9, 5, PH_REC_PC_ENC, &pc, 1);
    p = read_exp(&b, msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(self_of(p, "ph_native_test_target", 0), 1);
    ph_profile_free(p);
    free(b.d);
}

static void expect_error(const buf *b, const char *want)
{
    char msg[512];
    ph_profile *p = read_exp(b, msg, sizeof msg);

    CU_ASSERT_PTR_NULL(p);
    if (p)
        ph_profile_free(p);
    CU_ASSERT_STRING_EQUAL(msg, want);
    if (strcmp(msg, want) != 0)
        fprintf(stderr, "\n  got:  %s\n  want: %s\n", msg, want);
}

static void test_errors(void)
{
    static const uint64_t big[] = { 200, 1, 2 };
    static const uint64_t w[] = { 1, 2 };
    buf b = { 0 };
    size_t hl;
    char msg[512];
    ph_profile *p;

    put(&b, "PROFHUBY", 8);
    put(&b, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
    expect_error(&b, "t.phx: offset 0x0: not a profhub experiment "
                     "(no PROFHUBX magic)");
    b.len = 0;
    header(&b, "pcsamp");
    b.d[8] = 2;
    expect_error(&b, "t.phx: offset 0x8: experiment version 2 is not "
                     "supported (this reader knows 1)");
    b.d[8] = 1;
    hl = b.len;
    blob_chunk(&b, 3, 1, PH_REC_PC_ENC, w, 2);
    expect_error(&b, "t.phx: offset 0x42: blob of an unknown process (no "
                     "PROC chunk before it)");
    b.len = hl;
    proc_chunk(&b, 3, 1, PH_REC_STACK_ENC);
    hl = b.len;
    blob_chunk(&b, 3, 1, PH_REC_STACK_ENC, big, 3);
    expect_error(&b, "t.phx: offset 0x95: blob word 0: stack of 200 frames "
                     "(limit 128, 2 words left)");
    b.len = hl;
    blob_chunk(&b, 3, 1, PH_REC_STACK_ENC, w, 2);
    b.d[b.len - 1] ^= 0xff;   /* payload changed: CRC no longer matches */
    expect_error(&b, "t.phx: offset 0x8d: chunk checksum mismatch (type 3, "
                     "94 bytes)");
    b.d[b.len - 1] ^= 0xff;
    ph_put32(b.d + hl + 4, 0x7fffffff);
    expect_error(&b, "t.phx: offset 0x89: chunk length 2147483647 exceeds "
                     "the limit of 1048576");
    b.len = hl;
    blob_chunk(&b, 3, 1, PH_REC_STACK_ENC, w, 2);
    b.len -= 5;   /* a writer killed mid-chunk: a warning, not an error */
    p = read_exp(&b, msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL(p);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "ignored a truncated last chunk"));
    if (p)
        ph_profile_free(p);
    free(b.d);
}

static void test_sniff(void)
{
    CU_ASSERT_EQUAL(ph_native_sniff((const unsigned char *)"PROFHUBX\1\0",
                                    10), 100);
    /* another version: ours, unless a text format claims the bytes */
    int other = ph_native_sniff((const unsigned char *)"PROFHUBX\2\0", 10);
    CU_ASSERT(other > 0 && other < 10);
    CU_ASSERT_EQUAL(ph_native_sniff((const unsigned char *)"PROFHUB", 7), 0);
    CU_ASSERT_EQUAL(ph_native_sniff((const unsigned char *)"events: x", 9),
                    0);
}

void ph_test_register_native(void)
{
    CU_pSuite s = CU_add_suite("native", NULL, NULL);

    CU_add_test(s, "pc blob decoding and costs", test_pc_blob);
    CU_add_test(s, "placeholder replication", test_placeholders);
    CU_add_test(s, "symbols through libelf", test_symbols);
    CU_add_test(s, "offset errors", test_errors);
    CU_add_test(s, "sniff", test_sniff);
}
