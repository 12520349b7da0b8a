/* objdump.c -- run binutils' objdump on a range of an object file and read
 * its instruction lines ("  1149:\tf3 0f 1e fa \tendbr64": with -w the
 * bytes of one instruction stay on its line).  The program runs through
 * fork and execvp, its arguments never through a shell. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgview/objdump.h"
#include "ir/ir.h"

/* One line "<hex>:\t<bytes>\t<text>" into *out; 0 when it is not one. */
static int parse_line(char *s, ph_disasm_line *out)
{
    char *end, *tab;
    uint64_t a;

    while (*s == ' ')
        s++;
    errno = 0;
    a = strtoull(s, &end, 16);
    if (end == s || errno || end[0] != ':' || end[1] != '\t')
        return 0;
    tab = strchr(end + 2, '\t');
    if (!tab)                  /* bytes only (.byte padding) */
        return 0;
    s = tab + 1;
    s[strcspn(s, "\n")] = '\0';
    for (size_t n = strlen(s); n && s[n - 1] == ' '; n--)
        s[n - 1] = '\0';
    out->addr = a;
    out->text = ph_xmalloc(strlen(s) + 1);
    strcpy(out->text, s);
    return 1;
}

static void read_lines(FILE *in, ph_disasm *d)
{
    char *buf = NULL;
    size_t cap = 0, vcap = 0;

    while (getline(&buf, &cap, in) > 0) {
        ph_disasm_line l;
        if (!parse_line(buf, &l))
            continue;
        if (d->n == vcap) {
            vcap = vcap ? vcap * 2 : 64;
            d->v = ph_xrealloc(d->v, vcap * sizeof *d->v);
        }
        d->v[d->n++] = l;
    }
    free(buf);
}

int ph_disasm_run(const char *object, uint64_t start, uint64_t stop,
                  ph_disasm *d)
{
    char a[64], b[64];
    int fd[2], status;
    pid_t pid;
    FILE *in;

    memset(d, 0, sizeof *d);
    if (access(object, R_OK) != 0) {
        snprintf(d->why, sizeof d->why, "%s: %s", object, strerror(errno));
        return -1;
    }
    snprintf(a, sizeof a, "--start-address=0x%llx",
             (unsigned long long)start);
    snprintf(b, sizeof b, "--stop-address=0x%llx", (unsigned long long)stop);
    if (pipe(fd) != 0) {
        snprintf(d->why, sizeof d->why, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        snprintf(d->why, sizeof d->why, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        char *argv[] = { "objdump", "-d", "-C", "-w", a, b, (char *)object,
                         NULL };
        int devnull = open("/dev/null", O_WRONLY);
        dup2(fd[1], 1);
        if (devnull >= 0)
            dup2(devnull, 2);
        close(fd[0]);
        close(fd[1]);
        execvp("objdump", argv);
        _exit(127);
    }
    close(fd[1]);
    in = fdopen(fd[0], "r");
    if (!in) {
        close(fd[0]);
        waitpid(pid, &status, 0);
        snprintf(d->why, sizeof d->why, "fdopen: %s", strerror(errno));
        return -1;
    }
    read_lines(in, d);
    fclose(in);
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (code == 127)
            snprintf(d->why, sizeof d->why, "objdump is not installed");
        else
            snprintf(d->why, sizeof d->why, "objdump -d %s failed "
                     "(status %d)", object, code);
        ph_disasm_free(d);
        return -1;
    }
    return 0;
}

const char *ph_disasm_at(const ph_disasm *d, uint64_t addr)
{
    size_t lo = 0, hi = d->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->v[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->n && d->v[lo].addr == addr ? d->v[lo].text : NULL;
}

void ph_disasm_free(ph_disasm *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->v[i].text);
    free(d->v);
    d->v = NULL;
    d->n = 0;
}
