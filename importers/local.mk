# importers/local.mk -- included by the top Makefile.am
# Each format adds its files here; importer_registry.c holds the table.
libph_la_SOURCES += importers/importers.h importers/importer_registry.c \
	importers/builtin_events.c

# proto: pprof and drcctprof schemas, compiled by protoc-c at build time.
# The generated code stays out of git (nodist) and is shared by the pprof
# and drcctprof importers and exporters.
PH_PROTOS = importers/pprof.proto importers/drcctprof.proto
PH_PROTO_GEN = importers/pprof.pb-c.c importers/pprof.pb-c.h \
	importers/drcctprof.pb-c.c importers/drcctprof.pb-c.h
nodist_libph_la_SOURCES = $(PH_PROTO_GEN)
BUILT_SOURCES += $(PH_PROTO_GEN)
CLEANFILES += $(PH_PROTO_GEN)
EXTRA_DIST += $(PH_PROTOS)
importers/pprof.pb-c.c: importers/pprof.proto
	$(AM_V_GEN)$(MKDIR_P) importers && \
	$(PROTOC_C) --c_out=. -I$(srcdir) $(srcdir)/importers/pprof.proto
importers/pprof.pb-c.h: importers/pprof.pb-c.c
	@:
importers/drcctprof.pb-c.c: importers/drcctprof.proto
	$(AM_V_GEN)$(MKDIR_P) importers && \
	$(PROTOC_C) --c_out=. -I$(srcdir) $(srcdir)/importers/drcctprof.proto
importers/drcctprof.pb-c.h: importers/drcctprof.pb-c.c
	@:
libph_la_SOURCES += importers/pprof_wire.h importers/pprof_wire.c \
	importers/pprof_in.c importers/drcctprof_in.c importers/folded_in.c
# cachegrind: cachegrind.out.<pid> reader.
libph_la_SOURCES += importers/cachegrind_in.c
# callgrind: scanner, IR builder, the run's files as parts.
libph_la_SOURCES += importers/callgrind_priv.h importers/callgrind_scan.c \
	importers/callgrind_in.c importers/callgrind_head.c \
	importers/callgrind_files.c
# native: profhub record's experiments (runtime/FORMAT.md), symbolised.
libph_la_SOURCES += importers/native.h importers/native_in.c \
	importers/native_sym.c importers/native_dwarf.c runtime/expfmt.h
# gmon: gprof's gmon.out, with the executable's symbols and lines.
libph_la_SOURCES += importers/gmon_priv.h importers/gmon_in.c \
	importers/gmon_syms.c importers/gmon_model.c
