/* rt_interpose.c -- the libc calls the runtime wraps: pthread_create (new
 * threads are sampled), the exec family (flush before the image goes, and
 * keep LD_PRELOAD and PROFHUB_* in a replaced environment), _exit/_Exit
 * (flush first) and dlopen (record the new mappings; no unwinding while
 * the loader holds its lock).
 * Runs inside the target, in normal context.  The real functions are
 * resolved once at init with dlsym(RTLD_NEXT), never in a handler. */
#include "config.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/rt_priv.h"

int (*rt_real_pthread_create)(pthread_t *, const pthread_attr_t *,
                              void *(*)(void *), void *);
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static void (*real__exit)(int) __attribute__((noreturn));
static void (*real__Exit)(int) __attribute__((noreturn));
static void *(*real_dlopen)(const char *, int);
static pthread_key_t thread_key;

extern char **environ;

static void on_thread_exit(void *arg)
{
    (void)arg;
    rt_thread_end();
}

#define RESOLVE(var, name) (*(void **)&(var) = dlsym(RTLD_NEXT, name))

void rt_interpose_init(void)
{
    RESOLVE(rt_real_pthread_create, "pthread_create");
    RESOLVE(real_execve, "execve");
    RESOLVE(real_execvpe, "execvpe");
    RESOLVE(real__exit, "_exit");
    RESOLVE(real__Exit, "_Exit");
    RESOLVE(real_dlopen, "dlopen");
    rt_signal_resolve();
    pthread_key_create(&thread_key, on_thread_exit);
}

/* ------------------------------------------------------------------ */
/* Threads                                                            */

struct start_arg {
    void *(*fn)(void *);
    void *arg;
    int blocked;          /* the creator's view of our signal's mask bit */
};

static void *thread_trampoline(void *p)
{
    struct start_arg a = *(struct start_arg *)p;

    free(p);
    rt_signal_set_shadow_blocked(a.blocked);
    rt_thread_begin();
    pthread_setspecific(thread_key, (void *)1);
    return a.fn(a.arg);
}

__attribute__((visibility("default")))
int pthread_create(pthread_t *th, const pthread_attr_t *attr,
                   void *(*fn)(void *), void *arg)
{
    struct start_arg *a;
    int rc;

    if (!rt_real_pthread_create)
        RESOLVE(rt_real_pthread_create, "pthread_create");
    if (!rt.active)
        return rt_real_pthread_create(th, attr, fn, arg);
    a = malloc(sizeof *a);
    if (!a)
        return rt_real_pthread_create(th, attr, fn, arg);
    a->fn = fn;
    a->arg = arg;
    a->blocked = rt_signal_shadow_blocked();
    rc = rt_real_pthread_create(th, attr, thread_trampoline, a);
    if (rc != 0)
        free(a);
    return rc;
}

/* ------------------------------------------------------------------ */
/* exec                                                               */

static const char *const keep_vars[] = {
    "LD_PRELOAD", "PROFHUB_EXPERIMENT", "PROFHUB_EXPERIMENT_ID",
    "PROFHUB_COLLECTOR", "PROFHUB_COLLECTOR_FILE", "PROFHUB_PARAMS",
};
#define NKEEP (sizeof keep_vars / sizeof keep_vars[0])

static int env_has(char *const envp[], const char *name)
{
    size_t n = strlen(name);

    for (size_t i = 0; envp && envp[i]; i++)
        if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
            return 1;
    return 0;
}

/* envp plus our variables that it lacks (malloc'ed; NULL: use envp). */
static char **complete_env(char *const envp[])
{
    size_t n = 0, k = 0;
    char **out;

    if (envp == environ)
        return NULL;
    while (envp && envp[n])
        n++;
    out = malloc((n + NKEEP + 1) * sizeof *out);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++)
        out[k++] = envp[i];
    for (size_t i = 0; i < NKEEP; i++) {
        const char *v = getenv(keep_vars[i]);
        size_t len;

        if (!v || env_has(envp, keep_vars[i]))
            continue;
        len = strlen(keep_vars[i]) + strlen(v) + 2;
        out[k] = malloc(len);
        if (!out[k])
            break;
        memcpy(out[k], keep_vars[i], strlen(keep_vars[i]));
        out[k][strlen(keep_vars[i])] = '=';
        memcpy(out[k] + strlen(keep_vars[i]) + 1, v, strlen(v) + 1);
        k++;
    }
    out[k] = NULL;
    return out;
}

