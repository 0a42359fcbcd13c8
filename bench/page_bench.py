"""The page's cost while flinging through 10 000 rows, in Debian's headless Chromium (Playwright).

Usage: .venv/bin/python bench/page_bench.py --url http://127.0.0.1:PORT/ [--seconds 5] [--external] [--thread-cpu]

Before the page's own scripts run, an init script wraps `requestAnimationFrame` callbacks and the WebSocket
`onmessage` handler with `performance.now()`, so every millisecond of JavaScript the page spends per
displayed frame is counted: drawing (the rAF loop, including the time spent inside canvas 2D calls) plus
message handling (JSON.parse and bookkeeping). Rasterisation and compositing happen outside JavaScript and
are not counted. The feed is configured to 10 000 rows (10 pages of 1 000, the engine's largest page), then
the finger flicks the list upwards (600 px in 32 ms) about every 350 ms through CDP touch events. Prints one
JSON object. `--external`: the server serves an external source (`serve --feed sqlite:…`; `make bench` gives it
10 000 items of varied text from e2e/rows_feed.py): its rows, laid out and measured by the page as they come into
view and placed by the heights the engine accepts (docs/PAGE.md, "Rows of measured heights"), loaded in pages of
200 (the most a source may answer) up to 10 000 or as many as the source has.

Besides the mean, the JavaScript of each displayed frame (every rAF callback of that frame, plus the messages
handled since the frame before) gives `js_ms_p50`, `js_ms_p95` and `js_ms_max`. Idle callbacks (the rows the
page lays out ahead in idle time) run outside the frames: `idle_ms_per_sec` is their time, apart.

`--thread-cpu` also records a Chromium trace of the measured window and gives `cpu_ms_p50`/`p95`/`p99`/`max` per
displayed frame: the same JavaScript by the main thread's CPU time rather than the wall clock, so a machine whose
other processes keep the page's thread waiting does not lengthen it (tracing itself costs the page a little).
"""
from __future__ import annotations

import argparse
import bisect
import json
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ROWS = 10_000
PAGE_SIZE = 1_000
EXTERNAL_PAGE_SIZE = 200  # the most items a source may answer at once (Sources/RefreshFeeds/API/FeedLimits.swift)

INSTRUMENT = """
(() => {
  // raf: each callback's ms; js: each displayed frame's ms (its callbacks, and the messages handled before it)
  const bench = { on: false, raf: [], js: [], frameTs: null, frameMs: 0, pending: 0, message: 0, messages: 0,
                  rafCalls: 0, start: 0, idle: 0, idles: 0 };
  window.__rkBench = bench;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => raf((ts) => {
    const t0 = performance.now();
    try { cb(ts); } finally {
      if (bench.on) {
        const ms = performance.now() - t0;
        bench.raf.push(ms);
        if (ts !== bench.frameTs) {
          if (bench.frameTs !== null) bench.js.push(bench.frameMs);
          bench.frameTs = ts;
          bench.frameMs = bench.pending;
          bench.pending = 0;
        }
        bench.frameMs += ms;
      }
    }
  });
  // idle callbacks (rows laid out ahead, js/feed/layoutAhead.js): outside the frames, counted apart
  if (window.requestIdleCallback) {
    const ric = window.requestIdleCallback.bind(window);
    window.requestIdleCallback = (cb, opts) => ric(function rkBenchIdle(deadline) {
      const t0 = performance.now();
      try { cb(deadline); } finally {
        if (bench.on) { bench.idle += performance.now() - t0; bench.idles += 1; }
      }
    }, opts);
  }
  const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get() { return desc.get.call(this); },
    set(fn) {
      desc.set.call(this, typeof fn !== 'function' ? fn : function rkBenchMessage(ev) {
        const t0 = performance.now();
        try { return fn.call(this, ev); } finally {
          if (bench.on) {
            const ms = performance.now() - t0;
            bench.message += ms;
            bench.pending += ms;
            bench.messages += 1;
          }
        }
      });
    },
  });
})();
"""


