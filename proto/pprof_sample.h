/* pprof_sample.h -- pprof's Sample message (location ids, values, labels)
 * decoded by hand.  A big profile holds millions of them; protobuf-c made
 * a struct and arrays for each through its descriptor tables, a third of
 * the time of reading a heap profile, and every sample was decoded twice
 * (checked before reading, then read).  The rest of the message still
 * goes through protobuf-c. */
#ifndef PH_PPROF_SAMPLE_H
#define PH_PPROF_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "proto/pb_wire.h"

typedef struct ph_pprof_label {
    int64_t key, str, num, num_unit;   /* string indexes but num */
} ph_pprof_label;

/* One decoded Sample; its arrays are reused from one sample to the next. */
typedef struct ph_pprof_sample {
    uint64_t *location_id;
    size_t n_location_id, cap_location_id;
    uint64_t *value;        /* int64 values, as their two's complement */
    size_t n_value, cap_value;
    ph_pprof_label *label;
    size_t n_label, cap_label;
} ph_pprof_sample;

/* Decode the Sample message in [p, p + len) into s.  Returns 0, or -1
 * where protobuf-c refuses the message too: a truncated or over-long
 * varint, a field that runs past its message, a known field of the wrong
 * wire type, a field number 0 or a group. */
int ph_pprof_sample_decode(ph_pprof_sample *s, const unsigned char *p,
                           size_t len);
/* The same of the i-th Sample record of the profile indexed by ix. */
int ph_pprof_sample_at(ph_pprof_sample *s, const ph_pb_index *ix,
                       const unsigned char *data, size_t len, size_t i);
void ph_pprof_sample_free(ph_pprof_sample *s);

/* Whether every Sample record decodes, half of them on another thread
 * (ph_run_pair): a profile that does not decode is refused before any of
 * it is read. */
int ph_pprof_samples_check(const ph_pb_index *ix, const unsigned char *data,
                           size_t len);

#endif /* PH_PPROF_SAMPLE_H */
