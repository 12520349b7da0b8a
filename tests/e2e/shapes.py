#!/usr/bin/env python3
"""shapes.py -- generate adversarial inputs of 10^5 elements and time
profhub on them against a normal input of about the same size (issue 15
item 6: every reader and writer is linear or n log n in its input).

Usage: shapes.py TMPDIR PROFHUB.  Prints one line per run and exits 1 when
an adversarial run takes more than RATIO times the CPU time of its normal
twin plus SLACK seconds (a quadratic step at 10^5 takes tens of seconds,
the linear one well under one)."""
import os
import resource
import subprocess
import sys

N = 100000
RATIO, SLACK = 5.0, 1.0
WRITERS = ["callgrind", "cachegrind", "pprof", "drcctprof", "folded",
           "speedscope", "dot"]


def frames(names):
    return ";".join(names)


def gen(tmp):
    """The inputs, as (name, format, path) pairs; a name ends in .normal for
    the twin an adversarial input is compared with."""
    def write(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    fo = {}
    # One stack N frames deep, all distinct; the same frames as N/10
    # stacks of 10; one stack N frames deep alternating two functions.
    fo["deep"] = write("deep.folded",
                       frames("f%d" % i for i in range(N)) + " 1\n")
    fo["normal"] = write("normal.folded", "".join(
        frames("f%d" % (k + j) for j in range(10)) + " 1\n"
        for k in range(0, N, 10)))
    fo["pingpong"] = write("pingpong.folded",
                           frames("ab"[i % 2] for i in range(N)) + " 1\n")
    cg = {}
    # N event names on one events: line; N functions with one cost each.
    cg["events"] = write("events.callgrind",
                         "version: 1\ncreator: shapes.py\nevents: " +
                         " ".join("e%d" % i for i in range(N)) +
                         "\nfn=main\n1 " + " ".join(["1"] * N) + "\n")
    cg["normal"] = write("normal.callgrind",
                         "version: 1\ncreator: shapes.py\nevents: Ir\n" +
                         "".join("fn=f%d\n%d 1\n" % (i, i)
                                 for i in range(N // 2)))
    # main calling N/2 functions, for the gprof call graph (every
    # function's arcs were found by a scan of all arcs: 83 s at N)
    cg["fanout"] = write("fanout.callgrind",
                         "version: 1\ncreator: shapes.py\nevents: Ir\n"
                         "fn=main\n1 1\n" +
                         "".join("cfn=f%d\ncalls=1 0\n1 1\n" % i
                                 for i in range(N // 2)) +
                         "".join("fn=f%d\n1 1\n" % i for i in range(N // 2)))
    return fo, cg


def cpu_of(cmd):
    """CPU seconds (user + system) of one run of cmd, which must exit 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit("FAIL: %s exited %d: %s" %
                         (" ".join(cmd), r.returncode,
                          r.stderr.decode(errors="replace")[:300]))
    return (after.ru_utime - before.ru_utime) + \
        (after.ru_stime - before.ru_stime)


def main():
    tmp, profhub = sys.argv[1], sys.argv[2]
    fo, cg = gen(tmp)
    failures = 0

    def compare(label, bad_cmd, normal_cmd):
        nonlocal failures
        t_norm = cpu_of(normal_cmd)
        t_bad = cpu_of(bad_cmd)
        ok = t_bad <= RATIO * t_norm + SLACK
        print("%-4s %-40s %6.2f s (normal %5.2f s)" %
              ("ok" if ok else "SLOW", label, t_bad, t_norm))
        if not ok:
            failures += 1

    def convert(fmt_in, path, fmt_out):
        out = path + "." + fmt_out
        return [profhub, "convert", "-F", fmt_in, "-t", fmt_out, path,
                "-o", out], out

    compare("callgrind events: with %d names" % N,
            [profhub, "summary", cg["events"]],
            [profhub, "summary", cg["normal"]])
    compare("summary --gprof, main calling %d functions" % (N // 2),
            [profhub, "summary", "--gprof", cg["fanout"]],
            [profhub, "summary", "--gprof", cg["normal"]])
    # --annotate of main, whose one line calls N/2 functions (each call
    # was looked up among the line's calls made so far, and each text
    # row held every event's data cells: minutes at N)
    compare("summary --annotate, one line calling %d functions" % (N // 2),
            [profhub, "summary", "--annotate", "main", cg["fanout"]],
            [profhub, "summary", "--annotate", "f1", cg["normal"]])
    # Every writer on one deep stack; what the tree and call-graph writers
    # wrote read back (the readers on deep stacks, and the flat data of a
    # deep call chain expanded into stacks again); a deep stack of two
    # functions calling each other (recursion cut on every frame).
    for w in WRITERS:
        bad, bad_out = convert("folded", fo["deep"], w)
        norm, norm_out = convert("folded", fo["normal"], w)
        compare("folded deep -> %s" % w, bad, norm)
        if w in ("callgrind", "pprof", "drcctprof"):
            for w2 in ("folded", "dot"):
                compare("folded deep -> %s -> %s" % (w, w2),
                        convert(w, bad_out, w2)[0],
                        convert(w, norm_out, w2)[0])
    for w in ("callgrind", "folded", "dot"):
        compare("folded pingpong -> %s" % w,
                convert("folded", fo["pingpong"], w)[0],
                convert("folded", fo["normal"], w)[0])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
