#!/bin/sh
# run.sh -- time `profhub summary` against `callgrind_annotate` on one big
# callgrind file with hyperfine, and measure both peak memories with GNU
# time (%M).  Prints the speed of each (MB/s of input, wall clock), the
# ratio, and the peak resident memory against the file size.
#
# usage: run.sh [FILE]   (default: $PH_BENCH_DIR/callgrind.big.out, made by
#                         make_big_callgrind.sh when missing)
# env:   PROFHUB (default ./profhub), PH_BENCH_RUNS (default 3)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${PH_BENCH_DIR:-${TMPDIR:-/tmp}/profhub-bench}
file=${1:-$dir/callgrind.big.out}
profhub=${PROFHUB:-./profhub}
runs=${PH_BENCH_RUNS:-3}

for p in hyperfine callgrind_annotate python3; do
    command -v $p >/dev/null 2>&1 || { echo "$0: $p is not installed" >&2; exit 1; }
done
if [ ! -x /usr/bin/time ]; then
    # GNU time gives the peak memory (%M); the shell's time does not.
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y time >/dev/null 2>&1 || true
    fi
    [ -x /usr/bin/time ] || { echo "$0: GNU time missing (apt-get install time)" >&2; exit 1; }
fi
[ -s "$file" ] || sh "$here/make_big_callgrind.sh" "$file"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
size=$(wc -c < "$file")

hyperfine --style basic --warmup 1 --runs "$runs" \
    --export-json "$tmp/h.json" \
    -n profhub "$profhub summary '$file' > /dev/null" \
    -n callgrind_annotate "callgrind_annotate '$file' > /dev/null"

peak() {  # peak resident KB of a command
    /usr/bin/time -f %M -o "$tmp/mem" "$@" > /dev/null 2>&1 || true
    tail -1 "$tmp/mem"
}
mp=$(peak "$profhub" summary "$file")
ma=$(peak callgrind_annotate "$file")

python3 - "$tmp/h.json" "$size" "$mp" "$ma" <<'PY'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
size = int(sys.argv[2]); mem = {"profhub": int(sys.argv[3]), "callgrind_annotate": int(sys.argv[4])}
mb = size / 1e6
print("input: %.1f MB" % mb)
# Wall clock suffers on a loaded machine; CPU time (user + system) less.
cpu = {}
for name in ("profhub", "callgrind_annotate"):
    r = res[name]
    cpu[name] = r["user"] + r["system"]
    print("%-19s wall %8.3f s (%7.1f MB/s)  cpu %7.3f s (%7.1f MB/s)  "
          "peak %7.1f MB (%.2fx the file)" % (
        name, r["mean"], mb / r["mean"], cpu[name], mb / cpu[name],
        mem[name] / 1024.0, mem[name] * 1024.0 / size))
print("ratio callgrind_annotate / profhub: wall %.1f, cpu %.1f" % (
      res["callgrind_annotate"]["mean"] / res["profhub"]["mean"],
      cpu["callgrind_annotate"] / cpu["profhub"]))
PY
