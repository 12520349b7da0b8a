#!/usr/bin/env python3
"""bench.py -- `make bench`: time profhub against the peers on big inputs
and print one table.

Inputs live outside the tree, in $PH_BENCH_DIR (default
$TMPDIR/profhub-bench); each is made once by its script when missing:
  callgrind.big.out   make_big_callgrind.sh (cc1 -O2 under callgrind, 13
                      events, --separate-callers=16, about 250 MB);
                      its `convert -t pprof` row writes the pprof file
                      the next row converts back to callgrind
  callgrind.sepN.out  the same with --separate-callers=N: a scaling row for
                      each one present, and made for each N in
                      $PH_BENCH_SCALE ("2 4 8": 43/82/148 MB with
                      PH_BENCH_FUNCS=60, 1 to 1.5 CPU-minutes each)
  cachegrind.lines.out
                      make_big_cachegrind.sh (a generated program of 7.6
                      million executed source lines, about 250 MB)
  gmon.big.out, gmon.big.exe
                      make_gmon.sh (a generated program built with -pg)
  heap.pb.gz          make_heap.sh (Go heap profile, very many stacks)
  callgrind.merge.out make_generated.sh callgrind (a small callgrind file; the
                      merge rows read 10 and 1,000 copies of it, merge/)
  callgrind.dumpsN.out
                      make_generated.sh dumps N (the same program, N
                      rounds, a dump each: N parts of one mix) for N in
                      $PH_BENCH_DUMPS (default "230 460 920 2300": about
                      25, 50, 100 and 250 MB)
PH_BENCH_MAKE=no skips making missing inputs (their rows are left out);
PH_BENCH_ONLY="callgrind scale dumps cachegrind gprof heap merge" picks
sections.

Each command is timed with hyperfine (median of $PH_BENCH_RUNS runs after
a warm-up, default 3; peers that take minutes get $PH_BENCH_PEER_RUNS,
default 1) and its peak memory taken with GNU time (%M, one run, which
also gives the times when the count is 1).  The table gives, per
input and command: size, median wall time, mean CPU (user + system),
MB/s of input by wall clock, peak RSS / input, and a ratio: a peer's time
against ours, a view's or diff's time against the plain summary of the
same input, a merge's memory and time per MB against the 10-input one, a
scaling row's time and memory per MB against callgrind.big.out's.  For
gzip input the size is the uncompressed one.  Under the table, what the
machine allows a reader of callgrind.big.out before it parses a byte
(hw_floor.c: reading the file, the first write to fresh memory).
"""
import csv, glob, gzip, io, json, os, re, shlex, shutil, subprocess, sys, \
    tempfile

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
    """Median wall and mean CPU seconds of CMD (a shell string), and a
    word when a run failed."""
    out = os.path.join(tmp, "h.json")
    # -i: a failing command still gets its row (a lost table costs hours)
    subprocess.run(["hyperfine", "-i", "--style", "none", "--warmup", "1",
                    "--runs", str(n), "--export-json", out, "-n", name,
                    cmd + " > /dev/null"],
                   check=True, stdout=subprocess.DEVNULL)
    r = json.load(open(out))["results"][0]
    bad = [c for c in r["exit_codes"] if c]
    # hyperfine keeps only the mean of user and system time.
    return (r["median"], r["user"] + r["system"],
            "FAILED (exit %d); " % bad[0] if bad else "")


def gnu_time(cmd):
    """Wall and CPU seconds, peak RSS in KB and exit status of one run."""
    f = os.path.join(tmp, "mem")
    subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M %x", "-o", f,
                    "sh", "-c", cmd + " > /dev/null 2>&1"])
    # the last line: GNU time puts "Command exited..." before it
    wall, user, sys_, kb, rc = open(f).read().split("\n")[-2].split()
    return float(wall), float(user) + float(sys_), int(kb), int(rc)


def measure(name, cmd, size, n):
    """A Run of CMD: hyperfine's median of N runs after a warm-up and one
    more run for the peak RSS; N = 1: that one run gives all three."""
    wall, cpu, kb, rc = gnu_time(cmd)
    bad = "FAILED (exit %d); " % rc if rc else ""
    if n > 1:
        wall, cpu, bad = hyper(name, cmd, n)
    return Run(size, wall, cpu, kb * 1024), bad


