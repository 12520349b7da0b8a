#!/usr/bin/env python3
"""roundtrip.py -- every writer's output reads back (issue 15 item 11).

Usage: roundtrip.py TMPDIR PROFHUB TOP_SRCDIR

Inputs: every real sample (samples/*, gmon with its prog), every
tests/bad case that reads, and edge cases made here from a real sample:
a frame name holding NUL, one holding ESC, a callgrind cost line
before any fn= line, an event name holding CR, a function name ending
in ':', and a callgrind file whose one cost is INT64_MAX.
Each is converted to every format that profhub both writes and reads,
read back, and the totals of `summary --format json` compared per event,
in the event's unit (`info --format json` gives unit and scale: pprof
writes seconds of gmon ticks as nanoseconds).  An event missing after
the round trip passes only when the convert printed a drop warning
about events; a renamed one only when a warning says so.  Prints one
line per failure; exit 1 if any.
"""
import glob
import json
import os
import re
import subprocess
import sys

tmp, profhub, top = sys.argv[1:4]
FORMATS = ["callgrind", "cachegrind", "pprof", "drcctprof", "folded"]
MAX = b"9223372036854775807"
TO_NS = {"seconds": 1e9, "milliseconds": 1e6, "microseconds": 1e3,
         "nanoseconds": 1}
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def run(args):
    try:
        r = subprocess.run([profhub] + args, capture_output=True,
                           timeout=120)
    except subprocess.TimeoutExpired:
        return 124, b"", "timed out after 120 s"
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def totals(path, extra):
    """{event: total in its base unit} of path, or None if it does not
    read."""
    rc, out, _ = run(["summary", "--format", "json"] + extra + [path])
    if rc:
        return None
    # {event: (total in the event's base unit, raw total)}
    tot = {k: (v, v) for k, v in json.loads(out)["totals"].items()}
    rc, out, err = run(["info", "--format", "json"] + extra + [path])
    if rc:
        fail(f"{path}: summary reads it, info does not: {err.strip()}")
        return None
    for ev in json.loads(out)["events"]:
        name = ev["name"]
        if name in tot and tot[name][0] is not None and \
                ev["unit"] in TO_NS:
            v = tot[name][0]
            tot[name] = (round(v * ev["scale"] * TO_NS[ev["unit"]]), v)
    return tot


