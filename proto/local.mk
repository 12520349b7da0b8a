# proto/local.mk -- the protobuf layer shared by importers and exporters:
# the .proto schemas, the protobuf-c code generated from them at build time
# (never committed: nodist, BUILT_SOURCES), named field numbers, the
# wire-level walker and the helpers both protobuf readers use.
PH_PROTOS = proto/pprof.proto proto/drcctprof.proto
PH_PROTO_GEN = proto/pprof.pb-c.c proto/pprof.pb-c.h \
	proto/drcctprof.pb-c.c proto/drcctprof.pb-c.h
nodist_libph_la_SOURCES = $(PH_PROTO_GEN)
BUILT_SOURCES += $(PH_PROTO_GEN)
CLEANFILES += $(PH_PROTO_GEN)
EXTRA_DIST += $(PH_PROTOS)
proto/pprof.pb-c.c: proto/pprof.proto
	$(AM_V_GEN)$(MKDIR_P) proto && \
	$(PROTOC_C) --c_out=. -I$(srcdir) $(srcdir)/proto/pprof.proto
proto/pprof.pb-c.h: proto/pprof.pb-c.c
	@:
proto/drcctprof.pb-c.c: proto/drcctprof.proto
	$(AM_V_GEN)$(MKDIR_P) proto && \
	$(PROTOC_C) --c_out=. -I$(srcdir) $(srcdir)/proto/drcctprof.proto
proto/drcctprof.pb-c.h: proto/drcctprof.pb-c.c
	@:
libph_la_SOURCES += proto/pb_fields.h proto/pb_wire.h proto/pb_wire.c \
	proto/pb_read.h proto/pb_read.c proto/pb_out.h proto/pb_out.c \
	proto/pb_scan.h proto/pb_records.h proto/pb_records.c
