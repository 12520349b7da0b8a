#!/bin/sh
# regen.sh -- rebuild every sample profile under samples/ with the real
# tools (valgrind callgrind/cachegrind, gcc -pg + gprof's runtime, Go's
# runtime/pprof).  Outputs are committed exactly as the tools wrote them;
# samples/README.md lists each file with the command that made it.
#
# Usage: samples/regen.sh [--list | --check]   (run from anywhere; it works
# in the source tree's top folder so paths in the profiles read samples/src/..)
#   --list   only print the EXTRA_DIST list for samples/local.mk
#   --check  only read every sample with the peer tools and print totals
set -eu

cd "$(dirname "$0")/.."
TOP=$(pwd)
S=samples
BIN=$S/bin

list_files() {
	find $S/src $S/callgrind $S/cachegrind $S/gmon $S/pprof \
	     $S/regen.sh $S/README.md -type f 2>/dev/null | LC_ALL=C sort
}

# check_peers: read every sample with the peer tool that owns its format
# and print one line per file (exit status, total); nonzero exit on failure.
check_peers() {
	bad=0
	for f in $S/callgrind/*; do
		if [ ! -s "$f" ]; then echo "empty  $f"; continue; fi
		for inc in no yes; do
			t=$(callgrind_annotate --inclusive=$inc "$f" 2>/dev/null |
			    grep 'PROGRAM TOTALS') || { echo "FAIL   $f"; bad=1; }
			w=$(callgrind_annotate --inclusive=$inc "$f" 2>&1 | grep -c '^WARNING') || :
			echo "ok     $f inclusive=$inc warnings=$w:$t"
		done
	done
	for f in $S/cachegrind/*; do
		t=$(cg_annotate "$f" 2>/dev/null | grep -A2 '^Ir' | sed -n 3p) ||
			{ echo "FAIL   $f"; bad=1; }
		echo "ok     $f:$t"
	done
	for d in $S/gmon/*/; do
		for o in -p -q; do
			gprof -b $o ${d}prog ${d}gmon.out >/dev/null 2>&1 ||
				{ echo "FAIL   $d ($o)"; bad=1; }
		done
		echo "ok     ${d}gmon.out:" \
			"$(gprof -b -p ${d}prog ${d}gmon.out | sed -n 6p | tr -s ' ')"
	done
	for f in $S/pprof/*; do
		t=$(go tool pprof -top "$f" 2>/dev/null | grep '^Showing nodes') ||
			{ echo "FAIL   $f"; bad=1; }
		echo "ok     $f: $t"
	done
	return $bad
}

if [ "${1-}" = --check ]; then
	check_peers
	exit $?
fi

if [ "${1-}" = --list ]; then
	printf 'EXTRA_DIST +='
	list_files | while read -r f; do printf ' \\\n\t%s' "$f"; done
	printf '\n'
	exit 0
fi

for tool in gcc g++ valgrind go; do
	command -v $tool >/dev/null || { echo "regen.sh: $tool not found" >&2; exit 1; }
done

LOG=$(mktemp "${TMPDIR:-/tmp}/regen.XXXXXX")
trap 'rm -rf "$LOG" "$TOP/$BIN"' EXIT

# run CMD...: echo the command, run it with its chatter in $LOG.
run() {
	echo "+ $*"
	if ! "$@" >"$LOG" 2>&1; then
		cat "$LOG" >&2
		echo "regen.sh: failed: $*" >&2
		exit 1
	fi
}

# Debug info names files relative to the top folder (comp_dir mapped to
# ""), so callgrind writes fl=samples/src/chain.c, not an absolute path.
CFLAGS="-O1 -g -fdebug-prefix-map=$TOP="
CXXFLAGS="-O2 -g -fdebug-prefix-map=$TOP="

rm -rf $BIN $S/callgrind $S/cachegrind $S/gmon $S/pprof
mkdir -p $BIN $S/callgrind $S/cachegrind $S/gmon $S/pprof

# ---- build -------------------------------------------------------------
run gcc $CFLAGS $S/src/chain.c -o $BIN/chain
run gcc $CFLAGS $S/src/recursion.c -o $BIN/recursion
run gcc $CFLAGS -pthread $S/src/threads.c -o $BIN/threads
run g++ $CXXFLAGS $S/src/shapes.cpp -o $BIN/shapes
# No external modules: the module proxy is never consulted.
(cd $S/src/gowork && export GOPROXY=off GOWORK=off GOFLAGS= &&
	run go build -trimpath -buildvcs=false -o "$TOP/$BIN/gowork" .)

# ---- callgrind ---------------------------------------------------------
# cg NAME OPTIONS... -- PROG ARGS...
cg() {
	name=$1; shift
	run valgrind --tool=callgrind --callgrind-out-file=$S/callgrind/$name "$@"
}
cg chain.default.out                                        $BIN/chain
cg chain.instr-jumps.out --dump-instr=yes --collect-jumps=yes $BIN/chain
cg chain.cache-branch.out --cache-sim=yes --branch-sim=yes  $BIN/chain
cg chain.nocompress.out --compress-strings=no --compress-pos=no $BIN/chain
cg chain.callers2.out --separate-callers=2                 $BIN/chain
cg chain.dumps.out --dump-before=run_round                  $BIN/chain
cg chain.combined.out --combine-dumps=yes --dump-before=run_round $BIN/chain
cg recursion.default.out                                    $BIN/recursion
cg recursion.recs1.out --separate-recs=1                    $BIN/recursion
cg threads.default.out                                      $BIN/threads
cg threads.sep.out --separate-threads=yes                   $BIN/threads
cg threads.sepdump.out --separate-threads=yes --dump-before=insertion_sort $BIN/threads
cg shapes.default.out                                       $BIN/shapes
cg shapes.instr.out --dump-instr=yes                        $BIN/shapes

# ---- cachegrind --------------------------------------------------------
cgr() {
	name=$1; shift
	run valgrind --tool=cachegrind --cachegrind-out-file=$S/cachegrind/$name "$@"
}
cgr chain.default.out                                       $BIN/chain
cgr chain.nocache.out --cache-sim=no                        $BIN/chain
cgr chain.branch.out --branch-sim=yes                       $BIN/chain
cgr shapes.default.out                                      $BIN/shapes

# ---- before/after pair for diffs ----------------------------------------
# The same binary path for both builds (rebuild in place, as a user would),
# so cmd:, ob= and fl= are identical and only checksum_block's costs change.
run gcc $CFLAGS $S/src/checksum.c -o $BIN/checksum
cg checksum.before.out                                      $BIN/checksum
cgr checksum.before.out                                     $BIN/checksum
run gcc $CFLAGS -DCHECKSUM_HEAVY $S/src/checksum.c -o $BIN/checksum
cg checksum.after.out                                       $BIN/checksum
cgr checksum.after.out                                      $BIN/checksum

# ---- gprof (gmon.out next to the binary that wrote it) -------------------
# gm NAME SCALE COMPILER FLAGS... : build samples/gmon/NAME/prog, run it there.
gm() {
	name=$1 scale=$2 cc=$3; shift 3
	mkdir -p $S/gmon/$name
	run $cc -pg "$@" -o $S/gmon/$name/prog
	(cd $S/gmon/$name && run ./prog $scale)
	test -s $S/gmon/$name/gmon.out
}
gm recursion-pie    1000 gcc $CFLAGS $S/src/recursion.c
gm recursion-nopie  1000 gcc $CFLAGS -no-pie $S/src/recursion.c
gm chain-pie        800 gcc $CFLAGS $S/src/chain.c
gm chain-nopie      800 gcc $CFLAGS -no-pie $S/src/chain.c
gm shapes-pie       1000 g++ $CXXFLAGS $S/src/shapes.cpp

# ---- pprof (Go runtime/pprof) ------------------------------------------
run $BIN/gowork $S/pprof/gowork.cpu.pb.gz $S/pprof/gowork.heap.pb.gz
run $BIN/gowork -heavy $S/pprof/gowork.heavy.cpu.pb.gz $S/pprof/gowork.heavy.heap.pb.gz

rm -rf $BIN
echo
echo "samples written:"
list_files | grep -v "^$S/src/\|regen.sh\|README.md" | xargs ls -l | \
	awk '{ printf "%9d  %s\n", $5, $NF; sum += $5 } END { printf "%9d  total\n", sum }'