def edge_cases():
    """Inputs made from a real sample that once gave unreadable output."""
    src = os.path.join(top, "samples/callgrind/chain.default.out")
    made = []
    rc, folded, err = run(["convert", "-t", "folded", "-o", "-", src])
    if rc or not folded:
        fail(f"cannot make the edge cases: {err.strip()}")
        return made
    lines = folded.split(b"\n")
    for tag, byte in (("nul", b"\0"), ("esc", b"\x1b[31m")):
        path = os.path.join(tmp, f"edge_{tag}.folded")
        # the first frame of the first stack gets the byte in its name
        first = lines[0].replace(b";", byte + b";", 1)
        with open(path, "wb") as f:
            f.write(b"\n".join([first] + lines[1:]))
        made.append((path, ["-F", "folded"]))
    # a root frame named "#550) hot_loop" (found by tests/fuzz/fuzz_roundtrip:
    # the folded sniffer refused lines beginning with '#'), one with a
    # leading blank (an indented line, which the sniffer refuses), one
    # with ": " (found by the same target: "key: value" to the sniffer),
    # one beginning with the native experiment's magic (the same target)
    # and one with cachegrind's first word ("desc:", no "events:")
    for tag, lead in (("hash", b"#550) "), ("blank", b" "),
                      ("colon", b"su??ary: 10 2 1 "), ("magic", b"PROFHUBX"),
                      ("desc", b"desc: I1 ")):
        path = os.path.join(tmp, f"edge_{tag}.folded")
        with open(path, "wb") as f:
            f.write(b"\n".join([lead + lines[0]] + lines[1:]))
        made.append((path, ["-F", "folded"]))
    path = os.path.join(tmp, "edge_nofn.out")
    with open(src, "rb") as f:
        orig = f.read()
    # a cost line right after the summary, before any fn= line
    text = re.sub(rb"(\nsummary:[^\n]*\n)", rb"\g<1>16 7\n", orig, count=1)
    with open(path, "wb") as f:
        f.write(text)
    made.append((path, []))
    # a line end inside an event name (found by tests/fuzz/fuzz_roundtrip:
    # the cachegrind writer wrote '?' where its warning said '_')
    path = os.path.join(tmp, "edge_cr.out")
    with open(path, "wb") as f:
        f.write(orig.replace(b"\nevents: Ir\n", b"\nevents: I\rr\n", 1))
    made.append((path, []))
    # an event named like an id (found by tests/fuzz/fuzz_roundtrip: the
    # drcctprof reader takes "...type..." metrics for ids, not costs, and
    # the writer did not say so)
    path = os.path.join(tmp, "edge_idname.out")
    with open(path, "wb") as f:
        f.write(orig.replace(b"\nevents: Ir\n", b"\nevents: I_type\n", 1))
    made.append((path, []))
    # a form feed and a vertical tab inside an event name (found by
    # tests/fuzz/fuzz_roundtrip: written raw, they split the name in two
    # for the cachegrind reader, which takes them as blanks, as cg_annotate)
    for tag, byte in (("ff", b"\f"), ("vt", b"\v")):
        path = os.path.join(tmp, f"edge_{tag}.out")
        with open(path, "wb") as f:
            f.write(orig.replace(b"\nevents: Ir\n", b"\nevents: I" + byte +
                                 b"r\n", 1))
        made.append((path, []))
    # event names that the rule makes one (found by
    # tests/fuzz/fuzz_roundtrip: "1\x12" and "1\x01" were both written
    # "1_", and the events: line with a name twice did not read back):
    # Ir becomes "I\x01r", Dr "I=r", and Dw "I_r", the name both take
    cg = os.path.join(top, "samples/cachegrind/chain.default.out")
    with open(cg, "rb") as f:
        text = f.read()
    path = os.path.join(tmp, "edge_same.out")
    with open(path, "wb") as f:
        f.write(text.replace(b"\nevents: Ir I1mr ILmr Dr D1mr DLmr Dw ",
                             b"\nevents: I\x01r I1mr ILmr I=r D1mr DLmr I_r ",
                             1))
    made.append((path, []))
    # a function named like "21) main" (found by tests/fuzz/fuzz_roundtrip:
    # its folded output, shorter than the sniff window, began like a
    # protobuf field of 49 bytes and was read back as a cut pprof file)
    path = os.path.join(tmp, "edge_digits.out")
    head = orig[:orig.index(b"\nfn=") + 1]
    head = re.sub(rb"\nsummary:[^\n]*", b"\nsummary: 7", head)
    with open(path, "wb") as f:
        f.write(head + b"fn=21) main\n16 7\n")
    made.append((path, []))
    # a frame name ending in ':' (found by tests/fuzz/fuzz_roundtrip: its
    # folded output was taken for "key: value" headers, not recognised)
    path = os.path.join(tmp, "edge_colon.out")
    with open(path, "wb") as f:
        f.write(re.sub(rb"(\(\d+\) _dl_init)\n", rb"\1:\n", orig, count=1))
    made.append((path, []))
    # one cost of INT64_MAX (found by tests/fuzz/fuzz_callgrind): the
    # stack view's share of it left int64 and settling the rounding went
    # one unit at a time, for ever
    path = os.path.join(tmp, "edge_max.out")
    head = orig[:orig.index(b"\n", orig.index(b"\nfn=") + 1) + 1]
    head = re.sub(rb"\nsummary:[^\n]*", b"\nsummary: " + MAX, head)
    with open(path, "wb") as f:
        f.write(head + b"30 " + MAX + b"\n")
    made.append((path, []))
    # a gmon.out whose clock ticks once a second (found by
    # tests/fuzz/fuzz_roundtrip: scale 1, unit seconds; callgrind has no
    # units, so the seconds came back as counts with no warning): the
    # histogram's prof_rate (offset 41, after tag 0, low_pc, high_pc and
    # hist_size) set to 1
    gdir = os.path.join(top, "samples/gmon/chain-pie")
    with open(os.path.join(gdir, "gmon.out"), "rb") as f:
        gmon = bytearray(f.read())
    if gmon[20] != 0 or int.from_bytes(gmon[41:45], "little") != 100:
        fail("edge_rate1: the sample's histogram is not where it was")
    gmon[41:45] = (1).to_bytes(4, "little")
    path = os.path.join(tmp, "edge_rate1.gmon")
    with open(path, "wb") as f:
        f.write(gmon)
    made.append((path, ["--exe", os.path.join(gdir, "prog")]))
    return made


