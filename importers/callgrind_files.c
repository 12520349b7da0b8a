/* importers/callgrind_files.c -- the callgrind entry point: one file, or
 * the several files of one run loaded as parts.  Given a path P, sibling
 * files named P-NN (--separate-threads=yes), P.N (dumps) and P.N-NN are
 * read too, in this order: dumps by increasing N, then the final dump (no
 * ".N"); within one dump, the file without a thread suffix first, then
 * threads by increasing NN.  A 0-byte P with siblings is normal
 * (callgrind leaves it with --separate-threads=yes).  Only regular files
 * are siblings: a FIFO would block the open, a link to /dev/zero would
 * never end; they are skipped with a warning. */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "importers/callgrind_priv.h"
#include "importers/importers.h"

typedef struct sibling {
    char *path;
    uint64_t dump;     /* N of ".N"; UINT64_MAX for the final dump */
    uint64_t thread;   /* NN of "-NN"; 0 when absent */
} sibling;

/* Digits at s; returns the count and the value (0 if none or too long). */
static size_t read_digits(const char *s, uint64_t *v)
{
    size_t n = 0;

    *v = 0;
    while (s[n] >= '0' && s[n] <= '9' && n < 18) {
        *v = *v * 10 + (uint64_t)(s[n] - '0');
        n++;
    }
    return (s[n] >= '0' && s[n] <= '9') ? 0 : n;
}

/* Whether suffix is "", ".N", "-NN" or ".N-NN"; fills the sort keys. */
static int parse_suffix(const char *s, uint64_t *dump, uint64_t *thread)
{
    size_t n;

    *dump = UINT64_MAX;
    *thread = 0;
    if (*s == '.') {
        n = read_digits(s + 1, dump);
        if (n == 0)
            return 0;
        s += 1 + n;
    }
    if (*s == '-') {
        n = read_digits(s + 1, thread);
        if (n == 0)
            return 0;
        s += 1 + n;
    }
    return *s == 0;
}

static int compare_siblings(const void *a, const void *b)
{
    const sibling *x = a, *y = b;

    if (x->dump != y->dump)
        return x->dump < y->dump ? -1 : 1;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* The sibling files of path (without path itself), sorted.  NULL and
 * *n = 0 when there are none.  What is not a regular file is left out with
 * a warning on in. */
static sibling *find_siblings(ph_input *in, const char *path, size_t *n)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dirlen = slash ? (size_t)(slash - path) : 0, blen = strlen(base);
    char *dir;
    DIR *d;
    struct dirent *de;
    sibling *v = NULL;
    size_t cap = 0;

    *n = 0;
    if (blen == 0)
        return NULL;
    dir = ph_xmalloc(dirlen + 2);
    if (slash) {
        memcpy(dir, path, dirlen ? dirlen : 1);
        dir[dirlen ? dirlen : 1] = 0;
    } else {
        strcpy(dir, ".");
    }
    d = opendir(dir);
    if (!d) {
        free(dir);
        return NULL;
    }
    while ((de = readdir(d)) != NULL) {
        uint64_t dump, thread;
        size_t len;
        if (strncmp(de->d_name, base, blen) != 0 || de->d_name[blen] == 0)
            continue;
        if (!parse_suffix(de->d_name + blen, &dump, &thread))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            v = ph_xrealloc(v, cap * sizeof *v);
        }
        len = strlen(de->d_name);
        v[*n].path = ph_xmalloc(dirlen + len + 2);
        if (slash) {
            memcpy(v[*n].path, path, dirlen + 1);
            memcpy(v[*n].path + dirlen + 1, de->d_name, len + 1);
        } else {
            memcpy(v[*n].path, de->d_name, len + 1);
        }
        struct stat st;
        if (stat(v[*n].path, &st) != 0 || !S_ISREG(st.st_mode)) {
            ph_input_warn(in, "cg-sibling-kind", 0, "skipped %s: not a "
                          "regular file", v[*n].path);
            free(v[*n].path);
            continue;
        }
        v[*n].dump = dump;
        v[*n].thread = thread;
        (*n)++;
    }
    closedir(d);
    free(dir);
    if (*n > 1)
        ph_qsort(v, *n, sizeof *v, compare_siblings);
    return v;
}

/* Name the parts [from, count) after the file they came from. */
static void label_parts(ph_profile *p, size_t from, const char *path)
{
    const char *slash = strrchr(path, '/');
    ph_str name = ph_str_intern0(p, slash ? slash + 1 : path);
    size_t i;

    for (i = from; i < ph_part_count(p); i++)
        ph_part_at(p, i)->name = name;
}

/* Read one sibling into p; its error and warnings go to the main input. */
static int read_sibling(ph_input *in, ph_profile *p, const char *path)
{
    char err[256];
    ph_input *sin = ph_input_open(path, err, sizeof err);
    size_t i, from = ph_part_count(p);
    int rc;

    if (!sin)
        return ph_input_error_at(in, 0, 0, "cannot read the run's file "
                                 "%s: %s", path, err);
    rc = ph_cg_read_file(sin, p);
    for (i = 0; i < ph_input_warning_count(sin); i++) {
        uint64_t times;
        const char *w = ph_input_warning(sin, i, &times);
        ph_input_warn(in, "cg-sibling", 0, "%s%s", w,
                      times > 1 ? " (and more like it)" : "");
    }
    if (rc < 0)
        ph_input_error_at(in, 0, 0, "%s",
                          ph_input_error(sin));
    else
        label_parts(p, from, path);
    ph_input_close(sin);
    return rc;
}

int ph_callgrind_read(ph_input *in, ph_profile *p)
{
    const char *path = ph_input_path(in);
    sibling *sib = NULL;
    size_t nsib = 0, i;
    int rc = 0;

    ph_profile_set_format(p, "callgrind");
    if (path && !ph_input_was_gzip(in))
        sib = find_siblings(in, path, &nsib);
    if (nsib == 0) {
        rc = ph_cg_read_file(in, p);
    } else {
        /* The base file takes its place among the final dumps. */
        uint64_t bdump = UINT64_MAX;
        int base_done = ph_input_size(in) == 0;
        for (i = 0; i <= nsib && rc == 0; i++) {
            if (!base_done && (i == nsib || sib[i].dump > bdump ||
                               (sib[i].dump == bdump && sib[i].thread > 0))) {
                size_t from = ph_part_count(p);
                rc = ph_cg_read_file(in, p);
                if (rc == 0)
                    label_parts(p, from, path);
                base_done = 1;
            }
            if (i < nsib && rc == 0) {
                rc = read_sibling(in, p, sib[i].path);
            }
        }
    }
    for (i = 0; i < nsib; i++)
        free(sib[i].path);
    free(sib);
    /* A single part with no thread is the whole run. */
    if (rc == 0 && ph_part_count(p) == 1 && ph_part_at(p, 0)->tid < 0)
        ph_part_at(p, 0)->kind = PH_PART_WHOLE;
    return rc;
}
