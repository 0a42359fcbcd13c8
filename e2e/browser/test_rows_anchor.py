"""Rows of measured heights in Chromium (docs/PAGE.md, "Rows of measured heights"; docs/LAYOUT.md): the REAL
server with `--feed sqlite:TMP` (a database it fills from Debian's fortunes), the page laying its rows out and
sending `measure`, the engine answering `heights` and placing rows (and the offset) by them.

- Scrolled to the middle, another device of the session refreshes while new items are in the source: the new
  rows come on top, and the row the reader was looking at stays where it was on screen, within 1 px; the draw
  log's content position (offset less the rows' shift) does not move either.
- A fling through the rows: every drawn frame's rows (`window.refreshkit.rows()`, the rectangles the canvas
  drew) follow one another without a gap or an overlap, and cover the list.

Every wait is for a state the page or the frame says, never for a duration."""
from __future__ import annotations

import json
import urllib.request

from browser_support import canvas_point, drive_query, touch_drag, wait_until
from conftest import PHONE_2X, open_page

# Snapping each row's top to the device pixel grid (dpr 2) moves a row by at most a quarter of a pixel.
SNAP = 0.5


def rows(page) -> list[dict]:
    return page.evaluate("() => window.refreshkit.rows()")


def layout(page) -> dict:
    return page.evaluate("() => window.refreshkit.rowLayout()")


def content(page) -> float:
    """Where the last draw put the content: its offset less the rows' shift by then (`drawLog()`, docs/PAGE.md)."""
    return page.evaluate("() => { const log = window.refreshkit.drawLog(), d = log[log.length - 1];"
                         " return d.y - d.shift; }")


SETTLE_STATE = """() => {
    const k = window.refreshkit, f = k.frame, l = k.rowLayout();
    const busy = (f?.edges ?? []).some((e) => e.state !== 'idle' && e.state !== 'noMoreData');
    return {frame: f, layout: l, drawn: k.rows().length, busy,
            shown: k.displayedOffset().y, feed: k.feed(1)};
}"""


def unsettled(state: dict) -> list[str]:
    """Which of `settled`'s conditions `state` (SETTLE_STATE's answer) does not meet: [] when it is settled."""
    f = state["frame"]
    if not f:
        return ["no frame"]
    lay = state["layout"]
    why = []
    if f["phase"] != "idle":
        why.append(f"phase {f['phase']}")
    if state["busy"]:
        why.append("an edge busy: " + ", ".join(f"{e['edge']} {e['state']}" for e in f["edges"]))
    if state["drawn"] == 0:
        why.append("no rows drawn")
    if lay["sent"] == 0:
        why.append("no height sent")
    if lay["awaiting"] != 0:
        why.append(f"{lay['awaiting']} heights sent not accepted")
    if lay["count"] != f["feed"]["count"]:
        why.append(f"layout count {lay['count']} != frame feed count {f['feed']['count']}")
    if abs(state["shown"] - f["offset"]["y"]) > 0.01:  # the prediction's blend has settled
        why.append(f"displayed offset {state['shown']} != frame offset {f['offset']['y']}")
    return why


def settled(page) -> dict | None:
    """The list at rest with every height the page sent accepted, and rows drawn: the frame, else None."""
    state = page.evaluate(SETTLE_STATE)
    return None if unsettled(state) else state["frame"]


def why_not_settled(page) -> str:
    """What keeps the page from `settled`: the conditions that do not hold, the layout and the offsets drawn."""
    state = page.evaluate(SETTLE_STATE)
    f = state["frame"] or {}
    return (f"not settled: {unsettled(state) or 'settled now'}; layout {state['layout']}; "
            f"displayed offset {state['shown']}; frame offset {f.get('offset')}, seq {f.get('seq')}, "
            f"phase {f.get('phase')}, feed {f.get('feed')}, ack {f.get('ack')}")


# Keeps, at every draw, the rows drawn and the count and height of the frame they were drawn from
# (`window.__rowSamples`; the session's `draw` event: a frame arrived but not drawn yet is nothing the screen
# shows); setting `window.__rowSamples` to anything else stops it.
SAMPLE_ROWS = """() => {
    const samples = [];
    window.__rowSamples = samples;
    const k = window.refreshkit;
    const stop = k.on('draw', (now, picture, shown, env) => {
      if (window.__rowSamples !== samples) return stop();
      // beside what is checked, what says why a frame drew what it drew: the offset drawn, the content's height,
      // and the row layout the page drew with (none: the rows of a fixed height)
      samples.push({rows: k.rows(), count: picture.feed.count, h: picture.viewport.h, loading: picture.feed.loading,
                    y: shown.y, content: picture.contentSize?.h, phase: picture.phase,
                    layout: env.layout ? {count: env.layout.count, width: env.layout.width} : null,
                    mirrored: env.feed ? env.feed.rows.items.length : null});
    });
}"""


