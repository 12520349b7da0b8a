/* pb_out.c -- protobuf messages written to a ph_output (pb_out.h). */
#include "config.h"

#include "ir/varint.h"
#include "proto/pb_out.h"

static void append_out(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
    ph_output_write(((ph_pb_out *)b)->out, data, len);
}

void ph_pb_out_init(ph_pb_out *ob, ph_output *out)
{
    ob->base.append = append_out;
    ob->out = out;
}

void ph_pb_out_field(ph_pb_out *ob, unsigned field,
                     const ProtobufCMessage *msg)
{
    unsigned char head[20], *end;
    end = ph_put_varint(head, (uint64_t)field << 3 | 2);   /* wire type 2 */
    end = ph_put_varint(end, protobuf_c_message_get_packed_size(msg));
    ph_output_write(ob->out, head, (size_t)(end - head));
    protobuf_c_message_pack_to_buffer(msg, &ob->base);
}

void ph_pb_out_message(ph_pb_out *ob, const ProtobufCMessage *msg)
{
    protobuf_c_message_pack_to_buffer(msg, &ob->base);
}
