/* expfmt.h -- constants of the native experiment format (version 1),
 * shared by the runtime that writes it, profhub record that starts it
 * and importers/native_in.c that reads it.  runtime/FORMAT.md is the
 * specification; every number here appears there. */
#ifndef PH_EXPFMT_H
#define PH_EXPFMT_H

#include <stdint.h>
#include <string.h>

#define PH_EXP_MAGIC "PROFHUBX"
#define PH_EXP_MAGIC_LEN 8
#define PH_EXP_VERSION 1
#define PH_EXP_MINOR 1
#define PH_EXP_HEADER_FIXED 24
#define PH_EXP_HEADER_MAX 65536
#define PH_EXP_EXT "phx"

#define PH_CHUNK_HEADER 16
#define PH_CHUNK_MAX (1u << 20)

enum {
    PH_CHUNK_PROC = 1,
    PH_CHUNK_MAPS = 2,
    PH_CHUNK_BLOB = 3,
    PH_CHUNK_END = 4,
};

#define PH_PROC_FIXED 40
#define PH_MAPS_FIXED 24
#define PH_MAPS_ENTRY_FIXED 28
#define PH_BLOB_FIXED 80
#define PH_END_FIXED 40
#define PH_BLOB_MAX_WORDS 65536   /* readers reject more */
#define PH_STACK_MAX_DEPTH 128

enum {
    PH_END_EXIT = 1,     /* exit() / return from main */
    PH_END_UNDERSCORE_EXIT = 2,
    PH_END_EXEC = 3,
    PH_END_SIGNAL = 4,   /* status = signal number */
};

/* PROC flag bit 0 (process-wide ITIMER_PROF) is no longer written. */
enum { PH_PROC_ITIMER = 1u << 0 };

/* Record encodings (= PH_REC_PC / PH_REC_STACK of collectors/collector.h). */
#define PH_REC_PC_ENC 1
#define PH_REC_STACK_ENC 2

/* Little-endian stores and loads (the format is little-endian). */
static inline void ph_put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static inline void ph_put64(unsigned char *p, uint64_t v)
{
    ph_put32(p, (uint32_t)v);
    ph_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t ph_get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t ph_get64(const unsigned char *p)
{
    return (uint64_t)ph_get32(p) | (uint64_t)ph_get32(p + 4) << 32;
}

#endif /* PH_EXPFMT_H */
