"""Flinging through 10 000 rows of varied text in Chromium (docs/PAGE.md, "Rows of measured heights"): the REAL
server on a SQLite feed of 10 000 items whose texts run from one word to more than a row shows
(e2e/rows_feed.py), all of them loaded (pages of 200), the page laying out and measuring the rows it draws while
they fly past and the engine taking those heights, with the anchor's corrections, mid-fling.

A finger flicks the list again and again, as a user does, each flick caught while the last one still runs. The
engine caps a release at 8 000 px/s (Flutter's kMaxFlingVelocity, Sources/RefreshKit/Physics/VelocityTracker.swift),
so flicks alone would take over a minute and a half to cross 10 000 rows of at least 72 px; the test flicks through
stretches at the top, a quarter, half and three quarters of the way down and at the end, and is carried from one
stretch to the next by animated scrolls (the `scrollBy` and `scrollToEdge` commands, the spring a keyboard's Page
Down or a tap on iOS's status bar uses), which cross thousands of rows a frame. From row 0 to row 9 999, on every
frame the page drew (sampled by the page's `draw` event), the drawn rows' rectangles
(`window.refreshkit.rows()`) follow one another without a gap or an overlap and cover the list.

Every wait is for a state the page or the frame says, never for a duration."""
from __future__ import annotations

import pytest

from browser_support import canvas_point, touch_drag, wait_until
from conftest import PHONE_2X, open_page, serve_sqlite_feed
from rows_feed import write_feed
from test_rows_anchor import SAMPLE_ROWS, gaps_and_overlaps

ROWS = 10_000
PAGE = 200  # the largest page a source may answer (Sources/RefreshFeeds/API/FeedLimits.swift)
FLICKS = 3    # per stretch
# A flick is caught by the next one once its fling has carried the list this far (px): about a third of a second at
# full speed, the rhythm of a thumb.
CAUGHT_AFTER = 2_500


@pytest.fixture(scope="module")
def long_feed(tmp_path_factory):
    path = tmp_path_factory.mktemp("rows-fling") / "feed.sqlite"
    write_feed(path, items=ROWS)
    yield from serve_sqlite_feed(path, poll_ms=0)


def frame_state(page) -> dict:
    return page.evaluate("""() => { const f = window.refreshkit.frame;
        return {y: f.offset.y, phase: f.phase, count: f.feed.count, loading: f.feed.loading, hasMore: f.feed.hasMore,
                busy: f.edges.some((e) => e.state !== 'idle' && e.state !== 'noMoreData')}; }""")


def at_rest(page) -> dict | None:
    s = frame_state(page)
    return s if s["phase"] == "idle" and not s["busy"] and not s["loading"] else None


