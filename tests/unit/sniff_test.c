/* sniff_test.c -- the format registries: names unique and found, every
 * sniffer safe on short and foreign data, every real sample in
 * samples/<format>/ recognised as its format both plain and gzip-wrapped
 * (ph_load_input on memory), and output formats chosen by the longest
 * extension. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

#include "ir/format.h"
#include "suites.h"

static void test_tables(void)
{
    size_t i, j, ni = ph_importer_count(), ne = ph_exporter_count();

    CU_ASSERT_PTR_NULL(ph_importer_at(ni));
    CU_ASSERT_PTR_NULL(ph_exporter_at(ne));
    CU_ASSERT_PTR_NULL(ph_importer_find("no-such-format"));
    CU_ASSERT_PTR_NULL(ph_exporter_find("no-such-format"));
    for (i = 0; i < ni; i++) {
        const ph_format *f = ph_importer_at(i);
        CU_ASSERT_PTR_NOT_NULL(f->name);
        CU_ASSERT_PTR_NOT_NULL(f->description);
        CU_ASSERT_PTR_NOT_NULL(f->read);
        CU_ASSERT_PTR_EQUAL(ph_importer_find(f->name), f);
        for (j = 0; j < i; j++)
            CU_ASSERT(strcmp(ph_importer_at(j)->name, f->name) != 0);
    }
    for (i = 0; i < ne; i++) {
        const ph_format *f = ph_exporter_at(i);
        CU_ASSERT_PTR_NOT_NULL(f->name);
        CU_ASSERT_PTR_NOT_NULL(f->description);
        CU_ASSERT_PTR_NOT_NULL(f->write);
        CU_ASSERT_PTR_EQUAL(ph_exporter_find(f->name), f);
        for (j = 0; j < i; j++)
            CU_ASSERT(strcmp(ph_exporter_at(j)->name, f->name) != 0);
    }
}

/* Text that starts like a binary format is another format's when that one
 * claims it: folded stacks whose first frame begins with "gmon" (a fuzz
 * finding, "gmon(1) main 20", read as a gmon file of version 1869771333)
 * or with bytes that are a protobuf field's key and length (a fuzz
 * finding, "21) main 20": field 6, 49 bytes, past the end of the data,
 * read as a cut pprof file) or with the native experiment's magic (a
 * fuzz finding, "PROFHUBXhot_loop 1500006", read as version 28520). */
static void test_binary_magic_in_text(void)
{
    static const char *folded[] = {
        "gmon(1) main 20\n", "gmon_write;main 3\n", "gmon 7\n",
        "21) main 20\n21) main 10\n", "2x;main 5\n", "R1 3\n",
        "PROFHUBXhot_loop 1500006\nrun_round 6\n",
    };
    for (size_t i = 0; i < sizeof folded / sizeof folded[0]; i++) {
        const ph_format *f = ph_importer_sniff(
            (const unsigned char *)folded[i], strlen(folded[i]));
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_STRING_EQUAL(f->name, "folded");
    }
}

static void test_foreign_data(void)
{
    static const char *foreign[] = {
        "", "\n", "hello, world\n", "#!/bin/sh\necho hi\n",
        "\177ELF\002\001\001", "{\"json\": true}\n",
    };
    size_t i, n, k, ni = ph_importer_count();

    CU_ASSERT_PTR_NULL(ph_importer_sniff((const unsigned char *)"", 0));
    for (i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        n = strlen(foreign[i]);
        if (i == 4)
            n = 7;
        CU_ASSERT_PTR_NULL(ph_importer_sniff(
            (const unsigned char *)foreign[i], n));
    }
    /* Every sniffer copes with every short prefix of garbage. */
    for (k = 0; k < ni; k++) {
        const ph_format *f = ph_importer_at(k);
        static const unsigned char junk[16] = { 0xff, 0x00, 0x0a, 0x1f,
                                                0x8b, 0x08, 0x3d, 0x20 };
        for (n = 0; n <= sizeof junk; n++) {
            int s = f->sniff ? f->sniff(junk, n) : 0;
            CU_ASSERT(s >= 0 && s <= 100);
        }
    }
}

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
    deflate(&zs, Z_FINISH);
    *outlen = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

static int is_sample(const char *name)
{
    static const char *skip[] = { ".md", ".txt", ".c", ".go", ".sh", ".py",
                                  ".expected", ".log" };
    size_t i, n = strlen(name), m;

    if (name[0] == '.' || strncmp(name, "README", 6) == 0)
        return 0;
    for (i = 0; i < sizeof skip / sizeof skip[0]; i++) {
        m = strlen(skip[i]);
        if (n > m && strcmp(name + n - m, skip[i]) == 0)
            return 0;
    }
    return 1;
}

