/* jobs.c -- the library's thread count, ph_run_pair and ph_run_ordered
 * (jobs.h). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ir/ir.h"
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

/* The file this thread reads, for a thread it starts: an out-of-memory
 * message there names it too (ph_mem_context).  Copied before the thread
 * starts: this one may go on to another file. */
typedef char mem_context[256];

static void keep_context(mem_context c)
{
    snprintf(c, sizeof(mem_context), "%s", ph_mem_context());
}

typedef struct pair_job {
    void (*fn)(void *);
    void *arg;
    int halvings;
    mem_context context;
} pair_job;

static void *run_job(void *arg)
{
    pair_job *j = arg;
    halvings = j->halvings;
    ph_mem_set_context(j->context);
    j->fn(j->arg);
    return NULL;
}

/* fn(first) on a thread of its own, fn(second) on this one with `keep`
 * added to its halvings. */
static void run_two(void (*fn)(void *), void *first, void *second, int keep)
{
    pair_job j = {fn, first, halvings + 1, ""};
    pthread_t th;

    keep_context(j.context);
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

typedef struct ordered {
    size_t n, ahead;
    void (*make)(void *, size_t, int);
    void (*give)(void *, size_t);
    void *arg;
    pthread_mutex_t mu;         /* over the rest */
    pthread_cond_t cv;          /* a piece made or given */
    size_t next;                /* the next piece to make */
    size_t given;               /* pieces given */
    unsigned char *made;        /* per piece: made */
    int giving;                 /* a side gives pieces now */
    mem_context context;
} ordered;

/* One side's work, until every piece is given: give what is made next in
 * order (when no other side does), else make the next piece when the
 * window allows, else wait for the other side. */
static void ordered_side(ordered *o, int side)
{
    pthread_mutex_lock(&o->mu);
    while (o->given < o->n) {
        if (!o->giving && o->made[o->given]) {
            o->giving = 1;
            do {
                size_t i = o->given;
                pthread_mutex_unlock(&o->mu);
                o->give(o->arg, i);
                pthread_mutex_lock(&o->mu);
                o->given++;
            } while (o->given < o->n && o->made[o->given]);
            o->giving = 0;
            pthread_cond_broadcast(&o->cv);
        } else if (o->next < o->n && o->next < o->given + o->ahead) {
            size_t i = o->next++;
            pthread_mutex_unlock(&o->mu);
            o->make(o->arg, i, side);
            pthread_mutex_lock(&o->mu);
            o->made[i] = 1;
            pthread_cond_broadcast(&o->cv);
        } else {
            pthread_cond_wait(&o->cv, &o->mu);
        }
    }
    pthread_mutex_unlock(&o->mu);
}

static void *ordered_other(void *arg)
{
    ordered *o = arg;
    ph_mem_set_context(o->context);
    ordered_side(arg, 1);
    return NULL;
}

void ph_run_ordered(size_t n, size_t ahead, int sides,
                    void (*make)(void *arg, size_t i, int side),
                    void (*give)(void *arg, size_t i), void *arg)
{
    ordered o = {n, ahead ? ahead : 1, make, give, arg,
                 PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                 0, 0, NULL, 0, ""};
    pthread_t th;
    int two;

    if (n == 0)
        return;
    keep_context(o.context);
    o.made = ph_xcalloc(n, 1);
    two = n > 1 && sides > 1 && ph_jobs() > 1 &&
          pthread_create(&th, NULL, ordered_other, &o) == 0;
    ordered_side(&o, 0);
    if (two)
        pthread_join(th, NULL);
    pthread_mutex_destroy(&o.mu);
    pthread_cond_destroy(&o.cv);
    free(o.made);
}
