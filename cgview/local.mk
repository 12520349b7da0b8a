# cgview/local.mk -- the command-line front end.
bin_PROGRAMS += profhub
profhub_SOURCES = cgview/main.c cgview/cli.h
profhub_SOURCES += cgview/cli.c cgview/formats.c cgview/info.c \
	cgview/convert.c cgview/summary.c
profhub_SOURCES += cgview/record.c cgview/collectors.c
profhub_SOURCES += cgview/emit.c cgview/emit.h cgview/report.h \
	cgview/report_common.c cgview/report_table.c cgview/report_graph.c \
	cgview/report_annotate.c cgview/config.c
profhub_SOURCES += cgview/save.c cgview/diff.c cgview/merge.c
# Pictures: SVG through exporters/svg.h, and the HTML report.
profhub_SOURCES += cgview/draw.c cgview/report_html.c
profhub_LDADD = libph.la
profhub_LDADD += $(YAML_LIBS)
dist_man_MANS += cgview/profhub.1 cgview/cgview.1

# cgview is "profhub summary" under the name KCachegrind users know.
install-exec-hook:
	cd $(DESTDIR)$(bindir) && rm -f cgview$(EXEEXT) && $(LN_S) profhub$(EXEEXT) cgview$(EXEEXT)
uninstall-hook:
	rm -f $(DESTDIR)$(bindir)/cgview$(EXEEXT)
# No cgview link in the build tree: it would clash with the cgview/ object
# folder (subdir-objects).  Tests make their own link to profhub.
