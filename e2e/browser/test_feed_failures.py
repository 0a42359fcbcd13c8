"""A feed source that fails, in Chromium: the REAL server reads a JSON Feed (`--feed jsonfeed:URL`, docs/FEEDS.md)
from a small HTTP server of the test's own that answers HTTP 500 when told to. A refresh that fails shows the
banner with the request's message ("could not fetch URL": a page is never told the status, docs/FEEDS.md "What is
fetched, and what is refused") and Retry; a load-more that fails shows it in the footer ("… — tap to
retry"); both come back once the source does, and the debug panel's log holds the failed requests. Every wait
is for a state the page says, never for a duration."""
from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from browser_support import wait_until
from conftest import PHONE, open_page, start_server, stop_server
from test_feed_new_items import feed, loaded

PAGE = 20  # the feed's default page size: the first document is exactly one page, so a load-more fetches the next


def document(first: int, count: int, next_url: str | None) -> bytes:
    now = datetime.now(timezone.utc)
    items = [{"id": str(i), "content_text": f"Entry {i} of the test's JSON Feed.", "authors": [{"name": "Tester"}],
              "date_published": (now - timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")}
             for i in range(first, first + count)]
    doc = {"version": "https://jsonfeed.org/version/1.1", "title": "test", "items": items}
    if next_url:
        doc["next_url"] = next_url
    return json.dumps(doc).encode()


class Source:
    """A JSON Feed over HTTP on loopback: /feed.json (one page) and /older.json; `failing` answers 500."""

    def __init__(self):
        self.failing = False
        source = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the standard library's name)
                docs = {"/feed.json": document(1, PAGE, "/older.json"), "/older.json": document(PAGE + 1, PAGE, None)}
                if source.failing or self.path not in docs:
                    self.send_response(500 if source.failing else 404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = docs[self.path]
                self.send_response(200)
                self.send_header("Content-Type", "application/feed+json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_port}/feed.json"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def failing_feed():
    source = Source()
    srv = start_server("--feed", f"jsonfeed:{source.url}", "--feed-poll-ms", "0")
    srv.source = source  # type: ignore[attr-defined]
    yield srv
    source.http.shutdown()
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


def edge_state(page, edge: str) -> str | None:
    return page.evaluate("(e) => window.refreshkit.frame?.edges?.find((x) => x.edge === e)?.state ?? null", edge)


def test_a_failing_source_says_its_message_with_retry_and_comes_back(browser, failing_feed):
    source = failing_feed.source
    context, page = open_page(browser, failing_feed, PHONE)
    try:
        f = wait_until(page, loaded, 15, what="the JSON Feed's first page")
        assert f["kind"] == "jsonfeed" and f["count"] == PAGE, f
        assert f["items"][0]["text"] == "Entry 1 of the test's JSON Feed."

        # a refresh that fails: the banner says the source's message, with Retry
        source.failing = True
        page.evaluate("() => window.refreshkit.send({type: 'command', name: 'refresh', edge: 'top'})")
        banner = page.locator("#refresh-failure")
        wait_until(page, lambda p: banner.is_visible() and "could not fetch" in banner.inner_text(), 10,
                   what="the refresh's failure with the request's message")
        assert "500" not in banner.inner_text(), banner.inner_text()
        text = banner.inner_text()
        assert text.startswith("Couldn't refresh: ") and "Retry" in text, text
        last = feed(page)["requests"][0]
        assert last["kind"] == "refresh" and last["error"]["code"] == "unavailable", last
        assert last["error"]["message"] in text

        # the refresh's edge ends its cycle and comes back to rest (a refresh asked while it runs is not a new one)
        wait_until(page, lambda p: edge_state(p, "top") == "idle", 10, what="the top edge at rest")
        source.failing = False
        page.locator("#refresh-retry").click()
        wait_until(page, lambda p: (r := feed(p)["requests"][0])["kind"] == "refresh" and r["error"] is None, 10,
                   what="the retried refresh to succeed")
        assert banner.is_hidden()

        # a load-more that fails: the footer says the message and offers Retry
        source.failing = True
        page.evaluate("() => window.refreshkit.send({type: 'command', name: 'loadMore', edge: 'bottom'})")
        wait_until(page, lambda p: edge_state(p, "bottom") == "failed", 10, what="the footer's failed state")
        older = wait_until(page, lambda p: (r := feed(p)["requests"][0])["kind"] == "older" and r, 10,
                           what="the failed load-more in the request log")
        assert older["error"]["code"] == "unavailable" and "older.json" in older["error"]["message"], older
        said = f"{older['error']['message']} — tap to retry"
        wait_until(page, lambda p: p.evaluate("() => window.refreshkit.indicatorTexts().bottom") == said, 5,
                   what=f"the footer to say {said!r}")

        source.failing = False
        page.evaluate("() => window.refreshkit.send({type: 'command', name: 'retry', edge: 'bottom'})")
        wait_until(page, lambda p: feed(p)["count"] == 2 * PAGE, 10, what="the older page after Retry")
        assert feed(page, 2 * PAGE)["items"][-1]["text"] == f"Entry {2 * PAGE} of the test's JSON Feed."
        assert page.errors == [], page.errors
    finally:
        context.close()
