/* pb_records.h -- the bulk records of the two schemas decoded by hand:
 * pprof's Sample, Location and Function, DrCCTProf's Context and Sample.
 * A big profile holds millions of them; protobuf-c made a struct and
 * arrays for each through its descriptor tables (a third of the time of
 * reading a Go heap profile, a fifth of a DrCCTProf one), and every
 * sample was decoded twice (checked before reading, then read).  The rest
 * of a message goes through protobuf-c.  Each decoder returns 0, or -1
 * where protobuf-c refuses the message too (pb_scan.h;
 * tests/unit/pb_decode_test.c holds them against it); its arrays are
 * reused from one record to the next. */
#ifndef PH_PB_RECORDS_H
#define PH_PB_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "proto/pb_wire.h"

typedef struct ph_pprof_label {
    int64_t key, str, num, num_unit;   /* string indexes but num */
} ph_pprof_label;

/* pprof: Sample { repeated uint64 location_id = 1; repeated int64 value =
 * 2; repeated Label label = 3; }, Label { int64 key = 1; int64 str = 2;
 * int64 num = 3; int64 num_unit = 4; } */
typedef struct ph_pprof_sample {
    uint64_t *location_id;
    size_t n_location_id, cap_location_id;
    uint64_t *value;        /* int64 values, as their two's complement */
    size_t n_value, cap_value;
    ph_pprof_label *label;
    size_t n_label, cap_label;
} ph_pprof_sample;

int ph_pprof_sample_decode(ph_pprof_sample *s, const unsigned char *p,
                           size_t len);
void ph_pprof_sample_free(ph_pprof_sample *s);

/* pprof: Location { uint64 id = 1; uint64 mapping_id = 2; uint64 address
 * = 3; repeated Line line = 4; bool is_folded = 5; }, Line { uint64
 * function_id = 1; int64 line = 2; int64 column = 3; }: is_folded and
 * column are read past, not kept (the IR has no use for them). */
typedef struct ph_pprof_line {
    uint64_t function_id;
    int64_t line;
} ph_pprof_line;

typedef struct ph_pprof_location {
    uint64_t id, mapping_id, address;
    ph_pprof_line *line;
    size_t n_line, cap_line;
} ph_pprof_location;

int ph_pprof_location_decode(ph_pprof_location *l, const unsigned char *p,
                             size_t len);
void ph_pprof_location_free(ph_pprof_location *l);

/* pprof: Function { uint64 id = 1; int64 name = 2; int64 system_name = 3;
 * int64 filename = 4; int64 start_line = 5; } (strings as indexes) */
typedef struct ph_pprof_function {
    uint64_t id;
    int64_t name, system_name, filename, start_line;
} ph_pprof_function;

int ph_pprof_function_decode(ph_pprof_function *f, const unsigned char *p,
                             size_t len);

/* DrCCTProf: Context { uint64 id = 1; uint64 location_id = 2; uint64
 * parent_id = 3; repeated uint64 children_id = 4; }: the children are
 * checked, not kept (the parents say the same). */
typedef struct ph_drcc_context {
    uint64_t id, location_id, parent_id;
    uint64_t *children;     /* scratch for the check, reused */
    size_t n_children, cap_children;
} ph_drcc_context;

/* Metric { int64 int_value = 1; uint64 uint_value = 2; int64 str_value =
 * 3; } */
typedef struct ph_drcc_metric {
    int64_t int_value;
    uint64_t uint_value;
    int64_t str_value;
} ph_drcc_metric;

/* Sample { uint64 context_id = 1; repeated Metric metric = 2; } */
typedef struct ph_drcc_sample {
    uint64_t context_id;
    ph_drcc_metric *metric;
    size_t n_metric, cap_metric;
} ph_drcc_sample;

int ph_drcc_context_decode(ph_drcc_context *c, const unsigned char *p,
                           size_t len);
int ph_drcc_sample_decode(ph_drcc_sample *s, const unsigned char *p,
                          size_t len);
void ph_drcc_context_free(ph_drcc_context *c);
void ph_drcc_sample_free(ph_drcc_sample *s);

typedef enum ph_pb_record_kind {
    PH_PB_PPROF_SAMPLE,
    PH_PB_PPROF_LOCATION,
    PH_PB_PPROF_FUNCTION,
    PH_PB_DRCC_SAMPLE,
} ph_pb_record_kind;

/* The top-level field that holds the records of a kind. */
int ph_pb_record_field(ph_pb_record_kind kind);

/* Whether every record of the kind decodes, half of them on another
 * thread (ph_run_pair): a profile that does not decode is refused before
 * any of it is read. */
int ph_pb_records_check(const ph_pb_index *ix, const unsigned char *data,
                        size_t len, ph_pb_record_kind kind);

#endif /* PH_PB_RECORDS_H */
