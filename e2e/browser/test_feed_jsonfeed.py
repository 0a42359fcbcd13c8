"""A JSON Feed behind the list, end to end in Chromium: the tests' local JSON Feed 1.1 server (e2e/jsonfeed/
feed_server.py: 10 000 quotations from Debian's fortunes, pages of 50 linked by `next_url`), the REAL server with
`--feed jsonfeed:URL`, and the real page. A touch pull refreshes (an item added at the source comes to the top), touch
flings reach the bottom and load older items (the source's next pages, in order, no item twice), and a source that
fails shows the failure and Retry brings the page in once it answers again. Every wait is for a state the page says
(`window.refreshkit.feed()`, the frame) or the feed server logs, never for a duration."""
from __future__ import annotations

import pytest

from browser_support import canvas_point, edge, frame, touch_drag, wait_until
from conftest import PHONE, open_page, start_server, stop_server
from jsonfeed.feed_server import JSONFeedServer  # e2e/ is on the path (conftest.py)

ITEMS = 10_000


@pytest.fixture(scope="module")
def jsonfeed():
    with JSONFeedServer(ITEMS) as feed:
        yield feed


@pytest.fixture(scope="module")
def feed_server(jsonfeed):
    srv = start_server("--feed", f"jsonfeed:{jsonfeed.url}", "--feed-poll-ms", "0")
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


def feed(page, limit: int = 10_000) -> dict:
    return page.evaluate("(n) => window.refreshkit.feed(n)", limit)


def loaded(page) -> dict | None:
    """The feed once the rows agree with the frame (the page applied every `rows` message the frames count)."""
    f = feed(page)
    count = page.evaluate("() => window.refreshkit.frame?.feed?.count ?? -1")
    return f if f["kind"] != "simulated" and f["count"] > 0 and f["count"] == count else None


def state(page, name: str) -> str | None:
    return (edge(frame(page), name) or {}).get("state")


def settled(page) -> bool:
    return frame(page)["phase"] == "idle" and state(page, "top") == "idle" and state(page, "bottom") in ("idle", None)


def expected_ids(jsonfeed: JSONFeedServer, count: int) -> list[str]:
    return [item["id"] for item in jsonfeed.items[:count]]


def in_place(jsonfeed: JSONFeedServer, f: dict) -> bool:
    """Every held row is the source's item of its place. The session holds a window of pages around its viewport
    (docs/LAYOUT.md, "The window, wired"): rows of dropped pages are placeholders (null) until scrolled back to."""
    expected = expected_ids(jsonfeed, f["count"])
    held = [(i, item["id"]) for i, item in enumerate(f["items"]) if item]
    return bool(held) and len(f["items"]) == len(expected) and all(expected[i] == id_ for i, id_ in held)


def test_refresh_and_load_more_through_a_json_feed(browser, feed_server, jsonfeed):
    context, page = open_page(browser, feed_server, PHONE)
    try:
        # the rows come before the report of the request that brought them (`feed_request`): both are waited for
        f = wait_until(page, lambda p: (g := loaded(p)) and g["requests"] and g, 20,
                       what="the JSON Feed's first page in the rows, and its request reported")
        assert f["kind"] == "jsonfeed" and f["source"] == f"jsonfeed:{jsonfeed.url}", f
        assert [item["id"] for item in f["items"]] == expected_ids(jsonfeed, f["count"])
        by_id = {item["id"]: item for item in jsonfeed.items}
        assert all(item["text"] == by_id[item["id"]]["content_text"] for item in f["items"])
        assert f["requests"][0]["kind"] == "refresh" and f["requests"][0]["error"] is None, f["requests"]

        # flings up with a real finger until the bottom loads older items, three times: the source's next pages
        for _ in range(3):
            before = feed(page, 0)["count"]

            def more(p, before=before):
                if (g := loaded(p)) and g["count"] > before and settled(p):
                    return g
                if settled(p):  # at rest short of the bottom: another fling
                    touch_drag(p, canvas_point(p, 0.5, 0.8), dy=-500, steps=6, interval=0.016)
                return None

            f = wait_until(page, more, 30, interval=0.1, what="a load-more at the bottom")
            assert in_place(jsonfeed, f), "older items in the source's order, none twice"
        assert any(r.page and r.page >= 2 for r in jsonfeed.requests), "the source's next_url pages were fetched"
        kinds = [r["kind"] for r in feed(page, 0)["requests"]]
        assert "older" in kinds, kinds
        # back at the top (the Home key), a pull with a real finger: the item the source gained comes to the top,
        # the rest stays. (After the load-mores: the feed pages by offset, so an item posted before them would push
        # the first page's last item into the second, which the engine refuses as an item sent again.)
        page.locator("#list").focus()
        page.keyboard.press("Home")
        wait_until(page, lambda p: frame(p)["offset"]["y"] <= 0 and settled(p), 10, what="the list at its top")
        posted = jsonfeed.post("A new quotation at the source, for the pull to bring in.", author="The test")
        seen = len(jsonfeed.requests)
        touch_drag(page, canvas_point(page, 0.5, 0.15), dy=350, steps=20, interval=0.016)
        jsonfeed.wait_for_request(lambda r: r.page == 1, after=seen)
        f = wait_until(page, lambda p: (g := loaded(p)) and g["items"][0]["id"] == posted["id"] and settled(p) and g,
                       15, what="the pulled refresh to put the new item on top")
        assert f["items"][0]["text"] == posted["content_text"]
        assert in_place(jsonfeed, f), "the new item on top, every held row the source's item of its place"

        assert page.errors == []
    finally:
        context.close()


def test_a_failing_source_shows_the_failure_and_retry_brings_the_page(browser, feed_server, jsonfeed):
    context, page = open_page(browser, feed_server, PHONE)
    try:
        wait_until(page, loaded, 20, what="the first page")
        jsonfeed.fail("error")
        banner = page.locator("#refresh-failure")
        touch_drag(page, canvas_point(page, 0.5, 0.15), dy=350, steps=20, interval=0.016)
        banner.wait_for(state="visible", timeout=15_000)
        # the failed edge is in the frame before the request's report (`feed_request`) arrives
        f = wait_until(page, lambda p: (g := feed(p, 0))["requests"] and g["requests"][0]["error"] and g, 10,
                       what="the failed request reported")
        assert f["requests"][0]["error"] and f["requests"][0]["error"]["code"] == "unavailable", f["requests"][0]
        # the page is told it could not be fetched, not the status (docs/FEEDS.md, "What is fetched, and what is
        # refused")
        assert "could not fetch" in f["requests"][0]["error"]["message"], f["requests"][0]

        jsonfeed.recover()
        posted = jsonfeed.post("Back again after the outage.")
        wait_until(page, settled, 10, what="the failed refresh to end")
        page.click("#refresh-retry")
        banner.wait_for(state="hidden", timeout=15_000)
        wait_until(page, lambda p: (g := loaded(p)) and g["items"][0]["id"] == posted["id"] and settled(p), 15,
                   what="Retry to bring the new page")
        wait_until(page, lambda p: feed(p, 0)["requests"][0]["error"] is None, 10,
                   what="Retry's request reported without an error")
        assert page.errors == []
    finally:
        context.close()
