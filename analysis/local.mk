# analysis/local.mk -- questions asked of a profile (reads the IR only).
libph_la_SOURCES += analysis/analysis.h analysis/analysis_priv.h \
	analysis/subtree.c analysis/cycles.c analysis/table.c \
	analysis/classname.c analysis/arcs.c analysis/profile_merge.c \
	analysis/profile_diff.c analysis/view_stacks.c analysis/view_flat.c \
	analysis/scc.c analysis/main_object.c analysis/sumbuf.c \
	analysis/merge_stream.c analysis/tag_filter.c analysis/table_filter.c \
	analysis/instr_costs.h analysis/instr_costs.c
pkginclude_HEADERS += analysis/analysis.h analysis/instr_costs.h
# gprof's self/children/cycles arithmetic (issue 6).
libph_la_SOURCES += analysis/gprof.h analysis/gprof_prop.c analysis/gprof_incl.c \
	analysis/gprof_lines.c
pkginclude_HEADERS += analysis/gprof.h