/* One sample file: sniffed as fmt plain, and through gzip in memory. */
static void check_sample(const ph_format *fmt, const char *path)
{
    char err[256];
    ph_input *in = ph_input_open(path, err, sizeof err), *gin;
    const ph_format *got;
    unsigned char *gz;
    size_t n;

    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    if (ph_input_size(in) == 0) {
        ph_input_close(in);
        return;
    }
    got = ph_importer_sniff(ph_input_data(in), ph_input_size(in));
    if (got != fmt)
        fprintf(stderr, "\n  %s: sniffed as %s, expected %s\n", path,
                got ? got->name : "nothing", fmt->name);
    CU_ASSERT_PTR_EQUAL(got, fmt);
    gz = gzip_bytes(ph_input_data(in), ph_input_size(in), &n);
    gin = ph_input_memory(gz, n, path);
    CU_ASSERT(ph_input_was_gzip(gin));
    CU_ASSERT_EQUAL(ph_input_size(gin), ph_input_size(in));
    CU_ASSERT_PTR_EQUAL(ph_importer_sniff(ph_input_data(gin),
                                          ph_input_size(gin)), fmt);
    ph_input_close(gin);
    free(gz);
    ph_input_close(in);
}

static void test_samples(void)
{
    const char *top = getenv("top_srcdir");
    size_t i, ni = ph_importer_count();
    char folder[1024], path[2048];

    if (!top)
        return;   /* run outside make check: no samples to look at */
    for (i = 0; i < ni; i++) {
        const ph_format *f = ph_importer_at(i);
        struct dirent *e;
        struct stat st;
        DIR *d;

        snprintf(folder, sizeof folder, "%s/samples/%s", top, f->name);
        d = opendir(folder);
        if (!d)
            continue;
        while ((e = readdir(d)) != NULL) {
            if (!is_sample(e->d_name))
                continue;
            snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
            if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
                continue;   /* gmon keeps each run in a folder */
            check_sample(f, path);
        }
        closedir(d);
    }
}

static void test_load_errors(void)
{
    char err[512];
    ph_input *in = ph_input_memory("hello, world\n", 13, "greeting.txt");

    CU_ASSERT_PTR_NULL(ph_load_input(in, NULL, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "greeting.txt: not a profile in any format "
                                "profhub reads (-F FORMAT forces one)");
    CU_ASSERT_PTR_NULL(ph_load_input(in, "no-such-format", err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown input format "
                                       "\"no-such-format\""));
    ph_input_close(in);

    in = ph_input_memory("", 0, "empty.out");
    CU_ASSERT_PTR_NULL(ph_load_input(in, NULL, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "empty.out: empty input");
    ph_input_close(in);

    CU_ASSERT_PTR_NULL(ph_load("/nonexistent/x.out", NULL, NULL, &in, err,
                               sizeof err));
    CU_ASSERT_PTR_NULL(in);
    CU_ASSERT_STRING_EQUAL(err, "/nonexistent/x.out: No such file or "
                                "directory");
}

/* Whether base ends with "." + one of f's plain extension words at least
 * min long. */
static int has_suffix(const ph_format *f, const char *base, size_t min)
{
    const char *w = f->extensions;
    size_t bl = strlen(base);

    while (w && *w) {
        size_t n = strcspn(w, " ");
        if (n >= min && bl > n && base[bl - n - 1] == '.' &&
            strncasecmp(base + bl - n, w, n) == 0)
            return 1;
        w += n;
        w += strspn(w, " ");
    }
    return 0;
}

static void test_exporter_for_path(void)
{
    size_t i, ne = ph_exporter_count();
    char path[256];

    CU_ASSERT_PTR_NULL(ph_exporter_for_path("noextension"));
    CU_ASSERT_PTR_NULL(ph_exporter_for_path("x.no-such-extension"));
    CU_ASSERT_PTR_NULL(ph_exporter_for_path("dir.d/"));
    for (i = 0; i < ne; i++) {
        const ph_format *f = ph_exporter_at(i);
        const char *w = f->extensions;
        while (w && *w) {
            size_t n = strcspn(w, " ");
            if (!memchr(w, '*', n)) {
                const ph_format *got;
                snprintf(path, sizeof path, "some.dir/prof.%.*s", (int)n, w);
                got = ph_exporter_for_path(path);
                /* This format, or one with a longer matching extension. */
                CU_ASSERT_PTR_NOT_NULL_FATAL(got);
                CU_ASSERT(got == f || has_suffix(got, path + 9, n));
            }
            w += n;
            w += strspn(w, " ");
        }
    }
}

void ph_test_register_sniff(void)
{
    CU_pSuite s = CU_add_suite("sniff", NULL, NULL);

    CU_add_test(s, "tables", test_tables);
    CU_add_test(s, "foreign data", test_foreign_data);
    CU_add_test(s, "binary magic in text", test_binary_magic_in_text);
    CU_add_test(s, "real samples, plain and gzip", test_samples);
    CU_add_test(s, "load errors", test_load_errors);
    CU_add_test(s, "exporter for a path", test_exporter_for_path);
}
