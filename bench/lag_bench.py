"""Finger-to-content lag of the real page in Debian's headless Chromium (Playwright), per link and with
prediction on and off (docs/PERFORMANCE.md, "Finger-to-content lag"; docs/LINK.md for the links).

Usage: .venv/bin/python bench/lag_bench.py --target loopback=http://127.0.0.1:P/ \\
           --target wifi=http://127.0.0.1:L1/ [--target …] [--bare bench/lag_bare.html] [--seconds 4] [--tls DIR]

For each target and each of `?predict=1` / `?predict=0`, a fresh phone-sized page with touch (390×844 CSS px)
loads 1 000 rows, is scrolled to the middle of the list (no rubber band there), and a finger drags it
steadily upwards through CDP `Input.dispatchTouchEvent` at 60 Hz, 3 px per move, each move sent at a random
point of its 1/60 s slot (seeded: every run the same), so that the moves fall at every phase of the display's
frames; sent on the clock exactly, a whole drag locked to one phase, and the same page measured ±6 ms apart from
one run to the next (a display frame in one run of three). A capturing listener
records each move's `timeStamp` (when the browser took the event) and clientY: the pointer moves the page
acts on, coalesced ones included (`touchmove` is counted too, but Chromium holds it back inside its touch
slop). The draws are the page's own `refreshkit.drawLog()` (`[{t, y, shift}]`, t the rAF timestamp, y the
drawn offset, shift how far measured row heights had moved the rows there, which the engine's anchoring adds to
the offset without moving the content) when it has one; otherwise a rAF loop of our own, registered after the
page's, samples `refreshkit.displayedOffset()` once per frame (the `draws` field says which). A draw's content
position is y − shift. The lag of move i is the first draw at or after its timeStamp whose content position has
reached the one that finger position asks for (the position at touch start + the finger's travel, within
0.5 px), minus the timeStamp. The reconciliation error is
`refreshkit.reconciliationErrors()` (px) when the page has it, else null. With `--bare`, the bare page
(bench/lag_bare.html: it draws its rows at the finger's position inside its own pointermove handler, the floor
of what Chromium allows) is dragged the same way just before the first target, and its lag is the `bare` field.
With `--tls DIR` (`refreshkit cert`'s folder; the targets then https://), Chromium trusts DIR/ca.pem (an NSS
database in a HOME of its own, as a phone that installed the CA), and the bare page is served over https with the
same certificate from this process (a static file server in a thread, no CSP: the page's script is inline), so
that both are measured in a secure context (docs/HTTPS.md, "Measured").
Prints one JSON object.
"""
from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import json
import os
import pathlib
import random
import signal
import ssl
import sys
import tempfile
import threading
import time

from playwright.async_api import async_playwright

sys.path.append(str(pathlib.Path(__file__).resolve().parents[1] / "e2e"))
from tls_support import trusting_home  # noqa: E402  (the browser tests' own: an NSS database that trusts a CA)

CHROMIUM = "/usr/bin/chromium"
ROWS = 1_000
STEP_PX = 3.0
RATE_HZ = 60.0
TOLERANCE_PX = 0.5
# The moves' phases within their slots (`drag`): any fixed seed; fixed so that two runs send the same moves.
PHASE_SEED = 31

RECORDER = """
(() => {
  const lag = { on: false, moves: [], touches: [], samples: [], start: 0 };
  window.__lag = lag;
  // The page drives from pointer events (js/pointerInput.js), each frame's pointermove carrying the moves
  // coalesced into it; Chromium holds back touchmove inside its touch slop (~15 px), so the touch events
  // are recorded too but the lag is taken over the pointer moves, each with its own timeStamp.
  window.addEventListener('pointermove', (e) => {
    if (!lag.on || e.pointerType !== 'touch') return;
    const all = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const c of (all.length ? all : [e])) lag.moves.push({ t: c.timeStamp, y: c.clientY });
  }, { capture: true, passive: true });
  window.addEventListener('touchmove', (e) => {
    if (lag.on && e.touches.length) lag.touches.push({ t: e.timeStamp, y: e.touches[0].clientY });
  }, { capture: true, passive: true });
  const sample = (ts) => {
    if (lag.on && window.refreshkit) lag.samples.push({ t: ts, y: window.refreshkit.displayedOffset().y });
    requestAnimationFrame(sample);
  };
  // Registered once the page's own loop runs, so in each frame it samples after the page drew.
  window.addEventListener('load', () => requestAnimationFrame(() => requestAnimationFrame(sample)));
})();
"""


