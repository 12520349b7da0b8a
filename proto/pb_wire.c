/* pb_wire.c -- protobuf at the wire level, for the pprof and drcctprof
 * readers: decoding itself is protobuf-c's job; this file walks the
 * top-level fields to know byte offsets (error messages name the offset of
 * the bad sample or location), votes on which schema a buffer follows, and
 * holds the drcctprof rule for metric names that say ids. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir/format.h"
#include "proto/pb_fields.h"
#include "proto/pb_scan.h"
#include "proto/pb_wire.h"

/* A varint, or the value of a field of wire type wt, at *pos by
 * pb_scan.h's rules (what protobuf-c refuses is -1); *pos moves past it. */
static int read_varint(const unsigned char *d, size_t len, size_t *pos,
                       uint64_t *v)
{
    ph_pbs c = {d + *pos, d + len};
    int rc = ph_pbs_varint(&c, v);
    *pos = (size_t)(c.p - d);
    return rc;
}

static int skip_value(const unsigned char *d, size_t len, size_t *pos,
                      unsigned wt)
{
    ph_pbs c = {d + *pos, d + len};
    int rc = ph_pbs_skip(&c, wt);
    *pos = (size_t)(c.p - d);
    return rc;
}

static void push_offset(ph_pb_index *ix, int f, size_t off)
{
    if (ix->n[f] == ix->cap[f]) {
        ix->cap[f] = ix->cap[f] ? 2 * ix->cap[f] : 16;
        ix->off[f] = ph_xrealloc(ix->off[f], ix->cap[f] * sizeof(size_t));
    }
    ph_map_ahead(ix->off[f], sizeof(size_t), ix->n[f], ix->cap[f]);
    ix->off[f][ix->n[f]++] = off;
}

int ph_pb_index_build(ph_pb_index *ix, const unsigned char *data,
                      size_t len, size_t *bad_off, const char **why)
{
    size_t pos = 0;
    memset(ix, 0, sizeof *ix);
    while (pos < len) {
        size_t start = pos;
        uint64_t key;
        if (read_varint(data, len, &pos, &key) < 0) {
            *bad_off = start;
            *why = "truncated field key";
            return -1;
        }
        uint64_t f = key >> 3;
        unsigned wt = (unsigned)(key & 7);
        if (f == 0) {
            *bad_off = start;
            *why = "field number 0 is not valid protobuf";
            return -1;
        }
        if (skip_value(data, len, &pos, wt) < 0) {
            *bad_off = start;
            *why = wt == 3 || wt == 4 || wt > 5
                ? "unsupported protobuf wire type"
                : "field runs past the end of the data";
            return -1;
        }
        if (f <= PH_PB_MAXFIELD)
            push_offset(ix, (int)f, start);
    }
    return 0;
}

void ph_pb_index_free(ph_pb_index *ix)
{
    for (int f = 0; f <= PH_PB_MAXFIELD; f++)
        free(ix->off[f]);
    memset(ix, 0, sizeof *ix);
}

size_t ph_pb_index_off(const ph_pb_index *ix, int f, size_t i)
{
    if (f < 0 || f > PH_PB_MAXFIELD || i >= ix->n[f])
        return 0;
    return ix->off[f][i];
}

