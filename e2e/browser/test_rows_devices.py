"""Several devices of different widths in one session, in Chromium (docs/LAYOUT.md, "Several devices"; docs/PAGE.md,
"Rows of measured heights"): the REAL server with `--feed sqlite:TMP`, a phone (390 px wide) that opens the session
and a desktop (1280 px, its debug panel open beside the list) that joins it.

The session has one layout, at its viewport's width. The desktop's join keeps the phone's viewport (its own list's
size is not pushed onto the session when it joins): both lay the rows out at 390 px and draw them 390 px wide from
the list's left edge at the engine's heights, the desktop with its background to the right. While the phone flings
and the desktop's wheel scrolls, on every frame either page drew (sampled by each page's `draw` event)
the rows follow one another without a gap or an overlap and cover that page's list, and at rest both draw the same
row at the same place. When the desktop's window then changes size, the session takes its width (the last size a
device's list took): both lay out and measure the rows again at it, and again draw them alike.

Every wait is for a state the pages or the frames say, never for a duration."""
from __future__ import annotations

from browser_support import canvas_point, drive_query, touch_drag, wait_until
from conftest import DESKTOP, open_page
from test_rows_anchor import SNAP, gaps_and_overlaps, open_loaded, scroll_to_middle

# Keeps, at every draw (the session's `draw` event), the rows drawn, the count of the frame they were drawn from and
# the height of this page's own list.
SAMPLE_ROWS = """() => {
    const samples = [];
    window.__rowSamples = samples;
    const k = window.refreshkit, list = document.getElementById('list');
    const stop = k.on('draw', (now, picture) => {
      if (window.__rowSamples !== samples) return stop();
      samples.push({rows: k.rows(), count: picture.feed.count, h: list.getBoundingClientRect().height});
    });
}"""
TAKE_SAMPLES = "() => { const s = window.__rowSamples; window.__rowSamples = null; return s; }"


def view(page) -> dict:
    return page.evaluate("""() => {
        const k = window.refreshkit, f = k.frame, r = document.getElementById('list').getBoundingClientRect();
        return {session: f.viewport, offset: f.offset.y, phase: f.phase, count: f.feed.count,
                shown: k.displayedOffset().y, layout: k.rowLayout(), rows: k.rows(), list: {w: r.width, h: r.height}};
    }""")


def at_rest(page, width: float) -> dict | None:
    """This page's view once the session is `width` wide, at rest, drawn at the server's offset, every row it laid
    out at that width accepted by the engine (its own or another device's measurement), and rows drawn."""
    v = view(page)
    lay = v["layout"]
    if v["session"]["w"] != width or lay["width"] != width or v["phase"] != "idle" or not v["rows"]:
        return None
    if lay["awaiting"] != 0 or lay["count"] != v["count"] or abs(v["shown"] - v["offset"]) > 0.01:
        return None
    return v


def both_at_rest(pages, width: float) -> list[dict] | None:
    views = [at_rest(p, width) for p in pages]
    if not all(views) or len({v["offset"] for v in views}) != 1:
        return None
    return views


def assert_drawn_alike(views: list[dict], width: float) -> None:
    """Every page draws each row `width` wide from the list's left edge, at the same top and height as the others,
    without a gap or an overlap, covering its own list."""
    for v in views:
        problems = gaps_and_overlaps(v["rows"], v["list"]["h"], v["count"])
        assert not problems, problems
        assert all(abs(r["x"]) < 0.01 and r["w"] == width for r in v["rows"]), v["rows"][:3]
    first, *others = views
    placed = {r["id"]: r for r in first["rows"]}
    for v in others:
        shared = [r for r in v["rows"] if r["id"] in placed]
        assert len(shared) >= 5, (len(shared), v["rows"][:3])
        for r in shared:
            p = placed[r["id"]]
            assert abs(r["y"] - p["y"]) <= 2 * SNAP and abs(r["h"] - p["h"]) <= 2 * SNAP, (r, p)


def frame_problems(samples: list[dict]) -> list[str]:
    bad = []
    for n, s in enumerate(samples):
        if not s["rows"]:
            bad.append(f"frame {n}: no row drawn")
        bad += [f"frame {n}: {p}" for p in gaps_and_overlaps(s["rows"], s["h"], s["count"])]
    return bad


def test_a_phone_and_a_desktop_draw_the_sessions_rows_alike(browser, feed_server):
    context, phone = open_loaded(browser, feed_server)
    desktop_context = None
    try:
        scroll_to_middle(phone)
        width = view(phone)["session"]["w"]
        desktop_context, desktop = open_page(browser, feed_server, DESKTOP, drive_query(phone))
        assert view(desktop)["list"]["w"] > 2 * width  # a list much wider than the session's viewport
        pages = [phone, desktop]
        views = wait_until(desktop, lambda _: both_at_rest(pages, width), 20, what="both pages at the phone's width")
        assert_drawn_alike(views, width)

        # the phone flings, the desktop's wheel scrolls back: every frame of both is checked
        for p in pages:
            p.evaluate(SAMPLE_ROWS)
        x, y = canvas_point(phone, 0.5, 0.8)
        touch_drag(phone, (x, y), -400, steps=4, interval=0.008)
        wait_until(phone, lambda _: both_at_rest(pages, width), 20, what="the fling to stop")
        desktop.mouse.move(*canvas_point(desktop, 0.2, 0.5))
        for _ in range(5):
            desktop.mouse.wheel(0, -300)
        views = wait_until(desktop, lambda _: both_at_rest(pages, width), 20, what="the wheel's scroll to stop")
        assert_drawn_alike(views, width)
        for p in pages:
            samples = p.evaluate(TAKE_SAMPLES)
            assert len(samples) > 10, len(samples)
            bad = frame_problems(samples)
            assert not bad, f"{len(bad)} problems in {len(samples)} frames: {bad[:10]}"

        # the desktop's window changes size: the session takes its list's width, and both measure again at it
        desktop.set_viewport_size({"width": 1100, "height": 800})
        wide = wait_until(desktop, lambda p: (v := view(p))["session"]["w"] == v["list"]["w"] != width
                          and v["list"]["w"], 10, what="the session at the desktop's width")
        views = wait_until(desktop, lambda _: both_at_rest(pages, wide), 20, what="both pages at the desktop's width")
        assert_drawn_alike(views, wide)
        assert views[0]["layout"]["width"] == views[1]["layout"]["width"] == wide
        for p in pages:
            assert not p.errors, p.errors
            assert not p.evaluate("() => window.refreshkit.errors.length"), p.evaluate("() => window.refreshkit.errors")
    finally:
        if desktop_context:
            desktop_context.close()
        context.close()
