/* io.h -- bytes in and bytes out: ph_input (file, gzip stream or memory,
 * with a line reader that counts lines and columns, and a bounds-checked
 * binary cursor) and ph_output (a temporary file renamed into place on
 * success, or stdout).  No format knowledge lives here.
 *
 * Errors: library code never prints.  The first error is recorded in the
 * input (ph_input_error) with its position; readers then return -1 and the
 * front end prints "NAME:LINE:COL: MESSAGE" (text) or "NAME: offset 0xN:
 * MESSAGE" (binary).  Warnings are collected the same way and printed by the
 * front end, once per kind with a count.
 */
#ifndef PH_IO_H
#define PH_IO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ph_input ph_input;
typedef struct ph_output ph_output;

/* ------------------------------------------------------------------ */
/* Input                                                               */

/* Open a file for reading: regular uncompressed files are mapped, gzip files
 * (magic 1f 8b) are unwrapped into memory, "-" reads stdin.  Returns NULL and
 * fills err (a message without the file name) when the file cannot be read.
 * The whole content is available at once (ph_input_data); sizes up to the
 * address space are fine. */
PH_API ph_input *ph_input_open(const char *path, char *err, size_t errsize);
/* Read from memory (not copied: data must outlive the input).  name is used
 * in messages.  Gzip data is unwrapped. */
PH_API ph_input *ph_input_memory(const void *data, size_t len,
                                 const char *name);
PH_API void ph_input_close(ph_input *in);

/* Display name (path as given, or the memory name). */
PH_API const char *ph_input_name(const ph_input *in);
/* Path of the file, NULL for memory/stdin (readers that load sibling files,
 * such as callgrind's per-thread files, use it). */
PH_API const char *ph_input_path(const ph_input *in);
/* All bytes (after gzip unwrapping) and their count. */
PH_API const unsigned char *ph_input_data(const ph_input *in);
PH_API size_t ph_input_size(const ph_input *in);
/* The open file whose mapping the bytes are, or -1 (gzip, a pipe, memory):
 * a reader may pread() it rather than read the mapping, whose pages cost
 * more to map in than to copy on some systems. */
PH_API int ph_input_fd(const ph_input *in);
/* Whether the bytes came out of a gzip wrapper. */
PH_API int ph_input_was_gzip(const ph_input *in);

/* Optional companion file given on the command line (gmon: --exe PROG). */
PH_API void ph_input_set_exe(ph_input *in, const char *path);
PH_API const char *ph_input_exe(const ph_input *in);
/* The user accepts code named by address when no companion file is given
 * (gmon: --raw-addresses); without it such a read fails. */
PH_API void ph_input_set_raw_addresses(ph_input *in, int on);
PH_API int ph_input_raw_addresses(const ph_input *in);

/* Progress hook, called by readers now and then with bytes consumed; the
 * front end installs one that draws on a terminal. */
typedef void (*ph_progress_fn)(void *ctx, size_t done, size_t total);
PH_API void ph_input_set_progress(ph_input *in, ph_progress_fn fn, void *ctx);
PH_API void ph_input_progress(ph_input *in, size_t done);
/* The reader will not read the bytes before off again: an inflated or
 * piped copy gives back their whole pages, which the profile's next blocks
 * take again (far cheaper than pages new to the process on a virtual
 * machine); the bytes read as zeros from then on. */
PH_API void ph_input_release(ph_input *in, size_t off);

/* --- line reader (text formats) ---
 * Lines are views into the data, without the line end ("\n", "\r\n"); a
 * final line without "\n" is returned too.  Line numbers are 1-based. */
typedef struct ph_line {
    const char *s;     /* not NUL-terminated */
    size_t len;
    uint64_t lineno;
} ph_line;

