# tests/bench/local.mk -- make bench: speed and memory against the peers.
# profhub record's overhead at the default rates (issue 8), via hyperfine.
EXTRA_DIST += tests/bench/record_overhead.sh
.PHONY: bench bench-record
bench: bench-record
bench-record: all
	top_srcdir='$(abs_top_srcdir)' PROFHUB='$(abs_top_builddir)/profhub' \
	$(SHELL) $(abs_top_srcdir)/tests/bench/record_overhead.sh
# Big inputs (made once outside the tree, never committed) against the
# peers: one table (bench.py).  bench-callgrind is the older two-tool run.
EXTRA_DIST += tests/bench/run.sh tests/bench/make_big_callgrind.sh \
	tests/bench/make_generated.sh tests/bench/make_heap.sh \
	tests/bench/make_gmon.sh tests/bench/apart.sh \
	tests/bench/make_big_cachegrind.sh tests/bench/gen_lines.py \
	tests/bench/gen_c.py tests/bench/bench.py tests/bench/hw_floor.c \
	tests/bench/src/manystacks.go tests/bench/README.md
.PHONY: bench-table bench-callgrind
bench: bench-table
bench-table: profhub$(EXEEXT)
	PROFHUB='$(abs_top_builddir)/profhub$(EXEEXT)' \
	python3 $(abs_top_srcdir)/tests/bench/bench.py
bench-callgrind: profhub$(EXEEXT)
	PROFHUB='$(abs_top_builddir)/profhub$(EXEEXT)' \
	$(SHELL) $(abs_top_srcdir)/tests/bench/run.sh $(BENCH_INPUT)
