"""The simulated feed (`serve`'s default) in Chromium: one more source behind the engine's pager, its items sent
to the page as `rows` like any feed's, laid out and MEASURED there (docs/PAGE.md, "Rows of measured heights"),
placed by the heights the engine accepted.

- Its rows have measured, varying heights: the engine accepted them, the drawn rows' heights take several values,
  and the content height the engine reports is the one the measured rows make, not count × `feed.rowHeight` (the
  estimate for a row not measured yet).
- The issue every feed must pass: pulled to refresh on a phone, then scrolled down a few rows while it loads, the
  finger still down; when the answer comes, the new items go on top (ids counting up, newest first) and the row
  being read stays where it was on screen, on every frame the page draws.

Every wait is for a state the page or the frame says, never for a duration."""
from __future__ import annotations

from browser_support import canvas_point, configure_feed, top_id, touch_drag, touch_end, wait_until

# The page's view of the feed: the frame, the row layout (js/feed/rowLayout.js, window.refreshkit.rowLayout()),
# the rows the canvas drew last (`rows()`: index, id and rect in CSS px on the canvas), the loaded items' ids, and
# whether the rows drawn last have the heights the layout gives them now (a draw follows the layout's change).
STATE = """() => { const k = window.refreshkit, f = k.frame, l = k.rowLayout();
    return {y: f.offset.y, shown: k.displayedOffset().y, phase: f.phase, count: f.feed.count,
            estimate: f.feed.rowHeight, contentH: f.contentSize.h, vh: f.viewport.h,
            top: f.edges.find((e) => e.edge === 'top')?.state, pending: k.prediction().pending,
            layout: l, rows: k.rows(), ids: k.feed(1000).items.map((i) => i.id),
            drawnAsLaid: k.rows().every((r) => r.h === k.rowTop(r.index + 1) - k.rowTop(r.index))}; }"""

# Keeps, at every draw (the page's `draw` event), where the row `id` was drawn (its top on the canvas, or null when
# not drawn) in `window.__rowTrack`; setting `window.__rowTrack` to anything else stops it.
TRACK_ROW = """(id) => {
    const track = [];
    window.__rowTrack = track;
    const k = window.refreshkit;
    const stop = k.on('draw', (now, picture) => {
      if (window.__rowTrack !== track) return stop();
      const r = k.rows().find((row) => row.id === id);
      track.push({y: r ? r.y : null, count: picture.feed.count});
    });
}"""


def state(page) -> dict:
    return page.evaluate(STATE)


def measured(s: dict) -> bool:
    """Rows drawn, the page's rows those the frame counts, every height the page sent accepted and drawn (the last
    draw came after the layout took them), the drawn offset the frame's (nothing predicted or blended), every input
    acknowledged."""
    lay = s["layout"]
    return (bool(s["rows"]) and lay["count"] == s["count"] == len(s["ids"]) and lay["accepted"] > 0
            and lay["awaiting"] == 0 and s["drawnAsLaid"] and abs(s["shown"] - s["y"]) < 0.01 and s["pending"] == 0)


def first_visible(s: dict) -> dict:
    """The top row on screen (the first drawn row whose bottom is below the list's top)."""
    return next(r for r in s["rows"] if r["y"] + r["h"] > 0)


