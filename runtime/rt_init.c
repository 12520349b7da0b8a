/* rt_init.c -- start and stop of the preloaded runtime: reads the
 * experiment settings from the environment, loads the collector plugin,
 * opens the experiment file, arms the main thread, and flushes at exit,
 * exec, fork and fatal signals.
 * Runs inside the target.  The constructor, destructor and fork handlers
 * run in normal context; on_fatal is a signal path: no malloc, no stdio,
 * no locks (it flushes with preallocated buffers, then re-raises the
 * signal with the program's original disposition). */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/validate.h"
#include "runtime/rt_priv.h"

rt_state rt = { .fd = -1 };

/* ------------------------------------------------------------------ */
/* Parameters: PROFHUB_PARAMS="name=value;name=value"                  */

#define MAX_PARAMS 16

static struct {
    char name[32];
    char value[128];
} params[MAX_PARAMS];
static size_t nparams;

static void parse_params(const char *s)
{
    while (s && *s && nparams < MAX_PARAMS) {
        const char *eq = strchr(s, '='), *semi = strchr(s, ';');
        size_t nl, vl;

        if (!semi)
            semi = s + strlen(s);
        if (!eq || eq > semi)
            break;
        nl = (size_t)(eq - s);
        vl = (size_t)(semi - eq - 1);
        if (nl < sizeof params[0].name && vl < sizeof params[0].value) {
            memcpy(params[nparams].name, s, nl);
            params[nparams].name[nl] = '\0';
            memcpy(params[nparams].value, eq + 1, vl);
            params[nparams].value[vl] = '\0';
            nparams++;
        }
        s = *semi ? semi + 1 : semi;
    }
}

static const char *get_param(const char *name)
{
    for (size_t i = 0; i < nparams; i++)
        if (strcmp(params[i].name, name) == 0)
            return params[i].value;
    for (size_t i = 0; rt.coll && i < rt.coll->nparams; i++)
        if (strcmp(rt.coll->params[i].name, name) == 0)
            return rt.coll->params[i].def;
    return NULL;
}

static uint64_t parse_u64(const char *s)
{
    uint64_t v = 0;

    while (s && *s >= '0' && *s <= '9' && v < UINT64_MAX / 10)
        v = v * 10 + (uint64_t)(*s++ - '0');
    return v;
}

/* ------------------------------------------------------------------ */
/* Fatal signals                                                      */

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE,
                                     SIGILL, SIGTERM, SIGINT, SIGQUIT,
                                     SIGHUP };
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction old_fatal[NFATAL];
static int fatal_installed[NFATAL];

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;

    (void)uc;
    rt_stop_all(PH_END_SIGNAL, sig, 1);
    for (size_t i = 0; i < NFATAL; i++)
        if (fatal_signals[i] == sig && fatal_installed[i])
            sigaction(sig, &old_fatal[i], NULL);
    /* A fault re-executes the instruction and meets the original
     * disposition; a sent signal (kill, raise, abort) is sent again. */
    if (si->si_code <= 0 || sig == SIGABRT)
        raise(sig);
    errno = saved;
}

static void install_fatal(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction cur;

        if (sigaction(fatal_signals[i], NULL, &cur) != 0)
            continue;
        /* Leave alone what the program (or its parent) chose. */
        if ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
            continue;
        if (sigaction(fatal_signals[i], &sa, &old_fatal[i]) == 0)
            fatal_installed[i] = 1;
    }
}

/* ------------------------------------------------------------------ */
/* Start                                                              */

