/* record.c -- "profhub record": run a program with the runtime preloaded
 * and a collector sampling it, then write the experiment (native, .phx)
 * or convert it to the format OUT's extension names.
 * The program's stdin/stdout/stderr are its own and profhub prints nothing
 * on success (-v says what was written).  Exit status: the program's; if
 * it died of a signal, profhub dies of the same signal (core dumps off),
 * so a shell sees what it would have seen without profhub.  Built without
 * collectors (configure --disable-collectors) the command only says so. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgview/cli.h"
#include "cgview/record_check.h"
#include "runtime/expfmt.h"

#ifdef PH_HAVE_COLLECTORS
#include "collectors/loader.h"
#endif

static void print_usage(FILE *f)
{
    fprintf(f,
            "Usage: profhub record [-c COLLECTOR] [-p NAME=VALUE]... "
            "[-o OUT] [-t FORMAT] [-v]\n"
            "                      -- PROGRAM [ARGS...]\n"
            "Run PROGRAM with a collector sampling it (default pcsamp) and\n"
            "write the profile to OUT (default PROGRAM-COLLECTOR.phx, the\n"
            "native experiment).  Another extension (or -t) converts, e.g.\n"
            "-o run.callgrind or -o cpu.pb.gz.  'profhub collectors' lists\n"
            "the collectors and their parameters.  The exit status is the\n"
            "program's; a program killed by a signal kills profhub with it.\n");
}

#ifndef PH_HAVE_COLLECTORS

int ph_cmd_record(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
                     strcmp(argv[1], "--help") == 0)) {
        print_usage(stdout);
        return PH_EXIT_OK;
    }
    ph_cli_error("record: this profhub was built without collectors "
                 "(configure --disable-collectors)");
    return PH_EXIT_USAGE;
}

#else

#define MAX_PARAMS 16

typedef struct opts {
    const char *coll;
    const char *out;
    const char *to;
    const char *params[MAX_PARAMS];
    size_t nparams;
    int verbose;
    char **prog;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    static const struct option longopts[] = {
        { "collector", required_argument, NULL, 'c' },
        { "param", required_argument, NULL, 'p' },
        { "output", required_argument, NULL, 'o' },
        { "to", required_argument, NULL, 't' },
        { "verbose", no_argument, NULL, 'v' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    int c;

    o->coll = "pcsamp";
    ph_cli_opt_begin();
    while ((c = getopt_long(argc, argv, "+:c:p:o:t:vh", longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'c': o->coll = optarg; break;
        case 'o': o->out = optarg; break;
        case 't': o->to = optarg; break;
        case 'v': o->verbose = 1; break;
        case 'p':
            if (!strchr(optarg, '=') || optarg[0] == '=')
                return ph_cli_usage_error("record", "-p wants NAME=VALUE, "
                                          "got \"%s\"", optarg);
            if (o->nparams == MAX_PARAMS)
                return ph_cli_usage_error("record", "too many -p options");
            o->params[o->nparams++] = optarg;
            break;
        case 'h':
            print_usage(stdout);
            return -1;
        default:
            return ph_cli_bad_option("record", argv, c);
        }
    }
    if (optind >= argc)
        return ph_cli_usage_error("record", "no program to run (profhub "
                                  "record [OPTIONS] -- PROGRAM ARGS...)");
    o->prog = argv + optind;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Parameters                                                          */

typedef struct param_ctx {
    const opts *o;
    const ph_collector *c;
} param_ctx;

static const char *lookup_param(void *ctx, const char *name)
{
    const param_ctx *pc = ctx;
    size_t n = strlen(name);

    for (size_t i = pc->o->nparams; i-- > 0;)
        if (strncmp(pc->o->params[i], name, n) == 0 &&
            pc->o->params[i][n] == '=')
            return pc->o->params[i] + n + 1;
    for (size_t i = 0; i < pc->c->nparams; i++)
        if (strcmp(pc->c->params[i].name, name) == 0)
            return pc->c->params[i].def;
    return NULL;
}

