"""Rows measured again after a resize, in Chromium (docs/PAGE.md, "Rows of measured heights"; docs/LAYOUT.md,
"Anchoring"): the REAL server with `--feed sqlite:TMP`, the page scrolled to the middle of what is loaded, then its
window made narrower and then wider (Playwright's `set_viewport_size`). The page tells the server its new size,
the session's viewport width changes, every row the page lays out is laid out again at the new width and sent as
a `measure`; the engine takes the new heights with the anchor's correction.

The row the reader was looking at (the first visible row) must be where it was on screen, within 1 px, once the
new heights are accepted; and at every frame drawn in between (sampled by the page's `draw` event), since nothing
above it may move it: first the old heights at the new width, then the new heights together with the frame that
carries their correction.

Every wait is for a state the page or the frame says, never for a duration."""
from __future__ import annotations

import pytest

from browser_support import wait_until
from test_rows_anchor import first_visible, layout, open_loaded, scroll_to_middle

# Watches one row (by id) at every draw (the session's `draw` event): where it was drawn, with the width the rows
# were laid out at and the session's width in the frame drawn.
WATCH_ROW = """(id) => {
    const k = window.refreshkit;
    const trail = [];
    window.__rowTrail = trail;
    const stop = k.on('draw', (now, picture) => {
      if (window.__rowTrail !== trail) return stop();
      const r = k.rows().find((row) => row.id === id);
      trail.push({y: r ? r.y : null, width: k.rowLayout().width, session: picture.viewport.w,
                  offset: k.displayedOffset().y});
    });
}"""


# Row i's id and top on the screen as the page's layout places it at the offset it shows.
SCREEN_TOP = """(i) => {
    const k = window.refreshkit;
    return {id: k.feed(i + 1).items[i]?.id, y: k.rowTop(i) - k.displayedOffset().y};
}"""


def remeasured(page, width: int):
    """The session at `width` (frame and layout), every row around the screen laid out at it (a busy machine's frame
    leaves the rows beyond the drawn ones to idle time), every height measured sent and accepted, the list at rest
    and drawn at the server's offset: the layout, else None."""
    s = page.evaluate("""() => {
        const k = window.refreshkit, f = k.frame;
        return {f: {w: f.viewport.w, phase: f.phase, y: f.offset.y}, l: k.rowLayout(), shown: k.displayedOffset().y};
    }""")
    lay = s["l"]
    if s["f"]["w"] != width or lay["width"] != width or s["f"]["phase"] != "idle":
        return None
    if lay["sent"] == 0 or lay["deferred"] or lay["unsent"] or lay["awaiting"] or abs(s["shown"] - s["f"]["y"]) > 0.01:
        return None
    return lay


@pytest.mark.timeout(120)
def test_a_resize_measures_the_rows_again_and_keeps_the_visible_row_still(browser, feed_server):
    context, page = open_loaded(browser, feed_server)
    try:
        scroll_to_middle(page)
        height = page.viewport_size["height"]
        for width in (320, 600):
            before = first_visible(page)
            sent_before = layout(page)
            offset_before = page.evaluate("() => window.refreshkit.frame.offset.y")
            page.evaluate(WATCH_ROW, before["id"])
            page.set_viewport_size({"width": width, "height": height})
            after_layout = wait_until(page, lambda p, w=width: remeasured(p, w), 20,
                                      what=f"the rows measured again at {width} px and accepted")
            trail = page.evaluate("() => { const t = window.__rowTrail; window.__rowTrail = null; return t; }")
            # where the layout puts its top now: drawn or not (its top kept still, a row that became shorter may
            # have left the screen above)
            after = page.evaluate(SCREEN_TOP, before["index"])
            assert after["id"] == before["id"], f"row {before['index']} is {after['id']} now, not {before['id']}"
            assert abs(after["y"] - before["y"]) <= 1, \
                f"at {width} px the visible row moved {after['y'] - before['y']:.2f} px"
            # the heights did change (the rows were measured again at the new width), above the row too: the offset
            # moved by their change, and that is what kept the row still
            assert after_layout["height"] != sent_before["height"], "the content's height did not change"
            moved = page.evaluate("() => window.refreshkit.frame.offset.y") - offset_before
            assert abs(moved) > 1, f"at {width} px the rows above the visible row kept their heights ({moved:.2f} px)"
            # and at every frame in between: never a jump, not even for a frame
            drawn = [t for t in trail if t["y"] is not None]
            assert drawn and drawn[-1]["width"] == width, trail[-3:]
            worst = max(drawn, key=lambda t: abs(t["y"] - before["y"]))
            assert abs(worst["y"] - before["y"]) <= 1, \
                f"at {width} px the row was drawn {worst['y'] - before['y']:.2f} px off in a frame: {worst}"
        assert not page.errors, page.errors
        assert not page.evaluate("() => window.refreshkit.errors.length"), page.evaluate(
            "() => window.refreshkit.errors")
    finally:
        context.close()
