#!/bin/sh
# make_big_callgrind.sh -- make a large, real callgrind file for `make bench`:
# valgrind --tool=callgrind with instructions, jumps, cache and branch
# simulation (13 events) runs GCC's C compiler proper (cc1 -O2) over a
# generated C file (gen_c.py).  A compiler touches a lot of distinct code,
# and --separate-callers=N splits every function by its N callers, so the
# file grows with N: N=16 gives about 250 MB, N=2 about a tenth of it.
# The file is never committed.
#
# usage: make_big_callgrind.sh OUT [CALLERS]     (CALLERS default 16)
# env:   PH_BENCH_FUNCS (functions in the generated C file, default 400)
set -eu

out=$1
callers=${2:-16}
here=$(cd "$(dirname "$0")" && pwd)

for p in valgrind gcc python3; do
    command -v $p >/dev/null 2>&1 || { echo "$0: $p is not installed" >&2; exit 1; }
done
cc1=$(gcc -print-prog-name=cc1)
[ -x "$cc1" ] || { echo "$0: cannot find cc1 (gcc -print-prog-name)" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
work=$(mktemp -d "${TMPDIR:-/tmp}/make_big_callgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_c.py" "${PH_BENCH_FUNCS:-400}" > "$work/gen.c"
gcc -E "$work/gen.c" -o "$work/gen.i"

echo "$0: valgrind --tool=callgrind on $cc1 -O2 (this takes minutes)" >&2
valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes \
    --cache-sim=yes --branch-sim=yes --separate-callers="$callers" \
    --callgrind-out-file="$out.tmp" \
    "$cc1" -quiet -O2 -fpreprocessed "$work/gen.i" -o /dev/null \
    2>"$work/valgrind.log" || { cat "$work/valgrind.log" >&2; exit 1; }
mv "$out.tmp" "$out"
echo "$out: $(wc -c < "$out") bytes" >&2