async def wait_for(page, predicate_js: str, arg, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await page.evaluate(predicate_js, arg):
            return
        await asyncio.sleep(0.02)
    raise TimeoutError(f"timed out waiting for {what}")


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def lags(moves: list[dict], draws: list[dict], start: float, start_y: float) -> tuple[list[float], int]:
    """Each move's lag (ms), and how many moves no draw ever reached. The finger moves up, so the content
    position it asks for grows: `start + (start_y − clientY)`, `start` the position at touch start."""
    result = []
    unreached = 0
    j = 0
    for move in moves:
        wanted = start + (start_y - move["y"])
        while j < len(draws) and draws[j]["t"] < move["t"]:
            j += 1
        k = j
        while k < len(draws) and draws[k]["y"] - draws[k].get("shift", 0) < wanted - TOLERANCE_PX:
            k += 1
        if k < len(draws):
            result.append(draws[k]["t"] - move["t"])
        else:
            unreached += 1
    return result, unreached


async def drag(page, cdp, seconds: float, predict: bool | None, probe: str = "window.refreshkit") -> dict:
    """One steady drag; `probe` is the object with `displayedOffset()` and `drawLog()` (the real page's
    `window.refreshkit`, the bare page's `window.bare`)."""
    box = await page.evaluate("() => { const r = document.getElementById('list').getBoundingClientRect();"
                              " return {x: r.x + r.width / 2, y: r.y + r.height * 0.85,"
                              " top: r.y + r.height * 0.1}; }")
    moves = int(seconds * RATE_HZ)
    travel = min(moves * STEP_PX, box["y"] - box["top"])
    step = travel / moves
    x, y0 = box["x"], box["y"]
    # The content position at touch start: the offset drawn less the rows' shift by then (the last draw's).
    content_js = (f"() => {{ const p = {probe}, log = p.drawLog ? p.drawLog() : [];"
                  " return p.displayedOffset().y - (log.length ? (log[log.length - 1].shift ?? 0) : 0); }")
    start = await page.evaluate(content_js)
    await page.evaluate("() => { const l = window.__lag; l.moves = []; l.touches = []; l.samples = [];"
                        " l.on = true; l.start = performance.now(); }")
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y0, "id": 1}]})
    # Each dispatch is acknowledged only once the renderer handled it (a frame later or more), so the moves
    # are sent on the clock without waiting for the acknowledgements, and collected at the end.
    pending = []
    phases = random.Random(PHASE_SEED)
    begin = time.monotonic()
    for i in range(1, moves + 1):
        pause = begin + (i + phases.random()) / RATE_HZ - time.monotonic()
        if pause > 0:
            await asyncio.sleep(pause)  # the input rate, not a wait for a state
        pending.append(asyncio.ensure_future(cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y0 - step * i, "id": 1}]})))
    await asyncio.gather(*pending)
    sent_hz = moves / (time.monotonic() - begin)
    # Hold the finger still until the last move is drawn (or 2 s), then lift it.
    try:
        await wait_for(page, f"(w) => ({content_js})() >= w - 0.5", start + travel, 2.0, "the last move")
    except TimeoutError:
        pass
    await page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    record = await page.evaluate("""(probe) => {
        const l = window.__lag; l.on = false;
        const rk = window[probe];
        const log = typeof rk.drawLog === 'function' ? rk.drawLog() : null;
        const errors = typeof rk.reconciliationErrors === 'function' ? rk.reconciliationErrors() : null;
        return { moves: l.moves, touches: l.touches.length, samples: l.samples,
                 drawLog: log ? log.filter((d) => d.t >= l.start).map((d) => ({ t: d.t, y: d.y, shift: d.shift ?? 0 }))
                          : null,
                 errors: errors ? Array.from(errors, Number) : null };
    }""", probe.removeprefix("window."))
    draws = record["drawLog"] if record["drawLog"] is not None else record["samples"]
    if not record["moves"]:
        raise RuntimeError("no pointermove reached the page")
    values, unreached = lags(record["moves"], draws, start, y0)
    errors = [abs(e) for e in record["errors"]] if record["errors"] is not None else None
    return {
        "predict": predict,
        "moves_sent": moves,
        "moves_sent_hz": round(sent_hz, 1),
        "moves": len(record["moves"]),
        "touchmoves": record["touches"],
        "unreached": unreached,
        "lag_ms_median": rounded(percentile(values, 0.5)),
        "lag_ms_p90": rounded(percentile(values, 0.9)),
        "lag_ms_p95": rounded(percentile(values, 0.95)),
        "lag_ms_max": rounded(max(values) if values else None),
        "reconciliation_error_px_p99": rounded(percentile(errors, 0.99), 2) if errors else None,
        "draws": "drawLog" if record["drawLog"] is not None else "sampled displayedOffset() per rAF",
        # how far measured heights moved the rows during the drag (taken out of the content's position)
        "rows_shift_px": rounded(draws[-1].get("shift", 0) - draws[0].get("shift", 0)) if draws else None,
        "frames": len(draws),
    }


