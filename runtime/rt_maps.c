/* rt_maps.c -- the process records of an experiment: PROC (who we are),
 * MAPS (the executable mappings from /proc/self/maps, at start, after
 * fork and after every dlopen) and END (why recording stopped).
 * Runs inside the target.  PROC and MAPS run in normal context (they may
 * allocate); rt_write_end is also called from a fatal signal handler and
 * uses only the stack and write(). */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/rt_priv.h"

/* Read a whole /proc file into a malloc'ed buffer; *len set.  NULL on
 * failure. */
static char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    size_t cap = 16384, n = 0;
    char *buf;

    if (fd < 0)
        return NULL;
    buf = malloc(cap);
    while (buf) {
        ssize_t r;

        if (n == cap) {
            char *nb = realloc(buf, cap * 2);

            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        r = read(fd, buf + n, cap - n);
        if (r < 0) {
            free(buf);
            buf = NULL;
        } else if (r == 0) {
            break;
        } else {
            n += (size_t)r;
        }
    }
    close(fd);
    *len = n;
    return buf;
}

static size_t put_str(unsigned char *p, const char *s, size_t len)
{
    ph_put32(p, (uint32_t)len);
    memcpy(p + 4, s, len);
    return 4 + len;
}

void rt_write_proc(uint32_t ppid)
{
    char exe[4096];
    ssize_t elen = readlink("/proc/self/exe", exe, sizeof exe - 1);
    size_t clen = 0;
    char *cmd = slurp("/proc/self/cmdline", &clen);
    const char *cname = rt.coll ? rt.coll->name : "";
    unsigned char *buf;
    size_t n;

    if (elen < 0)
        elen = 0;
    if (clen > 4096)
        clen = 4096;
    buf = malloc(PH_PROC_FIXED + 12 + strlen(cname) + (size_t)elen + clen);
    if (!buf) {
        free(cmd);
        return;
    }
    ph_put64(buf, rt.instance);
    ph_put32(buf + 8, rt.pid);
    ph_put32(buf + 12, ppid);
    ph_put64(buf + 16, rt_now());
    ph_put64(buf + 24, rt.interval);
    ph_put32(buf + 32, rt.coll ? rt.coll->encoding : 0);
    ph_put32(buf + 36, 0);
    n = PH_PROC_FIXED;
    n += put_str(buf + n, cname, strlen(cname));
    n += put_str(buf + n, exe, (size_t)elen);
    n += put_str(buf + n, cmd ? cmd : "", cmd ? clen : 0);
    rt_chunk_write(PH_CHUNK_PROC, buf, n);
    free(buf);
    free(cmd);
}

/* Parse one hex number at *s; advance past it. */
static uint64_t scan_hex(const char **s, const char *end)
{
    uint64_t v = 0;

    for (; *s < end; (*s)++) {
        char c = **s;
        unsigned d;

        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else
            break;
        v = v << 4 | d;
    }
    return v;
}

static const char *skip_field(const char *s, const char *end)
{
    while (s < end && *s != ' ')
        s++;
    while (s < end && *s == ' ')
        s++;
    return s;
}

void rt_write_maps(void)
{
    size_t len = 0, n = PH_MAPS_FIXED;
    char *text = slurp("/proc/self/maps", &len);
    unsigned char *buf;
    uint32_t count = 0;
    const char *s, *end;

    if (!text)
        return;
    buf = malloc(PH_MAPS_FIXED + len * 2 + 64);
    if (!buf) {
        free(text);
        return;
    }
    end = text + len;
    /* start-end perms offset dev inode path */
    for (s = text; s < end;) {
        const char *eol = memchr(s, '\n', (size_t)(end - s));
        const char *p = s, *perms, *path;
        uint64_t start, stop, off;

        if (!eol)
            eol = end;
        start = scan_hex(&p, eol);
        if (p < eol && *p == '-')
            p++;
        stop = scan_hex(&p, eol);
        while (p < eol && *p == ' ')
            p++;
        perms = p;
        p = skip_field(p, eol);
        off = scan_hex(&p, eol);
        p = skip_field(p, eol);   /* offset's trailing spaces */
        p = skip_field(p, eol);   /* dev */
        p = skip_field(p, eol);   /* inode */
        path = p;
        if (eol - perms > 3 && perms[2] == 'x' && path < eol &&
            n + PH_MAPS_ENTRY_FIXED + (size_t)(eol - path) <=
                PH_MAPS_FIXED + len * 2) {
            ph_put64(buf + n, start);
            ph_put64(buf + n + 8, stop);
            ph_put64(buf + n + 16, off);
            ph_put32(buf + n + 24, (uint32_t)(eol - path));
            memcpy(buf + n + 28, path, (size_t)(eol - path));
            n += PH_MAPS_ENTRY_FIXED + (size_t)(eol - path);
            count++;
        }
        s = eol + 1;
    }
    ph_put64(buf, rt.instance);
    ph_put64(buf + 8, rt_now());
    ph_put32(buf + 16, rt.pid);
    ph_put32(buf + 20, count);
    rt_chunk_write(PH_CHUNK_MAPS, buf, n);
    free(buf);
    free(text);
}

/* Signal-safe: stack buffer and writev only. */
void rt_write_end(uint32_t reason, int32_t status)
{
    unsigned char buf[PH_END_FIXED];

    memset(buf, 0, sizeof buf);
    ph_put64(buf, rt.instance);
    ph_put32(buf + 8, rt.pid);
    ph_put32(buf + 12, reason);
    ph_put32(buf + 16, (uint32_t)status);
    ph_put32(buf + 20, atomic_load(&rt.timer_failures));
    ph_put64(buf + 24, rt_now());
    ph_put64(buf + 32, rt.samples);
    rt_chunk_write(PH_CHUNK_END, buf, sizeof buf);
}
