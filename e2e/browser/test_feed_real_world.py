"""Feeds as they come, in Chromium (docs/FEEDS.md): the REAL server on `--feed feed:URL`, the
URL a feed the test serves on loopback, and the real page drawing and mirroring the rows.

- jsonfeed.org's own feed, saved in the tests (e2e/browser/fixtures/jsonfeed-org/feed.json: its title, its two posts'
  titles, links and dates, bodies of the tests' own) and served by a `SimpleHTTPRequestHandler`: both posts' titles
  are drawn as their rows' titles (`rowContent(i).heading`), in the feed's order, and the mirror's articles are named
  by them, their headings links to the posts.
- A paged feed whose neighbours are out of time order (e2e/jsonfeed/feed_server.py in its `out_of_order` mode: page 1
  oldest first, every later page dated after page 1's newest): scrolled down with real touch flings on a phone, the
  list loads page after page to 400 rows and more; no feed request fails, no failure is shown, and every row the
  page held on the way is the feed's item of its place (the feed's own order, page by page, none twice).

Every wait is for a state the page says (`window.refreshkit`), never for a duration."""
from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from browser_support import canvas_point, edge, frame, touch_drag, wait_until
from conftest import PHONE, open_page, start_server, stop_server
from jsonfeed.feed_server import JSONFeedServer  # e2e/ is on the path (conftest.py)

JSONFEED_ORG = Path(__file__).parent / "fixtures" / "jsonfeed-org"
POSTS = [  # jsonfeed.org's feed, newest first as it lists them
    ("JSON Feed version 1.1", "https://www.jsonfeed.org/2020/08/07/json-feed-version.html"),
    ("Announcing JSON Feed", "https://www.jsonfeed.org/2017/05/17/announcing-json-feed.html"),
]

ROWS = 400  # the rows the paged feed is scrolled to
ITEMS = 1_000  # the paged feed's items: pages enough past ROWS
PAGE_SIZE = 40  # as the feed of Debian changelogs
FLICK_AGAIN = 1000  # px/s: a fling slower than this is flicked on


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:  # noqa: A002  (the standard library's name)
        pass


@pytest.fixture
def jsonfeed_org_url():
    """jsonfeed.org's feed as saved in the tests, at `http://127.0.0.1:PORT/feed.json`."""
    http = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(JSONFEED_ORG)))
    http.daemon_threads = True
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{http.server_address[1]}/feed.json"
    http.shutdown()
    http.server_close()
    thread.join(10)


def serve(url: str):
    """`refreshkit serve --feed feed:URL` without polling (nothing new comes), for one test; stopped after it."""
    srv = start_server("--feed", f"feed:{url}", "--feed-poll-ms", "0")
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


@pytest.fixture
def jsonfeed_org_server(jsonfeed_org_url):
    yield from serve(jsonfeed_org_url)


def feed(page, limit: int = 10_000) -> dict:
    return page.evaluate("(n) => window.refreshkit.feed(n)", limit)


def loaded(page) -> dict | None:
    """The feed once the page holds every row the frame counts (it applied each `rows` message), else None."""
    f = feed(page)
    count = page.evaluate("() => window.refreshkit.frame?.feed?.count ?? -1")
    return f if f["kind"] == "feed" and f["count"] > 0 and f["count"] == count else None


def heading(page, index: int) -> str | None:
    """Row `index`'s title as laid out to be drawn (its lines joined), None before it is laid out."""
    content = page.evaluate("(i) => window.refreshkit.rowContent(i)", index)
    return " ".join(content["heading"]) if content else None


def test_jsonfeed_orgs_feed_shows_both_titles(browser, jsonfeed_org_server, jsonfeed_org_url):
    context, page = open_page(browser, jsonfeed_org_server, PHONE)
    try:
        f = wait_until(page, loaded, 20, what="jsonfeed.org's feed in the rows")
        assert f["source"] == f"feed:{jsonfeed_org_url}", f
        assert [(item.get("title"), item.get("url")) for item in f["items"]] == POSTS, f["items"]
        # the request's report is a message of its own (`feed_request`), which may reach the page after the rows
        requests = wait_until(page, lambda p: feed(p)["requests"], 5, what="the feed's request reported")
        assert all(r["error"] is None for r in requests), requests

        # drawn: each row's title, in the feed's order, above its text (the body's HTML reduced to text)
        titles = [title for title, _ in POSTS]
        wait_until(page, lambda p: all(heading(p, i) is not None for i in range(len(POSTS))), 10,
                   what="both rows laid out")
        assert [heading(page, i) for i in range(len(POSTS))] == titles
        for i in range(len(POSTS)):
            content = page.evaluate("(i) => window.refreshkit.rowContent(i)", i)
            assert content["lines"] and content["headingY"] < content["textY"], content
            assert not any("<" in line for line in content["lines"]), content["lines"]
        drawn = {r["index"] for r in page.evaluate("() => window.refreshkit.rows()")}
        assert {0, 1} <= drawn, f"both rows on the canvas: {sorted(drawn)}"

        # the mirror: an article named by each title, its heading a link to the post
        for title, url in POSTS:
            article = page.get_by_role("article", name=title, exact=True)
            article.wait_for(state="attached")
            link = article.get_by_role("link", name=title, exact=True)
            assert link.get_attribute("href") == url
        assert page.errors == []
    finally:
        context.close()


