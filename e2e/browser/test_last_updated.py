"""The classic header (the `ht` and `ms` presets' arrow and label) says when the list was last refreshed, as
EGOTableViewPullRefresh and MJRefresh's headers do; nothing before the first refresh."""
from __future__ import annotations

import re

from browser_support import canvas_point, configure_feed, edge, frame, save_screenshot, top_id, touch_drag, wait_until
from conftest import PHONE, open_page


def test_the_header_says_when_the_list_was_last_refreshed(browser, server):
    context, page = open_page(browser, server, PHONE, "?preset=ht")
    try:
        assert page.evaluate("() => window.refreshkit.lastUpdatedText()") is None
        configure_feed(page, latencyMs=200)
        newest = top_id(page)
        touch_drag(page, canvas_point(page, 0.5, 0.15), dy=350, steps=20, interval=0.016)
        wait_until(page, lambda p: top_id(p) > newest, 10, what="the refresh to bring rows")
        text = page.evaluate("() => window.refreshkit.lastUpdatedText()")
        assert re.fullmatch(r"Last updated: \d\d:\d\d", text or ""), text
        # a pull shows it under the label: once the refresh has finished and the list rests (a pull while the
        # header still finishes is not a pull: the test raced the exit animation and failed 1 run in 3-6)
        wait_until(page, lambda p: frame(p)["phase"] == "idle"
                   and (edge(frame(p), "top") or {}).get("state") in (None, "idle"), 10,
                   what="the refresh to finish and the list to rest")
        finger = touch_drag(page, canvas_point(page, 0.5, 0.15), dy=250, steps=12, release=False)
        wait_until(page, lambda p: (edge(frame(p), "top") or {}).get("state") in ("pulling", "armed"), 5,
                   what="pulling")
        save_screenshot(page, "last-updated-ht.png")
        finger.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert page.errors == []
    finally:
        context.close()
