#!/bin/sh
# regen.sh -- rebuild every sample profile under samples/ with the real
# tools (valgrind callgrind/cachegrind, gcc -pg + gprof's runtime, Go's
# runtime/pprof, and the third-party callgrind writers: Xdebug,
# pyprof2calltree, go tool pprof -callgrind, kcachegrind-converters).
# Outputs are committed exactly as the tools wrote them; samples/README.md
# lists each file with the command that made it.
#
# Usage: samples/regen.sh [--list | --check | --third-party]   (run from
# anywhere; it works in the source tree's top folder so paths in the
# profiles read samples/src/..)
#   --list         only print the EXTRA_DIST list for samples/local.mk
#   --check        only read every sample with the peer tools and print totals
#   --third-party  only rewrite the third-party writers' folders (from
#                  samples/src/scripts/ and the committed samples/pprof/)
set -eu

cd "$(dirname "$0")/.."

# The tools record absolute paths (valgrind's ob=, Go's mappings, Xdebug's
# script path), so the programs are built and run in one fixed scratch
# folder, the same on every machine, and the outputs copied back: no
# profile names the checkout it was made in.
SCRATCH=/tmp/profhub-samples
OUTPUTS="samples/callgrind samples/cachegrind samples/gmon samples/pprof
	samples/xdebug samples/pyprof2calltree samples/gopprof
	samples/dprof2calltree samples/README.md"
case "${1-}" in --list | --check) ;; *)
	if [ "$(pwd)" != "$SCRATCH" ]; then
		src=$(pwd)
		rm -rf "$SCRATCH"
		mkdir -p "$SCRATCH"
		cp -a samples "$SCRATCH/"
		(cd "$SCRATCH" && sh samples/regen.sh "$@") || exit 1
		for d in $OUTPUTS; do
			[ -e "$SCRATCH/$d" ] || continue
			rm -rf "${src:?}/$d"
			cp -a "$SCRATCH/$d" "$src/$d"
		done
		rm -rf "$SCRATCH"
		exit 0
	fi ;;
esac
TOP=$(pwd)
S=samples
BIN=$S/bin
THIRD="$S/xdebug $S/pyprof2calltree $S/gopprof $S/dprof2calltree"

