/* loader.c -- finds and loads collector plugins and the runtime.  Search
 * order: $PROFHUB_PLUGIN_PATH, the build tree next to the executable
 * (so `make check` needs no installation), then PH_PKGLIBDIR.  Only a
 * regular ELF file defining ph_collector_entry is dlopened
 * (plugin_file.c), and its descriptor is validated (validate.c) before
 * anything reads it.  Every failure names the file and the reason, with
 * dlerror() text. */
#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/loader.h"
#include "collectors/validate.h"

#ifndef PH_PKGLIBDIR
#define PH_PKGLIBDIR "/usr/local/lib/profhub"
#endif

static int exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

/* Folder of the running executable into buf; 0 or -1. */
static int get_exe_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    char *slash;

    if (n <= 0)
        return -1;
    buf[n] = '\0';
    slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    /* a libtool wrapper runs the binary from .libs/ */
    if (strlen(buf) >= 6 && strcmp(buf + strlen(buf) - 6, "/.libs") == 0)
        buf[strlen(buf) - 6] = '\0';
    return 0;
}

static void append_dir(char *buf, size_t size, const char *dir)
{
    size_t len = strlen(buf);

    if (!*dir)
        return;
    snprintf(buf + len, size - len, "%s%s", len ? ":" : "", dir);
}

void ph_collector_path(char *buf, size_t size)
{
    const char *env = getenv("PROFHUB_PLUGIN_PATH");
    char exe[4096], tree[4200];

    buf[0] = '\0';
    if (env)
        append_dir(buf, size, env);
    if (get_exe_dir(exe, sizeof exe) == 0) {
        snprintf(tree, sizeof tree, "%s/collectors/.libs", exe);
        if (exists(tree))
            append_dir(buf, size, tree);
    }
    append_dir(buf, size, PH_PKGLIBDIR);
}

const ph_collector *ph_collector_load_file(const char *path, char *err,
                                           size_t errsize)
{
    ph_collector_entry_fn entry;
    const ph_collector *c;
    char why[512];
    void *h;

    if (ph_plugin_file_check(path, err, errsize) != 0)
        return NULL;
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();

        snprintf(err, errsize, "%s", e ? e : "dlopen failed");
        return NULL;
    }
    *(void **)&entry = dlsym(h, PH_COLLECTOR_ENTRY);
    if (!entry) {
        const char *e = dlerror();

        snprintf(err, errsize, "%s: no %s symbol (%s)", path,
                 PH_COLLECTOR_ENTRY, e ? e : "not a profhub collector");
        dlclose(h);
        return NULL;
    }
    c = entry();
    if (ph_collector_validate(*(void **)&entry, c, why, sizeof why) != 0) {
        snprintf(err, errsize, "%s: bad collector descriptor: %s", path,
                 why);
        dlclose(h);
        return NULL;
    }
    return c;
}

const ph_collector *ph_collector_find(const char *name, char *path,
                                      size_t pathsize, char *err,
                                      size_t errsize)
{
    char dirs[8192], why[1024] = "";
    char *save = NULL, *dir;

    ph_collector_path(dirs, sizeof dirs);
    for (dir = strtok_r(dirs, ":", &save); dir;
         dir = strtok_r(NULL, ":", &save)) {
        const ph_collector *c;
        char e[900];

        snprintf(path, pathsize, "%s/%s.so", dir, name);
        if (!exists(path))
            continue;   /* anything else that exists is tried, and refused */
        c = ph_collector_load_file(path, e, sizeof e);
        if (c && strcmp(c->name, name) == 0)
            return c;
        if (!why[0])
            snprintf(why, sizeof why, "%s", c ? "name does not match" : e);
    }
    ph_collector_path(dirs, sizeof dirs);
    if (why[0])
        snprintf(err, errsize, "collector \"%s\" did not load: %s", name,
                 why);
    else
        snprintf(err, errsize, "no collector \"%s\" (searched %s for %s.so)",
                 name, dirs, name);
    return NULL;
}

void ph_collector_scan(ph_collector_visit fn, void *ctx)
{
    char dirs[8192];
    char *save = NULL, *dir;

    ph_collector_path(dirs, sizeof dirs);
    for (dir = strtok_r(dirs, ":", &save); dir;
         dir = strtok_r(NULL, ":", &save)) {
        DIR *d = opendir(dir);
        struct dirent *de;
        char **names = NULL;
        size_t n = 0;

        if (!d)
            continue;
        while ((de = readdir(d)) != NULL) {
            size_t len = strlen(de->d_name);
            char **nn;

            if (len < 4 || strcmp(de->d_name + len - 3, ".so") != 0 ||
                strncmp(de->d_name, "libprofhub", 10) == 0)
                continue;
            nn = realloc(names, (n + 1) * sizeof *names);
            if (!nn)
                break;
            names = nn;
            names[n++] = strdup(de->d_name);
        }
        closedir(d);
        for (size_t i = 0; i < n; i++) {
            for (size_t j = i + 1; j < n; j++)
                if (names[i] && names[j] && strcmp(names[j], names[i]) < 0) {
                    char *t = names[i];

                    names[i] = names[j];
                    names[j] = t;
                }
        }
        for (size_t i = 0; i < n; i++) {
            /* room for the path and what is said of it */
            char path[8192], err[sizeof path + 1024];
            const ph_collector *c;

            if (!names[i])
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            c = ph_collector_load_file(path, err, sizeof err);
            fn(ctx, path, c, c ? NULL : err);
            free(names[i]);
        }
        free(names);
    }
}

int ph_runtime_path(char *buf, size_t size, char *err, size_t errsize)
{
    const char *env = getenv("PROFHUB_RUNTIME");
    char exe[4096];

    if (env && *env) {
        snprintf(buf, size, "%s", env);
        if (exists(buf))
            return 0;
        snprintf(err, errsize, "PROFHUB_RUNTIME=%s: no such file", env);
        return -1;
    }
    if (get_exe_dir(exe, sizeof exe) == 0) {
        snprintf(buf, size, "%s/runtime/.libs/libprofhub-rt.so", exe);
        if (exists(buf))
            return 0;
    }
    snprintf(buf, size, "%s/libprofhub-rt.so", PH_PKGLIBDIR);
    if (exists(buf))
        return 0;
    snprintf(err, errsize, "runtime library not found (%s; set "
             "PROFHUB_RUNTIME)", buf);
    return -1;
}
