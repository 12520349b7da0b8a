#!/bin/sh
# make_big_callgrind.sh -- make a large, real callgrind file for `make bench`:
# valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes runs GCC's
# C++ compiler proper (cc1plus) over a translation unit that includes the
# whole standard library (<bits/stdc++.h>).  A compiler touches a lot of
# distinct code, and --separate-callers=N splits every function by its N
# callers, so the file grows with N (N=6 is meant to give 200 MB or more).
# The file is never committed: it goes to $PH_BENCH_DIR (default
# $TMPDIR/profhub-bench, else tests/bench/data when that folder exists).
#
# usage: make_big_callgrind.sh [OUT]      (default OUT: $PH_BENCH_DIR/callgrind.big.out)
# env:   PH_BENCH_CALLERS=N (default 6), PH_BENCH_OPT=-O0 (cc1plus level)
set -eu

dir=${PH_BENCH_DIR:-${TMPDIR:-/tmp}/profhub-bench}
out=${1:-$dir/callgrind.big.out}
callers=${PH_BENCH_CALLERS:-6}
opt=${PH_BENCH_OPT:--O0}

for p in valgrind g++; do
    command -v $p >/dev/null 2>&1 || { echo "$0: $p is not installed" >&2; exit 1; }
done
cc1plus=$(g++ -print-prog-name=cc1plus)
[ -x "$cc1plus" ] || { echo "$0: cannot find cc1plus (g++ -print-prog-name)" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
work=$(mktemp -d "${TMPDIR:-/tmp}/make_big_callgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/w.cc" <<'SRC'
#include <bits/stdc++.h>
int main()
{
    std::map<std::string, std::vector<int>> m;
    m["a"].push_back(1);
    std::sort(m["a"].begin(), m["a"].end());
    std::cout << m.size() << '\n';
}
SRC
g++ -E "$work/w.cc" -o "$work/w.ii"

echo "$0: valgrind --tool=callgrind on $cc1plus $opt (this takes minutes)" >&2
valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes \
    --separate-callers="$callers" --callgrind-out-file="$out" \
    "$cc1plus" -quiet "$opt" -fpreprocessed "$work/w.ii" -o /dev/null \
    2>"$work/valgrind.log" || { cat "$work/valgrind.log" >&2; exit 1; }

size=$(wc -c < "$out")
echo "$out: $size bytes"
if [ "$size" -lt 200000000 ]; then
    echo "$0: note: smaller than 200 MB; raise PH_BENCH_CALLERS" >&2
fi
