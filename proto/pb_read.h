/* pb_read.h -- what the pprof and drcctprof readers share above the wire:
 * one rule for the string table, checked string lookups with the byte
 * offset of the record that used them, and the step from a schema's
 * Function record to a ph_func.  Errors go to the ph_input, as every
 * reader's do. */
#ifndef PH_PB_READ_H
#define PH_PB_READ_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "io.h"
#include "proto/pb_wire.h"

struct ProtobufCAllocator;
/* protobuf-c's allocator for both readers: every decoded array goes
 * through ph_xmalloc, so the memory limit holds and running out is the
 * "out of memory" it is, never "protobuf decoding failed".  Pass it to
 * unpack and to free_unpacked. */
struct ProtobufCAllocator *ph_pb_allocator(void);

/* The message's bytes without its top-level fields numbered fields[0..n)
 * (the bulk of a big profile, for protobuf-c to decode the rest: the
 * readers decode those records by hand, one at a time: pb_records.h),
 * in a malloc'd block of *out_len bytes; NULL when one
 * of them is not length-delimited (a message that does not decode). */
unsigned char *ph_pb_without(const ph_pb_index *ix, const unsigned char *data,
                             size_t len, const int *fields, size_t n,
                             size_t *out_len);

/* The payload [*a, *b) of the i-th record of length-delimited top-level
 * field f; -1 when its bytes are not such a field. */
int ph_pb_record(const ph_pb_index *ix, const unsigned char *data,
                 size_t len, int f, size_t i, size_t *a, size_t *b);

/* A decoded message's string table, interned into the profile. */
typedef struct ph_pb_strtab {
    ph_input *in;
    ph_str *strs;       /* index -> handle; entry 0 is 0 (the "" string) */
    size_t n;
} ph_pb_strtab;

/* Walk data's top-level fields into ix; -1 after recording the offset where
 * the encoding breaks. */
int ph_pb_open(ph_pb_index *ix, ph_input *in, const unsigned char *data,
               size_t len);

/* Intern the string table, the records of top-level field `field` of
 * data (ix its index), into p straight from data, each string up to its
 * first NUL (where protobuf-c's C string ends).  The rule, for both
 * schemas (go tool pprof's: it rejects a profile whose table is empty,
 * since every record's strings default to index 0): the table must hold
 * at least one entry and entry 0 must be "".  Returns 0, or -1 after
 * recording the error. */
int ph_pb_strtab_load(ph_pb_strtab *t, ph_input *in, ph_profile *p,
                      const ph_pb_index *ix, const unsigned char *data,
                      size_t len, int field);
void ph_pb_strtab_free(ph_pb_strtab *t);

/* The handle of string idx; -1 after recording "WHAT: string index I out of
 * range (table has N)" at off. */
int ph_pb_str(const ph_pb_strtab *t, int64_t idx, size_t off,
              const char *what, ph_str *out);

/* The function a Function record names: name (or system_name when name is
 * empty) in file, of object obj (may be NULL); system_name becomes the
 * mangled name; a positive start_line is kept when the function has none
 * yet. */
ph_func *ph_pb_func(ph_profile *p, ph_str name, ph_str system_name,
                    ph_str file, int64_t start_line, ph_object *obj);

/* A line number as the IR holds it: 0 unless 1..UINT32_MAX. */
uint32_t ph_pb_line(int64_t line);

#endif /* PH_PB_READ_H */
