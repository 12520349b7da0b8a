#!/bin/sh
# make_cachegrind.sh -- make a large, real cachegrind file for `make bench`:
# valgrind --tool=cachegrind (cache and branch simulation, 13 events) runs
# a generated program of many functions (gen_c.py) built with gcc -O0 -g,
# so that every source line has its own cost line.  Never committed.
#
# usage: make_cachegrind.sh OUT     env: PH_BENCH_CG_FUNCS (default 20000)
set -eu

out=$1
here=$(cd "$(dirname "$0")" && pwd)
for p in valgrind gcc python3; do
    command -v $p >/dev/null 2>&1 || { echo "$0: $p is not installed" >&2; exit 1; }
done
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "${TMPDIR:-/tmp}/make_cachegrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_c.py" "${PH_BENCH_CG_FUNCS:-20000}" > "$work/gen.c"
gcc -O0 -g "$work/gen.c" -o "$work/gen"
echo "$0: valgrind --tool=cachegrind on a generated program" >&2
valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes \
    --cachegrind-out-file="$out.tmp" "$work/gen" \
    2>"$work/valgrind.log" || true
[ -s "$out.tmp" ] || { cat "$work/valgrind.log" >&2; exit 1; }
mv "$out.tmp" "$out"
echo "$out: $(wc -c < "$out") bytes" >&2