def wait_for(page, predicate_js: str, arg, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(predicate_js, arg):
            return
        time.sleep(0.05)
    raise TimeoutError(f"timed out waiting for {what}")


def fling(cdp, x: float, y: float, dy: float, steps: int = 4, interval: float = 0.008):
    base = time.time()

    def send(kind, points, i):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": base + i * interval})

    send("touchStart", [{"x": x, "y": y, "id": 1}], 0)
    for i in range(1, steps + 1):
        time.sleep(interval)
        send("touchMove", [{"x": x, "y": y + dy * i / steps, "id": 1}], i)
    send("touchEnd", [], steps + 1)


def thread_cpu(path: str) -> dict:
    """The page's main-thread CPU time per displayed frame, from a Chromium trace (`devtools.timeline`): each
    frame's `FireAnimationFrame` events (rAF callbacks, run back to back) and the WebSocket messages handled
    before it (the `rkBenchMessage` wrapper's `FunctionCall`s), by their thread time (`tdur`), which a busy
    machine's preemption does not lengthen; and the idle callbacks' (`rkBenchIdle`) per second apart."""
    data = json.loads(Path(path).read_text())
    events = data["traceEvents"] if isinstance(data, dict) else data
    fired = [e for e in events if e.get("name") == "FireAnimationFrame" and e.get("ph") == "X"]
    if not fired:
        return {"cpu_ms_p50": None, "cpu_note": "no FireAnimationFrame events in the trace"}
    thread = Counter((e["pid"], e["tid"]) for e in fired).most_common(1)[0][0]
    frames: list[dict] = []  # {start, end, cpu}: rAF callbacks less than 1 ms apart are one frame
    for e in sorted((e for e in fired if (e["pid"], e["tid"]) == thread), key=lambda e: e["ts"]):
        if not frames or e["ts"] - frames[-1]["end"] >= 1000:
            frames.append({"start": e["ts"], "end": e["ts"], "cpu": 0.0})
        frames[-1]["end"] = e["ts"] + e["dur"]
        frames[-1]["cpu"] += e.get("tdur", e["dur"])
    starts = [f["start"] for f in frames]
    idle_us = 0.0
    for e in events:
        if e.get("name") != "FunctionCall" or e.get("ph") != "X" or (e["pid"], e["tid"]) != thread:
            continue
        name = e.get("args", {}).get("data", {}).get("functionName", "")
        if name == "rkBenchIdle":
            idle_us += e.get("tdur", e["dur"])
        elif name == "rkBenchMessage":
            k = bisect.bisect_right(starts, e["ts"])  # the frame after it (a message is handled between frames)
            if k < len(frames):
                frames[k]["cpu"] += e.get("tdur", e["dur"])
    cpu = sorted(f["cpu"] / 1000 for f in frames)
    span_s = max(1e-6, (frames[-1]["end"] - frames[0]["start"]) / 1e6)

    def pct(p: float) -> float:
        return round(cpu[min(len(cpu) - 1, int(p * len(cpu)))], 3)

    return {"cpu_ms_p50": pct(0.50), "cpu_ms_p95": pct(0.95), "cpu_ms_p99": pct(0.99), "cpu_ms_max": round(cpu[-1], 3),
            "cpu_ms_mean": round(sum(cpu) / len(cpu), 3), "cpu_frames": len(cpu),
            "idle_cpu_ms_per_sec": round(idle_us / 1000 / span_s, 3)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--external", action="store_true", help="the server's feed is an external source")
    parser.add_argument("--thread-cpu", action="store_true",
                        help="also the main thread's CPU time per frame, from a Chromium trace (cpu_ms_*)")
    args = parser.parse_args()
    signal.alarm(100)  # bounded, whatever happens

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                      is_mobile=True, has_touch=True)
        context.add_init_script(INSTRUMENT)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(args.url)
        wait_for(page, "() => window.refreshkit && window.refreshkit.frame && window.refreshkit.state.connected",
                 None, 15, "the page to connect")

        # 10 000 rows: pages of 1 000 (the engine's limit), answered at once, loaded one after another.
        if args.external:
            wait_for(page, "() => window.refreshkit.frame.feed.count > 0", None, 10, "the source's first page")
            # pages of 200; the footer shows and goes at once, so the next loadMore is taken without a wait
            page.evaluate("(n) => window.refreshkit.send({type: 'configure', feed: {pageSize: n}, "
                          "edges: {bottom: {minimumVisibleDuration: 0, exitDuration: 0}}})", EXTERNAL_PAGE_SIZE)
            wait_for(page, "(n) => window.refreshkit.config.feed.pageSize === n", EXTERNAL_PAGE_SIZE, 10,
                     "the page size taken")
        else:
            page.evaluate("(n) => window.refreshkit.send({type: 'configure', feed: "
                          "{totalItems: n, pageSize: 1000, latencyMs: 0}})", ROWS)
            wait_for(page, "(n) => window.refreshkit.frame.feed.count >= n", PAGE_SIZE, 10, "the first page")
        # A loadMore sent while the bottom control is still finishing is ignored: resend until the count grows
        # (an external source: until it has no more).
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            count = page.evaluate("() => window.refreshkit.frame.feed.count")
            if count >= ROWS or (args.external and not page.evaluate("() => window.refreshkit.frame.feed.hasMore")):
                break
            if args.external:
                # loaded at the list's end, as a reader loads it: the session holds a window of pages around its
                # viewport (docs/LAYOUT.md, "The window, wired"), so load-more waits while the end is not held
                page.evaluate("() => window.refreshkit.send({type: 'command', name: 'scrollToEdge', "
                              "edge: 'bottom', animated: false})")
            page.evaluate("() => window.refreshkit.send({type: 'command', name: 'loadMore', edge: 'bottom'})")
            try:
                wait_for(page, "(c) => window.refreshkit.frame.feed.count > c", count, 1.0, "the next page")
            except TimeoutError:
                pass
        rows = page.evaluate("() => window.refreshkit.frame.feed.count")
        if args.external:  # the flings start at the top, the pages there loaded back
            page.evaluate("() => window.refreshkit.send({type: 'command', name: 'scrollToEdge', edge: 'top', "
                          "animated: false})")
            wait_for(page, "() => window.refreshkit.frame.offset.y <= 0 && !window.refreshkit.frame.feed.loading",
                     None, 10, "the top, loaded back")

        box = page.evaluate("() => { const r = document.getElementById('list').getBoundingClientRect();"
                            " return {x: r.x + r.width / 2, y: r.y + r.height * 0.8}; }")
        cdp = context.new_cdp_session(page)
        fling(cdp, box["x"], box["y"], -600)  # warm-up fling, not measured
        time.sleep(0.3)
        page.evaluate("() => { const b = window.__rkBench; b.raf = []; b.js = []; b.frameTs = null; b.pending = 0;"
                      " b.message = 0; b.messages = 0; b.idle = 0; b.idles = 0; b.on = true;"
                      " b.start = performance.now(); }")
        trace_path = None
        if args.thread_cpu:
            trace_path = tempfile.mkstemp(prefix="page-bench-", suffix=".trace.json")[1]
            browser.start_tracing(page=page, path=trace_path, categories=["devtools.timeline"])
        flings = 0
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            fling(cdp, box["x"], box["y"], -600)
            flings += 1
            time.sleep(0.3)
        if trace_path:
            browser.stop_tracing()
        stats = page.evaluate("() => { const b = window.__rkBench; b.on = false;"
                              " if (b.frameTs !== null) b.js.push(b.frameMs);"
                              " return {raf: b.raf, js: b.js, message: b.message, messages: b.messages,"
                              " idle: b.idle, idles: b.idles,"
                              " elapsed: performance.now() - b.start, laidOut: window.refreshkit.rowLayout().laidOut,"
                              " accepted: window.refreshkit.rowLayout().accepted}; }")
        final = page.evaluate("() => window.refreshkit.frame")
        version = browser.version
        cdp.detach()
        context.close()
        browser.close()

    raf = sorted(stats["raf"])
    frames = len(raf)
    elapsed_s = stats["elapsed"] / 1000
    if frames == 0:
        print(json.dumps({"ms_per_frame": None, "fps": None, "note": "no animation frames were measured"}))
        return 1

    def pct(p: float, values: list[float] = raf) -> float:
        return values[min(len(values) - 1, int(p * len(values)))]

    js = sorted(stats["js"]) or [0.0]

    js_ms = sum(raf) + stats["message"]
    result = {
        "ms_per_frame": round(js_ms / frames, 3),
        "fps": round(frames / elapsed_s, 1),
        "raf_ms_p50": round(pct(0.50), 3),
        "raf_ms_p95": round(pct(0.95), 3),
        "raf_ms_max": round(raf[-1], 3),
        "message_ms_per_frame": round(stats["message"] / frames, 3),
        "js_ms_p50": round(pct(0.50, js), 3),
        "js_ms_p95": round(pct(0.95, js), 3),
        "js_ms_max": round(js[-1], 3),
        "displayed_frames": len(stats["js"]),
        "messages_per_sec": round(stats["messages"] / elapsed_s, 1),
        "idle_ms_per_sec": round(stats["idle"] / elapsed_s, 3),
        "idle_callbacks": stats["idles"],
        "frames": frames,
        "window_s": round(elapsed_s, 2),
        "rows": rows,
        "rows_laid_out": stats["laidOut"],
        "heights_accepted": stats["accepted"],
        "external": args.external,
        "flings": flings,
        "final_offset_y": final["offset"]["y"],
        "page_errors": errors,
        "chromium": version,
        "method": "rAF callback + WebSocket onmessage time (performance.now) per rAF frame, while flinging; "
                  "js_ms_*: per displayed frame, its callbacks and the messages handled before it",
    }
    if trace_path:
        result.update(thread_cpu(trace_path))
        Path(trace_path).unlink(missing_ok=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
