/* rec_sigprof.c -- a program that uses SIGPROF and real-time signals
 * itself, for tests/e2e/record_signals.sh: what it prints must be the
 * same with and without profhub record.  Modes (argv[1]):
 *   own-timer  SIGPROF handler and ITIMER_PROF at 1 kHz: prints its ticks
 *   handler    SIGPROF handler, no timer: prints its ticks (0)
 *   default    SIGPROF to SIG_IGN, then back to SIG_DFL: must survive
 *   every      a counting handler on every catchable signal from 1 to
 *              SIGRTMAX (SIGPROF included; odd ones with signal(), even
 *              ones with sigaction()), all signals blocked, then
 *              each real-time signal sent once with sigqueue and taken
 *              with sigwaitinfo: prints what arrived, the mask and the
 *              dispositions it reads back, and its stray signals
 * Each mode burns CPU in spin() so that a profiler samples it. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t ticks;
static volatile sig_atomic_t counts[65];

static void on_prof(int sig)
{
    (void)sig;
    ticks++;
}

static void on_any(int sig)
{
    if (sig > 0 && sig < 65)
        counts[sig]++;
}

__attribute__((noinline)) static double spin(long n)
{
    volatile double x = 0;

    for (long i = 0; i < n; i++)
        x += (double)i * 0.5;
    return x;
}

static void set(int sig, void (*h)(int))
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(sig, &sa, NULL) != 0) {
        perror("sigaction");
        exit(2);
    }
}

static int own_timer(void)
{
    struct itimerval iv = { { 0, 1000 }, { 0, 1000 } };

    set(SIGPROF, on_prof);
    setitimer(ITIMER_PROF, &iv, NULL);
    spin(400000000);
    memset(&iv, 0, sizeof iv);
    setitimer(ITIMER_PROF, &iv, NULL);
    printf("ticks %d\n", (int)ticks);
    return 0;
}

static int handler_only(void)
{
    set(SIGPROF, on_prof);
    spin(200000000);
    printf("ticks %d\n", (int)ticks);
    return 0;
}

static int default_action(void)
{
    signal(SIGPROF, SIG_IGN);
    spin(50000000);
    signal(SIGPROF, SIG_DFL);
    spin(200000000);
    printf("survived\n");
    return 0;
}

static int every(void)
{
    sigset_t all, cur;
    int stray = 0;

    for (int s = 1; s <= SIGRTMAX && s < 65; s++)
        if (s != SIGKILL && s != SIGSTOP && (s < 32 || s >= SIGRTMIN)) {
            if (s % 2)
                signal(s, on_any);
            else
                set(s, on_any);
        }
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, NULL);
    spin(200000000);
    for (int s = SIGRTMIN; s <= SIGRTMAX; s++) {
        union sigval v = { .sival_int = s };
        siginfo_t si;
        struct timespec zero = { 0, 0 };
        sigset_t one;

        sigemptyset(&one);
        sigaddset(&one, s);
        sigqueue(getpid(), s, v);
        if (sigtimedwait(&one, &si, &zero) != s || si.si_value.sival_int != s)
            printf("signal %d: not received\n", s);
    }
    /* Nothing else is pending: sigwaitinfo on everything must time out. */
    {
        siginfo_t si;
        struct timespec zero = { 0, 0 };

        while (sigtimedwait(&all, &si, &zero) > 0)
            stray++;
    }
    sigprocmask(SIG_SETMASK, NULL, &cur);
    for (int s = 1; s <= SIGRTMAX; s++) {
        struct sigaction sa;

        if (s == SIGKILL || s == SIGSTOP || (s >= 32 && s < SIGRTMIN))
            continue;
        if (sigismember(&cur, s) != 1)
            printf("signal %d: not blocked\n", s);
        if (sigaction(s, NULL, &sa) != 0 || sa.sa_handler != on_any)
            printf("signal %d: handler changed\n", s);
    }
    sigprocmask(SIG_UNBLOCK, &all, NULL);
    for (int s = 1; s < 65; s++)
        if (counts[s])
            printf("signal %d: handler ran %d times\n", s, (int)counts[s]);
    printf("stray %d\n", stray);
    return 0;
}

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "";

    if (strcmp(m, "own-timer") == 0)
        return own_timer();
    if (strcmp(m, "handler") == 0)
        return handler_only();
    if (strcmp(m, "default") == 0)
        return default_action();
    if (strcmp(m, "every") == 0)
        return every();
    fprintf(stderr, "usage: rec_sigprof own-timer|handler|default|every\n");
    return 2;
}
