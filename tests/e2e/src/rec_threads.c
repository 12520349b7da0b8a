/* rec_threads.c -- profhub record test program: three pthreads, each
 * burning about the same CPU in its own function (work_a, work_b, work_c)
 * while main waits.  samples/src/threads.c is sized for valgrind (a few
 * milliseconds per thread, below one sampling interval); this one gives
 * every thread tens of samples.  Used by tests/e2e/record_threads.sh. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static uint64_t iters = 60000000u;
static uint64_t results[3];

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

NOINLINE void *work_a(void *arg)
{
    (void)arg;
    results[0] = spin(iters, 1);
    return NULL;
}

NOINLINE void *work_b(void *arg)
{
    (void)arg;
    results[1] = spin(iters, 2);
    return NULL;
}

NOINLINE void *work_c(void *arg)
{
    (void)arg;
    results[2] = spin(iters, 3);
    pthread_exit(NULL);
}

int main(int argc, char **argv)
{
    void *(*fn[3])(void *) = { work_a, work_b, work_c };
    pthread_t t[3];

    if (argc > 1)
        iters = strtoull(argv[1], NULL, 10) * 1000000u;
    for (int i = 0; i < 3; i++)
        if (pthread_create(&t[i], NULL, fn[i], NULL) != 0)
            return 1;
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    printf("threads: %llu %llu %llu\n", (unsigned long long)results[0],
           (unsigned long long)results[1], (unsigned long long)results[2]);
    return 0;
}