list_files() {
	find $S/src $S/callgrind $S/cachegrind $S/gmon $S/pprof $THIRD \
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

# run CMD...: echo the command, run it with its chatter in $LOG.
run() {
	echo "+ $*"
	if ! "$@" >"$LOG" 2>&1; then
		cat "$LOG" >&2
		echo "regen.sh: failed: $*" >&2
		exit 1
	fi
}


# ---- third-party callgrind writers --------------------------------------
# Each folder gets the writer's output, what the writer read (the source
# profile, for the tests' comparison with the source tool) and a README
# with the tool, its version and the commands, written here so that it
# always says what really ran.

# readme DIR TITLE: start DIR/README.md; more lines are appended after it.
readme() {
	printf '# %s\n\nMade by `samples/regen.sh` (section "third-party callgrind writers");\nnever edited by hand.  Commands run from the top of the source tree.\n\n' \
		"$2" >"$1/README.md"
}

third_party() {
	for tool in php python3 pyprof2calltree go perl dprof2calltree dprofpp; do
		command -v $tool >/dev/null ||
			{ echo "regen.sh: $tool not found (see setup.sh)" >&2; exit 1; }
	done
	php -d xdebug.mode=profile -r 'exit(extension_loaded("xdebug") ? 0 : 1);' ||
		{ echo "regen.sh: php has no Xdebug (php8.2-xdebug)" >&2; exit 1; }
	rm -rf $THIRD
	mkdir -p $THIRD
	src=$S/src/scripts

	# Xdebug 3's profiler (PHP).  The output name has no %p, so the file
	# name is stable; compression off (Xdebug 3.1+ may gzip).
	d=$S/xdebug
	run php -d xdebug.mode=profile -d xdebug.start_with_request=yes \
		-d xdebug.use_compression=0 -d xdebug.output_dir="$TOP/$d" \
		-d xdebug.profiler_output_name=work.php.out $src/work.php
	readme $d "Xdebug profiler output (PHP)"
	cat >>$d/README.md <<-END
	| | |
	|---|---|
	| tool | Xdebug $(php -r 'echo phpversion("xdebug");') (Debian php8.2-xdebug), PHP $(php -r 'echo PHP_VERSION;') |
	| program | \`samples/src/scripts/work.php\` |
	| command | \`php -d xdebug.mode=profile -d xdebug.start_with_request=yes -d xdebug.use_compression=0 -d xdebug.output_dir=\$TOP/samples/xdebug -d xdebug.profiler_output_name=work.php.out samples/src/scripts/work.php\` |

	\`work.php.out\`: Xdebug's callgrind dialect: \`events: Time_(10ns) Memory_(bytes)\`,
	\`calls=N 0 0\` (a field after the target position, which KCachegrind
	ignores), no \`totals:\`, and a \`summary:\` that is the script's own time
	and peak memory, not the sum of the cost lines.  \`cmd:\` and \`fl=\` hold
	the absolute path of the script, as Xdebug writes them.
	END

	# cProfile + pyprof2calltree (Python).  work.prof is cProfile's own
	# stats file (marshal), which the tests read with pstats.
	d=$S/pyprof2calltree
	run python3 -m cProfile -o $d/work.prof $src/work.py
	run pyprof2calltree -i $d/work.prof -o $d/work.py.out
	readme $d "pyprof2calltree output (Python cProfile)"
	cat >>$d/README.md <<-END
	| | |
	|---|---|
	| tools | $(python3 --version), cProfile; pyprof2calltree $(dpkg-query -W -f='${Version}' pyprof2calltree 2>/dev/null) (Debian pyprof2calltree) |
	| program | \`samples/src/scripts/work.py\` |
	| commands | \`python3 -m cProfile -o samples/pyprof2calltree/work.prof samples/src/scripts/work.py\`; \`pyprof2calltree -i samples/pyprof2calltree/work.prof -o samples/pyprof2calltree/work.py.out\` |

	\`work.prof\`: cProfile's stats (read them with \`python3 -m pstats\`).
	\`work.py.out\`: \`event: ns : Nanoseconds\`, no \`creator:\`, no
	\`totals:\`, \`summary:\` = the largest inclusive time (not the total),
	\`fl=~\` for built-ins, \`calls=N LINE\`.
	END

	# go tool pprof -callgrind of the committed CPU profile.
	d=$S/gopprof
	run go tool pprof -callgrind -output=$d/gowork.cpu.out $S/pprof/gowork.cpu.pb.gz
	readme $d "go tool pprof -callgrind output (Go)"
	cat >>$d/README.md <<-END
	| | |
	|---|---|
	| tool | $(go version) (\`go tool pprof\`) |
	| source profile | \`samples/pprof/gowork.cpu.pb.gz\` (see samples/README.md) |
	| command | \`go tool pprof -callgrind -output=samples/gopprof/gowork.cpu.out samples/pprof/gowork.cpu.pb.gz\` |

	\`gowork.cpu.out\`: \`positions: instr line\`, \`events: cpu(ms)\`, no
	\`version:\`, \`creator:\`, \`summary:\` or \`totals:\`, \`calls=0 ADDR LINE\`
	(pprof has no call counts), relative addresses.
	END

	# kcachegrind-converters: dprof2calltree on Perl's Devel::DProf output.
	d=$S/dprof2calltree
	(cd $d && run perl -d:DProf ../src/scripts/work.pl)
	run dprof2calltree -f $d/tmon.out -o $d/work.pl.out
	readme $d "dprof2calltree output (Perl Devel::DProf, kcachegrind-converters)"
	cat >>$d/README.md <<-END
	| | |
	|---|---|
	| tools | perl $(perl -e 'printf "%vd", $^V'), Devel::DProf $(perl -MDevel::DProf -e 'print $Devel::DProf::VERSION' 2>/dev/null || dpkg-query -W -f='${Version}' libdevel-dprof-perl) (Debian libdevel-dprof-perl); dprof2calltree from kcachegrind-converters $(dpkg-query -W -f='${Version}' kcachegrind-converters 2>/dev/null) |
	| program | \`samples/src/scripts/work.pl\` |
	| commands | \`cd samples/dprof2calltree && perl -d:DProf ../src/scripts/work.pl\`; \`dprof2calltree -f samples/dprof2calltree/tmon.out -o samples/dprof2calltree/work.pl.out\` |

	\`tmon.out\`: Devel::DProf's trace (read it with \`dprofpp\`).
	\`work.pl.out\`: \`events: Tick\`, \`summary:\` only, \`ob=\` empty,
	\`fl=???\`, \`calls=N\` without a target position.
	END
}

if [ "${1-}" = --third-party ]; then
	LOG=$(mktemp "${TMPDIR:-/tmp}/regen.XXXXXX")
	trap 'rm -f "$LOG"' EXIT
	third_party
	exit 0
fi

for tool in gcc g++ valgrind go; do
	command -v $tool >/dev/null || { echo "regen.sh: $tool not found" >&2; exit 1; }
done

LOG=$(mktemp "${TMPDIR:-/tmp}/regen.XXXXXX")
trap 'rm -rf "$LOG" "$TOP/$BIN"' EXIT

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
cg chain.callers8.out --separate-callers=8                 $BIN/chain
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
# a run no tick reached (about 1 ms of CPU at scale 1, the profiling timer
# ticks every 10 ms): gprof leaves main out of the call graph but numbers
# it as the cycle's caller; run again until gprof says so
for try in 1 2 3 4 5 6 7 8 9 10; do
	gm recursion-noticks 1 gcc $CFLAGS $S/src/recursion.c
	gprof -b -p $S/gmon/recursion-noticks/prog \
		$S/gmon/recursion-noticks/gmon.out | grep -q 'no time accumulated' &&
		break
	[ $try = 10 ] && { echo "regen.sh: recursion-noticks: every run got a tick" >&2; exit 1; }
done

# ---- pprof (Go runtime/pprof) ------------------------------------------
run $BIN/gowork $S/pprof/gowork.cpu.pb.gz $S/pprof/gowork.heap.pb.gz
run $BIN/gowork -heavy $S/pprof/gowork.heavy.cpu.pb.gz $S/pprof/gowork.heavy.heap.pb.gz

third_party

rm -rf $BIN
echo
echo "samples written:"
list_files | grep -v "^$S/src/\|regen.sh\|README.md" | xargs ls -l | \
	awk '{ printf "%9d  %s\n", $5, $NF; sum += $5 } END { printf "%9d  total\n", sum }'
