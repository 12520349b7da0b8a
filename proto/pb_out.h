/* pb_out.h -- protobuf messages written to a ph_output, shared by the
 * pprof and drcctprof writers: a protobuf-c buffer that appends to the
 * output, and one occurrence of a message-typed field written on its
 * own.  A repeated field may come in pieces and its occurrences in any
 * order among the other fields, so a writer streams its samples one at a
 * time instead of holding them all in the top-level message. */
#ifndef PH_PB_OUT_H
#define PH_PB_OUT_H

#include <protobuf-c/protobuf-c.h>

#include "ir/io.h"

typedef struct ph_pb_out {
    ProtobufCBuffer base;
    ph_output *out;
} ph_pb_out;

void ph_pb_out_init(ph_pb_out *ob, ph_output *out);

/* Field `field` (wire type 2) of the message being written: msg. */
void ph_pb_out_field(ph_pb_out *ob, unsigned field,
                     const ProtobufCMessage *msg);

/* The fields msg has set. */
void ph_pb_out_message(ph_pb_out *ob, const ProtobufCMessage *msg);

/* Field `field` (wire type 2) of the message being written: len bytes,
 * a string or a message encoded by hand. */
void ph_pb_out_bytes(ph_pb_out *ob, unsigned field, const void *data,
                     size_t len);

/* A message encoded by hand, for those a writer emits by the million (a
 * pprof Sample or Location): protobuf-c's generic packer hands the
 * buffer one value at a time and costs more than the encoding.  Fields
 * are appended in the order called, zero scalars left out as proto3
 * writes them; reset with m->n = 0 and reuse. */
typedef struct ph_pb_msg {
    unsigned char *b;
    size_t n, cap;
} ph_pb_msg;

void ph_pb_msg_varint(ph_pb_msg *m, unsigned field, uint64_t v);
/* A packed repeated varint field (an int64 as its two's complement);
 * nothing when n is 0. */
void ph_pb_msg_packed(ph_pb_msg *m, unsigned field, const uint64_t *v,
                      size_t n);
/* A string, bytes or nested message field. */
void ph_pb_msg_bytes(ph_pb_msg *m, unsigned field, const void *data,
                     size_t len);
void ph_pb_msg_free(ph_pb_msg *m);

#endif /* PH_PB_OUT_H */
