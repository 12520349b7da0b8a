#!/usr/bin/env python3
# make-bad.py -- writes the malformed pprof, drcctprof and folded inputs of
# tests/bad/{pprof,drcctprof,folded} (run from the top of the tree):
# small profiles encoded here by hand with one defect each, and two cut
# from the real sample samples/pprof/gowork.cpu.pb.gz.  The .err files are
# the messages profhub prints, checked by tests/e2e/bad_proto.sh.
import gzip


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def fv(f, v):          # varint field
    return varint(f << 3) + varint(v)


def fb(f, data):       # length-delimited field
    if isinstance(data, str):
        data = data.encode()
    return varint(f << 3 | 2) + varint(len(data)) + data


def pprof(strings, types, funcs, locs, samples):
    out = b""
    for t, u in types:
        out += fb(1, fv(1, t) + fv(2, u))
    for ids, vals in samples:
        out += fb(2, fb(1, b"".join(varint(i) for i in ids)) +
                  fb(2, b"".join(varint(v) for v in vals)))
    for lid, fid in locs:
        out += fb(4, fv(1, lid) + fb(4, fv(1, fid) + fv(2, 7)))
    for fid, name in funcs:
        out += fb(5, fv(1, fid) + fv(2, name))
    for s in strings:
        out += fb(6, s)
    return out


S = ["", "samples", "count", "main", "work"]
T = [(1, 2)]
F = [(1, 3), (2, 4)]
L = [(1, 1), (2, 2)]
good = [([2, 1], [5])]
cases = {
    "pprof/string_index.pb": pprof(S, T, [(1, 3), (2, 40)], L, good),
    "pprof/unknown_location.pb": pprof(S, T, F, L, [([9, 1], [5])]),
    "pprof/value_count.pb": pprof(S, T, F, L, [([2, 1], [5, 6])]),
    "pprof/unknown_function.pb": pprof(S, T, F, [(1, 1), (2, 3)], good),
    "pprof/first_string.pb": pprof(["x"] + S[1:], T, F, L, good),
}
real = gzip.decompress(open("samples/pprof/gowork.cpu.pb.gz", "rb").read())
cases["pprof/truncated.pb"] = real[:len(real) // 2]
cases["pprof/concatenated.pb"] = real + real


def drcc(contexts, samples, nmetrics=1):
    out = fb(1, fv(1, 1) + fv(3, 1))
    for cid, ms in samples:
        out += fb(2, fv(1, cid) + b"".join(fb(2, fv(2, m)) for m in ms))
    for cid, loc, parent in contexts:
        out += fb(3, fv(1, cid) + fv(2, loc) + fv(3, parent))
    out += fb(4, fv(1, 1) + fb(2, fv(1, 1) + fv(2, 3)))
    out += fb(5, fv(1, 1) + fv(2, 2))
    for s in ["", "time", "main"]:
        out += fb(7, s)
    return out


cases["drcctprof/cycle.drcctprof"] = drcc([(1, 1, 0), (2, 1, 3), (3, 1, 2)],
                                          [(2, [4])])
cases["drcctprof/unknown_parent.drcctprof"] = drcc([(1, 1, 0), (2, 1, 8)],
                                                   [(2, [4])])
cases["drcctprof/metric_count.drcctprof"] = drcc([(1, 1, 0)], [(1, [4, 5])])
cases["folded/no_count.folded"] = b"main;work 3\nmain;work;leaf\n"
cases["folded/empty_frame.folded"] = b"main;;work 3\n"
cases["folded/bad_count.folded"] = b"main;work 3\nmain 12x\n"
for name, data in cases.items():
    open("tests/bad/" + name, "wb").write(data)
