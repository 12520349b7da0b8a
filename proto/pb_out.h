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

#endif /* PH_PB_OUT_H */
