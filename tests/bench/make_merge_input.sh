#!/bin/sh
# make_merge_input.sh -- make one real, small callgrind file for the merge
# rows of `make bench` (bench.py merges 10 and 1,000 copies of it):
# valgrind --tool=callgrind with instructions and jumps over a generated
# program (gen_c.py) built with gcc -O0 -g.  Never committed.
#
# usage: make_merge_input.sh OUT     env: PH_BENCH_MERGE_FUNCS (default 100)
set -eu

out=$1
here=$(cd "$(dirname "$0")" && pwd)
for p in valgrind gcc python3; do
    command -v $p >/dev/null 2>&1 || { echo "$0: $p is not installed" >&2; exit 1; }
done
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "${TMPDIR:-/tmp}/make_merge_input.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_c.py" "${PH_BENCH_MERGE_FUNCS:-100}" > "$work/gen.c"
gcc -O0 -g "$work/gen.c" -o "$work/gen"
valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes \
    --callgrind-out-file="$out.tmp" "$work/gen" \
    2>"$work/valgrind.log" || true      # main returns its sum's low bit
[ -s "$out.tmp" ] || { cat "$work/valgrind.log" >&2; exit 1; }
mv "$out.tmp" "$out"
echo "$out: $(wc -c < "$out") bytes" >&2
