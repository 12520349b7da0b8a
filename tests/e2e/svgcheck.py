#!/usr/bin/env python3
"""svgcheck.py -- check profhub's pictures against `profhub summary
--format json` of the same input, for the draw_*.sh tests.  Prints one
line per problem and exits 1 when there is any.

  svgcheck.py flame SVG SUMMARY.json
      well-formed SVG with frames; the root frame's inclusive cost is the
      summary's total; every frame's "function over all stacks" numbers
      are the summary's inclusive and self of that function (at least one
      function is checked; the summary must list all: --top 0).
  svgcheck.py diff SVG FUNC blue|red
      frames named FUNC are coloured blue (cheaper) or red (costlier) and
      every other frame is grey (unchanged).
  svgcheck.py treemap SVG SUMMARY.json ROOT
      boxes drawn; the first box is ROOT with the summary's inclusive and
      self.
  svgcheck.py callgraph SVG SUMMARY.json ROOT
      Graphviz nodes drawn; ROOT's tooltip has the summary's inclusive and
      self.
  svgcheck.py browser FACTS.json PAGE SVG|- SUMMARY.json|-
      what browser.py saw of PAGE: as many frames as the file holds (when
      SVG is given), tooltips with the summary's total and functions'
      numbers (when SUMMARY is given), a click that zoomed the frame to the
      full width and hid the frames outside it, no console error or
      warning.
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
problems = []


def bad(msg):
    problems.append(msg)


def num(s):
    return float(s.replace(",", ""))


def groups(svg, cls):
    root = ET.parse(svg).getroot()
    out = []
    for g in root.iter(NS + "g"):
        if cls in (g.get("class") or "").split():
            t = g.find(NS + "title")
            r = g.find(NS + "rect")
            out.append((t.text if t is not None else "",
                        r.get("fill") if r is not None else None))
    return out


def summary(path):
    with open(path) as f:
        s = json.load(f)
    funcs = {}
    for fn in s["functions"]:
        funcs.setdefault(fn["name"], []).append(fn)
    return s, funcs


def line_numbers(title, label):
    """Numbers of 'LABEL inclusive: X (..), self: Y' in a tooltip."""
    m = re.search(re.escape(label) + r" inclusive: ([-\d,.e+]+) .*?"
                  r"self: ([-\d,.e+]+)", title)
    return (num(m.group(1)), num(m.group(2))) if m else None


def check_flame(svg, summ):
    s, funcs = summary(summ)
    frames = groups(svg, "ph-f")
    if len(frames) < 2:
        bad("%s: %d frames" % (svg, len(frames)))
        return
    root = frames[0][0].split("\n")
    m = re.match(r"(\S+) inclusive: ([\d,]+)", root[1] if len(root) > 1
                 else "")
    if root[0] != "all" or not m:
        bad("%s: first frame is not the root: %r" % (svg, frames[0][0]))
        return
    ev, total = m.group(1), num(m.group(2))
    if s["totals"].get(ev) != total:
        bad("%s: root %s %s, summary total %s" % (svg, ev, total,
                                                  s["totals"].get(ev)))
    checked = 0
    for title, _ in frames:
        name = title.split("\n")[0]
        m = re.search(r"function over all stacks: inclusive ([-\d,.]+), "
                      r"self ([-\d,.]+)", title)
        if not m or name not in funcs or len(funcs[name]) != 1:
            continue
        fn = funcs[name][0]
        want = ((fn["inclusive"] or {}).get(ev), fn["self"].get(ev))
        got = (None if m.group(1) == "-" else num(m.group(1)),
               num(m.group(2)))
        if want != got:
            bad("%s: %s: tooltip inclusive/self %s, summary %s" %
                (svg, name, got, want))
        checked += 1
    if not checked:
        bad("%s: no frame's function found in the summary" % svg)


def colour(fill):
    m = re.match(r"rgb\((\d+),(\d+),(\d+)\)", fill or "")
    if not m:
        return "?"
    r, g, b = map(int, m.groups())
    if r == g == b:
        return "grey"
    if b == 255 and r == g and r < 255:
        return "blue"
    if r == 255 and g == b and g < 255:
        return "red"
    return "other"


def check_diff(svg, func, want):
    frames = groups(svg, "ph-f")
    seen = 0
    for title, fill in frames:
        name = title.split("\n")[0]
        c = colour(fill)
        if name == func:
            seen += 1
            if c != want:
                bad("%s: %s is %s (%s), expected %s" % (svg, name, c, fill,
                                                        want))
        elif c != "grey":
            bad("%s: %s changed colour: %s (%s)" % (svg, name, c, fill))
    if not seen:
        bad("%s: no frame %s" % (svg, func))


def check_treemap(svg, summ, root):
    s, funcs = summary(summ)
    boxes = groups(svg, "ph-t")
    if len(boxes) < 3:
        bad("%s: %d boxes" % (svg, len(boxes)))
        return
    title = boxes[0][0]
    lines = title.split("\n")
    ev = lines[1].split()[0]
    m = re.search(r"function over all stacks: inclusive ([-\d,.]+), "
                  r"self ([-\d,.]+)", title)
    fn = funcs.get(root, [None])[0]
    if lines[0] != root or not fn or not m:
        bad("%s: first box %r, not %s" % (svg, title, root))
        return
    got = (num(m.group(1)), num(m.group(2)))
    want = (fn["inclusive"][ev], fn["self"][ev])
    if got != want:
        bad("%s: %s inclusive/self %s, summary %s" % (svg, root, got, want))


def check_callgraph(svg, summ, root):
    s, funcs = summary(summ)
    doc = ET.parse(svg).getroot()
    nodes = [g for g in doc.iter(NS + "g") if g.get("class") == "node"]
    if len(nodes) < 2:
        bad("%s: %d nodes" % (svg, len(nodes)))
        return
    fn = funcs[root][0]
    for g in nodes:
        if g.find(NS + "title").text != root:
            continue
        a = g.find(".//" + NS + "a")
        tip = a.get("{http://www.w3.org/1999/xlink}title") if a is not None \
            else ""
        ev = tip.split("\n")[1].split()[0]
        got = line_numbers(tip, ev)
        want = (fn["inclusive"][ev], fn["self"][ev])
        if got != want:
            bad("%s: node %s: %s, summary %s" % (svg, root, got, want))
        return
    bad("%s: no node %s" % (svg, root))


def check_browser(facts_path, page, svg, summ):
    with open(facts_path) as f:
        facts = json.load(f)[page]
    if facts["console"]:
        bad("%s: console: %s" % (page, facts["console"]))
    if svg != "-":
        want = len(groups(svg, "ph-f"))
        if facts["frames"] != want:
            bad("%s: browser shows %d frames, the file has %d" %
                (page, facts["frames"], want))
    if summ != "-":
        s, funcs = summary(summ)
        titles = facts["frame_titles"] + facts["box_titles"]
        totals = ["%s inclusive: %s " % (ev, "{:,}".format(v))
                  for ev, v in s["totals"].items() if isinstance(v, int)]
        # The flame graph's root is the total; a treemap starts at main.
        if facts["frames"] and not any(t in x for x in titles for t in totals):
            bad("%s: no tooltip shows a summary total (%s)" % (page, totals))
        # Each function line must carry the summary's numbers of the event
        # of its tooltip.
        checked = 0
        for x in titles:
            lines = x.split("\n")
            m = re.search(r"function over all stacks: inclusive ([-\d,.]+), "
                          r"self ([-\d,.]+)", x)
            ev = [ln.split()[0] for ln in lines if " inclusive: " in ln]
            if not m or not ev or len(funcs.get(lines[0], [])) != 1:
                continue
            fn = funcs[lines[0]][0]
            want = ((fn["inclusive"] or {}).get(ev[0]), fn["self"].get(ev[0]))
            got = (None if m.group(1) == "-" else num(m.group(1)),
                   num(m.group(2)))
            if got != want:
                bad("%s: %s: tooltip %s, summary %s" % (page, lines[0], got,
                                                        want))
            checked += 1
        if not checked:
            bad("%s: no tooltip with a function of the summary" % page)
    if facts["frames"]:
        b, a = facts.get("before_click"), facts.get("after_click")
        if not b or not a:
            bad("%s: nothing to click" % page)
        elif not (abs(a["width"] - a["span"]) < 0.5 and a["zoomed"] == "1"
                  and (b["width"] >= b["span"] - 0.5 or a["hidden"] > 0)):
            bad("%s: click on %s did not zoom: %s -> %s" %
                (page, a["title"], b, a))


def main(argv):
    kind = argv[1]
    if kind == "flame":
        check_flame(argv[2], argv[3])
    elif kind == "diff":
        check_diff(argv[2], argv[3], argv[4])
    elif kind == "treemap":
        check_treemap(argv[2], argv[3], argv[4])
    elif kind == "callgraph":
        check_callgraph(argv[2], argv[3], argv[4])
    elif kind == "browser":
        check_browser(argv[2], argv[3], argv[4], argv[5])
    else:
        print("svgcheck.py: unknown check %s" % kind)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
