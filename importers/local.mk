# importers/local.mk -- included by the top Makefile.am
# Each format adds its files here; importer_registry.c holds the table.
libph_la_SOURCES += importers/importers.h importers/importer_registry.c \
	importers/builtin_events.c importers/event_config.c \
	importers/elf_syms.h importers/elf_syms.c

# pprof, drcctprof (on proto/), folded.
libph_la_SOURCES += importers/pprof_in.c importers/drcctprof_in.c \
	importers/folded_in.c
# cachegrind: cachegrind.out.<pid> reader.
libph_la_SOURCES += importers/cachegrind_in.c
# callgrind: scanner, IR builder, the run's files as parts.
libph_la_SOURCES += importers/callgrind_priv.h importers/callgrind_scan.c \
	importers/callgrind_in.c importers/callgrind_head.c \
	importers/callgrind_files.c importers/callgrind_par.c
# native: profhub record's experiments (runtime/FORMAT.md), symbolised.
libph_la_SOURCES += importers/native.h importers/native_in.c \
	importers/native_sym.c importers/native_dwarf.c runtime/expfmt.h
# gmon: gprof's gmon.out, with the executable's symbols and lines.
libph_la_SOURCES += importers/gmon_priv.h importers/gmon_in.c \
	importers/gmon_syms.c importers/gmon_model.c