# Every `feed_request` the server reports, and every failed feed event, from the page's connection on (the request
# log the hook keeps holds the last 20 only).
# The page's requests and failures as they come, and every row the page held at its index, read as each `rows`
# message is applied (a poll from the test misses rows that a fast fling drops again before it looks, on a busy
# machine): `held[i]` is the first id seen at row i, `changed` every later different one.
RECORD_FEED = """() => {
    if (window.__feedLog) return;
    const log = window.__feedLog = {requests: [], failed: [], held: {}, changed: []};
    window.refreshkit.on('feed_request', (m) => log.requests.push(m));
    window.refreshkit.on('event', (m) => {
        if ((m.kit ?? m.name) === 'feedFailed') log.failed.push(m);
    });
    const hold = () => window.refreshkit.feed(100000).items.forEach((item, i) => {
        if (!item || item.id == null) return;  // rows of pages dropped far above: placeholders until scrolled back to
        if (!(i in log.held)) log.held[i] = item.id;
        else if (log.held[i] !== item.id) log.changed.push([i, log.held[i], item.id]);
    });
    hold();
    window.refreshkit.on('rows', hold);
}"""


@pytest.fixture
def out_of_order_feed():
    with JSONFeedServer(ITEMS, page_size=PAGE_SIZE) as jsonfeed:
        jsonfeed.fail("out_of_order")  # every page: page 1 oldest first, later pages dated after its newest
        yield jsonfeed


@pytest.fixture
def out_of_order_server(out_of_order_feed):
    yield from serve(out_of_order_feed.url)


def feed_order(jsonfeed: JSONFeedServer, count: int) -> list[str]:
    """The ids as the feed server lists them, page by page (its `out_of_order` pages), the first `count`."""
    ids: list[str] = []
    for number in range(1, -(-count // jsonfeed.page_size) + 1):
        ids += [item["id"] for item in jsonfeed.document(number, jsonfeed.page_size, {}, "out_of_order")["items"]]
    return ids[:count]


def state(page, name: str) -> str | None:
    return (edge(frame(page), name) or {}).get("state")


def at_rest(page) -> bool:
    return (frame(page)["phase"] == "idle" and state(page, "top") == "idle"
            and state(page, "bottom") in ("idle", "noMoreData", None))


def slowing(page) -> bool:
    """Nothing loading or refreshing and the list still or slower than a reader's next flick would leave it (the
    last fling's long tail is not waited out: a reader flicks again)."""
    f = frame(page)
    return (f["phase"] in ("idle", "animating") and abs(f["velocity"]["y"]) < FLICK_AGAIN
            and all(e["state"] in ("idle", "noMoreData") for e in f["edges"]))


def test_a_paged_feed_out_of_time_order_scrolls_to_400_rows(browser, out_of_order_server, out_of_order_feed):
    jsonfeed = out_of_order_feed
    expected = feed_order(jsonfeed, ITEMS)
    # the feed as the test serves it: page 1 oldest first, page 2 newer than all of page 1
    page_one, page_two = (jsonfeed.document(n, PAGE_SIZE, {}, "out_of_order")["items"] for n in (1, 2))
    assert page_one[0]["date_published"] < page_one[-1]["date_published"] < page_two[-1]["date_published"]

    context, page = open_page(browser, out_of_order_server, PHONE)
    try:
        page.evaluate(RECORD_FEED)
        wait_until(page, loaded, 20, what="the feed's first page in the rows")

        def scrolled_far(p) -> dict | None:
            g = loaded(p)
            if g and g["count"] >= ROWS:
                return g
            if slowing(p):  # short of 400 rows, nothing loading, the last fling nearly spent: another one
                touch_drag(p, canvas_point(p, 0.5, 0.85), dy=-600, steps=6, interval=0.012)
            return None

        wait_until(page, scrolled_far, 40, interval=0.05, what=f"{ROWS} rows")
        # then at rest, every load-more answered and applied
        f = wait_until(page, lambda p: at_rest(p) and loaded(p), 15, what="the list at rest after the flings")

        # no request failed: the server's reports, the page's own log, the feed server's answers, nothing shown
        log = page.evaluate("() => window.__feedLog")
        pages_loaded = -(-f["count"] // PAGE_SIZE)
        assert [r.get("error") for r in log["requests"] if r.get("error")] == [], log["requests"]
        assert sum(1 for r in log["requests"] if r["kind"] == "older") >= pages_loaded - 1, log["requests"]
        assert log["failed"] == [], log["failed"]
        assert all(r["error"] is None for r in feed(page, 0)["requests"]), feed(page, 0)["requests"]
        assert page.locator("#refresh-failure").is_hidden()
        assert state(page, "bottom") != "failed", frame(page)["edges"]
        served = [r for r in jsonfeed.requests if r.page is not None]
        assert {r.page for r in served} >= set(range(1, pages_loaded + 1)), served
        assert all(r.status == 200 and r.mode == "out_of_order" for r in served), served

        # the rows in the feed's order, page by page, none twice: every row seen on the way is the feed's item there
        assert f["count"] >= ROWS
        assert log["changed"] == [], f"rows changed (index, first id, later id): {log['changed'][:5]}"
        seen = {int(i): row for i, row in log["held"].items()}
        assert sorted(seen) == list(range(f["count"])), f"rows never held: {set(range(f['count'])) - set(seen)}"
        assert [seen[i] for i in range(f["count"])] == expected[:f["count"]]
        assert page.errors == []
    finally:
        context.close()
