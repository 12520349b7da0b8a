# cgview/local.mk -- the command-line front end.
bin_PROGRAMS += profhub
profhub_SOURCES = cgview/main.c cgview/cli.h
profhub_SOURCES += cgview/cli.c cgview/formats.c cgview/info.c \
	cgview/convert.c cgview/summary.c cgview/summary_filter.c \
	cgview/summary_filter.h cgview/report_traces.c
profhub_SOURCES += cgview/record.c cgview/record_check.c \
	cgview/record_check.h cgview/collectors.c
profhub_SOURCES += cgview/emit.c cgview/emit.h cgview/report.h \
	cgview/report_common.c cgview/report_head.c cgview/grid.c cgview/grid.h \
	cgview/report_table.c cgview/report_graph.c \
	cgview/report_gprof.c cgview/report_gprof_source.c \
	cgview/report_annotate.c cgview/annotate.c cgview/annotate.h \
	cgview/derived.c cgview/report_disasm.c cgview/objdump.c cgview/objdump.h
profhub_SOURCES += cgview/save.c cgview/diff.c cgview/fail_rule.c \
	cgview/fail_rule.h cgview/merge.c
profhub_SOURCES += cgview/version.c
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

# Shell completion (bash, zsh) for profhub and cgview.  Directories can be
# changed at configure time with make bashcompdir=... zshcompdir=...
bashcompdir = $(datadir)/bash-completion/completions
zshcompdir = $(datadir)/zsh/site-functions
EXTRA_DIST += cgview/completion/profhub.bash cgview/completion/_profhub
install-data-local:
	$(MKDIR_P) $(DESTDIR)$(bashcompdir) $(DESTDIR)$(zshcompdir)
	$(INSTALL_DATA) $(srcdir)/cgview/completion/profhub.bash \
		$(DESTDIR)$(bashcompdir)/profhub
	cd $(DESTDIR)$(bashcompdir) && rm -f cgview && $(LN_S) profhub cgview
	$(INSTALL_DATA) $(srcdir)/cgview/completion/_profhub \
		$(DESTDIR)$(zshcompdir)/_profhub
uninstall-local:
	rm -f $(DESTDIR)$(bashcompdir)/profhub $(DESTDIR)$(bashcompdir)/cgview \
		$(DESTDIR)$(zshcompdir)/_profhub