class Run:
    """One measured command: wall and CPU seconds, peak RSS in bytes."""
    def __init__(self, size, wall, cpu, rss):
        self.size, self.wall, self.cpu, self.rss = size, wall, cpu, rss


rows = []


def row(label, name, r, ratio):
    mb = r.size / 1e6
    ratio = ratio.rstrip("; ")
    rows.append((label, mb, name, r.wall, r.cpu, mb / r.wall,
                 r.rss / r.size, ratio))
    # each row as soon as it is measured, on stderr; the table at the end
    print("bench: %s %.1f MB %s: %.2f s wall, %.2f s CPU, %.2fx RSS  %s" % (
        label, mb, name, r.wall, r.cpu, r.rss / r.size, ratio),
        file=sys.stderr, flush=True)


def times(r, base):
    """R's wall (CPU) time as a multiple of BASE's."""
    return "%.2fx (CPU %.2fx)" % (r.wall / base.wall, r.cpu / base.cpu)


def bench(label, size, ours, peers=(), note=None):
    """Time OURS, a (name, shell command) pair, then each of PEERS; SIZE
    is the input's bytes.  NOTE(run) gives OURS's ratio column.  Returns
    OURS's Run."""
    r, bad = measure(ours[0], ours[1], size, runs)
    row(label, ours[0], r, bad + (note(r) if note else ""))
    for name, cmd in peers:
        p, bad = measure(name, cmd, size, peer_runs)
        row("", name, p, bad + times(p, r) + " of ours")
    return r


def of(name, base):
    """A NOTE for bench: the time as a multiple of BASE's, called NAME."""
    return lambda r: times(r, base) + " of " + name


def per_mb(base, what, floor=0):
    """A NOTE for bench: time and memory per MB as multiples of BASE's
    (flat = 1.00x); with FLOOR (the peak RSS of the same command on one
    run of the workload: the program, its libraries, its buffers), also
    the memory above it per MB: what grows with the input."""
    def note(r):
        text = "per MB: %.2fx time (CPU %.2fx), %.2fx RSS" % (
            (r.wall / r.size) / (base.wall / base.size),
            (r.cpu / r.size) / (base.cpu / base.size),
            (r.rss / r.size) / (base.rss / base.size))
        if floor:
            text += " (%.2fx above one run's %.1f MiB)" % (
                ((r.rss - floor) / r.size) / ((base.rss - floor) / base.size),
                floor / 2**20)
        return text + " of " + what
    return note


def grows(base, what):
    """A NOTE for bench: peak RSS, and time per MB, as multiples of
    BASE's (bounded memory: the first near 1; linear time: the second)."""
    return lambda r: "peak RSS %.2fx, time per MB %.2fx (CPU %.2fx) of %s" % (
        r.rss / base.rss, (r.wall / r.size) / (base.wall / base.size),
        (r.cpu / r.size) / (base.cpu / base.size), what)


def q(p):
    return shlex.quote(p)


def qs(paths):
    return " ".join(q(p) for p in paths)


def costliest(path):
    """The exact name of PATH's costliest function by self cost, for the
    views around one function (a name that is not exact is a regular
    expression: "main" matches most --separate-callers contexts)."""
    out = subprocess.run([profhub, "summary", "-n", "1", "-f", "csv", path],
                         capture_output=True, text=True)
    rows_ = list(csv.DictReader(io.StringIO(out.stdout)))
    return rows_[0]["name"] if rows_ else "main"


