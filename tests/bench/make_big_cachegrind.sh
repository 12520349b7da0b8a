#!/bin/sh
# make_big_cachegrind.sh -- make a large, real cachegrind file for `make
# bench`: valgrind --tool=cachegrind with cache and branch simulation (13
# events) runs a generated program of millions of executed source lines
# (gen_lines.py, gcc -O0 -g: each line its own cost line), about 33 bytes
# of output a line: 76 parts of 100,000 lines give about 250 MB.  The
# parts compile side by side, one per processor.  The file is never
# committed.
#
# usage: make_big_cachegrind.sh OUT
# env:   PH_BENCH_CG_PARTS (parts of 10 functions of 10,000 lines, default 76)
set -eu

out=$1
parts=${PH_BENCH_CG_PARTS:-76}
here=$(cd "$(dirname "$0")" && pwd)
for p in valgrind gcc python3 xargs; do
    command -v $p >/dev/null 2>&1 || { echo "$0: $p is not installed" >&2; exit 1; }
done
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "${TMPDIR:-/tmp}/make_big_cachegrind.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "$0: compiling $parts generated parts (this takes minutes)" >&2
python3 "$here/gen_lines.py" main "$parts" 10 3 > "$work/main.c"
seq 0 $((parts - 1)) | xargs -P "$(nproc)" -I K sh -c \
    'python3 "$1/gen_lines.py" part K 10 10000 > "$2/pK.c" &&
     gcc -O0 -g -c "$2/pK.c" -o "$2/pK.o" && rm "$2/pK.c"' sh "$here" "$work"
gcc -O0 -g "$work/main.c" "$work"/p*.o -o "$work/gen"
rm -f "$work"/p*.o

echo "$0: valgrind --tool=cachegrind on the program" >&2
valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes \
    --cachegrind-out-file="$out.tmp" "$work/gen" \
    2>"$work/valgrind.log" || true      # main returns its sum's low bit
[ -s "$out.tmp" ] || { cat "$work/valgrind.log" >&2; exit 1; }
mv "$out.tmp" "$out"
echo "$out: $(wc -c < "$out") bytes" >&2
