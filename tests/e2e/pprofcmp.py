#!/usr/bin/env python3
# pprofcmp.py -- comparisons for the proto e2e tests (no packages needed).
#   pprofcmp.py top TOP.txt OURS.csv EVENT
#       TOP.txt is `go tool pprof -top -nodecount=1000 -nodefraction=0
#       -edgefraction=0 -unit=...` output; OURS.csv is `profhub summary -n 0
#       -f csv -e EVENT`.  Every function's flat and cum must equal our self
#       and inclusive cost (pprof groups by name, so ours are summed by
#       name), and the totals must agree.
#   pprofcmp.py csv A.csv B.csv EVENT
#       two of our summaries: same self and inclusive cost per function.
#   pprofcmp.py showing TOP.txt OURS.txt
#       pprof's "Showing nodes accounting for X, P% of T total" and
#       "Dropped N nodes" lines against ours (text summary): X, T and N.
#   pprofcmp.py traces A.txt B.txt
#       two `go tool pprof -traces` outputs (or profhub summary --traces):
#       the same multiset of samples (values compared without their unit).
# Prints what differs and exits 1; prints a one-line count and exits 0.
import csv
import re
import sys


def num(s):
    m = re.match(r"^(-?[0-9.]+)([A-Za-z]*)$", s)
    if not m:
        raise ValueError("not a pprof value: %r" % s)
    return int(m.group(1)) if "." not in m.group(1) else float(m.group(1))


def read_top(path):
    funcs, total, in_table = {}, None, False
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.search(r"of (-?\S+) total", line)
        if m and total is None:
            total = num(m.group(1))
        if re.match(r"^\s+flat\s+flat%", line):
            in_table = True
            continue
        if not in_table or not line.strip():
            continue
        parts = line.split(None, 5)
        name = re.sub(r" \(inline\)$", "", parts[5])
        flat, cum = num(parts[0]), num(parts[3])
        old = funcs.get(name, (0, 0))
        funcs[name] = (old[0] + flat, max(old[1], cum))
    return funcs, total


def read_ours(path, event):
    funcs = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = row.get("function") or row.get("name")
            s = int(row["self_" + event])
            i = int(row["incl_" + event])
            old = funcs.get(name, (0, 0))
            funcs[name] = (old[0] + s, max(old[1], i))
    return funcs


def compare(a, b, what_a, what_b):
    bad = 0
    for name in sorted(set(a) | set(b)):
        va, vb = a.get(name, (0, 0)), b.get(name, (0, 0))
        if va != vb:
            bad += 1
            if bad <= 20:
                print("%s: %s flat/cum %s, %s self/incl %s"
                      % (name, what_a, va, what_b, vb))
    return bad


def traces(path):
    blocks, cur, started = [], [], False
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("-----------+"):
            if cur:
                blocks.append("\n".join(cur))
            cur, started = [], True
            continue
        if started:
            # a value's unit goes ("10000000ns" is profhub's "10000000")
            line = re.sub(r"^(-?[0-9.]+)[A-Za-z]+(\s)", r"\1\2", line.strip())
            cur.append(re.sub(r"\s+", " ", line))
    if cur:
        blocks.append("\n".join(cur))
    return sorted(blocks)


def showing(path):
    """(X, T, dropped) of the Showing/Dropped lines, numbers as ints."""
    x = t = None
    dropped = 0
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^Showing nodes accounting for (\S+), \S+ of (\S+) "
                     r"total", line)
        if m:
            x, t = (num(v.replace(",", "")) for v in m.groups())
        m = re.match(r"^Dropped (\d+) nodes?\b", line)
        if m:
            dropped = int(m.group(1))
    return (x, t, dropped)


def main():
    mode = sys.argv[1]
    if mode == "top":
        top, total = read_top(sys.argv[2])
        ours = read_ours(sys.argv[3], sys.argv[4])
        ours = {k: v for k, v in ours.items() if v != (0, 0)}
        top = {k: v for k, v in top.items() if v != (0, 0)}
        bad = compare(top, ours, "pprof", "profhub")
        oursum = sum(v[0] for v in ours.values())
        if total is not None and total != oursum:
            print("total: pprof %s, profhub %s" % (total, oursum))
            bad += 1
        print("%d functions, total %s: %d differ" % (len(top), total, bad))
    elif mode == "csv":
        # an optional factor turns the first's values into the second's
        # unit (microseconds -> nanoseconds: 1000)
        factor = int(sys.argv[5]) if len(sys.argv) > 5 else 1
        a = read_ours(sys.argv[2], sys.argv[4])
        a = {k: (v[0] * factor, v[1] * factor) for k, v in a.items()}
        b = read_ours(sys.argv[3], sys.argv[4])
        a = {k: v for k, v in a.items() if v != (0, 0)}
        b = {k: v for k, v in b.items() if v != (0, 0)}
        bad = compare(a, b, "first", "second")
        print("%d functions: %d differ" % (len(a), bad))
    elif mode == "showing":
        a, b = showing(sys.argv[2]), showing(sys.argv[3])
        bad = 0 if a == b and a[0] is not None else 1
        if bad:
            print("pprof %s, profhub %s" % (a, b))
        print("showing %s of %s, dropped %s: %s"
              % (b[0], b[1], b[2], "differ" if bad else "same"))
    else:
        a, b = traces(sys.argv[2]), traces(sys.argv[3])
        bad = 0 if a == b else 1
        if bad:
            sa, sb = set(a), set(b)
            for x in sorted(sa - sb)[:3]:
                print("only in first:\n" + x)
            for x in sorted(sb - sa)[:3]:
                print("only in second:\n" + x)
        print("%d samples vs %d: %s" % (len(a), len(b),
                                         "differ" if bad else "same"))
    sys.exit(1 if bad else 0)


main()