static int load_collector(void)
{
    const char *file = getenv("PROFHUB_COLLECTOR_FILE");
    ph_collector_entry_fn entry;
    const ph_collector *c;
    struct stat st;
    char why[256];
    void *h;

    /* profhub checked this file before the run; it may have changed. */
    if (!file || !*file || stat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return -1;
    *(void **)&entry = dlsym(h, PH_COLLECTOR_ENTRY);
    if (!entry)
        return -1;
    c = entry();
    if (ph_collector_validate(*(void **)&entry, c, why, sizeof why) != 0)
        return -1;
    rt.coll = c;
    return 0;
}

static void setup_api(void)
{
    rt.api.abi = PH_COLLECTOR_ABI;
    rt.api.param = get_param;
    rt.api.append = rt_append;
    rt.interval = 0;
    if (rt.coll->flags & PH_COLL_TIMER) {
        uint64_t hz = parse_u64(get_param("rate"));

        if (hz == 0 || hz > 100000)
            hz = 100;
        rt.interval = 1000000000u / hz;
    } else {
        rt.interval = parse_u64(get_param("threshold"));
    }
    rt.api.interval = rt.interval;
}

static void atfork_prepare(void);
static void atfork_parent(void);
static void atfork_child(void);

__attribute__((constructor)) static void rt_start(void)
{
    const char *path = getenv("PROFHUB_EXPERIMENT");
    int saved = errno;

    if (!path || !*path)
        return;
    rt_interpose_init();
    parse_params(getenv("PROFHUB_PARAMS"));
    rt.experiment = (uint32_t)parse_u64(getenv("PROFHUB_EXPERIMENT_ID"));
    if (load_collector() != 0 || rt_blob_init() != 0)
        goto out;
    rt.fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (rt.fd < 0)
        goto out;
    {
        /* Out of the program's way: a high descriptor, and remember the
         * file so that a program closing it (daemons close every fd) and
         * reusing the number never gets our chunks in its own file. */
        int high = fcntl(rt.fd, F_DUPFD_CLOEXEC, 700);
        struct stat st;

        if (high >= 0) {
            close(rt.fd);
            rt.fd = high;
        }
        if (fstat(rt.fd, &st) == 0) {
            rt.fd_dev = (uint64_t)st.st_dev;
            rt.fd_ino = (uint64_t)st.st_ino;
        }
    }
    rt.pid = (uint32_t)getpid();
    rt.instance = rt_now();
    setup_api();
    if (rt.coll->start && rt.coll->start(&rt.api) != 0) {
        close(rt.fd);
        rt.fd = -1;
        goto out;
    }
    rt.active = 1;
    rt_write_proc((uint32_t)getppid());
    rt_write_maps();
    rt_writer_start();
    if ((rt.coll->flags & PH_COLL_TIMER) && rt_signal_install() != 0)
        atomic_fetch_add(&rt.timer_failures, 1);
    install_fatal();
    pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
    rt_thread_begin();
out:
    errno = saved;
}

/* ------------------------------------------------------------------ */
/* Stop, resume, fork                                                 */

void rt_stop_all(uint32_t reason, int32_t status, int emergency)
{
    int expect = 0;

    if (!rt.active)
        return;
    if (!atomic_compare_exchange_strong(&rt.stopping, &expect, 1))
        return;
    rt_threads_quiesce();
    if (!emergency)
        rt_threads_release_blobs();
    rt_blob_flush_all(emergency);
    rt_write_end(reason, status);
}

/* exec failed: record on. */
void rt_resume(void)
{
    if (!rt.active)
        return;
    rt_writer_start();
    atomic_store(&rt.stopping, 0);
}

static sigset_t fork_mask;

static void atfork_prepare(void)
{
    rt_block_sampling(&fork_mask);
}

static void atfork_parent(void)
{
    rt_restore_mask(&fork_mask);
}

static void atfork_child(void)
{
    if (rt.active) {
        uint32_t ppid = rt.pid;

        rt.pid = (uint32_t)getpid();
        rt.instance = rt_now();
        rt.samples = 0;
        rt_blob_reset_all();
        rt_write_proc(ppid);
        rt_write_maps();
        rt_writer_start();
        rt_threads_forget_others();
    }
    rt_restore_mask(&fork_mask);
}

__attribute__((destructor)) static void rt_finish(void)
{
    if (!rt.active)
        return;
    rt_stop_all(PH_END_EXIT, 0, 0);
    if (rt.coll->stop)
        rt.coll->stop(&rt.api);
}
