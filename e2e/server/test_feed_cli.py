"""`refreshkit post` and `refreshkit feed show` (docs/FEEDS.md): the SQLite source, a JSON Feed served over
real HTTP, and every error a person meets, each a clear message on stderr with exit 1."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import ROOT, server_binary


def refreshkit(*args: str) -> subprocess.CompletedProcess:
    binary = server_binary()
    if not binary.exists():
        pytest.fail(f"server binary {binary} not found", pytrace=False)
    return subprocess.run([str(binary), *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def ok(*args: str) -> dict:
    result = refreshkit(*args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def fails(*args: str) -> str:
    result = refreshkit(*args)
    assert result.returncode == 1, (result.returncode, result.stdout)
    assert result.stderr.startswith("error: "), result.stderr
    return result.stderr


def test_a_new_sqlite_feed_is_filled_from_the_fortunes_and_pages_by_cursor(tmp_path):
    feed = f"sqlite:{tmp_path / 'feed.db'}"
    first = ok("feed", "show", "--feed", feed, "--limit", "200")
    items = first["items"]
    assert len(items) == 200 and first["hasMore"]
    times = [item["timeMicros"] for item in items]
    assert times == sorted(times, reverse=True) and len(set(times)) == len(times)
    now_us = time.time() * 1e6
    assert now_us - 3_600e6 < times[0] < now_us, "the newest item is a minute old"
    lengths = [len(item["text"]) for item in items]
    assert min(lengths) < 60 and max(lengths) > 300, "short and long items"
    assert 20 < sum("author" in item for item in items) < 200, "some attributed, some not"

    second = ok("feed", "show", "--feed", feed, "--older", first["olderCursor"], "--limit", "5")
    assert second["items"][0]["timeMicros"] < times[-1]
    back = ok("feed", "show", "--feed", feed, "--newer", second["newerCursor"], "--limit", "3")
    assert [item["id"] for item in back["items"]] == [item["id"] for item in items[-3:]]


def test_a_post_goes_on_top_and_a_newer_request_brings_it_in(tmp_path):
    feed = f"sqlite:{tmp_path / 'feed.db'}"
    before = ok("feed", "show", "--feed", feed, "--limit", "3")
    posted = ok("post", "--feed", feed, "Hello from the test", "--author", "Ann")
    assert posted["text"] == "Hello from the test" and posted["author"] == "Ann"
    assert posted["timeMicros"] > before["items"][0]["timeMicros"]
    newer = ok("feed", "show", "--feed", feed, "--newer", before["newerCursor"])
    assert newer["items"] == [posted]
    assert ok("feed", "show", "--feed", feed, "--limit", "1")["items"] == [posted]


def test_sqlite_errors_are_clear(tmp_path):
    assert "does not exist" in fails("feed", "show", "--feed", f"sqlite:{tmp_path}/nowhere/feed.db")
    assert "does not exist" in fails("post", "--feed", f"sqlite:{tmp_path}/nowhere/feed.db", "hi")

    path = tmp_path / "feed.db"
    ok("post", "--feed", f"sqlite:{path}", "first")
    path.chmod(0o444)
    assert "is read-only" in fails("post", "--feed", f"sqlite:{path}", "second")
    assert ok("feed", "show", "--feed", f"sqlite:{path}", "--limit", "1")["items"][0]["text"] == "first"
    path.chmod(0o644)

    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        message = fails("feed", "show", "--feed", f"sqlite:{path}", "--timeout-ms", "200")
        assert "is locked by another program" in message
        assert "is locked by another program" in fails("post", "--feed", f"sqlite:{path}", "third")
    finally:
        holder.execute("COMMIT")
        holder.close()
    assert ok("post", "--feed", f"sqlite:{path}", "third")["text"] == "third"

    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"A" * 4096)
    assert "is not a SQLite database" in fails("feed", "show", "--feed", f"sqlite:{garbage}")
    assert "the text is empty" in fails("post", "--feed", f"sqlite:{path}", "   ")


@pytest.mark.parametrize("address,message", [
    ("rss:x", "names no known source"),
    ("sqlite:", "needs a file path"),
    ("jsonfeed:ftp://example.org/feed.json", "is not an http or https address"),
])
def test_bad_addresses_are_refused(address, message):
    assert message in fails("feed", "show", "--feed", address)


def test_only_a_sqlite_feed_takes_posts():
    assert "only a sqlite: feed takes posts" in fails("post", "--feed", "simulated", "hi")


def json_feed(count: int, prefix: str, next_url: str | None = None) -> bytes:
    start = datetime(2026, 11, 24, 12, tzinfo=timezone.utc)
    items = [{
        "id": f"{prefix}{index}",
        "content_html": f"<p>Item <b>{index}</b> &amp; more</p>",
        "date_published": (start - timedelta(minutes=index)).isoformat().replace("+00:00", "Z"),
        "authors": [{"name": f"Author {index % 5}"}],
    } for index in range(count)]
    feed = {"version": "https://jsonfeed.org/version/1.1", "title": "Test", "items": items}
    if next_url:
        feed["next_url"] = next_url
    return json.dumps(feed).encode()


class FeedServer:
    """A local HTTP server answering each path with fixed bytes (or slowly, or with a status)."""

    def __init__(self, routes: dict[str, bytes]):
        routes = dict(routes)

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                if self.path == "/slow.json":
                    time.sleep(3)  # the server being slow is what is tested, not a wait of the test's
                body = routes.get(self.path)
                try:
                    self.send_response(200 if body is not None else 404)
                    self.send_header("Content-Type", "application/feed+json")
                    self.send_header("Content-Length", str(len(body or b"")))
                    self.end_headers()
                    self.wfile.write(body or b"")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (its time or size limit): what the test wants

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def feed_server():
    server = FeedServer({
        "/feed.json": json_feed(10_000, "a-", next_url="/older.json"),
        "/older.json": json_feed(3, "b-"),
        "/slow.json": json_feed(3, "c-"),
        "/malformed.json": b'{"version": "https://jsonfeed.org/version/1.1", "items": {"id": "x"}}',
        "/repeated.json": json.dumps({"version": "https://jsonfeed.org/version/1.1", "items": [
            {"id": "same", "content_text": "one", "date_published": "2026-11-24T12:00:00Z"},
            {"id": "same", "content_text": "two", "date_published": "2026-11-24T11:00:00Z"}]}).encode(),
        "/unordered.json": json.dumps({"version": "https://jsonfeed.org/version/1.1", "items": [
            {"id": "old", "content_text": "one", "date_published": "2026-11-24T10:00:00Z"},
            {"id": "new", "content_text": "two", "date_published": "2026-11-24T11:00:00Z"}]}).encode(),
        "/huge.json": b" " * (9 << 20),
    })
    yield server
    server.close()


def test_a_json_feed_of_10000_items_pages_through_its_next_url(feed_server):
    feed = f"jsonfeed:{feed_server.url}/feed.json"
    page = ok("feed", "show", "--feed", feed, "--limit", "200")
    assert [item["id"] for item in page["items"][:2]] == ["a-0", "a-1"]
    assert page["items"][0]["text"] == "Item 0 & more"
    assert page["items"][0]["author"] == "Author 0"
    cursor = page["olderCursor"].replace(":200:", ":9998:")  # straight to the document's last two items
    last = ok("feed", "show", "--feed", feed, "--older", cursor, "--limit", "200")
    assert [item["id"] for item in last["items"]] == ["a-9998", "a-9999"]
    older = ok("feed", "show", "--feed", feed, "--older", last["olderCursor"])
    assert [item["id"] for item in older["items"]] == ["b-0", "b-1", "b-2"]
    assert not older["hasMore"]


@pytest.mark.parametrize("path,args,message", [
    ("/malformed.json", [], "\"items\" is missing or not an array"),
    ("/huge.json", [], "larger than the limit"),
    ("/slow.json", ["--timeout-ms", "300"], "did not answer within 300 ms"),
    ("/missing.json", [], "answered HTTP 404"),
])
def test_json_feed_failures_are_clear(feed_server, path, args, message):
    assert message in fails("feed", "show", "--feed", f"jsonfeed:{feed_server.url}{path}", *args)


@pytest.mark.parametrize("path,ids", [("/repeated.json", ["same", "same"]), ("/unordered.json", ["old", "new"])])
def test_a_json_feed_in_its_own_order_or_repeating_an_id_is_shown_as_it_comes(feed_server, path, ids):
    """docs/FEEDS.md, "Order and dates": the source hands the page on as the feed has it (the engine takes a
    repeated id once)."""
    shown = ok("feed", "show", "--feed", f"jsonfeed:{feed_server.url}{path}")
    assert [item["id"] for item in shown["items"]] == ids
