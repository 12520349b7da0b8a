/* rt_signal.c -- the sampling signal, kept out of the program's sight.
 * Runs inside the target.  on_signal is a signal path, and so are the
 * interposed sigaction/signal/sigprocmask/pthread_sigmask (a program may
 * call them from its own handlers): no malloc, no stdio, no locks.  The
 * real functions are resolved at init (rt_signal_resolve); the lazy
 * dlsym fallback only serves calls made before our constructor ran.
 *
 * Samples come from per-thread timers (rt_thread.c) on a real-time signal
 * of our own, PH_RT_SIGNAL (SIGRTMAX - 3), never SIGPROF: a program's
 * SIGPROF handler, ITIMER_PROF or SIG_DFL on SIGPROF is entirely its own
 * (gperftools' and Open|SpeedShop's per-thread timer approach).  So that
 * the program sees exactly what it would see without us:
 *  - sigaction/signal on our signal read and write a shadow disposition;
 *    a signal that is not one of our timer's (si_code SI_TIMER with our
 *    cookie in si_value) goes to that shadow disposition: its handler,
 *    ignored, or the default action (termination, as without us);
 *  - sigprocmask/pthread_sigmask never block our signal (a thread that
 *    blocks everything is still sampled) and report it as the program
 *    last set it in that thread; a foreign signal of our number that
 *    arrives while the program believes it blocked is kept (up to
 *    RT_HELD) and handed over when it unblocks it or waits for it;
 *  - sigwait/sigwaitinfo/sigtimedwait never take our timer's signals;
 *    signalfd never sees our number at all (a limitation). */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/rt_priv.h"

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);
typedef int (*sigtimedwait_fn)(const sigset_t *, siginfo_t *,
                               const struct timespec *);
typedef int (*signalfd_fn)(int, const sigset_t *, int);

static sigaction_fn real_sigaction;
static sigmask_fn real_sigprocmask, real_pthread_sigmask;
static sigtimedwait_fn real_sigtimedwait;
static signalfd_fn real_signalfd;

/* What the program believes about our signal. */
static struct sigaction shadow;
static _Atomic int owned;           /* our handler is installed */
static __thread int shadow_blocked __attribute__((tls_model("initial-exec")));

/* Foreign signals of our number held while the program blocks it. */
#define RT_HELD 8
enum { HELD_FREE = 0, HELD_FILLING, HELD_FULL, HELD_TAKING };
static struct {
    _Atomic int state;
    siginfo_t si;
} held[RT_HELD];

#define RESOLVE(var, name)                                              \
    do {                                                                \
        if (!(var))                                                     \
            *(void **)&(var) = dlsym(RTLD_NEXT, name);                  \
    } while (0)

void rt_signal_resolve(void)
{
    RESOLVE(real_sigaction, "sigaction");
    RESOLVE(real_sigprocmask, "sigprocmask");
    RESOLVE(real_pthread_sigmask, "pthread_sigmask");
    RESOLVE(real_sigtimedwait, "sigtimedwait");
    RESOLVE(real_signalfd, "signalfd");
}

static int is_ours(int sig)
{
    return sig == PH_RT_SIGNAL && atomic_load_explicit(&owned,
                                                       memory_order_relaxed);
}

/* ------------------------------------------------------------------ */
/* The handler                                                         */

/* A signal with our number that our timers did not send: do what the
 * program asked for, or what the kernel would have done. */