def callgrind_rows(ph):
    big = os.path.join(bdir, "callgrind.big.out")
    if not need(big, "make_big_callgrind.sh", "16"):
        return None
    size = size_of(big)
    peers = [("callgrind_annotate", "callgrind_annotate " + q(big))] \
        if have("callgrind_annotate") else []
    if have("cgview") and os.environ.get("PH_BENCH_CGVIEW"):
        # KCachegrind's own loader, built from source; ours is also
        # called cgview, so only when the user points at it.
        peers.append(("kcachegrind cgview",
                      q(os.environ["PH_BENCH_CGVIEW"]) + " " + q(big)))
    label = "callgrind (cc1, 13 events)"
    s = bench(label, size, ("profhub summary", ph + " summary " + q(big)),
              peers)
    base = of("summary", s)
    bench(label, size, ("profhub info", ph + " info " + q(big)),
          note=base)
    fn = q(costliest(big))
    for view, arg in (("--tree", ""), ("--butterfly", fn),
                      ("--group file", ""), ("--annotate", fn)):
        bench(label, size, ("profhub summary " + view
                            + (" (costliest)" if arg else ""),
                            ph + " summary " + view + " " + arg + " "
                            + q(big)), note=base)
    back = os.path.join(tmp, "o.pb.gz")
    bench(label, size, ("profhub convert -t pprof",
                        ph + " convert -t pprof -o " + q(back) + " " + q(big)))
    # the way back: a big pprof profile of instruction-level locations
    bench("pprof (the cc1 file, written by convert -t pprof)", size_of(back),
          ("profhub convert -t callgrind",
           ph + " convert -t callgrind -o "
           + q(os.path.join(tmp, "o.callgrind")) + " " + q(back)),
          [("go tool pprof -callgrind", "go tool pprof -callgrind "
            + q(back))] if have("go") else [])
    bench(label, size, ("profhub diff (itself)",
                        ph + " diff " + q(big) + " " + q(big)),
          note=base)
    return s


def scaling_rows(ph, big):
    """A summary row for each callgrind.sepN.out (made for N in
    PH_BENCH_SCALE, else only those present), per MB against the big
    file's summary."""
    want = set(os.environ.get("PH_BENCH_SCALE", "").split())
    for f in glob.glob(os.path.join(bdir, "callgrind.sep*.out")):
        m = re.match(r"callgrind\.sep(\d+)\.out$", os.path.basename(f))
        if m:
            want.add(m.group(1))
    for n in sorted(want, key=int):
        f = os.path.join(bdir, "callgrind.sep%s.out" % n)
        if not need(f, "make_big_callgrind.sh", n):
            continue
        bench("callgrind --separate-callers=" + n, size_of(f),
              ("profhub summary", ph + " summary " + q(f)),
              note=per_mb(big, "--separate-callers=16") if big else None)


def dumps_rows(ph):
    """The summary of the same workload at about 25, 50, 100 and 250 MB
    (callgrind.dumpsN.out: N rounds of one program, a dump each), time
    and memory per MB against the largest."""
    made = []
    for n in os.environ.get("PH_BENCH_DUMPS", "230 460 920 2300").split():
        f = os.path.join(bdir, "callgrind.dumps%s.out" % n)
        if need(f, "make_generated.sh", "dumps", n):
            made.append((int(n), f))
    made.sort(reverse=True)
    # one run of the same program: what does not grow with the dumps
    one = os.path.join(bdir, "callgrind.merge.out")
    floor = gnu_time(ph + " summary " + q(one))[2] * 1024 \
        if made and need(one, "make_generated.sh", "callgrind") else 0
    base = None
    for n, f in made:
        r = bench("callgrind, %d dumps of one mix" % n, size_of(f),
                  ("profhub summary", ph + " summary " + q(f)),
                  note=per_mb(base, "%d dumps" % made[0][0], floor)
                  if base else None)
        base = base or r


def cachegrind_rows(ph):
    cg = os.path.join(bdir, "cachegrind.lines.out")
    if not need(cg, "make_big_cachegrind.sh"):
        return
    size = size_of(cg)
    label = "cachegrind (generated lines)"
    peers = [("cg_annotate", "cg_annotate " + q(cg))] \
        if have("cg_annotate") else []
    s = bench(label, size, ("profhub summary", ph + " summary " + q(cg)),
              peers)
    bench(label, size, ("profhub diff (itself)",
                        ph + " diff " + q(cg) + " " + q(cg)),
          [("cg_diff", "cg_diff " + q(cg) + " " + q(cg))]
          if have("cg_diff") else [], note=of("summary", s))


def gprof_rows(ph):
    gmon = os.path.join(bdir, "gmon.big.out")
    exe = os.path.join(bdir, "gmon.big.exe")
    if not os.path.exists(exe) and os.path.exists(gmon):
        os.remove(gmon)         # one without the other names nothing
    if not need(gmon, "make_gmon.sh", exe):
        return
    peers = [("gprof -b", "gprof -b " + q(exe) + " " + q(gmon))] \
        if have("gprof") else []
    bench("gprof gmon.out (generated)", size_of(gmon),
          ("profhub summary", ph + " summary --exe " + q(exe) + " "
           + q(gmon)), peers)


