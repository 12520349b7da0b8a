/* replay.c -- main() for the fuzz targets in a build without libFuzzer:
 * each file named on the command line is read whole and given once to
 * LLVMFuzzerTestOneInput, as libFuzzer replays a crash file.  make check
 * builds every target this way and replays the seeds through it
 * (tests/e2e/fuzz_replay.sh), so the targets keep compiling with gcc -Werror
 * and their stricter checks (abort on a lost event, a message without a
 * position...) run on every sample and tests/bad case. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole of file path in a fresh buffer; its size in *size. */
static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, n = 0, got;
    uint8_t *buf;

    if (!f) {
        perror(path);
        exit(2);
    }
    buf = ph_xmalloc(cap);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = ph_xrealloc(buf, cap *= 2);
    }
    if (ferror(f)) {
        perror(path);
        exit(2);
    }
    fclose(f);
    *size = n;
    return buf;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        size_t size;
        uint8_t *data = slurp(argv[i], &size);

        LLVMFuzzerTestOneInput(data, size);
        free(data);
    }
    return 0;
}