def inputs():
    out = []
    for f in sorted(glob.glob(os.path.join(top, "samples/*/*"))):
        base = os.path.basename(f)
        if not os.path.isfile(f) or base in ("README.md", "local.mk",
                                             "regen.sh"):
            continue
        out.append((f, []))
    for f in sorted(glob.glob(os.path.join(top, "samples/gmon/*/gmon.out"))):
        out.append((f, ["--exe", os.path.join(os.path.dirname(f), "prog")]))
    for f in sorted(glob.glob(os.path.join(top, "tests/bad/*/*"))):
        if not re.search(r"\.(err|py)$", f):
            out.append((f, []))
    return out + edge_cases()


def written_names(names):
    """{name: the name callgrind and cachegrind files give it}: the rule of
    exporters/out_events.c, written again here to check it.  A name the
    rule leaves alone is kept; a renamed one that meets a name given
    already gets "_2", "_3", ... counting on for that name."""
    def rule(name):
        return re.sub(r"[ =:\x00-\x1f\x7f]", "_", name) or "_"
    given = {n for n in names if rule(n) == n}
    out, next_suffix = {}, {}
    for name in names:
        base = rule(name)
        if base == name:
            out[name] = name
            continue
        got = base
        if base in given:
            k = next_suffix.get(base, 2)
            while f"{base}_{k}" in given:
                k += 1
            next_suffix[base] = k + 1
            got = f"{base}_{k}"
        given.add(got)
        out[name] = got
    return out


def compare(label, a, b, warnings):
    dropped_events = re.search(r"dropped \d+ .*(events|metrics)", warnings)
    renamed = "event names with blanks" in warnings and written_names(a)
    raw = "dropped" in warnings and "event scales" in warnings
    m = re.search(r"event name \(the values are '(.*?)';", warnings)
    folded_name = m.group(1) if m else None
    seen = set()
    for name, want in a.items():
        got_name = name
        if folded_name is not None:
            if name != folded_name:
                if not dropped_events:
                    fail(f"{label}: event {name} lost without a warning")
                continue
            got_name = "samples"
        elif renamed:
            got_name = renamed[name]
        seen.add(got_name)
        if got_name in b:
            if b[got_name] != want[raw]:
                fail(f"{label}: {name} total {want[raw]}, "
                     f"read back {b[got_name]}")
        elif not dropped_events:
            fail(f"{label}: event {name} lost without a drop warning")
    for name in b:
        if name not in seen:
            fail(f"{label}: event {name} appears from nowhere")


def main():
    n = 0
    for path, extra in inputs():
        a = totals(path, extra)
        if a is None:
            continue          # a bad case that does not read
        rel = os.path.relpath(path, top) if path.startswith(top) else \
            os.path.basename(path)
        for fmt in FORMATS:
            out = os.path.join(tmp, "rt." + fmt)
            rc, _, warn = run(["convert"] + extra +
                              ["-t", fmt, "-o", out, path])
            if rc:
                # a writer may refuse, with a message: nothing to write
                if "has no" not in warn or os.path.exists(out):
                    fail(f"{rel} -> {fmt}: exit {rc}, {warn.strip()!r}")
                continue
            n += 1
            b = totals(out, [])
            if b is None:
                _, _, err = run(["summary", out])
                fail(f"{rel} -> {fmt}: does not read back: {err.strip()}")
                continue
            compare(f"{rel} -> {fmt}", a, {k: v[0] for k, v in b.items()},
                    warn)
            os.unlink(out)
    print(f"{n} conversions read back")
    if n < 100:
        fail(f"only {n} conversions: samples missing?")
    return 1 if failures else 0


sys.exit(main())