def first_visible(page) -> dict:
    """The top row on screen (the first drawn row whose bottom is below the list's top)."""
    return next(r for r in rows(page) if r["y"] + r["h"] > 0)


def post(server, text: str, author: str) -> None:
    body = json.dumps({"text": text, "author": author}).encode()
    req = urllib.request.Request(server.url + "/feed/items", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        assert res.status == 201, res.status


def open_loaded(browser, server, query: str = ""):
    context, page = open_page(browser, server, PHONE_2X, query)
    wait_until(page, lambda p: p.evaluate("() => window.refreshkit.feed(1).count > 0 "
                                          "&& window.refreshkit.rows().length > 0"), 15, what="rows drawn")
    wait_until(page, lambda p: layout(p)["sent"] > 0 or p.evaluate(
        "() => window.refreshkit.errors.some((e) => e.ref === 'measure')"), 10, what="measurements sent")
    wait_until(page, settled, 15, what="the heights accepted")
    return context, page


def scroll_to_middle(page) -> dict:
    """Loads a second page of rows, then scrolls to the middle of what is loaded; returns the settled frame."""
    f = wait_until(page, settled, 15, what="the rows settled")
    page.evaluate("() => window.refreshkit.send({type: 'command', name: 'loadMore', edge: 'bottom'})")
    count = f["feed"]["count"]
    f = wait_until(page, lambda p: (s := settled(p)) and s["feed"]["count"] > count and s, 15, what="a second page")
    target = layout(page)["height"] / 2 - f["viewport"]["h"] / 2
    page.evaluate("(a) => window.refreshkit.send({type: 'command', name: 'scrollBy', amount: a, animated: false})",
                  target - f["offset"]["y"])
    return wait_until(page, lambda p: (s := settled(p)) and s["offset"]["y"] > 200 and s, 15, what="the middle")


def test_new_rows_on_top_from_another_device_keep_the_visible_row_still(browser, feed_server):
    context, page = open_loaded(browser, feed_server)
    other = None
    try:
        offset = scroll_to_middle(page)["offset"]["y"]
        before = first_visible(page)
        drawn = content(page)
        count = page.evaluate("() => window.refreshkit.feed(1).count")
        for k in range(3):
            post(feed_server, f"A new row {k} on top, with text long enough to wrap onto a second line of the "
                              f"row and so make it taller than the estimate {k}", "Rows Test")
        # another device of the same session refreshes the top edge
        other, other_page = open_page(browser, feed_server, PHONE_2X, drive_query(page))
        other_page.evaluate("() => window.refreshkit.send({type: 'command', name: 'refresh', edge: 'top'})")
        wait_until(page, lambda p: p.evaluate("() => window.refreshkit.feed(1).count") >= count + 3, 20,
                   what="the new rows in the first device's mirror")
        wait_until(page, settled, 20, what="the new rows measured and accepted")
        after = next((r for r in rows(page) if r["id"] == before["id"]), None)
        assert after is not None, f"row {before['id']} is no longer drawn: {rows(page)[:4]}"
        assert abs(after["y"] - before["y"]) <= 1, f"the visible row moved {after['y'] - before['y']:.2f} px"
        # it stayed because the offset moved by the new rows' heights (at least the estimate each), not by luck
        moved = page.evaluate("() => window.refreshkit.frame.offset.y") - offset
        assert moved >= 3 * 72, f"the offset moved {moved:.1f} px for three new rows on top"
        # and the draw log says so: the offset's move is the rows' shift, the content did not move
        assert abs(content(page) - drawn) <= 1, f"the draw log's content moved {content(page) - drawn:.2f} px"
        assert not page.errors and not other_page.errors, page.errors + other_page.errors
    finally:
        if other:
            other.close()
        context.close()


def test_scroll_to_item_lands_at_each_alignment_and_stays_there_while_the_rows_are_measured(browser, feed_server):
    """`scrollToItem` (docs/PROTOCOL.md): the row is drawn at the top, the middle or the bottom of the list within
    1 px once the page has laid out and measured the rows it landed among and the engine accepted their heights:
    the engine holds the row it went to, not the first visible one (docs/LAYOUT.md, "Anchoring")."""
    context, page = open_loaded(browser, feed_server)
    try:
        f = scroll_to_middle(page)
        ids = [item["id"] for item in page.evaluate("() => window.refreshkit.feed(1000).items")]
        target = ids[len(ids) // 2 + 7]
        for align in ("end", "center", "start"):
            before = f["offset"]["y"]
            page.evaluate("(m) => window.refreshkit.send(m)",
                          {"type": "command", "name": "scrollToItem", "id": target, "align": align, "animated": False})
            f = wait_until(page, lambda p, b=before: (s := settled(p)) and s["offset"]["y"] != b and s, 15,
                           what=f"the list at rest after scrollToItem {align}")
            row = next((r for r in rows(page) if r["id"] == target), None)
            assert row is not None, f"row {target} not drawn after scrollToItem {align}: {rows(page)[:3]}"
            top, bottom = f["insets"]["top"], f["viewport"]["h"] - f["insets"]["bottom"]
            wanted = {"start": top, "center": (top + bottom) / 2 - row["h"] / 2, "end": bottom - row["h"]}[align]
            assert abs(row["y"] - wanted) <= 1, f"{align}: row {target} drawn at {row['y']:.2f}, not {wanted:.2f}"
        assert not page.errors, page.errors
    finally:
        context.close()


def test_scroll_to_an_item_not_loaded_fetches_it_and_lands_it_within_a_pixel(browser, feed_server):
    """A jump (docs/LAYOUT.md, "A jump"): `scrollToItem` to an item thousands of rows below the loaded ones: the
    server asks the SQLite source for the page around it, the rows are replaced (placeholders above it), and once the
    page has laid out and measured the rows around it and the engine accepted their heights, the item is drawn at
    the top, the middle or the bottom of the list within 1 px."""
    context, page = open_loaded(browser, feed_server)
    try:
        f = wait_until(page, settled, 15, what="the rows settled")
        top = int(page.evaluate("() => window.refreshkit.feed(1).items[0].id"))
        for k, align in enumerate(("center", "end", "start")):
            target = str(top - 2500 - 700 * k)
            before = f["offset"]["y"]
            page.evaluate("(m) => window.refreshkit.send(m)",
                          {"type": "command", "name": "scrollToItem", "id": target, "align": align, "animated": False})
            f = wait_until(page, lambda p, b=before, t=target: (s := settled(p)) and s["offset"]["y"] != b
                           and any(r["id"] == t for r in rows(p)) and s, 20,
                           what=f"the list at rest on item {target} after scrollToItem {align}")
            row = next(r for r in rows(page) if r["id"] == target)
            lo, hi = f["insets"]["top"], f["viewport"]["h"] - f["insets"]["bottom"]
            wanted = {"start": lo, "center": (lo + hi) / 2 - row["h"] / 2, "end": hi - row["h"]}[align]
            assert abs(row["y"] - wanted) <= 1, f"{align}: item {target} drawn at {row['y']:.2f}, not {wanted:.2f}"
            # the rows above it are placeholders until scrolled to: its index is where it lies in the feed
            assert row["index"] >= 2500, row
        requests = page.evaluate("() => window.refreshkit.feed(1).requests")
        assert any(r["kind"] == "around" and r["error"] is None for r in requests), requests
        assert not page.errors, page.errors
    finally:
        context.close()


def gaps_and_overlaps(sample: list[dict], viewport_h: float, count: int) -> list[str]:
    problems = []
    for a, b in zip(sample, sample[1:], strict=False):
        if b["index"] != a["index"] + 1:
            problems.append(f"row {b['index']} drawn after row {a['index']}")
        elif abs(a["y"] + a["h"] - b["y"]) > SNAP:
            problems.append(f"rows {a['index']}/{b['index']}: bottom {a['y'] + a['h']:.2f} vs top {b['y']:.2f}")
    if sample and sample[0]["index"] > 0 and sample[0]["y"] > SNAP:
        problems.append(f"a gap above row {sample[0]['index']} at {sample[0]['y']:.2f}")
    last = sample[-1] if sample else None
    if last and last["index"] < count - 1 and last["y"] + last["h"] < viewport_h - SNAP:
        problems.append(f"a gap under row {last['index']} at {last['y'] + last['h']:.2f}")
    return problems


def test_a_fling_through_the_rows_draws_them_without_gaps_or_overlaps(browser, feed_server):
    context, page = open_loaded(browser, feed_server)
    try:
        page.evaluate(SAMPLE_ROWS)
        start = first_visible(page)["index"]
        x, y = canvas_point(page, 0.5, 0.8)
        for _ in range(4):
            touch_drag(page, (x, y), -500, steps=4, interval=0.008)
            wait_until(page, lambda p: p.evaluate("() => window.refreshkit.frame.phase") == "idle", 20,
                       what="the fling to stop")
        samples = page.evaluate("() => { const s = window.__rowSamples; window.__rowSamples = null; return s; }")
        end = first_visible(page)["index"]
        assert end - start >= 30, f"the flings went through {end - start} rows only"
        assert len(samples) > 30, len(samples)
        bad = []
        for n, s in enumerate(samples):
            bad += [f"frame {n}: {p}" for p in gaps_and_overlaps(s["rows"], s["h"], s["count"])]
        assert not bad, bad[:10]
        assert not page.errors, page.errors
    finally:
        context.close()