static void forward(int sig, siginfo_t *si, void *uc)
{
    struct sigaction sa = shadow;
    sigset_t old;

    /* sa_handler and sa_sigaction share their storage */
    if (sa.sa_handler == SIG_IGN)
        return;
    if (sa.sa_handler == SIG_DFL) {
        /* Default action of a real-time signal: the process dies of it.
         * Flush, give the signal its default, send it again; it arrives
         * when this handler returns and unblocks it. */
        struct sigaction dfl;

        rt_stop_all(PH_END_SIGNAL, sig, 1);
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        atomic_store(&owned, 0);
        real_sigaction(sig, &dfl, NULL);
        syscall(SYS_tgkill, getpid(), rt_gettid(), sig);
        return;
    }
    if (sa.sa_flags & SA_RESETHAND) {
        memset(&shadow, 0, sizeof shadow);
        shadow.sa_handler = SIG_DFL;
    }
    real_pthread_sigmask(SIG_BLOCK, &sa.sa_mask, &old);
    if (sa.sa_flags & SA_SIGINFO)
        sa.sa_sigaction(sig, si, uc);
    else
        sa.sa_handler(sig);
    real_pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void hold(const siginfo_t *si)
{
    for (int i = 0; i < RT_HELD; i++) {
        int expect = HELD_FREE;

        if (atomic_compare_exchange_strong(&held[i].state, &expect,
                                           HELD_FILLING)) {
            held[i].si = *si;
            atomic_store(&held[i].state, HELD_FULL);
            return;
        }
    }
    /* more than RT_HELD queued: dropped, as the kernel drops past its
     * queue limit */
}

/* Take the oldest held signal into *si; 0 when none. */
static int take_held(siginfo_t *si)
{
    for (int i = 0; i < RT_HELD; i++) {
        int expect = HELD_FULL;

        if (atomic_compare_exchange_strong(&held[i].state, &expect,
                                           HELD_TAKING)) {
            *si = held[i].si;
            atomic_store(&held[i].state, HELD_FREE);
            return 1;
        }
    }
    return 0;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;

    if (si->si_code == SI_TIMER && si->si_value.sival_ptr == RT_TIMER_COOKIE)
        rt_sample(si, uc);
    else if (shadow_blocked)
        hold(si);
    else
        forward(sig, si, uc);
    errno = saved;
}

int rt_signal_install(void)
{
    struct sigaction sa;
    sigset_t s;

    rt_signal_resolve();
    if (!real_sigaction || !real_pthread_sigmask)
        return -1;
    /* What the program inherited (an exec keeps SIG_IGN) is its view. */
    if (real_sigaction(PH_RT_SIGNAL, NULL, &shadow) != 0)
        return -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (real_sigaction(PH_RT_SIGNAL, &sa, NULL) != 0)
        return -1;
    atomic_store(&owned, 1);
    sigemptyset(&s);
    sigaddset(&s, PH_RT_SIGNAL);
    real_pthread_sigmask(SIG_UNBLOCK, &s, NULL);
    return 0;
}

void rt_block_sampling(sigset_t *old)
{
    sigset_t s;

    sigemptyset(&s);
    sigaddset(&s, PH_RT_SIGNAL);
    rt_signal_resolve();
    real_pthread_sigmask(SIG_BLOCK, &s, old);
}

void rt_restore_mask(const sigset_t *old)
{
    real_pthread_sigmask(SIG_SETMASK, old, NULL);
}

int rt_real_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    rt_signal_resolve();
    return real_pthread_sigmask(how, set, old);
}

/* Throw away a timer signal of this thread still pending (before exec,
 * where it would meet the new image's default disposition and kill it). */
void rt_signal_drain(void)
{
    sigset_t s;
    siginfo_t si;
    struct timespec zero = { 0, 0 };

    sigemptyset(&s);
    sigaddset(&s, PH_RT_SIGNAL);
    while (real_sigtimedwait && real_sigtimedwait(&s, &si, &zero) > 0)
        ;
}

int rt_signal_shadow_blocked(void)
{
    return shadow_blocked;
}

void rt_signal_set_shadow_blocked(int b)
{
    shadow_blocked = b;
}

/* ------------------------------------------------------------------ */
/* Dispositions                                                        */

__attribute__((visibility("default")))
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    RESOLVE(real_sigaction, "sigaction");
    if (!is_ours(sig))
        return real_sigaction(sig, act, old);
    if (old)
        *old = shadow;
    if (act)
        shadow = *act;
    return 0;
}

/* glibc's signal() calls its internal sigaction, not ours: wrap it too,
 * with its BSD semantics (SA_RESTART, the signal blocked in its handler). */