def test_the_simulated_rows_are_measured_at_varying_heights(phone):
    page = phone
    s = wait_until(page, lambda p: (s := state(p)) and s["phase"] == "idle" and measured(s) and s, 15,
                   what="the first page's rows measured and their heights accepted")
    lay, rows = s["layout"], s["rows"]
    heights = [r["h"] for r in rows]
    print(f"{s['count']} rows, {lay['accepted']} heights accepted, drawn heights {heights}, content "
          f"{s['contentH']} px vs {s['count']} × {s['estimate']} = {s['count'] * s['estimate']} px")
    # the engine accepted the page's measurements, and the rows take them: several distinct heights, not the estimate
    assert lay["accepted"] >= len(rows), lay
    assert len(set(heights)) >= 3, heights
    assert any(h != s["estimate"] for h in heights), heights
    # drawn one under the other at those heights, in the items' order (ids counting down from the newest)
    assert [r["id"] for r in rows] == s["ids"][rows[0]["index"]:rows[0]["index"] + len(rows)]
    assert [int(i) for i in s["ids"]] == list(range(int(s["ids"][0]), int(s["ids"][0]) - s["count"], -1))
    for a, b in zip(rows, rows[1:], strict=False):
        assert abs(a["y"] + a["h"] - b["y"]) <= 0.5, (a, b)  # 0.5: each top snapped to the device pixel grid
    # the content height the engine reports is the one the page's layout makes of the measured heights (and the
    # estimate for rows not measured yet), not every row at the estimate
    assert abs(s["contentH"] - lay["height"]) <= 1, (s["contentH"], lay)
    assert abs(s["contentH"] - s["count"] * s["estimate"]) > s["estimate"], (s["contentH"], s["count"], s["estimate"])
    assert not page.errors, page.errors


def test_new_rows_while_scrolled_down_keep_the_row_being_read_still(phone):
    page = phone
    wait_until(page, lambda p: measured(state(p)), 15, what="the first page measured")
    # A slow source, so that the scroll below happens while the refresh loads, whatever the machine's load.
    configure_feed(page, latencyMs=6000, timeoutMs=20000)
    x, y = canvas_point(page, 0.5, 0.3)
    touch_drag(page, (x, y), 250, steps=25)
    wait_until(page, lambda p: state(p)["top"] == "refreshing", 5, what="the refresh running")
    finger = touch_drag(page, (x, y + 300), -400, steps=20, release=False)
    try:
        # The frame that answers the last move, not one before it (each move is 20 px: sampled a frame early, the
        # row seemed to move by one move's length), and the rows scrolled into view measured.
        before = wait_until(page, lambda p: (s := state(p)) and measured(s) and s, 5,
                            what="every move acknowledged, the rows in view measured")
        assert before["top"] == "refreshing" and before["y"] > 0, before
        row = first_visible(before)
        newest = int(before["ids"][0])
        page.evaluate(TRACK_ROW, row["id"])
        wait_until(page, lambda p: top_id(p) != newest, 15, what="the refresh's answer")
        after = wait_until(page, lambda p: (s := state(p)) and measured(s) and s, 10,
                           what="the new rows measured and their heights accepted")
        track = page.evaluate("() => { const t = window.__rowTrack; window.__rowTrack = null; return t; }")
    finally:
        touch_end(finger)
    # the three new items on top of the loaded ones (newItemsPerRefresh), the loaded ones kept below them
    assert after["count"] == before["count"] + 3, (before["count"], after["count"])
    assert after["ids"][:4] == [str(newest + 3), str(newest + 2), str(newest + 1), str(newest)], after["ids"][:5]
    assert after["ids"][3:3 + before["count"]] == before["ids"], "the loaded items stay, in order, under the new ones"
    # the row being read stayed on screen where it was: at the end, and on every frame drawn in between
    moved = next(r for r in after["rows"] if r["id"] == row["id"])["y"] - row["y"]
    assert abs(moved) <= 1, f"row {row['id']} moved {moved:.3f} px on screen"
    drawn = [t for t in track if t["y"] is not None]
    assert len(drawn) == len(track) and any(t["count"] == after["count"] for t in drawn), track[-3:]
    worst = max(abs(t["y"] - row["y"]) for t in drawn)
    print(f"row {row['id']} at {row['y']} px tracked over {len(track)} frames: moved {moved} px at the end, "
          f"{worst} px at worst; offset {before['y']} → {after['y']} px")
    assert worst <= 1, f"row {row['id']} moved up to {worst:.3f} px on screen while the new rows came: {track}"
    # it stayed because the offset moved by the new rows' heights, as the page placed them (not by luck)
    shift = page.evaluate("() => window.refreshkit.rowTop(3)")
    assert abs((after["y"] - before["y"]) - shift) <= 1, (after["y"] - before["y"], shift)
    assert shift >= 3 * before["estimate"], shift
    assert not page.errors, page.errors
