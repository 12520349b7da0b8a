#!/usr/bin/env python3
# pbwalk.py -- an independent protobuf walker for the proto e2e tests: it
# decodes varints by hand (no protobuf package) and prints, for a pprof or
# drcctprof file, the per-event totals the test compares with profhub's.
#   pbwalk.py pprof FILE       -> "TYPE TOTAL" per sample type
#   pbwalk.py drcctprof FILE   -> "DES TOTAL" per metric (uint if set, else
#                                 int), then "samples N" and "contexts N"
#                                 (distinct context ids)
#   pbwalk.py stacks FILE      -> one line per drcctprof sample, sorted:
#                                 "root;...;leaf v1 v2 ..." (function names;
#                                 string metrics by their text)
import gzip
import sys


def varint(b, i):
    x = s = 0
    while True:
        c = b[i]
        i += 1
        x |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return x, i


def fields(b):
    """Yield (field, wiretype, value) of one message; value is an int or
    bytes."""
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        f, wt = k >> 3, k & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            i += n
        elif wt == 1:
            v = int.from_bytes(b[i:i + 8], "little")
            i += 8
        elif wt == 5:
            v = int.from_bytes(b[i:i + 4], "little")
            i += 4
        else:
            raise ValueError("wire type %d" % wt)
        yield f, wt, v


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def packed(wt, v):
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def pprof(data):
    strings, types, totals = [], [], []
    samples = []
    for f, wt, v in fields(data):
        if f == 6:
            strings.append(v.decode("utf-8", "replace"))
        elif f == 1:
            t = dict((ff, vv) for ff, _, vv in fields(v))
            types.append(t.get(1, 0))
        elif f == 2:
            vals = []
            for ff, w2, vv in fields(v):
                if ff == 2:
                    vals += [signed(x) for x in packed(w2, vv)]
            samples.append(vals)
    totals = [0] * len(types)
    for vals in samples:
        for k, x in enumerate(vals):
            totals[k] += x
    for k, t in enumerate(types):
        name = strings[t] if strings[t] else "value%d" % (k + 1)
        print(name, totals[k])
    print("samples", len(samples))


def drcctprof(data):
    strings, types, samples, contexts = [], [], [], set()
    for f, wt, v in fields(data):
        if f == 7:
            strings.append(v.decode("utf-8", "replace"))
        elif f == 1:
            t = dict((ff, vv) for ff, _, vv in fields(v))
            types.append(t.get(3, 0))
        elif f == 2:
            ms = []
            for ff, _, vv in fields(v):
                if ff == 2:
                    m = dict((a, c) for a, _, c in fields(vv))
                    ms.append(m.get(2) or signed(m.get(1, 0)))
            samples.append(ms)
        elif f == 3:
            contexts.add(dict((a, c) for a, _, c in fields(v)).get(1, 0))
    for k, t in enumerate(types):
        print(strings[t], sum(ms[k] for ms in samples if k < len(ms)))
    print("samples", len(samples))
    print("contexts", len(contexts))


def stacks(data):
    strings, vtypes, samples = [], [], []
    ctx, loc, fn = {}, {}, {}
    for f, wt, v in fields(data):
        if f == 7:
            strings.append(v.decode("utf-8", "replace"))
        elif f == 1:
            vtypes.append(dict((a, c) for a, _, c in fields(v)).get(1, 0))
        elif f == 2:
            cid, ms = 0, []
            for ff, _, vv in fields(v):
                if ff == 1:
                    cid = vv
                elif ff == 2:
                    ms.append(dict((a, c) for a, _, c in fields(vv)))
            samples.append((cid, ms))
        elif f == 3:
            c = dict((a, cc) for a, w2, cc in fields(v) if a != 4)
            ctx[c.get(1, 0)] = (c.get(2, 0), c.get(3, 0))
        elif f == 4:
            lid, fids = 0, []
            for ff, _, vv in fields(v):
                if ff == 1:
                    lid = vv
                elif ff == 2:
                    fids.append(dict((a, c) for a, _, c in fields(vv)).get(1, 0))
            loc[lid] = fids
        elif f == 5:
            x = dict((a, c) for a, _, c in fields(v))
            fn[x.get(1, 0)] = x.get(2, 0)
    out = []
    for cid, ms in samples:
        names, c = [], cid
        while c:
            lid, parent = ctx[c]
            fids = loc.get(lid)
            if fids is None:
                names.append("<context %d>" % c)
            else:
                names += [strings[fn[i]] for i in fids]
            c = parent
        vals = []
        for k, m in enumerate(ms):
            if vtypes[k] == 2:
                vals.append(strings[m.get(3, 0)])
            else:
                vals.append(str(m.get(2) or signed(m.get(1, 0))))
        out.append(";".join(reversed(names)) + " " + " ".join(vals))
    for line in sorted(out):
        print(line)


def main():
    data = open(sys.argv[2], "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    {"pprof": pprof, "drcctprof": drcctprof, "stacks": stacks}[sys.argv[1]](data)


main()
