"""Helpers for the control tests (test_controls.py, test_gallery.py): a finger held on the list through CDP and
moved until the server says the pull reached a distance, and pictures of an edge's area to compare."""
from __future__ import annotations

import time

# Resolves once the page holds a frame newer than `seq`, or after 2 s: checked inside the page (the gallery's
# `window.refreshkit` has no `on`), not by a round trip from the test for each look.
NEXT_FRAME = """(seq) => new Promise((resolve) => {
  const newer = () => window.refreshkit.frame.seq > seq;
  if (newer()) { resolve(true); return; }
  const look = setInterval(() => { if (newer()) { clearInterval(look); clearTimeout(late); resolve(true); } }, 1);
  const late = setTimeout(() => { clearInterval(look); resolve(false); }, 2000);
})"""


class Finger:
    """One touch point, moved in small steps; `pull_to` moves it until the frame's edge has pulled that far."""

    def __init__(self, page, x: float, y: float):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.x, self.y = x, y
        self.base = time.time()
        self.n = 0
        self._send("touchStart", [{"x": x, "y": y, "id": 1}])

    def _send(self, kind, points):
        self.n += 1
        self.cdp.send("Input.dispatchTouchEvent",
                      {"type": kind, "touchPoints": points, "timestamp": self.base + self.n * 0.016})

    def move(self, dy: float):
        self.y += dy
        self._send("touchMove", [{"x": self.x, "y": self.y, "id": 1}])

    def pull_to(self, edge_name: str, distance: float, sign: float = 1.0, step: float = 8.0, what: str = ""):
        """Moves the finger (down for sign 1, up for -1) until the edge's `distance` in the frames is at least
        `distance`; returns the frame's entry. A step of 8 px per 16 ms is a slow pull (500 px/s); every step waits
        for the server's frame and the page's drawing of it, so smaller steps cost the suite more than they show."""
        deadline = time.monotonic() + 15
        while True:
            entry = edge_entry(self.page, edge_name)
            if entry and entry["distance"] >= distance:
                return entry
            if time.monotonic() > deadline:
                raise AssertionError(f"the {edge_name} edge never pulled {distance} px {what}: {entry}")
            seq = self.page.evaluate("() => window.refreshkit.frame.seq")
            self.move(sign * step)
            # wait for the server's answer to this move before the next one (a state, not a pause), looked for by
            # the page itself: asking the page again and again from here keeps both busy, and other suites share
            # the cores (the Makefile's e2e-test)
            self.page.evaluate(NEXT_FRAME, seq)

    def lift(self):
        self._send("touchEnd", [])
        self.cdp.detach()


def edge_entry(page, name: str) -> dict | None:
    return page.evaluate("(name) => (window.refreshkit.frame?.edges || []).find((e) => e.edge === name) ?? null", name)


def settled(page) -> bool:
    """The picture shows the server's latest frame: nothing predicted or blended, no motion segment running."""
    return page.evaluate("""() => {
      const f = window.refreshkit.frame, d = window.refreshkit.displayedOffset();
      return !!f && !f.segment && Math.abs(d.y - f.offset.y) < 0.01 && Math.abs(d.x - f.offset.x) < 0.01;
    }""")


def canvas_box(page, selector: str = "#list") -> dict:
    return page.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect();"
                         " return {x: r.x, y: r.y, w: r.width, h: r.height}; }", selector)


def crop(page, box: dict, area: dict, height: float, from_content: str = "bottom") -> bytes:
    """A screenshot (canvas and DOM controls) of the `height` px of `area` on its content side (`bottom`: the
    strip just above the content's top edge; `top`: just under the content's bottom edge)."""
    h = max(1.0, min(height, area["h"]))
    y = area["y"] + area["h"] - h if from_content == "bottom" else area["y"]
    clip = {"x": box["x"] + area["x"], "y": box["y"] + y, "width": area["w"], "height": h}
    return page.screenshot(clip=clip)


def picture_changes(page, take, still, timeout: float = 5.0, what: str = "the picture to change") -> int:
    """Takes pictures (`take()`) until one differs from the first, while `still(page)` holds; returns how many
    it took."""
    first = take()
    deadline = time.monotonic() + timeout
    n = 0
    while True:
        assert still(page), f"the condition stopped holding before {what}"
        n += 1
        if take() != first:
            return n
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
