/* loader.h -- finding collectors: plugin files on the plugin path, the
 * built-in static table, and the runtime library to preload.  Library
 * code: never prints; failures come back as text. */
#ifndef PH_LOADER_H
#define PH_LOADER_H

#include <stddef.h>

#include "collectors/collector.h"

/* Built-in collectors (the same sources as the plugins), so listings and
 * tests work without dlopen. */
size_t ph_collector_builtin_count(void);
const ph_collector *ph_collector_builtin_at(size_t i);
const ph_collector *ph_collector_builtin_find(const char *name);

/* The plugin folders in search order, colon-separated, into buf:
 * $PROFHUB_PLUGIN_PATH, then the build tree's collectors/.libs next to the
 * running executable (when it exists), then PH_PKGLIBDIR. */
void ph_collector_path(char *buf, size_t size);

/* 0 when path is a regular ELF shared object whose dynamic symbol table
 * defines ph_collector_entry (read with libelf, nothing is run); else -1
 * with err naming path and the reason. */
int ph_plugin_file_check(const char *path, char *err, size_t errsize);

/* Load one plugin file: ph_plugin_file_check, then dlopen(RTLD_NOW |
 * RTLD_LOCAL), look up ph_collector_entry, validate the descriptor
 * (collectors/validate.h).  NULL with the reason in err (the
 * dlerror() text where there is one); the handle stays open on success. */
const ph_collector *ph_collector_load_file(const char *path, char *err,
                                           size_t errsize);

/* Find collector name: the first NAME.so on the path that loads (its file
 * name into path).  NULL with err when none does: what was searched, or
 * the file that failed and why (the runtime needs a file to dlopen, so
 * the built-in table cannot stand in for recording). */
const ph_collector *ph_collector_find(const char *name, char *path,
                                      size_t pathsize, char *err,
                                      size_t errsize);

/* Visit every *.so on the path: c set when it loaded, else error set. */
typedef void (*ph_collector_visit)(void *ctx, const char *path,
                                   const ph_collector *c, const char *error);
void ph_collector_scan(ph_collector_visit fn, void *ctx);

/* Path of the runtime to preload: $PROFHUB_RUNTIME, the build tree's
 * runtime/.libs/libprofhub-rt.so, or PH_PKGLIBDIR/libprofhub-rt.so; 0 if
 * the file exists, else -1 with err. */
int ph_runtime_path(char *buf, size_t size, char *err, size_t errsize);

#endif /* PH_LOADER_H */
