#!/bin/sh
# record_overhead.sh -- what profhub record costs: wall time of
# samples/src/chain.c (gcc -g -O2) alone and under `profhub record` at each
# collector's default rate, measured with hyperfine, reported as a ratio
# (target: under 1.05).  The recorded runs include profhub's own start,
# the runtime's start and the writing of the experiment.
#   make bench-record       or
#   top_srcdir=SRC PROFHUB=BUILD/profhub sh tests/bench/record_overhead.sh
# Environment: BENCH_ARG (chain's work factor, default 1500: about 1 s),
# BENCH_RUNS (default 10), BENCH_STRICT=1 to exit 1 above the target.
# lib.sh: $tmp (removed on exit), skip, and csv_tsv (a real CSV parser).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
arg=${BENCH_ARG:-1500}
runs=${BENCH_RUNS:-10}

need_program hyperfine python3
"$PROFHUB" collectors >/dev/null 2>&1
[ $? -eq 2 ] && skip "profhub was built without collectors"
gcc -g -O2 -o "$tmp/chain" "$top_srcdir/samples/src/chain.c" || exit 99
cd "$tmp" || exit 99

hyperfine -N --warmup 2 --runs "$runs" --export-json times.json \
    "./chain $arg" \
    "$PROFHUB record -c pcsamp -o pc.phx -- ./chain $arg" \
    "$PROFHUB record -c usertime -o ut.phx -- ./chain $arg" >hyperfine.txt 2>&1 || {
    cat hyperfine.txt
    exit 99
}
# incl_samples of the top function, by its column name.
top_samples() {
    "$PROFHUB" summary --format csv -n 1 "$1" >"$1.csv"
    csv_tsv "$1.csv" | awk -F'\t' '
        NR == 1 { for (k = 1; k <= NF; k++) if ($k == "incl_samples") c = k }
        NR == 2 && c { print $c }'
}
pcn=$(top_samples pc.phx)
utn=$(top_samples ut.phx)
# wall time is what a user waits for; CPU time (user + system, of the
# whole process tree) is steadier on a shared machine.  Both are shown;
# the verdict uses the CPU ratio.
python3 - "$pcn" "$utn" <<'PY' >report.txt
import json, sys
r = json.load(open("times.json"))["results"]
cpu = lambda x: x["user"] + x["system"]
base = r[0]
status = 0
for res, name, n in ((r[1], "pcsamp", sys.argv[1]), (r[2], "usertime", sys.argv[2])):
    wall = res["mean"] / base["mean"]
    c = cpu(res) / cpu(base)
    ok = c < 1.05
    status |= not ok
    print("record_overhead: %-8s wall %.3f s vs %.3f s (ratio %.4f), "
          "cpu %.3f s vs %.3f s (ratio %.4f), %s samples: %s"
          % (name, res["mean"], base["mean"], wall, cpu(res), cpu(base), c,
             n, "ok" if ok else "ABOVE TARGET"))
print("status %d" % status)
PY
grep -v '^status' report.txt
status=$(awk '/^status/ { print $2 }' report.txt)
[ "${BENCH_STRICT:-0}" = 1 ] && exit "$status"
exit 0
