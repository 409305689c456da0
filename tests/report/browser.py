#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""browser.py - a page opened in headless Chromium, as a reader would open
it, and what the browser saw, as JSON on standard output.

  browser.py PAGE [--screenshot OUT.png] [--chromium PROGRAM]

Chromium is driven through its DevTools protocol on a pipe
(--remote-debugging-pipe: requests on fd 3, answers on fd 4, each a JSON
text ended by a NUL byte), so nothing but Python's standard library is
needed. Printed:

  load_ms          navigation to the load event
  render_ms        navigation until every plot is decoded and a frame drawn
  console          console messages of level error or warning, exceptions,
                   and the browser's own error log (a blocked load, a
                   Content-Security-Policy violation)
  requests         every URL the page asked for but data: ones
  plots            per <img class="plot">: natural size, and how many of its
                   pixels are not white once drawn (its "ink")
  text             the page's text as rendered
  height           the page's height in CSS pixels
  screenshot       the PNG of the whole page, when asked for
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

CHECK = r"""
(async () => {
  const imgs = [...document.querySelectorAll('img.plot')];
  await Promise.all(imgs.map(i => i.decode().catch(() => null)));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const plots = imgs.map(i => {
    const c = document.createElement('canvas');
    c.width = i.naturalWidth; c.height = i.naturalHeight;
    let ink = -1;
    try {
      const x = c.getContext('2d');
      x.drawImage(i, 0, 0);
      const d = x.getImageData(0, 0, c.width, c.height).data;
      ink = 0;
      for (let k = 0; k < d.length; k += 4)
        if (d[k + 3] > 0 && (d[k] < 200 || d[k + 1] < 200 || d[k + 2] < 200)) ink++;
    } catch (e) { ink = -2; }
    return {alt: i.alt, width: i.naturalWidth, height: i.naturalHeight,
            complete: i.complete, ink: ink};
  });
  return JSON.stringify({plots: plots, text: document.body.innerText,
                         title: document.title,
                         scripts: document.scripts.length,
                         height: document.documentElement.scrollHeight});
})()
"""


class Browser:
    def __init__(self, program):
        self.dir = tempfile.mkdtemp(prefix="ukbench-chromium.")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def fds():
            # above 4 first: a pipe may already sit on 3 or 4
            r = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [program, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-sync",
             "--hide-scrollbars", "--mute-audio",
             "--user-data-dir=" + self.dir, "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, preexec_fn=fds, close_fds=False)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)
        shutil.rmtree(self.dir, ignore_errors=True)

    def read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("chromium did not answer")
            r, _, _ = select.select([self.from_r], [], [], left)
            if r:
                chunk = os.read(self.from_r, 1 << 20)
                if not chunk:
                    raise EOFError("chromium closed the pipe (exit %s)" % self.proc.poll())
                self.buf += chunk
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        req = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            req["sessionId"] = session
        os.write(self.to_w, json.dumps(req).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            msg = self.read(deadline)
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        for i, ev in enumerate(self.events):
            if ev.get("method") == method:
                del self.events[i]
                return ev
        while True:
            ev = self.read(deadline)
            if ev.get("method") == method:
                return ev
            self.events.append(ev)


def describe(ev):
    m, p = ev.get("method"), ev.get("params", {})
    if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
        args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
        return "console.%s: %s" % (p["type"], args)
    if m == "Runtime.exceptionThrown":
        d = p.get("exceptionDetails", {})
        return "exception: %s" % d.get("exception", {}).get("description", d.get("text"))
    if m == "Log.entryAdded" and p["entry"].get("level") in ("error", "warning"):
        e = p["entry"]
        return "log %s (%s): %s" % (e["level"], e.get("source"), e.get("text"))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--screenshot")
    ap.add_argument("--chromium", default="chromium")
    a = ap.parse_args()
    url = "file://" + os.path.abspath(a.page)
    b = Browser(a.chromium)
    out = {}
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Page", "Network"):
            b.send(domain + ".enable", session=s)
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False},
               session=s)
        t0 = time.monotonic()
        b.send("Page.navigate", {"url": url}, session=s)
        b.wait_event("Page.loadEventFired", timeout=60)
        out["load_ms"] = round(1000 * (time.monotonic() - t0), 1)
        r = b.send("Runtime.evaluate", {"expression": CHECK, "awaitPromise": True,
                                        "returnByValue": True}, session=s, timeout=60)
        out["render_ms"] = round(1000 * (time.monotonic() - t0), 1)
        if "exceptionDetails" in r:
            raise RuntimeError("the check failed in the page: %s" % r["exceptionDetails"])
        page = json.loads(r["result"]["value"])
        out.update(page)
        if a.screenshot:
            shot = b.send("Page.captureScreenshot",
                          {"format": "png", "captureBeyondViewport": True,
                           "clip": {"x": 0, "y": 0, "width": 1280,
                                    "height": page["height"], "scale": 1}},
                          session=s, timeout=120)
            data = base64.b64decode(shot["data"])
            with open(a.screenshot, "wb") as f:
                f.write(data)
            out["screenshot"] = a.screenshot
            out["screenshot_bytes"] = len(data)
        # what arrived meanwhile
        b.send("Runtime.evaluate", {"expression": "1"}, session=s)
        out["console"] = [d for d in map(describe, b.events) if d]
        out["requests"] = [ev["params"]["request"]["url"] for ev in b.events
                           if ev.get("method") == "Network.requestWillBeSent"
                           and not ev["params"]["request"]["url"].startswith("data:")
                           and ev["params"]["request"]["url"] != url]
    finally:
        b.close()
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
