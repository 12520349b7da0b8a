/* test_files.h -- what the suites that read files back share. */
#ifndef PH_TEST_FILES_H
#define PH_TEST_FILES_H

#include <stddef.h>

/* The bytes of the file at path as they are (no gzip unwrapped), with a
 * NUL after them, in malloc'ed memory; *len their count.  NULL when the
 * file cannot be read whole. */
char *ph_test_read_file(const char *path, size_t *len);

#endif /* PH_TEST_FILES_H */