PH_API int ph_input_getline(ph_input *in, ph_line *line);  /* 1, or 0 at end */
/* Current line number (of the last line returned). */
PH_API uint64_t ph_input_lineno(const ph_input *in);
/* Go on with the line at byte off (0 <= off <= size), numbered lineno + 1:
 * a reader that found the lines before it another way (threads) hands the
 * rest back to ph_input_getline. */
PH_API void ph_input_resume_lines(ph_input *in, size_t off, uint64_t lineno);

/* --- binary cursor ---  Every get checks the bytes left; on failure it
 * records "unexpected end of data" at the offset and returns -1. */
PH_API size_t ph_input_offset(const ph_input *in);
PH_API int ph_input_seek(ph_input *in, size_t off);
/* Bytes left after the cursor (compare a count from the file against it
 * before allocating). */
PH_API size_t ph_input_left(const ph_input *in);
/* Take n bytes at the cursor (*p points into the data) and advance; or
 * record "unexpected end of data" and return -1 (*p NULL). */
PH_API int ph_input_get_bytes(ph_input *in, size_t n, const unsigned char **p);
/* Fixed-width little-endian integers at the cursor; 0 or -1 as above
 * (*v 0). */
PH_API int ph_input_get_u8(ph_input *in, uint8_t *v);
PH_API int ph_input_get_u16le(ph_input *in, uint16_t *v);
PH_API int ph_input_get_u32le(ph_input *in, uint32_t *v);
PH_API int ph_input_get_u64le(ph_input *in, uint64_t *v);

/* --- errors and warnings ---
 * ph_input_error_at(in, line, col, fmt, ...): text position (1-based; col 0
 * when unknown).  ph_input_error_off(in, off, fmt, ...): binary offset.
 * Only the first error is kept; both return -1 so readers can
 * "return ph_input_error_at(...)". */
