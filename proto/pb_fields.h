/* pb_fields.h -- the field numbers of proto/pprof.proto and
 * proto/drcctprof.proto that C code names directly: the wire walker keys
 * byte offsets by them (error messages), the sniffer tells the two
 * schemas apart by them and the writers encode their bulk messages by
 * hand with them (pb_out.h).  protobuf-c's generated code knows them
 * too, but only as run-time descriptor data, not as constants.  Keep
 * these in step with the .proto files. */
#ifndef PH_PB_FIELDS_H
#define PH_PB_FIELDS_H

/* perftools.profiles.Profile */
enum {
    PH_PPROF_SAMPLE_TYPE = 1,
    PH_PPROF_SAMPLE = 2,
    PH_PPROF_MAPPING = 3,
    PH_PPROF_LOCATION = 4,
    PH_PPROF_FUNCTION = 5,
    PH_PPROF_STRING_TABLE = 6,
    PH_PPROF_DROP_FRAMES = 7,
    PH_PPROF_KEEP_FRAMES = 8,
    PH_PPROF_TIME_NANOS = 9,
    PH_PPROF_DURATION_NANOS = 10,
    PH_PPROF_PERIOD_TYPE = 11,
    PH_PPROF_PERIOD = 12,
    PH_PPROF_COMMENT = 13,
    PH_PPROF_DEFAULT_SAMPLE_TYPE = 14,
    PH_PPROF_DOC_URL = 15,
};
/* perftools.profiles.Sample, Label, Mapping, Location, Line, Function */
enum {
    PH_PPROF_SAMPLE_LOCATION_ID = 1,
    PH_PPROF_SAMPLE_VALUE = 2,
    PH_PPROF_SAMPLE_LABEL = 3,
    PH_PPROF_LABEL_KEY = 1,
    PH_PPROF_LABEL_STR = 2,
    PH_PPROF_LABEL_NUM = 3,
    PH_PPROF_LABEL_NUM_UNIT = 4,
    PH_PPROF_MAPPING_FILE_OFFSET = 4,
    PH_PPROF_MAPPING_FILENAME = 5,
    PH_PPROF_MAPPING_BUILD_ID = 6,
    PH_PPROF_MAPPING_HAS_FUNCTIONS = 7,
    PH_PPROF_LOCATION_ID = 1,
    PH_PPROF_LOCATION_MAPPING_ID = 2,
    PH_PPROF_LOCATION_ADDRESS = 3,
    PH_PPROF_LOCATION_LINE = 4,
    PH_PPROF_LINE_FUNCTION_ID = 1,
    PH_PPROF_LINE_LINE = 2,
    PH_PPROF_FUNCTION_ID = 1,
    PH_PPROF_FUNCTION_NAME = 2,
    PH_PPROF_FUNCTION_SYSTEM_NAME = 3,
    PH_PPROF_FUNCTION_FILENAME = 4,
    PH_PPROF_FUNCTION_START_LINE = 5,
};

/* drcctprof.profile.Profile */
enum {
    PH_DRCC_METRIC_TYPE = 1,
    PH_DRCC_SAMPLE = 2,
    PH_DRCC_CONTEXT = 3,
    PH_DRCC_LOCATION = 4,
    PH_DRCC_FUNCTION = 5,
    PH_DRCC_SOURCE_FILE = 6,
    PH_DRCC_STRING_TABLE = 7,
};
/* drcctprof.profile.MetricType, Sample, Metric, Context, Location, Line,
 * Function, SourceFile */
enum {
    PH_DRCC_METRIC_TYPE_DES = 3,
    PH_DRCC_SAMPLE_CONTEXT_ID = 1,
    PH_DRCC_SAMPLE_METRIC = 2,
    PH_DRCC_METRIC_INT_VALUE = 1,
    PH_DRCC_METRIC_UINT_VALUE = 2,
    PH_DRCC_METRIC_STR_VALUE = 3,
    PH_DRCC_CONTEXT_ID = 1,
    PH_DRCC_CONTEXT_LOCATION_ID = 2,
    PH_DRCC_CONTEXT_PARENT_ID = 3,
    PH_DRCC_CONTEXT_CHILDREN_ID = 4,
    PH_DRCC_LOCATION_ID = 1,
    PH_DRCC_LOCATION_LINE = 2,
    PH_DRCC_LINE_FUNCTION_ID = 1,
    PH_DRCC_LINE_LINE = 2,
    PH_DRCC_FUNCTION_ID = 1,
    PH_DRCC_FUNCTION_NAME = 2,
    PH_DRCC_FUNCTION_SYSTEM_NAME = 3,
    PH_DRCC_FUNCTION_SOURCE_FILE_ID = 4,
    PH_DRCC_FUNCTION_START_LINE = 5,
    PH_DRCC_SOURCE_FILE_ID = 1,
    PH_DRCC_SOURCE_FILE_FILENAME = 2,
    PH_DRCC_SOURCE_FILE_LOCATION_PATH = 3,
};

/* The highest top-level field number of either schema. */
#define PH_PB_MAXFIELD 15

#endif /* PH_PB_FIELDS_H */
