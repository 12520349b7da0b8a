#!/bin/sh
# make_generated.sh -- make a real valgrind output over a generated program
# (gen_c.py, built with gcc -O0 -g so that every source line has its own
# cost line) for `make bench`.  Never committed.  (The large cachegrind
# input is make_big_cachegrind.sh's.)
#   callgrind:  instructions and jumps, 100 functions
#               (PH_BENCH_MERGE_FUNCS): the small file the merge rows copy
#               10 and 1,000 times;
#   dumps N:    the same program running its calls N times, callgrind
#               dumping before each round into one file (--combine-dumps):
#               N parts of the same mix, about 110 KB each, for the rows
#               that scale the input and nothing else.
#
# usage: make_generated.sh OUT callgrind|dumps N
set -eu

out=$1 tool=$2 rounds=1
case $tool in
callgrind)  funcs=${PH_BENCH_MERGE_FUNCS:-100}
            opts="--dump-instr=yes --collect-jumps=yes" ;;
dumps)      funcs=${PH_BENCH_MERGE_FUNCS:-100} rounds=${3:?rounds} tool=callgrind
            # the last function is called from main only, once a round
            opts="--dump-instr=yes --collect-jumps=yes --combine-dumps=yes
                  --dump-before=f$((funcs - 1))" ;;
*) echo "$0: unknown tool \"$tool\" (callgrind or dumps N)" >&2
   exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
for p in valgrind gcc python3; do
    command -v $p >/dev/null 2>&1 || { echo "$0: $p is not installed" >&2; exit 1; }
done
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "${TMPDIR:-/tmp}/make_generated.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_c.py" "$funcs" "$rounds" > "$work/gen.c"
gcc -O0 -g "$work/gen.c" -o "$work/gen"
echo "$0: valgrind --tool=$tool on a generated program" >&2
# shellcheck disable=SC2086
valgrind --tool="$tool" $opts --"$tool"-out-file="$out.tmp" "$work/gen" \
    2>"$work/valgrind.log" || true      # main returns its sum's low bit
[ -s "$out.tmp" ] || { cat "$work/valgrind.log" >&2; exit 1; }
mv "$out.tmp" "$out"
echo "$out: $(wc -c < "$out") bytes" >&2