def heap_rows(ph):
    heap = os.path.join(bdir, "heap.pb.gz")
    if not need(heap, "make_heap.sh"):
        return
    size = size_of(heap)
    label = "pprof heap (Go, many stacks)"
    go = have("go")
    bench(label, size, ("profhub summary", ph + " summary " + q(heap)),
          [("go tool pprof -top", "go tool pprof -top " + q(heap))]
          if go else [])
    bench(label, size, ("profhub convert -t callgrind",
                        ph + " convert -t callgrind -o "
                        + q(os.path.join(tmp, "h.callgrind")) + " "
                        + q(heap)),
          [("go tool pprof -proto", "go tool pprof -proto " + q(heap)),
           ("go tool pprof -callgrind",
            "go tool pprof -callgrind " + q(heap))] if go else [])


def merge_rows(ph):
    """merge, and summary of as many parts, of 10 and of 1,000 copies of
    one callgrind file: memory should not grow with the count."""
    one = os.path.join(bdir, "callgrind.merge.out")
    if not need(one, "make_generated.sh", "callgrind"):
        return
    mdir = os.path.join(bdir, "merge")
    os.makedirs(mdir, exist_ok=True)
    files = [os.path.join(mdir, "%04d.callgrind" % i) for i in range(1000)]
    for f in files:
        if not os.path.exists(f) or os.path.getsize(f) != os.path.getsize(one):
            shutil.copyfile(one, f)
    out = q(os.path.join(tmp, "m.callgrind"))
    for what, cmd in (("merge -o", ph + " merge -o " + out + " "),
                      ("summary (parts)", ph + " summary ")):
        ten = None
        for n in (10, 1000):
            size = sum(os.path.getsize(f) for f in files[:n])
            r = bench("callgrind x %d (%.0f KB each)" % (
                n, os.path.getsize(one) / 1e3), size,
                ("profhub " + what, cmd + qs(files[:n])),
                note=ten and grows(ten, "10 inputs"))
            ten = ten or r


def machine(big):
    """What this machine allows a reader of the file BIG before it parses
    a byte (hw_floor.c): lines to print under the table."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not os.path.exists(big) or not cc:
        return []
    exe = os.path.join(tmp, "hw_floor")
    if subprocess.run([cc, "-O2", "-o", exe,
                       os.path.join(here, "hw_floor.c")]).returncode != 0:
        return []
    out = subprocess.run([exe, big], capture_output=True, text=True)
    return out.stdout.splitlines()


def main():
    for t in ("hyperfine", "/usr/bin/time"):
        if not have(t):
            sys.exit("bench: %s is missing (apt-get install hyperfine time)" % t)
    os.makedirs(bdir, exist_ok=True)
    ph = q(profhub)
    only = os.environ.get("PH_BENCH_ONLY", "").split()

    big = callgrind_rows(ph) if not only or "callgrind" in only else None
    for name, fn in (("scale", lambda: scaling_rows(ph, big)),
                     ("dumps", lambda: dumps_rows(ph)),
                     ("cachegrind", lambda: cachegrind_rows(ph)),
                     ("gprof", lambda: gprof_rows(ph)),
                     ("heap", lambda: heap_rows(ph)),
                     ("merge", lambda: merge_rows(ph))):
        if not only or name in only:
            fn()

    print()
    print("| input | MB | command | median wall s | mean CPU s | MB/s (wall) "
          "| peak RSS / input | ratio (wall) |")
    print("|---|---|---|---|---|---|---|---|")
    last = None
    for label, mb, name, wall, cpu, mbs, rss, ratio in rows:
        print("| %s | %.1f | %s | %.2f | %.2f | %.0f | %.2fx | %s |" % (
            label if label != last else "", mb, name, wall, cpu, mbs, rss,
            ratio))
        last = label or last
    cc1 = os.path.join(bdir, "callgrind.big.out")
    floor = machine(cc1) if big else []
    if floor:
        print()
        print("This machine, on %s:" % os.path.basename(cc1))
        for line in floor:
            print("- " + line)
    shutil.rmtree(tmp, ignore_errors=True)


main()
