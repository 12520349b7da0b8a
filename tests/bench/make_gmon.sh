#!/bin/sh
# make_gmon.sh -- make large, real gprof data for `make bench`: a generated
# program of many functions (gen_c.py, main calling each of them ROUNDS
# times) built with gcc -pg and run once; its gmon.out (the histogram
# covers the whole text, one call arc per call site) goes to OUT and the
# executable, which gprof and profhub need to name the addresses, to EXE.
# Never committed.
#
# usage: make_gmon.sh OUT EXE
# env:   PH_BENCH_GMON_FUNCS (default 20000), PH_BENCH_GMON_ROUNDS (500)
set -eu

out=$1
exe=$2
here=$(cd "$(dirname "$0")" && pwd)
for p in gcc python3; do
    command -v $p >/dev/null 2>&1 || { echo "$0: $p is not installed" >&2; exit 1; }
done
mkdir -p "$(dirname "$out")" "$(dirname "$exe")"
work=$(mktemp -d "${TMPDIR:-/tmp}/make_gmon.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_c.py" "${PH_BENCH_GMON_FUNCS:-20000}" \
    "${PH_BENCH_GMON_ROUNDS:-500}" > "$work/gen.c"
echo "$0: gcc -pg of a generated program (this takes minutes)" >&2
gcc -O0 -pg "$work/gen.c" -o "$work/gen"
(cd "$work" && ./gen) || true      # main returns its sum's low bit
[ -s "$work/gmon.out" ] || { echo "$0: the program wrote no gmon.out" >&2; exit 1; }
mv "$work/gen" "$exe"
mv "$work/gmon.out" "$out"
echo "$out: $(wc -c < "$out") bytes (executable $exe)" >&2
