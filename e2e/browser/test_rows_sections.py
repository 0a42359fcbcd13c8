"""Section headers in Chromium (docs/LAYOUT.md, "Section headers"): the REAL server on a new SQLite feed, whose items
are each in the section of their day. A section's first row draws the section's name in a band at its top; the header
of the section at the list's top is drawn pinned there, below the top inset, and the next section's first row pushes
it up and away. The page draws the header where the frame's `pinned` says (within 1 px once at rest), at every
position it goes through: pushed by a `scrollBy`, and after a finger's drag. For screen readers, a section's first
article starts with the section's name as a heading (`h2`; the items' titles are `h3`).

Every wait is for a state the page or the frame says, never for a duration."""
from __future__ import annotations

from browser_support import canvas_point, touch_drag, wait_until
from test_rows_anchor import layout, open_loaded, rows, settled


def pinned_drawn(page) -> dict | None:
    return page.evaluate("() => window.refreshkit.pinned()")


def items(page) -> list[dict]:
    return page.evaluate("() => window.refreshkit.feed(1000).items")


def boundary(page) -> int:
    """The index of the first row whose section is not the first row's."""
    sections = [item.get("section") for item in items(page)]
    assert sections[0], f"the first item has no section: {items(page)[:1]}"
    return next(i for i, s in enumerate(sections) if s != sections[0])


def scroll_by(page, amount: float) -> None:
    page.evaluate("(a) => window.refreshkit.send({type: 'command', name: 'scrollBy', amount: a, animated: false})",
                  amount)


def at_rest_after(page, before: float) -> dict:
    return wait_until(page, lambda p: (s := settled(p)) and s["offset"]["y"] != before and s, 15,
                      what="the list at rest at its new offset")


def expect_drawn_as_the_frame_says(page, frame: dict) -> None:
    drawn = pinned_drawn(page)
    assert frame.get("pinned") and drawn, (frame.get("pinned"), drawn)
    assert drawn["section"] == frame["pinned"]["section"], (drawn, frame["pinned"])
    assert abs(drawn["y"] - frame["pinned"]["y"]) <= 1, (drawn, frame["pinned"])


def test_the_header_at_the_top_is_pinned_and_pushed_away_by_the_next_section(browser, feed_server):
    context, page = open_loaded(browser, feed_server)
    try:
        f = wait_until(page, settled, 15, what="the rows settled")
        band = f and page.evaluate("() => window.refreshkit.rowContent(0).band")
        assert band == 28, band
        first = items(page)[0]["section"]
        assert f["pinned"] == {"section": first, "y": f["insets"]["top"]}, f.get("pinned")
        expect_drawn_as_the_frame_says(page, f)

        # the next section's first row 10 px below the list's top: "first" is pushed 18 px up
        k = boundary(page)
        for _ in range(3):  # measurements on the way may move the row: aim again from where it is drawn
            row = next((r for r in rows(page) if r["index"] == k), None)
            screen = row["y"] if row else page.evaluate("(k) => window.refreshkit.rowTop(k)", k) - f["offset"]["y"]
            if row and 5 <= row["y"] - f["insets"]["top"] <= 20:
                break
            scroll_by(page, screen - f["insets"]["top"] - 10)
            f = at_rest_after(page, f["offset"]["y"])
        row = next(r for r in rows(page) if r["index"] == k)
        gap = row["y"] - f["insets"]["top"]
        assert 5 <= gap <= 20, f"row {k} at {row['y']}"
        assert f["pinned"]["section"] == first, f["pinned"]
        assert abs(f["pinned"]["y"] - (row["y"] - band)) <= 1, (f["pinned"], row)
        expect_drawn_as_the_frame_says(page, f)
        # drawn on its own row too: its band holds the next section's name
        assert page.evaluate("(k) => window.refreshkit.rowContent(k).band", k) == band

        # past it: the next section's header at the top
        scroll_by(page, gap + 5)
        f = at_rest_after(page, f["offset"]["y"])
        second = items(page)[k]["section"]
        assert f["pinned"] == {"section": second, "y": f["insets"]["top"]}, f["pinned"]
        expect_drawn_as_the_frame_says(page, f)

        # the screen reader's feed: the section's first article starts with its name as a heading
        headings = page.evaluate("() => [...document.querySelectorAll('article.feed-row h2:not([hidden])')]"
                                 ".map((h) => ({text: h.textContent,"
                                 " index: Number(h.closest('article').dataset.index)}))")
        assert {"text": second, "index": k} in headings, headings
        assert page.evaluate("() => document.querySelectorAll('article.feed-row h3').length") > 0

        # a finger drags the list back down a little way: at rest again, drawn where the frame says
        before = f["offset"]["y"]
        touch_drag(page, canvas_point(page, 0.5, 0.4), dy=120, steps=12, interval=0.03)
        f = wait_until(page, lambda p: (s := settled(p)) and s["offset"]["y"] < before - 20 and s, 15,
                       what="the list at rest after the drag")
        expect_drawn_as_the_frame_says(page, f)
        assert layout(page)["awaiting"] == 0
        assert not page.errors, page.errors
    finally:
        context.close()
