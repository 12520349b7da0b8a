# samples/local.mk -- included by the top Makefile.am
# Sample profiles made by samples/regen.sh (see samples/README.md), the
# programs and the script, shipped by make dist.  Explicit list (automake
# has no wildcards): regenerate it with samples/regen.sh --list.
EXTRA_DIST += \
	samples/README.md \
	samples/cachegrind/chain.branch.out \
	samples/cachegrind/chain.default.out \
	samples/cachegrind/chain.nocache.out \
	samples/cachegrind/checksum.after.out \
	samples/cachegrind/checksum.before.out \
	samples/cachegrind/shapes.default.out \
	samples/callgrind/chain.cache-branch.out \
	samples/callgrind/chain.callers2.out \
	samples/callgrind/chain.combined.out \
	samples/callgrind/chain.default.out \
	samples/callgrind/chain.dumps.out \
	samples/callgrind/chain.dumps.out.1 \
	samples/callgrind/chain.dumps.out.2 \
	samples/callgrind/chain.dumps.out.3 \
	samples/callgrind/chain.instr-jumps.out \
	samples/callgrind/chain.nocompress.out \
	samples/callgrind/checksum.after.out \
	samples/callgrind/checksum.before.out \
	samples/callgrind/recursion.default.out \
	samples/callgrind/recursion.recs1.out \
	samples/callgrind/shapes.default.out \
	samples/callgrind/shapes.instr.out \
	samples/callgrind/threads.default.out \
	samples/callgrind/threads.sep.out \
	samples/callgrind/threads.sep.out-01 \
	samples/callgrind/threads.sep.out-02 \
	samples/callgrind/threads.sep.out-03 \
	samples/callgrind/threads.sep.out-04 \
	samples/callgrind/threads.sepdump.out \
	samples/callgrind/threads.sepdump.out-01 \
	samples/callgrind/threads.sepdump.out-02 \
	samples/callgrind/threads.sepdump.out-03 \
	samples/callgrind/threads.sepdump.out-04 \
	samples/callgrind/threads.sepdump.out.1-03 \
	samples/gmon/chain-nopie/gmon.out \
	samples/gmon/chain-nopie/prog \
	samples/gmon/chain-pie/gmon.out \
	samples/gmon/chain-pie/prog \
	samples/gmon/recursion-nopie/gmon.out \
	samples/gmon/recursion-nopie/prog \
	samples/gmon/recursion-pie/gmon.out \
	samples/gmon/recursion-pie/prog \
	samples/gmon/shapes-pie/gmon.out \
	samples/gmon/shapes-pie/prog \
	samples/pprof/gowork.cpu.pb.gz \
	samples/pprof/gowork.heap.pb.gz \
	samples/pprof/gowork.heavy.cpu.pb.gz \
	samples/pprof/gowork.heavy.heap.pb.gz \
	samples/regen.sh \
	samples/src/chain.c \
	samples/src/checksum.c \
	samples/src/gowork/go.mod \
	samples/src/gowork/main.go \
	samples/src/recursion.c \
	samples/src/shapes.cpp \
	samples/src/threads.c
