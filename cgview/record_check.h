/* record_check.h -- the checks "profhub record" makes before and after
 * the run (cgview/record_check.c). */
#ifndef PH_RECORD_CHECK_H
#define PH_RECORD_CHECK_H

#include <stddef.h>

/* Find prog as execvp would (PATH when it has no '/'); the file into
 * path.  0, or -1 with errno (ENOENT, EACCES, EISDIR...). */
int ph_record_resolve(const char *prog, char *path, size_t size);

/* 1 when path is an ELF program without PT_INTERP (statically linked:
 * LD_PRELOAD never applies); 0 otherwise, scripts and unreadable files
 * included. */
int ph_record_is_static(const char *path);

/* Read the experiment written by the run and warn about what is missing
 * (processes killed before their END, processes or threads without a
 * sample, interval described for the message).  -1 with an error
 * printed when no process loaded the runtime at all (nothing recorded);
 * 0 otherwise. */
int ph_record_review(const char *exp, const char *prog,
                     const char *interval);

#endif /* PH_RECORD_CHECK_H */