/* Every -p names a declared parameter, and none holds ';'. */
static int check_param_names(const opts *o, const ph_collector *c)
{
    for (size_t i = 0; i < o->nparams; i++) {
        size_t n = (size_t)(strchr(o->params[i], '=') - o->params[i]);
        size_t k;

        for (k = 0; k < c->nparams; k++)
            if (strlen(c->params[k].name) == n &&
                strncmp(c->params[k].name, o->params[i], n) == 0)
                break;
        if (k == c->nparams)
            return ph_cli_usage_error("record", "%s has no parameter "
                                      "\"%.*s\" (see profhub collectors)",
                                      c->name, (int)n, o->params[i]);
        if (strchr(o->params[i], ';'))
            return ph_cli_usage_error("record", "-p %s: ';' is not allowed "
                                      "in a value", o->params[i]);
    }
    return 0;
}

/* "name=value;name=value" with every parameter resolved. */
static char *param_string(param_ctx *pc)
{
    size_t cap = 64, len = 0;
    char *s = ph_xmalloc(cap);

    s[0] = '\0';
    for (size_t i = 0; i < pc->c->nparams; i++) {
        const char *v = lookup_param(pc, pc->c->params[i].name);
        size_t need = strlen(pc->c->params[i].name) + strlen(v) + 3;

        while (len + need >= cap) {
            cap *= 2;
            s = ph_xrealloc(s, cap);
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%s=%s", len ? ";" : "",
                                pc->c->params[i].name, v);
    }
    return s;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

static int is_native(const char *path, const char *to)
{
    size_t n = strlen(path);

    if (to)
        return strcmp(to, "native") == 0;
    return n > 4 && strcmp(path + n - 4, "." PH_EXP_EXT) == 0;
}

static char *default_out(const opts *o)
{
    const char *base = strrchr(o->prog[0], '/');
    size_t cap;
    char *s;

    base = base ? base + 1 : o->prog[0];
    cap = strlen(base) + strlen(o->coll) + 32;
    s = ph_xmalloc(cap);
    snprintf(s, cap, "%s-%s.%s", base, o->coll, PH_EXP_EXT);
    for (int i = 1; access(s, F_OK) == 0 && i < 1000; i++)
        snprintf(s, cap, "%s-%s-%d.%s", base, o->coll, i, PH_EXP_EXT);
    return s;
}

/* Create the experiment next to out and write its header; the path of
 * the new file in tmp.  fd or -1 (message printed). */
static int create_experiment(const opts *o, const char *out,
                             const char *params, uint32_t id, char *tmp,
                             size_t tmpsize)
{
    char text[8192], host[256] = "";
    unsigned char fixed[PH_EXP_HEADER_FIXED];
    size_t tl = 0, cmd0;
    int fd;

    snprintf(tmp, tmpsize, "%s.rec-XXXXXX", out);
    fd = mkstemp(tmp);
    if (fd < 0) {
        ph_cli_file_error(tmp, "cannot create the experiment: %s",
                     strerror(errno));
        return -1;
    }
    fchmod(fd, 0644);
    gethostname(host, sizeof host - 1);
    tl += (size_t)snprintf(text + tl, sizeof text - tl,
                           "creator=profhub %s\ncollector=%s\nparams=%s\n"
                           "host=%s\ntime=%lld\ncmd=", PACKAGE_VERSION,
                           o->coll, params, host, (long long)time(NULL));
    cmd0 = tl;
    for (char **a = o->prog; *a && tl < sizeof text - 2; a++)
        tl += (size_t)snprintf(text + tl, sizeof text - tl, "%s%s",
                               a == o->prog ? "" : " ", *a);
    if (tl > sizeof text - 2)
        tl = sizeof text - 2;
    for (size_t i = cmd0; i < tl; i++)   /* one line per key */
        if (text[i] == '\n')
            text[i] = ' ';
    text[tl++] = '\n';
    memcpy(fixed, PH_EXP_MAGIC, PH_EXP_MAGIC_LEN);
    fixed[8] = PH_EXP_VERSION;
    fixed[9] = 0;
    fixed[10] = PH_EXP_MINOR;
    fixed[11] = 0;
    ph_put32(fixed + 12, (uint32_t)(PH_EXP_HEADER_FIXED + tl));
    ph_put32(fixed + 16, id);
    ph_put32(fixed + 20, 0);
    if (write(fd, fixed, sizeof fixed) != (ssize_t)sizeof fixed ||
        write(fd, text, tl) != (ssize_t)tl) {
        ph_cli_file_error(tmp, "%s", strerror(errno));
        close(fd);
        unlink(tmp);
        return -1;
    }
    return fd;
}

/* Read the experiment and write it with writer. 0 or -1 (printed). */
static int convert(const char *exp, const char *out, const ph_format *w)
{
    char err[1024];
    ph_profile *p = ph_cli_load(exp, "native", NULL);
    ph_output *o;

    if (!p)
        return -1;
    o = ph_output_open(out, err, sizeof err);
    if (!o) {
        ph_cli_file_error(out, "%s", err);
        ph_profile_free(p);
        return -1;
    }
    int rc = ph_cli_finish_output(out, w->name, o, w->write(p, o));
    ph_profile_free(p);
    return rc == PH_EXIT_OK ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Running                                                             */

static void set_child_env(const char *rtlib, const char *exp, uint32_t id,
                          const ph_collector *c, const char *file,
                          const char *params)
{
    const char *old = getenv("LD_PRELOAD");
    char idbuf[16];
    size_t n = strlen(rtlib) + (old ? strlen(old) : 0) + 2;
    char *pre = malloc(n);

    if (pre) {
        /* ours first, the user's entries kept after it */
        snprintf(pre, n, "%s%s%s", rtlib, old && *old ? ":" : "",
                 old ? old : "");
        setenv("LD_PRELOAD", pre, 1);
    }
    snprintf(idbuf, sizeof idbuf, "%u", id);
    setenv("PROFHUB_EXPERIMENT", exp, 1);
    setenv("PROFHUB_EXPERIMENT_ID", idbuf, 1);
    setenv("PROFHUB_COLLECTOR", c->name, 1);
    setenv("PROFHUB_COLLECTOR_FILE", file, 1);
    setenv("PROFHUB_PARAMS", params, 1);
}

/* Fork, exec, wait; the wait status or -1. */
static int run(const opts *o, const char *rtlib, const char *exp,
               uint32_t id, const ph_collector *c, const char *file,
               const char *params)
{
    struct sigaction ign, old_int, old_quit;
    int status = 0;
    pid_t pid;

    /* Like system(): a ^C goes to the program, and we stay to write. */
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        ph_cli_error("record: fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        set_child_env(rtlib, exp, id, c, file, params);
        execvp(o->prog[0], o->prog);
        fprintf(stderr, "%s: record: %s: %s\n", ph_cli_prog, o->prog[0],
                strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            ph_cli_error("record: waitpid: %s", strerror(errno));
            status = -1;
            break;
        }
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return status;
}

/* One sampling interval in words, for messages. */
static void describe_interval(param_ctx *pc, char *buf, size_t size)
{
    const char *rate = lookup_param(pc, "rate");
    const char *th = lookup_param(pc, "threshold");
    const char *ev = lookup_param(pc, "event");

    if ((pc->c->flags & PH_COLL_TIMER) && rate && atof(rate) > 0)
        snprintf(buf, size, "%.3g ms of CPU time at %s Hz",
                 1000.0 / atof(rate), rate);
    else if (th)
        snprintf(buf, size, "%s %s events", th, ev ? ev : "counted");
    else
        snprintf(buf, size, "the collector's interval");
}

/* Before anything is created: the program must exist and load the
 * runtime (a static binary never would).  0, or an exit status. */
static int check_program(const opts *o)
{
    char path[4096];

    if (ph_record_resolve(o->prog[0], path, sizeof path) != 0) {
        ph_cli_error("record: %s: %s (nothing was run)", o->prog[0],
                     strerror(errno));
        return PH_EXIT_BAD;
    }
    if (ph_record_is_static(path)) {
        ph_cli_error("record: %s is statically linked: the profhub runtime "
                     "cannot be preloaded into it (nothing was run; link it "
                     "dynamically to record it)", path);
        return PH_EXIT_BAD;
    }
    return 0;
}

/* Exit as the program did: its status, or die of its signal. */
static int finish(int status, int record_failed)
{
    if (status < 0)
        return PH_EXIT_BAD;
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        struct rlimit rl = { 0, 0 };

        fflush(NULL);
        setrlimit(RLIMIT_CORE, &rl);   /* no core of profhub itself */
        signal(sig, SIG_DFL);
        raise(sig);
        return 128 + sig;              /* a signal that does not kill */
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        return WEXITSTATUS(status);
    return record_failed ? PH_EXIT_BAD : PH_EXIT_OK;
}

int ph_cmd_record(int argc, char **argv)
{
    opts o;
    char file[4096], rtlib[4096], err[2048], tmp[4200], interval[128];
    const ph_collector *c;
    const ph_format *writer = NULL;
    param_ctx pc;
    char *params, *out_alloc = NULL;
    const char *out;
    uint32_t id;
    int rc, fd, status, failed = 0;

    memset(&o, 0, sizeof o);
    rc = parse(argc, argv, &o);
    if (rc < 0)
        return PH_EXIT_OK;
    if (rc > 0)
        return rc;
    c = ph_collector_find(o.coll, file, sizeof file, err, sizeof err);
    if (!c) {
        ph_cli_error("record: %s", err);
        return PH_EXIT_USAGE;
    }
    if (check_param_names(&o, c) != 0)
        return PH_EXIT_USAGE;
    pc.o = &o;
    pc.c = c;
    if (c->check && c->check(lookup_param, &pc, err, sizeof err) != 0) {
        ph_cli_error("%s: %s", c->name, err);
        return PH_EXIT_USAGE;
    }
    if (ph_runtime_path(rtlib, sizeof rtlib, err, sizeof err) != 0) {
        ph_cli_error("record: %s", err);
        return PH_EXIT_USAGE;
    }
    rc = check_program(&o);
    if (rc != 0)
        return rc;
    out = o.out ? o.out : (out_alloc = default_out(&o));
    if (!is_native(out, o.to)) {
        if (o.to && ph_cli_check_format("record", o.to, 0) < 0)
            return PH_EXIT_USAGE;
        writer = o.to ? ph_exporter_find(o.to) : ph_exporter_for_path(out);
        if (!writer) {
            free(out_alloc);
            return ph_cli_usage_error("record", "cannot tell the output "
                                      "format from \"%s\"; give -t FORMAT "
                                      "or use ." PH_EXP_EXT, out);
        }
    }
    params = param_string(&pc);
    id = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);
    fd = create_experiment(&o, out, params, id, tmp, sizeof tmp);
    if (fd < 0) {
        free(params);
        free(out_alloc);
        return PH_EXIT_BAD;
    }
    close(fd);
    status = run(&o, rtlib, tmp, id, c, file, params);
    describe_interval(&pc, interval, sizeof interval);
    if (ph_record_review(tmp, o.prog[0], interval) != 0) {
        unlink(tmp);
        failed = 1;
    } else if (writer) {
        failed = convert(tmp, out, writer) != 0;
        unlink(tmp);
    } else if (rename(tmp, out) != 0) {
        ph_cli_file_error(out, "%s (the experiment is in %s)",
                     strerror(errno), tmp);
        failed = 1;
    }
    if (o.verbose && !failed)
        fprintf(stderr, "%s: record: wrote %s\n", ph_cli_prog, out);
    free(params);
    free(out_alloc);
    return finish(status, failed);
}

#endif /* PH_HAVE_COLLECTORS */
