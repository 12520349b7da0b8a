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

void ph_run_pair(void (*fn)(void *), void *first, void *second)
{
    pair_job j = {fn, first, halvings + 1};
    pthread_t th;

    if (ph_jobs() < 2 || pthread_create(&th, NULL, run_job, &j) != 0) {
        fn(first);
        fn(second);
        return;
    }
    halvings++;
    fn(second);
    halvings--;
    pthread_join(th, NULL);
}