int ph_pb_field_at(const unsigned char *data, size_t len, size_t off,
                   unsigned *wt, size_t *vstart, size_t *vend)
{
    size_t pos = off;
    uint64_t key, n;
    if (off > len || read_varint(data, len, &pos, &key) < 0)
        return -1;
    *wt = (unsigned)(key & 7);
    if (*wt == 2) {
        if (read_varint(data, len, &pos, &n) < 0 || n > len - pos)
            return -1;
        *vstart = pos;
        *vend = pos + (size_t)n;
        return 0;
    }
    *vstart = pos;
    if (skip_value(data, len, &pos, *wt) < 0)
        return -1;
    *vend = pos;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Sniffing                                                           */

/* Shape of a nested message: bit (2*f + (wt==2)) per field seen. Returns
 * -1 when the bytes are not a well-formed message using wire types 0/2
 * and field numbers 1..15. */
static int64_t message_shape(const unsigned char *d, size_t len)
{
    size_t pos = 0;
    int64_t shape = 0;
    while (pos < len) {
        uint64_t key;
        if (read_varint(d, len, &pos, &key) < 0)
            return -1;
        uint64_t f = key >> 3;
        unsigned wt = (unsigned)(key & 7);
        if (f == 0 || f > 15 || (wt != 0 && wt != 2))
            return -1;
        if (skip_value(d, len, &pos, wt) < 0)
            return -1;
        shape |= (int64_t)1 << (2 * f + (wt == 2));
    }
    return shape;
}

#define SEEN(shape, f, ld) (((shape) >> (2 * (f) + (ld))) & 1)

static int looks_like_text(const unsigned char *d, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (d[i] < 0x20 && d[i] != '\t' && d[i] != '\n' && d[i] != '\r')
            return 0;
    return 1;
}

int ph_pb_sniff_vote(const unsigned char *data, size_t len, int *kind)
{
    size_t pos = 0;
    int fields = 0, pprof = 0, drcc = 0, cut = 0;
    *kind = '?';
    while (pos < len) {
        uint64_t key, v;
        if (read_varint(data, len, &pos, &key) < 0) {
            cut = 1;
            break;
        }
        uint64_t f = key >> 3;
        unsigned wt = (unsigned)(key & 7);
        if (f == 0 || f > 15 || (wt != 0 && wt != 2))
            return 0;
        if (wt == 0) {
            if (read_varint(data, len, &pos, &v) < 0) {
                cut = 1;
                break;
            }
            if (f <= PH_PPROF_STRING_TABLE)
                return 0;                /* repeated messages in both */
            if (f >= PH_PPROF_DROP_FRAMES)
                pprof += 3;              /* drop_frames, time_nanos, ... */
            fields++;
            continue;
        }
        if (read_varint(data, len, &pos, &v) < 0) {
            cut = 1;
            break;
        }
        if (v > len - pos) {
            if (fields == 0 && len - pos < 2)
                return 0;
            fields++;
            cut = 1;
            break;
        }
        const unsigned char *m = data + pos;
        size_t mlen = (size_t)v;
        pos += mlen;
        fields++;
        if (f == PH_PPROF_STRING_TABLE) {   /* = PH_DRCC_SOURCE_FILE */
            int64_t sh = message_shape(m, mlen);
            if (mlen > 0 && looks_like_text(m, mlen))
                pprof += 2;              /* a string of the table */
            else if (sh > 0)
                drcc += 2;               /* a SourceFile message */
            else if (mlen > 0)
                pprof += 1;              /* a string with control bytes
                                            (a name holding ESC or NUL) */
            continue;
        }
        if (f == PH_DRCC_STRING_TABLE) {
            drcc += 3;                   /* string table */
            continue;
        }
        if (f > PH_DRCC_STRING_TABLE) {
            if (f == PH_PPROF_PERIOD_TYPE && message_shape(m, mlen) >= 0)
                pprof += 3;              /* period_type */
            else if (f == PH_PPROF_PERIOD_TYPE)
                return 0;
            else
                pprof += 1;              /* packed comments */
            continue;
        }
        int64_t sh = message_shape(m, mlen);
        if (sh < 0)
            return 0;
        if (f == PH_DRCC_METRIC_TYPE && SEEN(sh, PH_DRCC_METRIC_TYPE_DES, 0))
            drcc += 2;                   /* MetricType.des */
        if (f == PH_DRCC_CONTEXT && SEEN(sh, PH_DRCC_CONTEXT_CHILDREN_ID, 1))
            drcc += 3;                   /* Context.children_id (packed) */
        if (f == PH_PPROF_MAPPING &&
            (SEEN(sh, PH_PPROF_MAPPING_FILENAME, 0) ||
             SEEN(sh, PH_PPROF_MAPPING_BUILD_ID, 0) ||
             SEEN(sh, PH_PPROF_MAPPING_HAS_FUNCTIONS, 0)))
            pprof += 3;                  /* Mapping filename, build id */
        if (f == PH_DRCC_LOCATION && SEEN(sh, PH_DRCC_LOCATION_LINE, 1))
            drcc += 2;                   /* Location.line at field 2 */
        if (f == PH_PPROF_LOCATION &&
            (SEEN(sh, PH_PPROF_LOCATION_LINE, 1) ||
             SEEN(sh, PH_PPROF_LOCATION_ADDRESS, 0)))
            pprof += 2;                  /* Location.line at 4, address */
        if (f == PH_PPROF_SAMPLE &&
            (SEEN(sh, PH_PPROF_SAMPLE_LOCATION_ID, 1) ||
             SEEN(sh, PH_PPROF_SAMPLE_LABEL, 1)))
            pprof += 1;                  /* Sample.location_id packed */
        if (f == PH_DRCC_SAMPLE && SEEN(sh, PH_DRCC_SAMPLE_CONTEXT_ID, 0) &&
            SEEN(sh, PH_DRCC_SAMPLE_METRIC, 1))
            drcc += 1;                   /* context_id + Metric */
    }
    /* A field runs past the data: a full window is judged by what it
     * has; shorter data is the whole input, so no protobuf (text such as
     * "21) main 20" reads as a field of 49 bytes). */
    if (cut && len < PH_SNIFF_BYTES)
        return 0;
    if (fields == 0)
        return 0;
    if (pprof > drcc)
        *kind = 'p';
    else if (drcc > pprof)
        *kind = 'd';
    return 10 + 5 * (fields > 8 ? 8 : fields);
}

/* ------------------------------------------------------------------ */
/* drcctprof metric names                                             */

int ph_drcc_name_says_ids(const char *s)
{
    char word[32];
    int has_start = 0, has_time = 0;
    while (*s) {
        size_t n = 0;
        while (*s && !isalnum((unsigned char)*s))
            s++;
        while (isalnum((unsigned char)*s)) {
            if (n + 1 < sizeof word)
                word[n++] = (char)tolower((unsigned char)*s);
            s++;
        }
        word[n] = '\0';
        if (!strcmp(word, "context") || !strcmp(word, "type") ||
            !strcmp(word, "id") || !strcmp(word, "handle"))
            return 1;
        if (!strcmp(word, "start") || !strcmp(word, "end"))
            has_start = 1;
        if (!strcmp(word, "time"))
            has_time = 1;
    }
    return has_start && has_time;
}
