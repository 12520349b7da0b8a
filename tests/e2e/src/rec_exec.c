/* rec_exec.c -- profhub record test program: burns CPU in before_exec,
 * then execs itself with "after" (or execs argv[2] when given), which
 * burns CPU in after_exec.  Used by tests/e2e/record_exec.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile uint64_t sink;

static NOINLINE uint64_t spin(uint64_t n, uint64_t seed)
{
    uint64_t x = seed;

    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

NOINLINE uint64_t before_exec(uint64_t n)
{
    return spin(n, 1);
}

NOINLINE uint64_t after_exec(uint64_t n)
{
    return spin(n, 3);
}

int main(int argc, char **argv)
{
    uint64_t n = 100000000u;

    if (argc > 1 && strcmp(argv[1], "after") == 0) {
        sink = after_exec(n);
        printf("after exec\n");
        return 5;
    }
    sink = before_exec(n);
    printf("before exec\n");
    fflush(stdout);
    execl("/proc/self/exe", argv[0], "after", (char *)NULL);
    perror("execl");
    return 1;
}