static sighandler_t set_handler(int sig, sighandler_t h, int flags)
{
    struct sigaction sa, old;

    if (sig <= 0 || sig >= NSIG) {
        errno = EINVAL;
        return SIG_ERR;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (!(flags & SA_NODEFER))
        sigaddset(&sa.sa_mask, sig);
    if (sigaction(sig, &sa, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
}

__attribute__((visibility("default")))
sighandler_t signal(int sig, sighandler_t h)
{
    static sighandler_t (*real)(int, sighandler_t);

    RESOLVE(real, "signal");
    if (!is_ours(sig))
        return real(sig, h);
    return set_handler(sig, h, SA_RESTART);
}

__attribute__((visibility("default")))
sighandler_t sysv_signal(int sig, sighandler_t h)
{
    static sighandler_t (*real)(int, sighandler_t);

    RESOLVE(real, "sysv_signal");
    if (!is_ours(sig))
        return real(sig, h);
    return set_handler(sig, h, SA_RESETHAND | SA_NODEFER);
}

/* What signal() is in a program built in strict ISO C mode. */
sighandler_t __sysv_signal(int sig, sighandler_t h);
__attribute__((visibility("default")))
sighandler_t __sysv_signal(int sig, sighandler_t h)
{
    static sighandler_t (*real)(int, sighandler_t);

    RESOLVE(real, "__sysv_signal");
    if (!is_ours(sig))
        return real(sig, h);
    return set_handler(sig, h, SA_RESETHAND | SA_NODEFER);
}

/* ------------------------------------------------------------------ */
/* Masks                                                               */

/* set without our signal, into buf; NULL stays NULL. */
static const sigset_t *without_ours(const sigset_t *set, sigset_t *buf)
{
    if (!set || !atomic_load_explicit(&owned, memory_order_relaxed))
        return set;
    *buf = *set;
    sigdelset(buf, PH_RT_SIGNAL);
    return buf;
}

static int change_mask(sigmask_fn real, int how, const sigset_t *set,
                       sigset_t *old)
{
    sigset_t buf;
    int was = shadow_blocked, rc;

    rc = real(how, without_ours(set, &buf), old);
    if (rc != 0 || !atomic_load_explicit(&owned, memory_order_relaxed))
        return rc;
    if (old) {
        if (was)
            sigaddset(old, PH_RT_SIGNAL);
        else
            sigdelset(old, PH_RT_SIGNAL);
    }
    if (set) {
        int in = sigismember(set, PH_RT_SIGNAL) == 1;

        if (how == SIG_SETMASK)
            shadow_blocked = in;
        else if (how == SIG_BLOCK && in)
            shadow_blocked = 1;
        else if (how == SIG_UNBLOCK && in)
            shadow_blocked = 0;
    }
    if (!shadow_blocked) {
        siginfo_t si;

        while (take_held(&si))
            forward(PH_RT_SIGNAL, &si, NULL);
    }
    return rc;
}

__attribute__((visibility("default")))
int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    RESOLVE(real_sigprocmask, "sigprocmask");
    return change_mask(real_sigprocmask, how, set, old);
}

__attribute__((visibility("default")))
int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    RESOLVE(real_pthread_sigmask, "pthread_sigmask");
    return change_mask(real_pthread_sigmask, how, set, old);
}

/* ------------------------------------------------------------------ */
/* Waiting for signals                                                 */

/* A held signal of our number when the program waits for it. */
static int take_waited(const sigset_t *set, siginfo_t *si)
{
    return set && atomic_load_explicit(&owned, memory_order_relaxed) &&
           sigismember(set, PH_RT_SIGNAL) == 1 && take_held(si);
}

/* Our handler holding a signal interrupts the wait (EINTR); the held
 * signal is then what the wait returns. */
__attribute__((visibility("default")))
int sigtimedwait(const sigset_t *set, siginfo_t *si,
                 const struct timespec *timeout)
{
    sigset_t buf;
    siginfo_t mine;
    int rc;

    RESOLVE(real_sigtimedwait, "sigtimedwait");
    if (take_waited(set, &mine))
        goto held;
    rc = real_sigtimedwait(without_ours(set, &buf), si, timeout);
    if (rc >= 0 || errno != EINTR || !take_waited(set, &mine))
        return rc;
held:
    if (si)
        *si = mine;
    return PH_RT_SIGNAL;
}

__attribute__((visibility("default")))
int sigwaitinfo(const sigset_t *set, siginfo_t *si)
{
    return sigtimedwait(set, si, NULL);
}

/* glibc's sigwait retries on EINTR inside; so does this one. */
__attribute__((visibility("default")))
int sigwait(const sigset_t *set, int *sig)
{
    siginfo_t si;
    int rc;

    do
        rc = sigtimedwait(set, &si, NULL);
    while (rc < 0 && errno == EINTR);
    if (rc < 0)
        return errno;
    *sig = rc;
    return 0;
}

__attribute__((visibility("default")))
int signalfd(int fd, const sigset_t *mask, int flags)
{
    sigset_t buf;

    RESOLVE(real_signalfd, "signalfd");
    return real_signalfd(fd, without_ours(mask, &buf), flags);
}
