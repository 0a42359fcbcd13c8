"""Helpers for the browser tests (a module of its own: `conftest` is a name e2e/server uses too)."""
from __future__ import annotations

import os
import shutil
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
# Debian's chromium-headless-shell: the same Blink as `chromium` without the browser's UI, what Playwright itself
# runs for headless; it takes about a fifth less CPU over the suite (README.md, "Which tests to run when").
CHROMIUM = os.environ.get("REFRESHKIT_CHROMIUM", "/usr/bin/chromium-headless-shell")


@contextmanager
def chromium():
    """Headless Chromium (REFRESHKIT_CHROMIUM, else Debian's), for a fixture's life."""
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


ARTIFACTS = ROOT / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"


def frame(page) -> dict:
    return page.evaluate("() => window.refreshkit.frame")


def top_id(page) -> int:
    """The id of the list's first item as the page holds it (the simulated feed's ids count up, newest first);
    0 before the first rows."""
    items = page.evaluate("() => window.refreshkit.feed(1).items")
    return int(items[0]["id"]) if items else 0


def edge(frame_: dict, name: str) -> dict | None:
    return next((e for e in frame_.get("edges", []) if e.get("edge") == name), None)


def rows_loaded(page) -> dict | None:
    """The page's feed (its first 100 rows) once it holds every row the frame counts, else None."""
    f = page.evaluate("() => window.refreshkit.feed(100)")
    count = page.evaluate("() => window.refreshkit.frame?.feed?.count ?? -1")
    return f if f["count"] > 0 and f["count"] == count else None


def top_at_rest(page) -> bool:
    """The list idle and its top edge idle."""
    return frame(page)["phase"] == "idle" and (edge(frame(page), "top") or {}).get("state") == "idle"


def transitions(page, edge_name: str) -> list[dict]:
    return page.evaluate(
        "(edge) => window.refreshkit.events.filter(e => e.name === 'transition' && e.edge === edge)", edge_name)


# The page connected and drawing. A function, not a string expression: a string would need eval, which the page's
# CSP forbids.
CONNECTED = "() => window.refreshkit && window.refreshkit.frame && window.refreshkit.state.connected"
# A page's first load asks for its ~140 modules and opens its socket; with a build or other suites on the other core
# (make test builds Hummingbird beside the suites) that has taken over 10 s, so the first wait is allowed longer.
FIRST_LOAD_MS = 30_000


def wait_connected(page, timeout_ms: float = FIRST_LOAD_MS) -> None:
    """Waits for the page to be connected and drawing; if it is not, fails naming where the page got to (load state,
    socket state, last events, files that did not come), so a CI failure says which of the page, the socket or the
    server was slow."""
    try:
        page.wait_for_function(CONNECTED, timeout=timeout_ms)
    except Exception as error:
        where = page.evaluate("""() => ({
            readyState: document.readyState,
            loaded: !!window.refreshkit,
            state: window.refreshkit ? window.refreshkit.state : null,
            framed: !!(window.refreshkit && window.refreshkit.frame),
            events: window.refreshkit ? window.refreshkit.events.slice(-8) : [],
            // files the page asked for that did not come (a module that fails leaves the page without its script)
            failed: performance.getEntriesByType('resource')
                .filter((e) => e.responseStatus >= 400 || (e.responseStatus === 0 && e.transferSize === 0))
                .slice(0, 8).map((e) => `${e.name} ${e.responseStatus}`),
            asked: performance.getEntriesByType('resource').length,
        })""")
        raise AssertionError(f"page not connected after {timeout_ms / 1000:.0f} s at {page.url}: {where}") from error


def wait_until(page, predicate, timeout: float, interval: float = 0.02, what: str = "condition"):
    """Polls `predicate(page)` (a Python callable) until it is truthy; returns its value. Every `interval` at first,
    then less often, to 100 ms: each look is a round trip through Playwright's driver to the page, and a wait of
    seconds looked at 50 times a second kept the browser, the driver and pytest busy for nothing."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate(page)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)
        interval = min(interval * 1.5, 0.1)


def share_links(page) -> dict:
    """The owner page's share links, `{drive, watch}` (whole addresses, docs/PROTOCOL.md "Roles"), as its Share
    popover gives them (`window.refreshkit.session.links`, js/pageHook.js), once its welcome has them."""
    def both(p):
        links = p.evaluate("() => window.refreshkit.session.links")
        return links if links.get("drive") and links.get("watch") else None
    return wait_until(page, both, 5, what="the owner's share links")


def link_query(link: str) -> str:
    """A share link's `?s=ID&k=KEY`, for `open_page(…, query)` on the tests' own server address: the link's
    origin is the one another device would open (`welcome.share`), which may not be the test's."""
    query = urlsplit(link).query
    assert "s=" in query and "k=" in query, link
    return "?" + query