static int do_exec(const char *path, char *const argv[], char *const envp[],
                   int search)
{
    char **env = rt.active ? complete_env(envp) : NULL;
    char *const *use = env ? env : envp;
    /* A vfork child shares the parent's memory (and its writer thread):
     * it must not stop the parent's recording.  Its pid differs from
     * rt.pid, which atfork keeps right for fork children. */
    int mine = rt.active && (uint32_t)getpid() == rt.pid;
    int rc;

    if (mine) {
        rt_stop_all(PH_END_EXEC, 0, 0);
        rt_thread_disarm();
    }
    rc = search ? real_execvpe(path, argv, use) : real_execve(path, argv, use);
    /* still here: exec failed, keep recording */
    if (mine) {
        rt_resume();
        rt_thread_rearm();
    }
    free(env);   /* the strings added are leaked: exec failed, rare */
    return rc;
}

__attribute__((visibility("default")))
int execve(const char *path, char *const argv[], char *const envp[])
{
    if (!real_execve)
        RESOLVE(real_execve, "execve");
    return do_exec(path, argv, envp, 0);
}

__attribute__((visibility("default")))
int execv(const char *path, char *const argv[])
{
    return execve(path, argv, environ);
}

__attribute__((visibility("default")))
int execvpe(const char *file, char *const argv[], char *const envp[])
{
    if (!real_execvpe)
        RESOLVE(real_execvpe, "execvpe");
    return do_exec(file, argv, envp, 1);
}

__attribute__((visibility("default")))
int execvp(const char *file, char *const argv[])
{
    return execvpe(file, argv, environ);
}

/* The execl family: gather the arguments, then the vector forms. */
static char **gather_args(const char *arg0, va_list ap, char ***envp)
{
    size_t cap = 16, n = 0;
    char **v = malloc(cap * sizeof *v);
    const char *a = arg0;

    while (v) {
        if (n + 1 >= cap) {
            char **nv = realloc(v, cap * 2 * sizeof *v);

            if (!nv) {
                free(v);
                return NULL;
            }
            v = nv;
            cap *= 2;
        }
        v[n++] = (char *)a;
        if (!a)
            break;
        a = va_arg(ap, const char *);
    }
    if (v && envp)
        *envp = va_arg(ap, char **);
    return v;
}

__attribute__((visibility("default")))
int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    char **v;
    int rc;

    va_start(ap, arg);
    v = gather_args(arg, ap, NULL);
    va_end(ap);
    if (!v)
        return -1;
    rc = execve(path, v, environ);
    free(v);
    return rc;
}

__attribute__((visibility("default")))
int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    char **v;
    int rc;

    va_start(ap, arg);
    v = gather_args(arg, ap, NULL);
    va_end(ap);
    if (!v)
        return -1;
    rc = execvpe(file, v, environ);
    free(v);
    return rc;
}

__attribute__((visibility("default")))
int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    char **v, **envp = NULL;
    int rc;

    va_start(ap, arg);
    v = gather_args(arg, ap, &envp);
    va_end(ap);
    if (!v)
        return -1;
    rc = execve(path, v, envp);
    free(v);
    return rc;
}

/* ------------------------------------------------------------------ */
/* _exit, dlopen                                                      */

__attribute__((visibility("default"), noreturn))
void _exit(int status)
{
    if (!real__exit)
        RESOLVE(real__exit, "_exit");
    if ((uint32_t)getpid() == rt.pid)   /* not a vfork child's */
        rt_stop_all(PH_END_UNDERSCORE_EXIT, status, 1);
    real__exit(status);
}

__attribute__((visibility("default"), noreturn))
void _Exit(int status)
{
    if (!real__Exit)
        RESOLVE(real__Exit, "_Exit");
    if ((uint32_t)getpid() == rt.pid)   /* not a vfork child's */
        rt_stop_all(PH_END_UNDERSCORE_EXIT, status, 1);
    real__Exit(status);
}

__attribute__((visibility("default")))
void *dlopen(const char *file, int mode)
{
    rt_thread *t = rt_thread_self();
    void *h;

    if (!real_dlopen)
        RESOLVE(real_dlopen, "dlopen");
    if (t)
        t->busy = 1;   /* the unwinder must not run under the loader lock */
    h = real_dlopen(file, mode);
    if (t)
        t->busy = 0;
    if (h && rt.active && !atomic_load(&rt.stopping))
        rt_write_maps();
    return h;
}
