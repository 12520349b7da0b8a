/* jobs.c -- the library's thread count and ph_run_pair (jobs.h). */
#include "config.h"

#include <pthread.h>
#include <unistd.h>

#include "ir/jobs.h"

static int jobs;    /* 0: every online processor */
/* How many ph_run_pair halves this thread's work is in: each half may use
 * half the threads (two loads side by side then keep to a core each). */
static _Thread_local int halvings;

void ph_set_jobs(int n)
{
    jobs = n < 0 ? 0 : n;
}

int ph_jobs(void)
{
    long n = jobs;

    if (n == 0) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
        n = n < 1 ? 1 : n > 64 ? 64 : n;
    }
    n >>= halvings;
    return n < 1 ? 1 : (int)n;
}

typedef struct pair_job {
    void (*fn)(void *);
    void *arg;
    int halvings;
} pair_job;

static void *run_job(void *arg)
{
    pair_job *j = arg;
    halvings = j->halvings;
    j->fn(j->arg);
    return NULL;
}

/* fn(first) on a thread of its own, fn(second) on this one with `keep`
 * added to its halvings. */
static void run_two(void (*fn)(void *), void *first, void *second, int keep)
{
    pair_job j = {fn, first, halvings + 1};
    pthread_t th;

    if (ph_jobs() < 2 || pthread_create(&th, NULL, run_job, &j) != 0) {
        fn(first);
        fn(second);
        return;
    }
    halvings += keep;
    fn(second);
    halvings -= keep;
    pthread_join(th, NULL);
}

void ph_run_pair(void (*fn)(void *), void *first, void *second)
{
    run_two(fn, first, second, 1);
}

void ph_run_beside(void (*fn)(void *), void *light, void *heavy)
{
    run_two(fn, light, heavy, 0);
}
