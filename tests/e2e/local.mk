# tests/e2e/local.mk -- shell scripts over real samples; exit 77 = skipped.
E2E_TESTS =
# The front end: usage and exit statuses, formats, convert's data safety.
E2E_TESTS += tests/e2e/cli_usage.sh tests/e2e/cli_formats.sh \
	tests/e2e/cli_convert.sh tests/e2e/cli_man.sh tests/e2e/cli_input.sh \
	tests/e2e/cli_options.sh tests/e2e/completion.sh \
	tests/e2e/cli_numbers.sh tests/e2e/shapes.sh tests/e2e/empty_inputs.sh \
	tests/e2e/callgrind_siblings.sh tests/e2e/stale_temps.sh \
	tests/e2e/cost_overflow.sh tests/e2e/inject.sh \
	tests/e2e/writer_roundtrip.sh tests/e2e/names_text.sh \
	tests/e2e/memory_limit.sh
EXTRA_DIST += tests/e2e/roundtrip.py
EXTRA_DIST += tests/inject/inject.c
EXTRA_DIST += tests/e2e/shapes.py
# The views beside a profile, against go tool pprof, gprof and summary.
E2E_TESTS += tests/e2e/views.sh tests/e2e/fidelity.sh
# Derived events (built-ins, config file, --define) in every command.
E2E_TESTS += tests/e2e/derived_events.sh
# ARCHITECTURE.md's arrows, read from the sources.
E2E_TESTS += tests/e2e/architecture.sh
TESTS += $(E2E_TESTS)
EXTRA_DIST += tests/e2e/lib.sh $(E2E_TESTS)
TESTS_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	PROFHUB='$(abs_top_builddir)/profhub'; export top_srcdir top_builddir PROFHUB;
# Peer checks against callgrind_annotate / cg_annotate (issue 3 item 5):
# irfacts prints what the IR holds, annotate2tsv parses the peers' output.
check_PROGRAMS += tests/e2e/irfacts
tests_e2e_irfacts_SOURCES = tests/e2e/irfacts.c
tests_e2e_irfacts_LDADD = libph.la
E2E_TESTS += tests/e2e/peer_callgrind.sh tests/e2e/peer_cachegrind.sh \
	tests/e2e/group_file.sh tests/e2e/tree_peer.sh tests/e2e/annotate_peer.sh \
	tests/e2e/annotate_unknown.sh tests/e2e/disasm_peer.sh \
	tests/e2e/disasm_jumps.sh tests/e2e/sort_parts_peer.sh
EXTRA_DIST += tests/e2e/annotate2tsv tests/e2e/treecmp tests/e2e/annocmp \
	tests/e2e/listcmp
# The callgrind reader's threads give what one thread gives.
E2E_TESTS += tests/e2e/parse_jobs.sh
# the folded writer: each stack of names once (frames.h)
E2E_TESTS += tests/e2e/folded_stacks.sh
# cachegrind bad inputs: exact one-line messages.
E2E_TESTS += tests/e2e/bad_cachegrind.sh
EXTRA_DIST += tests/bad/cachegrind
# gmon against gprof (issue 6): gprof_table prints gprof's numbers as
# analysis/gprof_prop.c computes them; gprof2tsv parses gprof's output.
check_PROGRAMS += tests/e2e/gprof_table
tests_e2e_gprof_table_SOURCES = tests/e2e/gprof_table.c
tests_e2e_gprof_table_LDADD = libph.la
E2E_TESTS += tests/e2e/peer_gmon.sh tests/e2e/bad_gmon.sh
EXTRA_DIST += tests/e2e/gprof2tsv tests/e2e/gmon2bsd tests/bad/gmon
# gprof attribution on programs built with gcc -pg at test time
E2E_TESTS += tests/e2e/gmon_live.sh
# summary of gmon.out in gprof's seconds, gprof's rows (issue 13, 17)
E2E_TESTS += tests/e2e/gprof_views.sh
# gmon ticks per source line against gprof -l (issue 17)
E2E_TESTS += tests/e2e/gprof_lines.sh tests/e2e/gprof_flat_lines.sh
EXTRA_DIST += tests/e2e/gprof_lines_cmp
# --gprof --annotate against gprof -A (issue 17)
E2E_TESTS += tests/e2e/gprof_source.sh
EXTRA_DIST += tests/e2e/src/gmon_plt.c tests/e2e/gprof_flat_cmp \
	tests/e2e/gprof_graph_cmp
