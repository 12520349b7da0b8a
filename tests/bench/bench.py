#!/usr/bin/env python3
"""bench.py -- `make bench`: time profhub against the peers on big inputs
and print one table.

Inputs live outside the tree, in $PH_BENCH_DIR (default
$TMPDIR/profhub-bench); each is made once by its script when missing:
  callgrind.big.out   make_big_callgrind.sh (cc1 -O2 under callgrind, 13
                      events, --separate-callers=16, about 250 MB)
  callgrind.sepN.out  the same with --separate-callers=N, N in
                      $PH_BENCH_SCALE (default empty: "2 4 8" gives the
                      25/50/100 MB rows of the scaling check)
  cachegrind.big.out  make_cachegrind.sh (a generated program)
  heap.pb.gz          make_heap.sh (Go heap profile, very many stacks)
PH_BENCH_MAKE=no skips making missing inputs (their rows are left out).

Each command is timed with hyperfine (median of $PH_BENCH_RUNS runs,
default 3; peers that take minutes get $PH_BENCH_PEER_RUNS, default 1) and
its peak memory taken with GNU time (%M, one run).  The table gives, per
input and command: size, median wall time, mean CPU (user + system),
MB/s of input by wall clock, peak RSS / input, and the peer's time against
ours.  For gzip input the size is the uncompressed one.
"""
import gzip, json, os, shutil, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
profhub = os.environ.get("PROFHUB", "./profhub")
bdir = os.environ.get("PH_BENCH_DIR",
                      os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                   "profhub-bench"))
runs = int(os.environ.get("PH_BENCH_RUNS", "3"))
peer_runs = int(os.environ.get("PH_BENCH_PEER_RUNS", "1"))
make = os.environ.get("PH_BENCH_MAKE", "yes") != "no"
tmp = tempfile.mkdtemp(prefix="bench.")


def have(cmd):
    return shutil.which(cmd) is not None


def need(path, script, *args):
    """Make the input PATH with SCRIPT when missing; False if unavailable."""
    if os.path.exists(path) and os.path.getsize(path) > 0:
        return True
    if not make:
        return False
    r = subprocess.run(["sh", os.path.join(here, script), path] + list(args))
    return r.returncode == 0


def size_of(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            n = 0
            while True:
                b = f.read(1 << 20)
                if not b:
                    return n
                n += len(b)
    return os.path.getsize(path)


def hyper(name, cmd, n):
    """Median wall and mean CPU seconds of CMD (a shell string)."""
    out = os.path.join(tmp, "h.json")
    # -i: a failing command still gets its row (a lost table costs hours)
    subprocess.run(["hyperfine", "-i", "--style", "none", "--warmup",
                    "1" if n > 1 else "0", "--runs", str(n),
                    "--export-json", out, "-n", name, cmd + " > /dev/null"],
                   check=True, stdout=subprocess.DEVNULL)
    r = json.load(open(out))["results"][0]
    # hyperfine keeps only the mean of user and system time.
    return r["median"], r["user"] + r["system"]


def peak_kb(cmd):
    f = os.path.join(tmp, "mem")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f, "sh", "-c",
                    cmd + " > /dev/null 2>&1"])
    return int(open(f).read().split()[-1])


rows = []


def bench(label, path, ours, peers):
    """OURS: (name, command); PEERS: list of (name, command)."""
    size = size_of(path)
    mb = size / 1e6
    wall, cpu = hyper(ours[0], ours[1], runs)
    kb = peak_kb(ours[1])
    rows.append((label, mb, ours[0], wall, cpu, mb / wall, kb * 1024 / size, ""))
    print_row(rows[-1])
    for name, cmd in peers:
        pw, pc = hyper(name, cmd, peer_runs)
        pk = peak_kb(cmd)
        rows.append(("", mb, name, pw, pc, mb / pw, pk * 1024 / size,
                     "%.1fx ours" % (pw / wall)))
        print_row(rows[-1])


def print_row(r):
    """Each row as soon as it is measured, on stderr; the table at the end."""
    print("bench: %s %.1f MB %s: %.2f s wall, %.2f s CPU, %.2fx RSS" % (
        r[0], r[1], r[2], r[3], r[4], r[6]), file=sys.stderr, flush=True)


def q(p):
    return "'" + p + "'"


def main():
    for t in ("hyperfine", "/usr/bin/time"):
        if not have(t):
            sys.exit("bench: %s is missing (apt-get install hyperfine time)" % t)
    os.makedirs(bdir, exist_ok=True)
    ph = q(profhub)

    big = os.path.join(bdir, "callgrind.big.out")
    if need(big, "make_big_callgrind.sh", "16"):
        peers = [("callgrind_annotate", "callgrind_annotate " + q(big))] \
            if have("callgrind_annotate") else []
        if have("cgview") and os.environ.get("PH_BENCH_CGVIEW"):
            # KCachegrind's own loader, built from source; ours is also
            # called cgview, so only when the user points at it.
            peers.append(("kcachegrind cgview",
                          q(os.environ["PH_BENCH_CGVIEW"]) + " " + q(big)))
        bench("callgrind (cc1, 13 events)", big,
              ("profhub summary", ph + " summary " + q(big)), peers)
        bench("", big, ("profhub info", ph + " info " + q(big)), [])
        # --butterfly and --annotate take a function: main is in every run
        for view in ("--tree", "--butterfly main", "--annotate main"):
            bench("", big, ("profhub summary " + view,
                            ph + " summary " + view + " " + q(big)), [])
        bench("", big, ("profhub convert -t pprof",
                        ph + " convert -t pprof -o " + q(os.path.join(tmp, "o.pb.gz"))
                        + " " + q(big)), [])
        bench("", big, ("profhub diff (itself)",
                        ph + " diff " + q(big) + " " + q(big)), [])
    for n in os.environ.get("PH_BENCH_SCALE", "").split():
        f = os.path.join(bdir, "callgrind.sep%s.out" % n)
        if need(f, "make_big_callgrind.sh", n):
            bench("callgrind --separate-callers=" + n, f,
                  ("profhub summary", ph + " summary " + q(f)), [])

    cg = os.path.join(bdir, "cachegrind.big.out")
    if need(cg, "make_cachegrind.sh"):
        peers = [("cg_annotate", "cg_annotate " + q(cg))] \
            if have("cg_annotate") else []
        bench("cachegrind (generated)", cg,
              ("profhub summary", ph + " summary " + q(cg)), peers)
        if have("cg_diff"):
            bench("", cg, ("profhub diff (itself)",
                           ph + " diff " + q(cg) + " " + q(cg)),
                  [("cg_diff", "cg_diff " + q(cg) + " " + q(cg))])

    heap = os.path.join(bdir, "heap.pb.gz")
    if need(heap, "make_heap.sh"):
        peers = [("go tool pprof -top", "go tool pprof -top " + q(heap))] \
            if have("go") else []
        bench("pprof heap (Go, many stacks)", heap,
              ("profhub summary", ph + " summary " + q(heap)), peers)

    print()
    print("| input | MB | command | median wall s | mean CPU s | MB/s (wall) "
          "| peak RSS / input | peer vs ours (wall) |")
    print("|---|---|---|---|---|---|---|---|")
    for label, mb, name, wall, cpu, mbs, rss, ratio in rows:
        print("| %s | %.1f | %s | %.2f | %.2f | %.0f | %.2fx | %s |" % (
            label, mb, name, wall, cpu, mbs, rss, ratio))
    shutil.rmtree(tmp, ignore_errors=True)


main()