def load_everything(page) -> int:
    """Pages of PAGE rows until the source has no more, loaded where a reader loads them: at the end of the list.
    The session holds a window of pages around its viewport (docs/LAYOUT.md, "The window, wired"), so the pages
    far above are dropped as the end moves down, and loaded back when the flicks come to them. The footer is told
    to show and go at once (its minimum visible and exit durations 0): a loadMore sent while it still finishes
    would be dropped."""
    page.evaluate("(n) => window.refreshkit.send({type: 'configure', feed: {pageSize: n}, "
                  "edges: {bottom: {minimumVisibleDuration: 0, exitDuration: 0}}})", PAGE)
    wait_until(page, lambda p: p.evaluate("() => window.refreshkit.config.feed.pageSize") == PAGE
               and at_rest(p), 20, what="the first page")
    for _ in range(2 * ROWS // PAGE):
        s = wait_until(page, at_rest, 20, what="the list at rest")
        if s["count"] >= ROWS or not s["hasMore"]:
            break
        page.evaluate("() => window.refreshkit.send({type: 'command', name: 'scrollToEdge', edge: 'bottom', "
                      "animated: false})")
        wait_until(page, at_rest, 20, what=f"the end of {s['count']} rows")
        page.evaluate("() => window.refreshkit.send({type: 'command', name: 'loadMore', edge: 'bottom'})")
        wait_until(page, lambda p, c=s["count"]: (r := at_rest(p)) and (r["count"] > c or not r["hasMore"]) and r, 20,
                   what=f"the page after {s['count']} rows")
    scroll(page, {"name": "scrollToEdge", "edge": "top"})
    return frame_state(page)["count"]


def flick_stretch(page, x: float, y: float, dy: float, flicks: int = FLICKS) -> None:
    """`flicks` flicks, each caught by the next (or by what comes after the stretch) once its fling went
    CAUGHT_AFTER px or stopped at an end."""
    for _ in range(flicks):
        start = frame_state(page)["y"]
        touch_drag(page, (x, y), dy, steps=4, interval=0.008)
        wait_until(page, lambda p, s=start: (f := frame_state(p))["phase"] == "idle" or abs(f["y"] - s) > CAUGHT_AFTER,
                   10, what="the fling under way")


def scroll(page, message: dict) -> None:
    """An animated scroll command (mid-fling: it takes over from the fling), to its end: a frame that moves or one
    at another offset (from a list at rest, that is the command applied: until then the frame at rest is the one
    before it; a page that reads its socket late may get only the scroll's last frame, the server keeping the newest
    for it), then the list at rest. Every command here moves the list."""
    page.evaluate("""(m) => { const k = window.refreshkit, from = k.frame.offset.y; window.__moved = false;
        const stop = k.on('frame', (f) => {
          if (f.phase !== 'idle' || Math.abs(f.offset.y - from) > 0.5) { window.__moved = true; stop(); }
        });
        k.send(m); }""", {"type": "command", "animated": True, **message})
    wait_until(page, lambda p: p.evaluate("() => window.__moved") and at_rest(p), 30,
               what=f"the animated {message['name']} to end")


@pytest.mark.timeout(180)
def test_flicks_through_ten_thousand_rows_draw_them_without_gaps_or_overlaps(browser, long_feed):
    context, page = open_page(browser, long_feed, PHONE_2X)
    try:
        wait_until(page, lambda p: p.evaluate("() => window.refreshkit.rows().length > 0"), 15, what="rows drawn")
        assert load_everything(page) == ROWS
        page.evaluate(SAMPLE_ROWS)
        x, y = canvas_point(page, 0.5, 0.85)
        flick_stretch(page, x, y, -600)
        for quarter in (1, 2, 3):
            target = page.evaluate("() => window.refreshkit.rowLayout().height") * quarter / 4
            scroll(page, {"name": "scrollBy", "amount": target - frame_state(page)["y"]})
            flick_stretch(page, x, y, -600)
        scroll(page, {"name": "scrollToEdge", "edge": "bottom"})
        flick_stretch(page, x, y, -600, flicks=2)  # against the end: the last rows bounce
        # The last rows come at the estimate and are measured once on screen: taller than it, they push the end
        # below the screen (the first visible row keeps still). Scrolled to the end again, they are there.
        # Each time from a list at rest: a fling that had just ended at the end left a command there nothing to move,
        # and the scroll's wait for a moving frame timed out (1 CI run). Nor does a list at rest at the end by its
        # frame always show the last row (1 CI run: at the end by the frame, the last row not drawn in 10 s), likely
        # because the heights the page measured in its last drawing reach the engine after it, and the frame that
        # takes them has a longer content. So from rest: the last row drawn ends it; at the end by the frame, the
        # content is waited for to grow (or the row to come); then the list is scrolled to the end again.
        last_drawn = f"() => window.__rowSamples.some((s) => s.rows.some((r) => r.index === {ROWS - 1}))"
        at_end = ("() => { const f = window.refreshkit.frame; "
                  "return f.offset.y >= f.contentSize.h + (f.insets.bottom || 0) - f.viewport.h - 0.5; }")
        for _ in range(5):
            wait_until(page, at_rest, 20, what="the list at rest by its end")
            if page.evaluate(at_end):
                # Neither within 10 s (1 fresh-clone run: the list at the end by its frame, the last row not drawn):
                # scrolled to the end again below; the wait after the loop still requires the last row drawn.
                try:
                    wait_until(page, lambda p: p.evaluate(last_drawn) or not p.evaluate(at_end), 10,
                               what="the last row drawn, or the content longer than the end the list rests at")
                except AssertionError:
                    pass
            if page.evaluate(last_drawn):
                break
            scroll(page, {"name": "scrollToEdge", "edge": "bottom"})
        wait_until(page, lambda p: p.evaluate(last_drawn), 10, what="a frame drawing the last row")
        flick_stretch(page, x, y, 600, flicks=2)   # and back up
        scroll(page, {"name": "scrollToEdge", "edge": "top"})
        # back at the top, the first rows drawn once their page is loaded back (a sampled frame shows row 0)
        first_drawn = "() => window.__rowSamples.some((s) => s.rows.some((r) => r.index === 0))"
        wait_until(page, lambda p: p.evaluate(first_drawn), 20, what="a frame drawing the first row again")
        samples = page.evaluate("() => { const s = window.__rowSamples; window.__rowSamples = null; return s; }")

        drawn = [r["index"] for s in samples for r in s["rows"]]
        assert min(drawn) == 0 and max(drawn) == ROWS - 1, (min(drawn), max(drawn))
        assert len(samples) > 200, len(samples)
        bad = []
        for n, s in enumerate(samples):
            # A frame with no row while the feed loads is the list waiting for a page it dropped (back at the top,
            # the first page comes back: 239 such frames on one loaded fresh-clone run); with none loading, a gap.
            if not s["rows"] and not s["loading"]:
                why = {k: s.get(k) for k in ("y", "content", "phase", "count", "layout", "mirrored")}
                bad.append(f"frame {n}: no row drawn {why}")
            bad += [f"frame {n}: {p}" for p in gaps_and_overlaps(s["rows"], s["h"], s["count"])]
        assert not bad, f"{len(bad)} problems in {len(samples)} frames: {bad[:10]}"
        sent = page.evaluate("() => window.refreshkit.rowLayout()")
        # the rows flown past were laid out, and the engine took the heights of those on screen (it forgets the
        # heights of the pages it drops, and the page with them)
        assert sent["laidOut"] > 200 and sent["accepted"] > 0, sent
        assert not page.errors, page.errors
        assert not page.evaluate("() => window.refreshkit.errors.length"), page.evaluate(
            "() => window.refreshkit.errors")
    finally:
        context.close()
