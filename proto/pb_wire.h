/* pb_wire.h -- protobuf wire-level helpers shared by the pprof and
 * drcctprof readers: a top-level field walker that gives
 * byte offsets for error messages, the sniff vote that tells the two
 * formats apart, and the drcctprof rule for metric names that say ids
 * (its reader applies it, its writer warns of it). */
#ifndef PH_PB_WIRE_H
#define PH_PB_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "proto/pb_fields.h"

/* Offsets of the top-level fields of a protobuf message, by field number
 * (1..PH_PB_MAXFIELD); occurrences of repeated fields keep their order, so
 * off[f][i] is where the i-th element of repeated field f starts. */
typedef struct ph_pb_index {
    size_t *off[PH_PB_MAXFIELD + 1];
    size_t n[PH_PB_MAXFIELD + 1];
    size_t cap[PH_PB_MAXFIELD + 1];
} ph_pb_index;

/* Walk the top-level fields of data.  Returns 0, or -1 with *bad_off set to
 * where the encoding breaks and *why to a static message. */
int ph_pb_index_build(ph_pb_index *ix, const unsigned char *data,
                      size_t len, size_t *bad_off, const char **why);
void ph_pb_index_free(ph_pb_index *ix);
/* Offset of the i-th occurrence of field f, or 0 when absent. */
size_t ph_pb_index_off(const ph_pb_index *ix, int f, size_t i);
/* The field whose key starts at off (an offset the index gave): its wire
 * type, and the bytes of its value [*vstart, *vend) (for wire type 2 the
 * payload after the length).  -1 when the bytes there do not parse. */
int ph_pb_field_at(const unsigned char *data, size_t len, size_t off,
                   unsigned *wt, size_t *vstart, size_t *vend);

/* Vote on bare protobuf bytes (possibly truncated): returns 0 when they do
 * not look like either schema, else a positive score, and *kind is 'p'
 * (pprof), 'd' (drcctprof) or '?' (could be either). */
int ph_pb_sniff_vote(const unsigned char *data, size_t len, int *kind);

/* Whether a drcctprof metric name says its values are ids, enums or
 * timestamps (a word "context", "type", "id" or "handle", or both "start"
 * or "end" and "time"): such metrics are read as non-additive. */
int ph_drcc_name_says_ids(const char *name);

#endif /* PH_PB_WIRE_H */