def drive_query(page) -> str:
    """The `?s=ID&k=KEY` of the owner page's Drive link: a second page opened at it joins the session and drives
    (a session id alone is refused `forbidden`)."""
    return link_query(share_links(page)["drive"])


def canvas_point(page, fx: float = 0.5, fy: float = 0.3) -> tuple[float, float]:
    r = page.evaluate("() => { const r = document.getElementById('list').getBoundingClientRect();"
                      " return {x: r.x, y: r.y, w: r.width, h: r.height}; }")
    return r["x"] + r["w"] * fx, r["y"] + r["h"] * fy


def touch_drag(page, start: tuple[float, float], dy: float, steps: int = 20, interval: float = 0.016,
               dx: float = 0.0, release: bool = True):
    """A finger drag through CDP Input.dispatchTouchEvent (real touch input for the page).

    Each touch point carries a CDP `timestamp` exactly `interval` apart, so the page's event.timeStamp (and
    hence the server's velocity estimate) follows the intended finger timing even when a CDP round trip is
    slower than `interval`. Without `release`, the finger stays down and the CDP session is returned: end it
    with `touch_end(session)`."""
    cdp = page.context.new_cdp_session(page)
    x, y = start
    base = time.time()

    def send(kind, points, i):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": base + i * interval})

    send("touchStart", [{"x": x, "y": y, "id": 1}], 0)
    for i in range(1, steps + 1):
        time.sleep(interval)
        send("touchMove", [{"x": x + dx * i / steps, "y": y + dy * i / steps, "id": 1}], i)
    if not release:
        cdp.rk_next = steps + 1  # type: ignore[attr-defined]
        cdp.rk_stamp = lambda k: base + k * interval  # type: ignore[attr-defined]
        return cdp
    send("touchEnd", [], steps + 1)
    cdp.detach()
    return None


def started(page) -> bool:
    """Whether a refresh started on the page's session (a `didStart` event came)."""
    return any(e["name"] == "didStart" for e in page.evaluate("() => window.refreshkit.events"))


def pull_to_refresh(page):
    """A finger's pull from near the top far enough to refresh; returns once the refresh started."""
    touch_drag(page, canvas_point(page, 0.5, 0.15), dy=350, steps=20, interval=0.016)
    # refreshing now, or already over: on a busy machine the simulated feed's answer can end the refresh between two
    # looks at the frame, and its didStart is what stays
    wait_until(page, lambda p: (edge(frame(p), "top") or {}).get("state") in ("refreshing", "finishing")
               or started(p), 5, what="the pull to start a refresh")
    wait_until(page, started, 5, what="didStart")


def touch_end(cdp):
    """Lifts the finger of a `touch_drag(..., release=False)`."""
    params = {"type": "touchEnd", "touchPoints": []}
    if hasattr(cdp, "rk_stamp"):
        params["timestamp"] = max(cdp.rk_stamp(cdp.rk_next), time.time())
    cdp.send("Input.dispatchTouchEvent", params)
    cdp.detach()


def to_states(trs: list[dict]) -> list[str]:
    return [t.get("to") for t in trs]


def is_subsequence(needle: list[str], haystack: list[str]) -> bool:
    it = iter(haystack)
    return all(any(h == n for h in it) for n in needle)


def save_screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.screenshot(path=str(path))
    return path


def publish_image(path: Path, rel: str):
    """Copies a screenshot over one of the README's pictures, only when asked (`make screenshots`): an
    ordinary test run leaves the work tree as it found it (the pictures stay in artifacts/screenshots)."""
    if os.environ.get("REFRESHKIT_PUBLISH_IMAGES") != "1":
        return
    dest = ROOT / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, dest)


def configure_feed(page, **fields):
    """Sends `configure {feed: fields}` and waits until the session's configuration, as the page holds it from the
    server's `config` answer, says so: the server has taken it (a state, not a pause)."""
    page.evaluate("(feed) => window.refreshkit.send({type: 'configure', feed})", fields)
    wait_until(page, lambda p: all(p.evaluate("(k) => window.refreshkit.config?.feed?.[k]", key) == value
                                   for key, value in fields.items()),
               5, what=f"the server to take feed {fields}")
