"""Your place, kept (docs/PROTOCOL.md, "Your place, kept"), in Chromium: the REAL server on a SQLite feed whose sessions
end as soon as nobody is connected (`--session-grace 0`, as a phone locked past the grace period finds it). The page
keeps the reader's place at rest (the item at the list's top, how far into its row) and sends it in its hello; the
page reopened after its session expired starts a new session there, showing the same item within 1 px, without the
newest page first. Every wait is for a state the page or the frame says, never for a duration."""
from __future__ import annotations

import pytest

from browser_support import canvas_point, touch_drag, wait_until
from conftest import PHONE_2X, open_page, start_server, stop_server
from test_rows_anchor import first_visible, rows, settled


@pytest.fixture(scope="module")
def expiring_server(tmp_path_factory):
    path = tmp_path_factory.mktemp("feed") / "feed.sqlite"
    srv = start_server("--feed", f"sqlite:{path}", "--session-grace", "0")
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


def test_a_page_reopened_after_its_session_expired_shows_the_same_item(browser, expiring_server):
    context, page = open_page(browser, expiring_server, PHONE_2X)
    try:
        wait_until(page, settled, 20, what="the first page settled")
        # a reader far down the list: a jump to an item thousands of rows down, then a finger's drag
        top = int(page.evaluate("() => window.refreshkit.feed(1).items[0].id"))
        page.evaluate("(m) => window.refreshkit.send(m)",
                      {"type": "command", "name": "scrollToItem", "id": str(top - 3000), "animated": False})
        wait_until(page, lambda p: (s := settled(p)) and s["offset"]["y"] > 100_000 and s, 20, what="far down")
        touch_drag(page, canvas_point(page, 0.5, 0.6), dy=-150, steps=12, interval=0.03)
        wait_until(page, lambda p: (s := settled(p)) and s["offset"]["y"] > 100_000 and s, 20,
                   what="at rest after the drag")
        before = first_visible(page)
        kept = wait_until(page, lambda p: p.evaluate("() => sessionStorage.getItem('refreshkit.position')"), 10,
                          what="the place kept")
        assert f'"{before["id"]}"' in kept, (kept, before)
        old_session = page.evaluate("() => window.refreshkit.session")

        # the page goes away (its session ends with it, the grace being 0) and is opened again
        page.goto("about:blank")
        page.go_back()
        wait_until(page, lambda p: p.evaluate("() => window.refreshkit?.session") not in (None, old_session), 20,
                   what="a new session")
        wait_until(page, lambda p: (s := settled(p)) and s["offset"]["y"] > 100_000
                   and any(r["id"] == before["id"] for r in rows(p)) and s, 20, what="the item back on screen")
        after = next(r for r in rows(page) if r["id"] == before["id"])
        assert abs(after["y"] - before["y"]) <= 1, f"item {before['id']} at {after['y']:.2f}, was {before['y']:.2f}"
        # it asked for the page around the item, not the newest page
        kinds = [r["kind"] for r in page.evaluate("() => window.refreshkit.feed(1).requests")]
        assert kinds[0] == "around", kinds
        assert not page.errors, page.errors
    finally:
        context.close()