PH_API int ph_input_error_at(ph_input *in, uint64_t line, uint64_t col,
                             const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
PH_API int ph_input_error_off(ph_input *in, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An additional "note:" line for the error (libyaml's context), optional. */
PH_API void ph_input_note_at(ph_input *in, uint64_t line, uint64_t col,
                             const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Full message ready to print: "NAME:L:C: msg" or "NAME: offset 0xN: msg"
 * (plus "\nNAME:L:C: note: ..." when a note was given); NULL if no error. */
PH_API const char *ph_input_error(const ph_input *in);

/* Warnings of one kind add up: the front end prints
 * "profhub: warning: NAME: MESSAGE (N times)" once per kind.  kind is a
 * short static key ("summary-mismatch"); the first message of a kind is kept.
 * A warning may carry a position (line 0 = none). */
PH_API void ph_input_warn(ph_input *in, const char *kind, uint64_t line,
                          const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
PH_API size_t ph_input_warning_count(const ph_input *in);
/* i-th distinct warning: message (with "NAME:L: " prefix when it has a
 * position) and how many times that kind occurred. */
PH_API const char *ph_input_warning(const ph_input *in, size_t i,
                                    uint64_t *times);

/* ------------------------------------------------------------------ */
/* Numbers (overflow-checked, by hand; never atoi)                     */

/* Parse an unsigned decimal or 0x-hex number at s[0..len).  Returns the
 * number of bytes used (0 if none: not a number) and sets *v.  On overflow
 * returns (size_t)-1. */
PH_API size_t ph_parse_u64(const char *s, size_t len, uint64_t *v);
/* As above with an optional leading '-' (or '+'). */
PH_API size_t ph_parse_i64(const char *s, size_t len, int64_t *v);
/* A finite decimal number "[+-]DIGITS[.DIGITS][e[+-]DIGITS]" (or ".5") at
 * s[0..len): no "nan", "inf", hex or leading spaces, which strtod would
 * take.  Returns the bytes used, 0 if none or if the value is not finite
 * (too large). */
PH_API size_t ph_parse_decimal(const char *s, size_t len, double *v);

/* ------------------------------------------------------------------ */
/* UTF-8 (names are bytes; JSON and YAML writers need valid text)      */

/* Length (1-4) of the valid UTF-8 sequence at s[0..n), or 0 when the bytes
 * there are not one (stray continuation, overlong form, surrogate). */
PH_API size_t ph_utf8_seq(const unsigned char *s, size_t n);
/* A malloc'ed NUL-terminated copy of s[0..n) where every byte that starts
 * no valid sequence, and NUL, is U+FFFD; *bad (if not NULL) grows by the
 * number replaced.  The caller frees it. */
PH_API char *ph_utf8_fix(const char *s, size_t n, size_t *bad);

/* ------------------------------------------------------------------ */
/* Output                                                              */

/* Open an output: "-" is stdout; otherwise a temporary file in the target's
 * folder, renamed onto path by ph_output_commit.  NULL + err on failure. */
PH_API ph_output *ph_output_open(const char *path, char *err, size_t errsize);
/* Buffered writes; errors are remembered and reported by commit. */
PH_API void ph_output_write(ph_output *out, const void *data, size_t len);
PH_API void ph_output_puts(ph_output *out, const char *s);
PH_API void ph_output_printf(ph_output *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
PH_API void ph_output_u64(ph_output *out, uint64_t v);  /* decimal, fast */
PH_API void ph_output_i64(ph_output *out, int64_t v);
/* An output kept in memory (a writer's piece made beside the others:
 * ph_run_ordered): its bytes so far, emptied for the next piece; freed by
 * ph_output_abort. */
PH_API ph_output *ph_output_memory(void);
PH_API const unsigned char *ph_output_memory_bytes(const ph_output *out,
                                                   size_t *len);
PH_API void ph_output_memory_clear(ph_output *out);
/* Write everything through a gzip stream from now on (pprof). Call first. */
PH_API void ph_output_set_gzip(ph_output *out);
/* Flush, fsync-free close and rename into place. Returns 0, or -1 with err
 * filled (then nothing is left behind and an existing target is intact). */
PH_API int ph_output_commit(ph_output *out, char *err, size_t errsize);
/* Drop everything written: the temporary file is removed.  Commit and abort
 * both free out (read the drop warnings below before either). */
PH_API void ph_output_abort(ph_output *out);
/* Remove the temporary files of every output still open.  Async-signal-
 * safe: the front end calls it from its SIGINT/SIGTERM handler so that an
 * interrupted write leaves nothing behind. */
PH_API void ph_output_cleanup(void);
/* Writer options from the command line (-O key=value; dot's thresholds):
 * set by the front end, read by writers; NULL when not set. */
PH_API void ph_output_set_option(ph_output *out, const char *key,
                                 const char *value);
PH_API const char *ph_output_option(const ph_output *out, const char *key);
/* Path the output goes to ("-" for stdout). */
PH_API const char *ph_output_path(const ph_output *out);

/* Writers record their first error on the output, as readers do on
 * ph_input: ph_output_error_set(out, fmt, ...) keeps the first message and
 * returns -1, so a writer can "return ph_output_error_set(...)".  A later
 * ph_output_commit then fails with that message and leaves nothing behind. */
PH_API int ph_output_error_set(ph_output *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The recorded writer error, or NULL. */
PH_API const char *ph_output_error(const ph_output *out);

/* Warnings from writers about what a format cannot hold, once per kind with
 * a count: "profhub: warning: gmon: dropped 12 inlined frames (...)".  The
 * writer calls ph_output_drop(out, "inline", n, "inlined frames (format has
 * no inline records)") and the front end prints the sum per kind. */
PH_API void ph_output_drop(ph_output *out, const char *kind, uint64_t n,
                           const char *what);
PH_API size_t ph_output_drop_count(const ph_output *out);
PH_API const char *ph_output_drop_at(const ph_output *out, size_t i,
                                     uint64_t *n);

#ifdef __cplusplus
}
#endif
#endif /* PH_IO_H */
