# exporters/local.mk -- included by the top Makefile.am
# Each format adds its files here; registry.c holds the table.
libph_la_SOURCES += exporters/exporters.h exporters/registry.c
