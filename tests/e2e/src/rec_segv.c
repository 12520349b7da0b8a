/* rec_segv.c -- profhub record test program: burns CPU in doomed_work,
 * then dereferences a null pointer (SIGSEGV).  Used by
 * tests/e2e/record_crash.sh: the experiment must still hold the samples. */
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static volatile uint64_t sink;

NOINLINE uint64_t doomed_work(uint64_t n)
{
    uint64_t x = 1;

    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

int main(void)
{
    volatile int *volatile p = NULL;

    sink = doomed_work(200000000u);
    printf("about to crash\n");
    fflush(stdout);
    return *p;
}
