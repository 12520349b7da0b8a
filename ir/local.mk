# ir/local.mk -- the in-memory profile and byte I/O.
libph_la_SOURCES += \
	ir/ir.h ir/io.h ir/format.h ir/ir_priv.h ir/hash.h ir/varint.h ir/costs_pack.h ir/idmap.h ir/jobs.h ir/stock.h \
	ir/alloc.c ir/arena.c ir/strtab.c ir/profile.c ir/symbols.c \
	ir/events.c ir/rows.c ir/calls.c ir/tree.c ir/aggregate.c ir/credit.c ir/units.c \
	ir/input.c ir/output.c ir/gz_members.h ir/gz_members.c ir/numbers.c ir/utf8.c ir/idmap.c ir/jobs.c ir/stock.c