def rounded(value: float | None, digits: int = 1) -> float | None:
    return None if value is None else round(value, digits)


async def phone_page(browser):
    """A phone-sized touch context with the recorder, its page, and the page's errors as they come."""
    context = await browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                        is_mobile=True, has_touch=True)
    await context.add_init_script(RECORDER)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


async def run_one(browser, url: str, predict: bool, seconds: float) -> dict:
    context, page, errors = await phone_page(browser)
    try:
        separator = "&" if "?" in url else "?"
        await page.goto(f"{url}{separator}predict={1 if predict else 0}")
        await wait_for(page, "() => window.refreshkit && window.refreshkit.frame"
                       " && window.refreshkit.state.connected", None, 20, "the page to connect")
        await page.evaluate("(n) => window.refreshkit.send({type: 'configure', feed: "
                            "{totalItems: n, pageSize: n, latencyMs: 0}})", ROWS)
        await wait_for(page, "(n) => window.refreshkit.frame.feed.count >= n", ROWS, 15, "the rows")
        # The middle of the list: no edge, so no rubber band and no trigger anywhere near.
        await page.evaluate("() => window.refreshkit.send({type: 'command', name: 'scrollBy', amount: 4000, "
                            "animated: false})")
        await wait_for(page, "() => { const f = window.refreshkit.frame; return f.offset.y >= 3000 "
                       "&& f.phase === 'idle'; }", None, 10, "the list to rest in the middle")
        await wait_for(page, "() => window.refreshkit.displayedOffset().y >= 3000", None, 5, "the page to draw it")
        cdp = await context.new_cdp_session(page)
        result = await drag(page, cdp, seconds, predict)
        await cdp.detach()
    finally:
        await context.close()
    result["page_errors"] = errors
    return result


async def run_bare(browser, url: str, seconds: float) -> dict:
    """The bare page (bench/lag_bare.html), in the same kind of context and dragged by the same `drag`."""
    context, page, errors = await phone_page(browser)
    try:
        await page.goto(url)
        await wait_for(page, "() => window.bare && window.bare.drawLog().length > 2", None, 20, "the bare page")
        cdp = await context.new_cdp_session(page)
        result = await drag(page, cdp, seconds, None, probe="window.bare")
        await cdp.detach()
    finally:
        await context.close()
    result["page_errors"] = errors
    return result


def serve_over_https(page: pathlib.Path, tls: pathlib.Path) -> str:
    """Serves `page`'s folder over https on a loopback port (a daemon thread); returns the page's https URL."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(page.parent))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls / "server.pem", tls / "server-key.pem")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"https://127.0.0.1:{server.server_address[1]}/{page.name}"


async def measure(targets: list[list[str]], seconds: float, bare: str | None = None,
                  tls: pathlib.Path | None = None) -> dict:
    results: dict = {"targets": {}, "method": __doc__.split("\n\n")[2].replace("\n", " ")}
    home = trusting_home(tls / "ca.pem", pathlib.Path(tempfile.mkdtemp(prefix="refreshkit-lag-home-"))) if tls else None
    env = {**os.environ, "HOME": str(home)} if home else None
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"], env=env)
        results["chromium"] = browser.version
        if bare:
            try:
                results["bare"] = await run_bare(browser, bare, seconds)
            except Exception as error:  # reported; the real page is still measured
                results["bare"] = {"error": f"{type(error).__name__}: {error}"}
            print(f"[lag] bare: {json.dumps(results['bare'])}", file=sys.stderr, flush=True)
        for name, url in targets:
            runs = {}
            for predict in (True, False):
                key = "predict_on" if predict else "predict_off"
                try:
                    runs[key] = await run_one(browser, url, predict, seconds)
                except Exception as error:  # one failed run is reported, the others still measured
                    runs[key] = {"error": f"{type(error).__name__}: {error}"}
                print(f"[lag] {name} {key}: {json.dumps(runs[key])}", file=sys.stderr, flush=True)
            results["targets"][name] = runs
        await browser.close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", action="append", default=[], help="name=url (repeatable)")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--bare", help="the bare page to drag first, as a floor (a path or a URL)")
    parser.add_argument("--tls", type=pathlib.Path,
                        help="refreshkit cert's folder: trust its CA, serve the bare page over https")
    args = parser.parse_args()
    bare = args.bare
    if bare and "://" not in bare:
        page = pathlib.Path(bare).resolve()
        bare = serve_over_https(page, args.tls) if args.tls else page.as_uri()
    signal.alarm(180)  # bounded, whatever happens
    print(json.dumps(asyncio.run(measure([t.split("=", 1) for t in args.target], args.seconds, bare, args.tls))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
