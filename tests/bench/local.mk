# tests/bench/local.mk -- make bench: speed and memory against the peers.
# profhub record's overhead at the default rates (issue 8), via hyperfine.
EXTRA_DIST += tests/bench/record_overhead.sh
.PHONY: bench bench-record
bench: bench-record
bench-record: all
	top_srcdir='$(abs_top_srcdir)' PROFHUB='$(abs_top_builddir)/profhub' \
	$(SHELL) $(abs_top_srcdir)/tests/bench/record_overhead.sh
# callgrind: profhub summary against callgrind_annotate on a big real file
# (made by make_big_callgrind.sh under $TMPDIR, never committed).
EXTRA_DIST += tests/bench/run.sh tests/bench/make_big_callgrind.sh \
	tests/bench/README.md
.PHONY: bench-callgrind
bench: bench-callgrind
bench-callgrind: profhub$(EXEEXT)
	PROFHUB='$(abs_top_builddir)/profhub$(EXEEXT)' \
	$(SHELL) $(abs_top_srcdir)/tests/bench/run.sh $(BENCH_INPUT)
