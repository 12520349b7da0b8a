/* rt_priv.h -- shared state of the preloaded runtime (libprofhub-rt).
 * Runs inside the target.  Everything reachable from a signal handler is
 * preallocated; signal paths: no malloc, no stdio, no locks.
 * The experiment layout written here is specified in runtime/FORMAT.md;
 * runtime/expfmt.h holds its constants for the importer too. */
#ifndef PH_RT_PRIV_H
#define PH_RT_PRIV_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "collectors/collector.h"
#include "runtime/expfmt.h"

#define RT_HIDDEN __attribute__((visibility("hidden")))

/* Blob buffers: 16 KiB of raw words each, a fixed pool (RT_POOL), taken by
 * threads with a compare-and-swap, so the handler never allocates. */
#define RT_BLOB_WORDS 2048
#define RT_POOL 256
#define RT_MAX_THREADS 1024

enum { BLOB_FREE = 0, BLOB_FILLING, BLOB_READY, BLOB_WRITING };

typedef struct rt_blob {
    _Atomic int state;
    uint32_t pid, tid;
    uint64_t posix_tid;
    uint64_t t0, t1;                /* CLOCK_MONOTONIC ns */
    uint64_t a0, a1;                /* address range (inclusive) */
    uint32_t dropped;               /* samples lost before this blob */
    _Atomic uint32_t used;          /* words written, published last */
    uint64_t words[RT_BLOB_WORDS];
} rt_blob;

typedef struct rt_thread {
    _Atomic int taken;              /* slot in use */
    _Atomic int in_handler;
    volatile sig_atomic_t busy;     /* in dlopen / exiting: skip samples */
    uint32_t tid;
    uint64_t posix_tid;
    timer_t timer;
    int has_timer;
    rt_blob *cur;                   /* only its own handler touches it */
    uint64_t last_cpu;              /* thread CPU ns at the last sample */
    uint32_t dropped;
    void *altstack;
} rt_thread;

/* Global state (rt_init.c). */
typedef struct rt_state {
    int active;                     /* an experiment is being recorded */
    int fd;                         /* experiment file, O_APPEND */
    uint64_t fd_dev, fd_ino;        /* what fd must still be */
    uint32_t experiment;
    uint32_t pid;
    uint64_t instance;              /* this image's id: start time ns */
    uint64_t interval;              /* ns, or event threshold */
    const ph_collector *coll;
    ph_rt_api api;
    _Atomic int stopping;           /* handlers return at once */
    _Atomic uint32_t timer_failures; /* threads left without a timer */
    uint64_t samples;
} rt_state;

RT_HIDDEN extern rt_state rt;

/* The sampling signal (rt_signal.c) and the value our timers put in
 * si_value, which tells their signals from any other of that number. */
#define PH_RT_SIGNAL (SIGRTMAX - 3)
#define RT_TIMER_COOKIE ((void *)(uintptr_t)0x7068726563746d72u)

/* Interposed functions, resolved once at init (rt_interpose.c). */
RT_HIDDEN void rt_interpose_init(void);
RT_HIDDEN extern int (*rt_real_pthread_create)(pthread_t *,
                                               const pthread_attr_t *,
                                               void *(*)(void *), void *);

/* Time and ids, async-signal-safe. */
RT_HIDDEN uint64_t rt_now(void);
RT_HIDDEN uint64_t rt_thread_cpu(void);
RT_HIDDEN uint32_t rt_gettid(void);

/* Threads (rt_thread.c). */
RT_HIDDEN rt_thread *rt_thread_self(void);
RT_HIDDEN void rt_thread_begin(void);     /* register + arm, this thread */
RT_HIDDEN void rt_thread_end(void);       /* flush + disarm, this thread */
RT_HIDDEN void rt_threads_forget_others(void);  /* forked child */
RT_HIDDEN void rt_threads_quiesce(void);  /* wait for running handlers */
RT_HIDDEN void rt_threads_release_blobs(void);  /* exit, exec */
RT_HIDDEN void rt_append(const uint64_t *words, size_t n);
RT_HIDDEN void rt_sample(siginfo_t *si, void *uc);  /* signal path */
RT_HIDDEN void rt_thread_disarm(void);    /* before exec */
RT_HIDDEN void rt_thread_rearm(void);     /* exec failed */

/* The sampling signal, hidden from the program (rt_signal.c). */
RT_HIDDEN void rt_signal_resolve(void);
RT_HIDDEN int rt_signal_install(void);
RT_HIDDEN void rt_block_sampling(sigset_t *old);
RT_HIDDEN void rt_restore_mask(const sigset_t *old);
RT_HIDDEN void rt_signal_drain(void);
RT_HIDDEN int rt_real_sigmask(int how, const sigset_t *set, sigset_t *old);
RT_HIDDEN int rt_signal_shadow_blocked(void);
RT_HIDDEN void rt_signal_set_shadow_blocked(int blocked);

/* Blobs and chunks (rt_blob.c). */
RT_HIDDEN int rt_blob_init(void);
RT_HIDDEN rt_blob *rt_blob_take(const rt_thread *t);
RT_HIDDEN void rt_blob_ready(rt_blob *b);
RT_HIDDEN void rt_blob_flush_all(int emergency);
RT_HIDDEN void rt_blob_reset_all(void);
RT_HIDDEN int rt_writer_start(void);
RT_HIDDEN void rt_writer_stop(void);
RT_HIDDEN void rt_chunk_write(uint32_t type, const void *payload,
                              size_t len);

/* Process records (rt_maps.c). */
RT_HIDDEN void rt_write_proc(uint32_t ppid);
RT_HIDDEN void rt_write_maps(void);
RT_HIDDEN void rt_write_end(uint32_t reason, int32_t status);

/* Start and stop (rt_init.c). */
RT_HIDDEN void rt_stop_all(uint32_t reason, int32_t status, int emergency);
RT_HIDDEN void rt_resume(void);
RT_HIDDEN void rt_after_fork_child(void);

#endif /* PH_RT_PRIV_H */
