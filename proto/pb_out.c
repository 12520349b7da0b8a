/* pb_out.c -- protobuf messages written to a ph_output (pb_out.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
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

/* The tag of field `field` with wire type 2 and the length that follows,
 * at d (20 bytes of room); returns their end. */
static unsigned char *put_head(unsigned char *d, unsigned field, size_t len)
{
    d = ph_put_varint(d, (uint64_t)field << 3 | 2);
    return ph_put_varint(d, len);
}

static void write_head(ph_pb_out *ob, unsigned field, size_t len)
{
    unsigned char head[20];
    size_t n = (size_t)(put_head(head, field, len) - head);
    ph_output_write(ob->out, head, n);
}

void ph_pb_out_field(ph_pb_out *ob, unsigned field,
                     const ProtobufCMessage *msg)
{
    write_head(ob, field, protobuf_c_message_get_packed_size(msg));
    protobuf_c_message_pack_to_buffer(msg, &ob->base);
}

void ph_pb_out_message(ph_pb_out *ob, const ProtobufCMessage *msg)
{
    protobuf_c_message_pack_to_buffer(msg, &ob->base);
}

/* ------------------------------------------------------------------ */
/* Messages encoded by hand                                            */

static void msg_reserve(ph_pb_msg *m, size_t more)
{
    if (m->n + more <= m->cap)
        return;
    m->cap = 2 * (m->n + more) + 256;
    m->b = ph_xrealloc(m->b, m->cap);
}

void ph_pb_msg_varint(ph_pb_msg *m, unsigned field, uint64_t v)
{
    if (!v)
        return;                    /* proto3 leaves zero scalars out */
    msg_reserve(m, 20);
    unsigned char *d = ph_put_varint(m->b + m->n, (uint64_t)field << 3);
    m->n = (size_t)(ph_put_varint(d, v) - m->b);
}

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

void ph_pb_msg_packed(ph_pb_msg *m, unsigned field, const uint64_t *v,
                      size_t n)
{
    size_t len = 0;
    if (!n)
        return;
    for (size_t i = 0; i < n; i++)
        len += varint_len(v[i]);
    msg_reserve(m, 20 + len);
    unsigned char *d = put_head(m->b + m->n, field, len);
    for (size_t i = 0; i < n; i++)
        d = ph_put_varint(d, v[i]);
    m->n = (size_t)(d - m->b);
}

void ph_pb_msg_bytes(ph_pb_msg *m, unsigned field, const void *data,
                     size_t len)
{
    msg_reserve(m, 20 + len);
    unsigned char *d = put_head(m->b + m->n, field, len);
    if (len)
        memcpy(d, data, len);
    m->n = (size_t)(d + len - m->b);
}

void ph_pb_msg_free(ph_pb_msg *m)
{
    free(m->b);
    m->b = NULL;
    m->n = m->cap = 0;
}

void ph_pb_out_bytes(ph_pb_out *ob, unsigned field, const void *data,
                     size_t len)
{
    write_head(ob, field, len);
    if (len)
        ph_output_write(ob->out, data, len);
}