# profhub record (issue 8): the runtime, collectors and native importer
# on small programs compiled with gcc -g in each test's folder.
E2E_TESTS += tests/e2e/record_pcsamp.sh tests/e2e/record_usertime.sh \
	tests/e2e/record_threads.sh tests/e2e/record_fork.sh \
	tests/e2e/record_exec.sh tests/e2e/record_crash.sh \
	tests/e2e/record_hwc.sh tests/e2e/record_inline.sh \
	tests/e2e/record_signals.sh tests/e2e/record_plugins.sh \
	tests/e2e/record_missed.sh
EXTRA_DIST += tests/e2e/record_lib.sh tests/e2e/src/rec_threads.c \
	tests/e2e/src/rec_sigprof.c tests/e2e/src/bad_plugin.c \
	tests/e2e/src/rec_short.c \
	tests/e2e/src/rec_fork.c tests/e2e/src/rec_exec.c tests/e2e/src/rec_segv.c \
	tests/e2e/src/rec_inline.cpp
# diff and merge (issue 5) against cg_diff, go tool pprof -diff_base,
# callgrind_annotate and cg_annotate.
E2E_TESTS += tests/e2e/diff_peers.sh tests/e2e/merge_copies.sh
# summary of many FILEs (issue 11): memory of a few, totals by the peer.
E2E_TESTS += tests/e2e/summary_many_files.sh
# the progress line on a terminal (issue 11), one for many files loaded in
# turn (merge, summary's parts, draw's sum).
E2E_TESTS += tests/e2e/progress_line.sh
# callgrind bad inputs: exact one-line messages, format found by sniffing.
E2E_TESTS += tests/e2e/bad_callgrind.sh
EXTRA_DIST += tests/bad/callgrind
# pprof, drcctprof, folded (issue 7): against go tool pprof, the EasyView
# profiles (with an independent protobuf walker) and round trips.
E2E_TESTS += tests/e2e/pprof_top.sh tests/e2e/pprof_export.sh \
	tests/e2e/easyview.sh tests/e2e/proto_convert.sh
EXTRA_DIST += tests/e2e/pbwalk.py tests/e2e/pprofcmp.py \
	samples/easyview/README.md samples/easyview/fig4_memory_flow.ezview \
	samples/easyview/fig6_lulesh_bottomup.ezview \
	samples/easyview/fig7_lulesh_reuse_distance.ezview
# profhub summary (issue 4): JSON against callgrind_annotate, cg_annotate
# and go tool pprof -top, derived ratios, cycles, 80 columns.
E2E_TESTS += tests/e2e/summary_peer.sh tests/e2e/summary_ratio.sh \
	tests/e2e/summary_recursion.sh tests/e2e/summary_width.sh \
	tests/e2e/summary_pprof.sh tests/e2e/summary_options.sh
# pprof's filters and cut-offs, callgrind_annotate's coverage (issue 17).
E2E_TESTS += tests/e2e/pprof_filters.sh tests/e2e/summary_coverage.sh \
	tests/e2e/pprof_traces.sh
EXTRA_DIST += tests/e2e/summary_json
# pprof, drcctprof and folded bad inputs: offsets or line:column.
E2E_TESTS += tests/e2e/bad_proto.sh
EXTRA_DIST += tests/bad/pprof tests/bad/drcctprof tests/bad/folded
E2E_TESTS += tests/e2e/cli_collectors.sh
# Third-party callgrind writers (issue 13 item 8): Xdebug, pyprof2calltree,
# go tool pprof -callgrind and dprof2calltree samples against what their
# source tools report.
E2E_TESTS += tests/e2e/writer_xdebug.sh tests/e2e/writer_pyprof.sh \
	tests/e2e/writer_gopprof.sh tests/e2e/writer_dprof.sh
# diff of two differently named builds (issue 13 item 10), valgrind runs
# made in the test, against cg_diff and go tool pprof -diff_base.
E2E_TESTS += tests/e2e/diff_renamed.sh
# Pictures (issue 14): profhub draw against summary's numbers.
E2E_TESTS += tests/e2e/draw_svg.sh
EXTRA_DIST += tests/e2e/svgcheck.py
# ... and in headless Chromium through chromedriver (browser.py); a diff
# of two runs made under valgrind in the test.
E2E_TESTS += tests/e2e/draw_browser.sh tests/e2e/draw_diff_live.sh
EXTRA_DIST += tests/e2e/browser.py
# Every report in every format against the outputs saved before reports
# moved to one emitter (issue 12 item 6).
E2E_TESTS += tests/e2e/report_shapes.sh
EXTRA_DIST += tests/e2e/report_shapes
