"""`feed:URL` (docs/FEEDS.md, "feed:URL"): a feed on the web in any format, served to a list. The server reads each
document as `refreshkit feed read` reads it (RSS, Atom, JSON Feed: section 6), and the rows carry the entries in the
feed's own order with their titles and links. The documents are this repository's own fixtures
(Tests/RefreshFeedsTests/Fixtures/feeds), served over HTTP on loopback."""
from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import ROOT, run, send_json, server_binary, ws_connect
from feed_support import HELLO, is_loaded, is_type, until_all

FIXTURES = ROOT / "Tests" / "RefreshFeedsTests" / "Fixtures" / "feeds"


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:  # noqa: A002  (the standard library's name)
        pass


@pytest.fixture(scope="module")
def fixtures_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(FIXTURES)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def read_entries(url: str) -> list[dict]:
    """The entries as `refreshkit feed read --json` reads the document (a JSON line each, after the feed's)."""
    result = subprocess.run([str(server_binary()), "feed", "read", url, "--json"], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()[1:]]


@pytest.mark.parametrize("name", ["rss20.xml", "atom10.xml", "rss10.rdf", "jsonfeed11.json"])
def test_a_feed_of_any_format_reaches_the_list_in_its_order_with_titles_and_links(fixtures_url, fresh_server, name):
    url = f"{fixtures_url}/{name}"
    entries = read_entries(url)
    srv = fresh_server("--feed", f"feed:{url}", "--feed-poll-ms", "0")

    async def scenario():
        async with ws_connect(srv) as ws:
            await send_json(ws, HELLO)
            welcome, rows = await until_all(ws, is_type("welcome"), is_loaded, timeout=30)
            assert welcome["feed"]["kind"] == "feed" and welcome["feed"]["source"] == f"feed:{url}", welcome["feed"]
            return rows["items"]

    items = run(scenario, timeout=60)
    # the server said, at start, which format it found
    format_found = {"rss20.xml": "RSS 2.0", "atom10.xml": "Atom 1.0", "rss10.rdf": "RSS 1.0",
                    "jsonfeed11.json": "JSON Feed 1.1"}[name]
    assert any("feed opened" in line and f"format={format_found}" in line for line in srv.stderr), srv.stderr[-10:]
    shown = entries[:len(items)]
    assert [item["id"] for item in items] == [entry["id"] for entry in shown]
    assert [item.get("title") for item in items] == [entry["title"] for entry in shown]
    assert [item.get("url") for item in items] == [entry["link"] for entry in shown]
    assert any(item.get("title") for item in items) and any(item.get("url") for item in items)


def test_a_page_that_is_no_feed_fails_the_request_saying_so(fixtures_url, fresh_server):
    srv = fresh_server("--feed", f"feed:{fixtures_url}/not-a-feed.html", "--feed-poll-ms", "0")

    async def scenario():
        async with ws_connect(srv) as ws:
            await send_json(ws, HELLO)
            _, failed = await until_all(
                ws, is_type("welcome"), lambda m: m["type"] == "feed_request" and m["error"] is not None, timeout=30)
            return failed["error"]

    error = run(scenario, timeout=60)
    assert error["code"] == "malformed" and "not a feed" in error["message"], error


class _CountingFeed(SimpleHTTPRequestHandler):
    """Serves the RSS 2.0 fixture with an ETag and a Cache-Control of the test's choice, answers a matching
    If-None-Match with 304, and counts every request (`server.requests`: (method, path, If-None-Match))."""

    def log_message(self, format, *args) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802  (the standard library's name)
        self.server.requests.append((self.path, self.headers.get("If-None-Match")))  # type: ignore[attr-defined]
        etag = '"rss20-v1"'
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        body = (FIXTURES / "rss20.xml").read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("ETag", etag)
        if self.server.cache_control:  # type: ignore[attr-defined]
            self.send_header("Cache-Control", self.server.cache_control)  # type: ignore[attr-defined]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextlib.contextmanager
def counted_feed(fresh_server, cache_control: str | None):
    """A counting origin (its Cache-Control the test's) and a server reading it: yields (origin, server)."""
    origin = ThreadingHTTPServer(("127.0.0.1", 0), _CountingFeed)
    origin.requests = []  # type: ignore[attr-defined]
    origin.cache_control = cache_control  # type: ignore[attr-defined]
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    try:
        url = f"feed:http://127.0.0.1:{origin.server_address[1]}/rss.xml"
        yield origin, fresh_server("--feed", url, "--feed-poll-ms", "0")
    finally:
        origin.shutdown()
        origin.server_close()


async def open_reader(srv) -> None:
    async with ws_connect(srv) as ws:
        await send_json(ws, HELLO)
        await until_all(ws, is_type("welcome"), is_loaded, timeout=30)


SESSIONS = 100


async def readers(srv, count: int) -> None:
    """`count` sessions, 20 at a time, each until its first rows."""
    gate = asyncio.Semaphore(20)

    async def one() -> None:
        async with gate:
            await open_reader(srv)
    await asyncio.gather(*(one() for _ in range(count)))


def test_a_hundred_readers_within_max_age_are_one_fetch(fresh_server):
    """docs/FEEDS.md, "What is fetched when": every session of the server reads the same fetch."""
    with counted_feed(fresh_server, "public, max-age=60") as (feed, srv):
        run(lambda: readers(srv, SESSIONS), timeout=120)
        # (the first document's next link, ?page=2, is asked for once too, as a footer loads more)
        assert [path for path, _ in feed.requests].count("/rss.xml") == 1, feed.requests


def test_a_hundred_readers_without_max_age_revalidate_and_get_304s(fresh_server):
    """Without freshness every first load asks again, conditionally: one whole answer, and 304s after it."""
    with counted_feed(fresh_server, None) as (feed, srv):
        run(lambda: readers(srv, SESSIONS), timeout=120)
        first = [etag for path, etag in feed.requests if path == "/rss.xml"]
        # one at start (the server says what it serves), then at most one per session's first load
        assert first[0] is None and len(first) <= SESSIONS + 1, feed.requests
        # the ones that came after the first answer carried its ETag (a few asked at once, before it arrived)
        assert first.count('"rss20-v1"') >= len(first) - 2, first


def test_without_max_age_a_refresh_asks_again_with_the_etag_and_a_304_keeps_the_rows(fresh_server):
    with counted_feed(fresh_server, None) as (feed, srv):

        async def scenario():
            async with ws_connect(srv) as ws:
                await send_json(ws, HELLO)
                _, _, first = await until_all(ws, is_type("welcome"), is_loaded, is_type("feed_request"), timeout=30)
                await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
                [refreshed] = await until_all(
                    ws, lambda m: m["type"] == "feed_request" and m["kind"] == "refresh" and m["id"] > first["id"],
                    timeout=30)
                return refreshed
        refreshed = run(scenario, timeout=60)
        assert refreshed["error"] is None, refreshed
        # the first fetch (at start, when the server says what it serves) is whole; every later one conditional
        first = [etag for path, etag in feed.requests if path == "/rss.xml"]
        assert first[0] is None and len(first) >= 2 and set(first[1:]) == {'"rss20-v1"'}, feed.requests
