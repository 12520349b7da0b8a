/* rt_thread.c -- per-thread sampling: thread slots, CPU-time timers, the
 * sample taken in the signal handler and the append path into the
 * thread's blob.
 * Runs inside the target.  rt_sample and rt_append are signal paths: no
 * malloc, no stdio, no locks (atomics and preallocated memory only).
 * Each thread gets a timer_create(CLOCK_THREAD_CPUTIME_ID) timer aimed at
 * it with SIGEV_THREAD_ID on our own real-time signal (rt_signal.c).
 * Never SIGPROF or ITIMER_PROF: those belong to the program.  A thread
 * whose timer the kernel refuses is not sampled, and counted
 * (rt.timer_failures) so that profhub can say so. */
#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/rt_priv.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define ALTSTACK_SIZE (64 * 1024)
#define RT_MAX_OVERRUN 64
#define RT_BLOB_MAX_AGE (250u * 1000 * 1000)   /* ns */

static rt_thread slots[RT_MAX_THREADS];
static __thread rt_thread *self __attribute__((tls_model("initial-exec")));

uint64_t rt_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t rt_thread_cpu(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint32_t rt_gettid(void)
{
    return (uint32_t)syscall(SYS_gettid);
}

rt_thread *rt_thread_self(void)
{
    return self;
}

/* ------------------------------------------------------------------ */
/* Signal path                                                        */

void rt_append(const uint64_t *words, size_t n)
{
    rt_thread *t = self;
    rt_blob *b;
    uint32_t used;

    if (!t || n == 0 || n > PH_REC_MAX_WORDS)
        return;
    b = t->cur;
    used = b ? atomic_load_explicit(&b->used, memory_order_relaxed) : 0;
    if (!b || used + n > RT_BLOB_WORDS) {
        if (b)
            rt_blob_ready(b);
        t->cur = b = rt_blob_take(t);
        if (!b) {
            t->dropped++;
            return;
        }
        t->dropped = 0;
        used = 0;
    }
    for (size_t i = 0; i < n; i++)
        b->words[used + i] = words[i];
    /* address range over PCs (stack records: skip the count word) */
    for (size_t i = (rt.coll && rt.coll->encoding == PH_REC_STACK) ? 1 : 0;
         i < n; i++) {
        if (words[i] < b->a0)
            b->a0 = words[i];
        if (words[i] > b->a1)
            b->a1 = words[i];
    }
    b->t1 = rt_now();
    atomic_store_explicit(&b->used, used + (uint32_t)n,
                          memory_order_release);
    rt.samples++;
    /* Hand a blob over at an age too, not only when full: a process
     * killed by SIGKILL loses only its last RT_BLOB_MAX_AGE or so. */
    if (b->t1 - b->t0 >= RT_BLOB_MAX_AGE) {
        rt_blob_ready(b);
        t->cur = NULL;
    }
}

void rt_sample(siginfo_t *si, void *uc)
{
    rt_thread *t = self;
    uint64_t w[PH_REC_MAX_WORDS];
    size_t n;

    if (!t || t->busy || atomic_load_explicit(&rt.stopping,
                                              memory_order_relaxed))
        return;
    atomic_store_explicit(&t->in_handler, 1, memory_order_relaxed);
    if (rt.coll->encoding == PH_REC_STACK) {
        /* The thread did not run since its last sample (less than half an
         * interval of CPU time): a placeholder, the importer repeats the
         * last full stack (Instruments' idea). */
        uint64_t cpu = rt_thread_cpu();

        if (t->last_cpu && cpu - t->last_cpu < rt.interval / 2) {
            uint64_t zero = 0;

            rt_append(&zero, 1);
            atomic_store_explicit(&t->in_handler, 0, memory_order_release);
            return;
        }
        t->last_cpu = cpu;
    }
    n = rt.coll->sample(uc, w, PH_REC_MAX_WORDS);
    if (n) {
        /* Timer expirations the kernel merged into this signal (a CPU
         * timer is checked at the scheduler tick, so rates above HZ
         * overrun): each counts as one more sample at the same place,
         * a placeholder for stacks, the PC again for PCs. */
        int extra = si->si_code == SI_TIMER ? si->si_overrun : 0;
        uint64_t zero = 0;

        rt_append(w, n);
        if (extra > RT_MAX_OVERRUN)
            extra = RT_MAX_OVERRUN;
        for (int i = 0; i < extra; i++)
            rt_append(rt.coll->encoding == PH_REC_STACK ? &zero : w,
                      1);
    }
    atomic_store_explicit(&t->in_handler, 0, memory_order_release);
}

/* ------------------------------------------------------------------ */
/* Thread slots and timers                                            */

static rt_thread *take_slot(void)
{
    for (unsigned i = 0; i < RT_MAX_THREADS; i++) {
        int expect = 0;

        if (atomic_compare_exchange_strong(&slots[i].taken, &expect, 1))
            return &slots[i];
    }
    return NULL;
}

static void arm_timer(rt_thread *t)
{
    struct sigevent sev;
    struct itimerspec its;
    uint64_t ns = rt.interval;

    if (!(rt.coll->flags & PH_COLL_TIMER) || ns == 0)
        return;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = PH_RT_SIGNAL;
    sev.sigev_value.sival_ptr = RT_TIMER_COOKIE;
    sev.sigev_notify_thread_id = (pid_t)t->tid;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t->timer) == 0) {
        its.it_interval.tv_sec = (time_t)(ns / 1000000000u);
        its.it_interval.tv_nsec = (long)(ns % 1000000000u);
        its.it_value = its.it_interval;
        if (timer_settime(t->timer, 0, &its, NULL) == 0) {
            t->has_timer = 1;
            return;
        }
        timer_delete(t->timer);
    }
    atomic_fetch_add(&rt.timer_failures, 1);
}

