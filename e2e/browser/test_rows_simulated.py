"""The simulated feed (`serve`'s default: numbered rows of `feed.rowHeight`) in Chromium, the issue every feed
must pass (docs/LAYOUT.md, "The simulated feed"): pulled to refresh on a phone, then scrolled down a few rows
while it loads, the finger still down; when the answer comes, the new rows go in above and the row being read
stays where it was on screen. Every wait is for a state the frame says, never for a duration."""
from __future__ import annotations

from browser_support import canvas_point, configure_feed, touch_drag, touch_end, wait_until

STATE = """() => { const f = window.refreshkit.frame;
    return {y: f.offset.y, newest: f.feed.newest, count: f.feed.count, rowHeight: f.feed.rowHeight,
            top: f.edges.find((e) => e.edge === 'top')?.state}; }"""


def screen_y(state: dict, row: int) -> float:
    """Row `row`'s top on screen (the simulated rows: newest first, `rowHeight` each from the content's top)."""
    return (state["newest"] - row) * state["rowHeight"] - state["y"]


def test_new_rows_while_scrolled_down_keep_the_row_being_read_still(phone):
    page = phone
    wait_until(page, lambda p: p.evaluate(STATE)["count"] > 0, 15, what="the first page")
    # A slow source, so that the scroll below happens while the refresh loads, whatever the machine's load.
    configure_feed(page, latencyMs=6000, timeoutMs=20000)
    x, y = canvas_point(page, 0.5, 0.3)
    touch_drag(page, (x, y), 250, steps=25)
    wait_until(page, lambda p: p.evaluate(STATE)["top"] == "refreshing", 5, what="the refresh running")
    finger = touch_drag(page, (x, y + 300), -400, steps=20, release=False)
    try:
        # The frame that answers the last move, not one before it (each move is 20 px: sampled a frame early,
        # the row seemed to move by one move's length, 1 run in CI).
        wait_until(page, lambda p: p.evaluate("() => window.refreshkit.prediction().pending") == 0, 5,
                   what="every move acknowledged")
        before = page.evaluate(STATE)
        assert before["top"] == "refreshing" and before["y"] > 0, before
        row = before["newest"] - int(before["y"] // before["rowHeight"])
        wait_until(page, lambda p: p.evaluate(STATE)["newest"] != before["newest"], 15, what="the refresh's answer")
        after = page.evaluate(STATE)
    finally:
        touch_end(finger)
    assert after["count"] == before["count"] + 3, (before, after)
    assert abs(screen_y(after, row) - screen_y(before, row)) <= 1e-6, \
        f"row {row} moved {screen_y(after, row) - screen_y(before, row):.3f} px on screen: {before} → {after}"
    assert not page.errors, page.errors
