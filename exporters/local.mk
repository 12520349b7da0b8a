# exporters/local.mk -- included by the top Makefile.am
# Each format adds its files here; exporter_registry.c holds the table.
libph_la_SOURCES += exporters/exporters.h exporters/exporter_registry.c
# Writers share what an additive format can carry (out_events.c); stacks
# and flat records come from the views of analysis/.
libph_la_SOURCES += exporters/out_events.h exporters/out_events.c \
	exporters/out_strings.h exporters/out_strings.c \
	exporters/pprof_out.c exporters/drcctprof_out.c exporters/folded_out.c \
	exporters/speedscope_out.c exporters/dot_out.c
# cachegrind: cachegrind.out writer.
libph_la_SOURCES += exporters/cachegrind_out.c
# callgrind: callgrind out-file writer.
libph_la_SOURCES += exporters/callgrind_out.c
# the frame tree of the folded writer and the pictures.
libph_la_SOURCES += exporters/frames.h exporters/frames.c
# pictures: SVG flame graphs, treemaps and call graphs (svg.h is the
# entry for cgview's draw and report).
libph_la_SOURCES += exporters/svg.h exporters/svg_priv.h \
	exporters/svg_common.c \
	exporters/svg_funcs.c \
	exporters/svg_flame.c exporters/svg_treemap.c \
	exporters/svg_callgraph.c exporters/svg_out.c