/* Before exec: this thread's timer goes, and a signal of it still pending
 * with it (the new image would meet it with the default disposition). */
void rt_thread_disarm(void)
{
    rt_thread *t = self;
    sigset_t old;

    if (!t || !t->has_timer)
        return;
    rt_block_sampling(&old);
    timer_delete(t->timer);
    t->has_timer = 0;
    rt_signal_drain();
    rt_restore_mask(&old);
}

void rt_thread_rearm(void)
{
    rt_thread *t = self;

    if (t && !t->has_timer)
        arm_timer(t);
}

static void set_altstack(rt_thread *t)
{
    stack_t ss;
    void *m = mmap(NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (m == MAP_FAILED)
        return;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = m;
    ss.ss_size = ALTSTACK_SIZE;
    if (sigaltstack(&ss, NULL) == 0)
        t->altstack = m;
    else
        munmap(m, ALTSTACK_SIZE);
}

void rt_thread_begin(void)
{
    rt_thread *t;

    if (!rt.active || self)
        return;
    t = take_slot();
    if (!t)
        return;
    t->busy = 1;
    t->tid = rt_gettid();
    t->posix_tid = (uint64_t)pthread_self();
    t->cur = NULL;
    t->dropped = 0;
    t->last_cpu = 0;
    t->has_timer = 0;
    self = t;
    set_altstack(t);
    if (rt.coll->thread_start)
        rt.coll->thread_start(&rt.api);
    t->busy = 0;
    arm_timer(t);
}

void rt_thread_end(void)
{
    rt_thread *t = self;
    sigset_t old;

    if (!t)
        return;
    t->busy = 1;
    rt_block_sampling(&old);
    if (t->has_timer)
        timer_delete(t->timer);
    t->has_timer = 0;
    if (rt.coll->thread_stop)
        rt.coll->thread_stop(&rt.api);
    if (t->cur)
        rt_blob_ready(t->cur);
    t->cur = NULL;
    self = NULL;
    rt_restore_mask(&old);
    if (t->altstack) {
        stack_t ss;

        memset(&ss, 0, sizeof ss);
        ss.ss_flags = SS_DISABLE;
        sigaltstack(&ss, NULL);
        munmap(t->altstack, ALTSTACK_SIZE);
        t->altstack = NULL;
    }
    atomic_store(&t->taken, 0);
}

/* Forked child: only the calling thread survives; its timer did not. */
void rt_threads_forget_others(void)
{
    rt_thread *me = self;

    for (unsigned i = 0; i < RT_MAX_THREADS; i++) {
        if (&slots[i] == me)
            continue;
        atomic_store(&slots[i].in_handler, 0);
        slots[i].cur = NULL;
        atomic_store(&slots[i].taken, 0);
    }
    if (me) {
        me->tid = rt_gettid();
        me->posix_tid = (uint64_t)pthread_self();
        me->cur = NULL;
        me->has_timer = 0;
        me->last_cpu = 0;
        me->dropped = 0;
        me->busy = 0;
        if (rt.coll->thread_start)
            rt.coll->thread_start(&rt.api);
        arm_timer(me);
    }
}

/* After rt.stopping is set: wait (bounded) for handlers still appending,
 * then detach every thread from its blob so a resumed run starts clean. */
void rt_threads_quiesce(void)
{
    for (unsigned i = 0; i < RT_MAX_THREADS; i++) {
        if (!atomic_load(&slots[i].taken))
            continue;
        for (int spin = 0; spin < 100000 && &slots[i] != self &&
                           atomic_load(&slots[i].in_handler); spin++)
            ;
    }
}

/* Mark every thread's current blob ready and forget it (exit, exec). */
void rt_threads_release_blobs(void)
{
    for (unsigned i = 0; i < RT_MAX_THREADS; i++) {
        if (!atomic_load(&slots[i].taken) || !slots[i].cur)
            continue;
        rt_blob_ready(slots[i].cur);
        slots[i].cur = NULL;
    }
}
