#!/usr/bin/env python3
"""browser.py -- open a page in headless Chromium through chromedriver
(W3C WebDriver over HTTP, standard library only) and print what a person
would see, as JSON, for the draw_*.sh tests to check:

    browser.py [--search TEXT] [--shots DIR] PAGE...

Printed per page: the counts of flame frames (g.ph-f), treemap boxes
(g.ph-t), graph nodes (g.node), table rows, the milliseconds from the
start of navigation to the end of the load event, the tooltip text of every
frame, box and node, the console's errors and warnings, and, on a flame
graph, what a real mouse click on the widest frame narrower than 90% (else
the deepest frame) did:
its width before and after, how many frames were hidden.  --search types
TEXT in the report's search box and counts the highlighted frames.
--shots saves DIR/NAME.png as loaded and DIR/NAME.zoomed.png after the
click.  Exit 77 when chromium or chromedriver is missing,
1 on a WebDriver error.  The page is opened from a file:// URL and the
browser runs with networking off (a proxy that goes nowhere)."""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def find(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Driver:
    def __init__(self, chrome, driver):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [driver, "--port=%d" % self.port],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = "http://127.0.0.1:%d" % self.port
        for _ in range(200):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.05)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": chrome,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1000",
                         "--proxy-server=127.0.0.1:9",
                         "--allow-file-access-from-files"],
            }}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data,
                                     method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.loads(r.read().decode())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError("webdriver %s %s: %s" %
                               (method, path, e.read().decode()[:500]))

    def s(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.sid, path), body)

    def js(self, script, *args):
        return self.s("POST", "/execute/sync",
                      {"script": script, "args": list(args)})

    def logs(self):
        for path in ("/se/log", "/log"):
            try:
                return self.s("POST", path, {"type": "browser"})
            except RuntimeError:
                continue
        return []

    def quit(self):
        try:
            self.s("DELETE", "")
        except Exception:
            pass
        self.proc.terminate()
        self.proc.wait()


FACTS = """
var titles = function (sel) {
  return Array.prototype.map.call(document.querySelectorAll(sel),
    function (g) { var t = g.querySelector('title');
                   return t ? t.textContent : ''; });
};
return {
  frames: document.querySelectorAll('g.ph-f').length,
  boxes: document.querySelectorAll('g.ph-t').length,
  nodes: document.querySelectorAll('g.node').length,
  edges: document.querySelectorAll('g.edge').length,
  svgs: document.querySelectorAll('svg').length,
  frame_titles: titles('g.ph-f'),
  box_titles: titles('g.ph-t'),
  node_titles: Array.prototype.map.call(document.querySelectorAll('g.node'),
    function (g) { var a = g.querySelector('a');
      return (g.querySelector('title') || {}).textContent + '\\n' +
             (a ? a.getAttribute('xlink:title') ||
                  a.getAttribute('title') || '' : ''); }),
  rows: document.querySelectorAll('table.ph-top tbody tr').length,
  fills: Array.prototype.map.call(document.querySelectorAll('g.ph-f rect'),
    function (r) { return r.getAttribute('fill'); }),
  ready: document.readyState,
  load_ms: (function () {
    var n = performance.getEntriesByType('navigation')[0];
    return n ? Math.round(n.loadEventEnd) : null; })()
};
"""

ZOOM_STATE = """
var g = arguments[0], r = g.querySelector('rect');
var svg = g.closest('svg');
var hidden = Array.prototype.filter.call(svg.querySelectorAll('g.ph-f'),
  function (h) { return h.style.display === 'none'; }).length;
return {width: +r.getAttribute('width'), hidden: hidden,
        zoomed: svg.getAttribute('data-zoomed'),
        title: g.querySelector('title').textContent.split('\\n')[0],
        span: +svg.getAttribute('data-span')};
"""


PICK = """
var best = null, bw = 0, deep = null, bd = -1;
document.querySelectorAll('svg.ph-flame g.ph-f, svg.ph-diff g.ph-f')
  .forEach(function (g) {
    var w = +g.getAttribute('data-w'), d = +g.getAttribute('data-d');
    if (g.classList.contains('ph-dots')) return;
    if (w < 0.9 && w > bw) { best = g; bw = w; }
    if (d > bd && w > 0.05) { deep = g; bd = d; }
  });
return best || deep;
"""


def probe(d, page, search, shots):
    url = "file://" + os.path.abspath(page)
    t0 = time.time()
    d.s("POST", "/url", {"url": url})
    facts = d.js(FACTS)
    facts["load_seconds"] = round(time.time() - t0, 3)
    name = os.path.splitext(os.path.basename(page))[0]
    if shots:
        png = d.s("GET", "/screenshot")
        with open(os.path.join(shots, name + ".png"), "wb") as f:
            f.write(base64.b64decode(png))
    if search and facts["frames"]:
        try:
            box = d.s("POST", "/element", {"using": "css selector",
                                           "value": "input.ph-search"})
            d.s("POST", "/element/%s/value" % list(box.values())[0],
                {"text": search})
            facts["search_hits"] = d.js(
                "return document.querySelectorAll('g.ph-f.ph-hit').length;")
        except RuntimeError:
            facts["search_hits"] = None
    el = d.js(PICK) if facts["frames"] else None
    if el:
        d.js("arguments[0].scrollIntoView({block:'center'});", el)
        facts["before_click"] = d.js(ZOOM_STATE, el)
        d.s("POST", "/element/%s/click" % list(el.values())[0], {})
        facts["after_click"] = d.js(ZOOM_STATE, el)
        if shots:
            png = d.s("GET", "/screenshot")
            with open(os.path.join(shots, name + ".zoomed.png"), "wb") as f:
                f.write(base64.b64decode(png))
    facts["console"] = [
        {"level": e.get("level"), "message": e.get("message")}
        for e in d.logs() if e.get("level") in ("SEVERE", "WARNING")]
    return facts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pages", nargs="+")
    ap.add_argument("--search")
    ap.add_argument("--shots", help="folder for NAME.png and NAME.zoomed.png")
    a = ap.parse_args()
    chrome = find("chromium", "chromium-browser", "google-chrome")
    driver = find("chromedriver")
    if not chrome or not driver:
        print("browser.py: chromium or chromedriver not installed",
              file=sys.stderr)
        return 77
    out = {}
    d = Driver(chrome, driver)
    try:
        for page in a.pages:
            out[page] = probe(d, page, a.search, a.shots)
    except RuntimeError as e:
        print("browser.py: %s" % e, file=sys.stderr)
        return 1
    finally:
        d.quit()
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
