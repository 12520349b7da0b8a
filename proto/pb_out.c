/* pb_out.c -- protobuf messages written to a ph_output (pb_out.h). */
#include "config.h"

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

/* Append v as a base-128 varint to buf; its length. */
static size_t put_varint(uint8_t *buf, uint64_t v)
{
    size_t n = 0;
    for (; v >= 0x80; v >>= 7)
        buf[n++] = (uint8_t)(v | 0x80);
    buf[n++] = (uint8_t)v;
    return n;
}

void ph_pb_out_field(ph_pb_out *ob, unsigned field,
                     const ProtobufCMessage *msg)
{
    uint8_t head[20];
    size_t n = put_varint(head, (uint64_t)field << 3 | 2);
    n += put_varint(head + n, protobuf_c_message_get_packed_size(msg));
    ph_output_write(ob->out, head, n);
    protobuf_c_message_pack_to_buffer(msg, &ob->base);
}

void ph_pb_out_message(ph_pb_out *ob, const ProtobufCMessage *msg)
{
    protobuf_c_message_pack_to_buffer(msg, &ob->base);
}
