"""Fetches that stay outside (docs/FEEDS.md, "What is fetched, and what is refused"): a feed's author chooses
the addresses the server fetches (its items' images, its `next_url`, its redirects), so a hostile feed could make the
server a client of the services on its own machine and network. Here a feed served on 127.0.0.1 points each of them at
internal services that count every connection and every request and answer "secret internal text":

- one on 127.0.0.2 (loopback, another address than the feed's), reached as `127.0.0.2`, `2130706434` (the same
  address written as one number) and `[::ffff:127.0.0.2]` (mapped into IPv6);
- one on [::1] (IPv6 loopback), when this machine has it;
- one on 127.0.0.1 on another port than the feed's, reached as `localhost`, `127.0.0.1` and `0.0.0.0` ("this host",
  which a connect reaches as loopback): the feed's own address is allowed on the feed's own port only;
- and the same through a redirect from the feed's own server, which is allowed, to the services, which are not.

Each time: the services count no connection, no message a page gets holds "secret", the page gets a clear error (the
image endpoint's `source_failed`, the load-more's `unavailable`, both saying "could not fetch"), the operator's log
says what was refused and why, and the session goes on (a drag still gives frames, a refresh still answers). With
`--feed-allow-private` the same feed does reach the services (the positive control), and still no page sees their
bytes. Every wait is for a state (a message, an answer, a log line), never for a duration."""
from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from conftest import RunningServer, run, send_json, ws_connect
from feed_session import TIMEOUT_S, first_page, is_request, wait_for_log
from feed_support import is_type, until_all

SECRET = "secret internal text"
ITEMS = 20  # the engine's page size: the first page is the whole document, a load-more follows `next_url`


class _Quiet(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, format, *args) -> None:  # noqa: A002  (the standard library's name)
        pass


class _InternalHandler(_Quiet):
    def do_GET(self) -> None:  # noqa: N802  (the standard library's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        body = f"{SECRET}: {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class InternalService(ThreadingHTTPServer):
    """A service that must stay internal, on `host` (an ephemeral port): counts every connection it accepts
    (`connections`) and every request (`requests`), and answers each with SECRET."""

    daemon_threads = True

    def __init__(self, host: str):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.connections = 0
        self.requests: list[str] = []
        super().__init__((host, 0), _InternalHandler)
        self.port = self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def verify_request(self, request, client_address) -> bool:
        self.connections += 1
        return True

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class _FeedHandler(_Quiet):
    def do_GET(self) -> None:  # noqa: N802
        feed: HostileFeed = self.server.feed  # type: ignore[attr-defined]
        parts = urlsplit(self.path)
        if parts.path == "/moved":  # a redirect from the feed's own server, wherever the feed says
            self.send_response(302)
            self.send_header("Location", parse_qs(parts.query)["to"][0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if parts.path != "/feed.json":
            self.send_error(404)
            return
        body = json.dumps(feed.document()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/feed+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class HostileFeed:
    """A JSON Feed 1.1 on 127.0.0.1 whose items' images are `images` (one an item, in turn) and whose `next_url` is
    `next_url`: addresses of the feed's choosing."""

    def __init__(self):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _FeedHandler)
        self.httpd.daemon_threads = True
        self.httpd.feed = self  # type: ignore[attr-defined]
        self.port = self.httpd.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.origin}/feed.json"
        self.images: list[str] = []
        self.next_url: str | None = None
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def moved(self, to: str) -> str:
        """An address on the feed's own server that redirects to `to`."""
        return f"{self.origin}/moved?to={quote(to, safe='')}"

    def document(self) -> dict:
        newest = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(minutes=1)
        items = []
        for n in range(ITEMS):
            item = {"id": f"h{n}", "content_text": f"Item {n}",
                    "date_published": (newest - timedelta(minutes=n)).isoformat().replace("+00:00", "Z")}
            if self.images:
                item["image"] = self.images[n % len(self.images)]
            items.append(item)
        document = {"version": "https://jsonfeed.org/version/1.1", "title": "Hostile", "items": items}
        if self.next_url:
            document["next_url"] = self.next_url
        return document

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


class Targets:
    """The internal services and the addresses of them a feed may write."""

    def __init__(self):
        self.other = InternalService("127.0.0.2")
        self.v6 = InternalService("::1") if has_ipv6_loopback() else None
        self.same = InternalService("127.0.0.1")  # the feed's own address, another port
        self.services = [s for s in (self.other, self.v6, self.same) if s is not None]

    def addresses(self, path: str) -> dict[str, str]:
        """Every spelling of the services, by name: each is an address a feed may give."""
        found = {
            "127.0.0.2": f"http://127.0.0.2:{self.other.port}{path}",
            "one number": f"http://2130706434:{self.other.port}{path}",
            "mapped": f"http://[::ffff:127.0.0.2]:{self.other.port}{path}",
            "localhost": f"http://localhost:{self.same.port}{path}",
            "127.0.0.1 other port": f"http://127.0.0.1:{self.same.port}{path}",
            "0.0.0.0": f"http://0.0.0.0:{self.same.port}{path}",
        }
        if self.v6 is not None:
            found["::1"] = f"http://[::1]:{self.v6.port}{path}"
        return found

    def connections(self) -> int:
        return sum(service.connections for service in self.services)

    def requests(self) -> list[str]:
        return [path for service in self.services for path in service.requests]

    def stop(self) -> None:
        for service in self.services:
            service.stop()


@pytest.fixture
def targets() -> Iterator[Targets]:
    found = Targets()
    yield found
    found.stop()


@pytest.fixture
def feed() -> Iterator[HostileFeed]:
    served = HostileFeed()
    yield served
    served.stop()


def image(srv: RunningServer, url: str) -> tuple[int, dict]:
    """`GET /feed/image?u=url`: the status and the JSON error (an empty dict for an image)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    try:
        conn.request("GET", "/feed/image?u=" + quote(url, safe=""))
        response = conn.getresponse()
        body = response.read()
        assert SECRET.encode() not in body, body
        return response.status, (json.loads(body)["error"] if response.status != 200 else {})
    finally:
        conn.close()


class Page:
    """One page's WebSocket, every message it got kept as received (to look for SECRET in all of them)."""

    def __init__(self, ws):
        self.ws = ws
        self.raw: list[str] = []

    async def until(self, predicate, timeout: float = TIMEOUT_S) -> dict:
        async def loop() -> dict:
            while True:
                raw = await self.ws.recv()
                self.raw.append(raw)
                message = json.loads(raw)
                if predicate(message):
                    return message

        return await asyncio.wait_for(loop(), timeout)

    def saw_no_secret(self) -> None:
        leaked = [raw for raw in self.raw if "secret" in raw.lower()]
        assert not leaked, leaked[:3]


async def still_works(page: Page) -> None:
    """The session goes on: a drag begins and gives a frame; a refresh answers with items."""
    await send_json(page.ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1e6, "id": 1})
    await send_json(page.ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -30, "t": 1e6 + 16, "id": 1})
    await send_json(page.ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": 1e6 + 32, "id": 1})
    await page.until(lambda m: m["type"] == "event" and m["name"] == "gestureBegan" and m["cause"] == "drag")
    await page.until(is_type("frame"))
    await send_json(page.ws, {"type": "command", "name": "refresh", "edge": "top"})
    refreshed = await page.until(lambda m: is_request(m) and m["kind"] == "refresh")
    assert refreshed["error"] is None and refreshed["items"] > 0, refreshed


def serve(fresh_server, feed: HostileFeed, *extra: str) -> RunningServer:
    return fresh_server("--feed", f"jsonfeed:{feed.url}", "--feed-poll-ms", "0", "--log-level", "info", *extra)


def load_more(srv: RunningServer) -> tuple[dict, Page]:
    """A session's first page, then a load-more; the load-more's `feed_request` after the session was shown to
    go on."""
    async def scenario():
        async with ws_connect(srv) as ws:
            page = Page(ws)
            await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3})
            await page.until(lambda m: m["type"] == "rows" and m["count"] > 0)
            await send_json(ws, {"type": "command", "name": "loadMore", "edge": "bottom"})
            older = await page.until(lambda m: is_request(m) and m["kind"] == "older")
            await still_works(page)
            return older, page

    return run(scenario, timeout=60)


# MARK: - images


def test_images_the_feed_points_inside_are_refused_before_any_connection(fresh_server, feed, targets):
    addresses = targets.addresses("/image.png")
    addresses["redirected"] = feed.moved(addresses["127.0.0.2"])
    feed.images = list(addresses.values())
    srv = serve(fresh_server, feed)

    async def scenario():
        async with ws_connect(srv) as ws:
            _, rows = await first_page(ws)
            return {item["image"]["url"] for item in rows["items"] if item.get("image")}

    shown = run(scenario, timeout=60)
    assert shown == set(addresses.values()), "the page was given every image address (it asks for them)"
    for name, url in addresses.items():
        status, error = image(srv, url)
        assert status == 502 and error["code"] == "source_failed", (name, status, error)
        assert error["message"] == "could not fetch the image", (name, error)
    assert targets.connections() == 0 and targets.requests() == [], targets.requests()
    # the operator's log says what was refused, and why
    line = wait_for_log(srv, "refused to connect to 127.0.0.2")
    assert "code=source_failed" in line and "loopback" in line, line
    assert not srv.error_lines(), srv.error_lines()

    async def goes_on():
        async with ws_connect(srv) as ws:
            page = Page(ws)
            await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3})
            await page.until(lambda m: m["type"] == "rows" and m["count"] > 0)
            await still_works(page)
            page.saw_no_secret()

    run(goes_on, timeout=60)


def test_with_feed_allow_private_the_images_reach_the_service_and_its_bytes_still_reach_no_page(
        fresh_server, feed, targets):
    url = targets.addresses("/image.png")["127.0.0.2"]
    feed.images = [url]
    srv = serve(fresh_server, feed, "--feed-allow-private")

    async def scenario():
        async with ws_connect(srv) as ws:
            await first_page(ws)

    run(scenario, timeout=60)
    status, error = image(srv, url)
    # reached: the service answered its text, which is no image; the page is told so, without the text
    assert targets.other.requests == ["/image.png"], targets.other.requests
    assert status == 502 and error["code"] == "not_an_image", error
    assert error["message"] == "not a PNG, JPEG, GIF, WebP or AVIF image", error
    wait_for_log(srv, "Content-Type text/plain")


# MARK: - next_url, and redirects


def next_url_cases() -> list[str]:
    names = ["127.0.0.2", "one number", "mapped", "localhost", "127.0.0.1 other port", "0.0.0.0", "redirected"]
    return names + (["::1"] if has_ipv6_loopback() else [])


@pytest.mark.parametrize("name", next_url_cases())
def test_a_next_url_that_points_inside_is_refused_and_the_session_goes_on(fresh_server, feed, targets, name):
    addresses = targets.addresses("/feed.json")
    addresses["redirected"] = feed.moved(addresses["127.0.0.2"])
    feed.next_url = addresses[name]
    srv = serve(fresh_server, feed)
    older, page = load_more(srv)
    assert older["error"] is not None and older["error"]["code"] == "unavailable", older
    assert older["error"]["message"] == f"The feed is unavailable: could not fetch {feed.next_url}.", older
    page.saw_no_secret()
    assert targets.connections() == 0 and targets.requests() == [], targets.requests()
    line = wait_for_log(srv, "feed fetch failed")
    assert "refused to connect to" in line and line.split(" ", 2)[1] == "notice", line
    assert not srv.error_lines(), srv.error_lines()


def test_one_reason_whether_the_address_is_refused_or_the_feed_answers_an_error(fresh_server, feed, targets):
    # A next_url on the feed's own server answered 404, and one refused by address: to the page the same words,
    # so an author cannot tell a closed port from a refused address from an HTTP status.
    messages = {}
    for name, url in (("refused", targets.addresses("/feed.json")["127.0.0.2"]), ("404", f"{feed.origin}/none")):
        feed.next_url = url
        srv = serve(fresh_server, feed)
        older, page = load_more(srv)
        page.saw_no_secret()
        messages[name] = older["error"]["message"].replace(url, "URL")
        srv.kill()
    assert messages["refused"] == messages["404"] == "The feed is unavailable: could not fetch URL.", messages
    assert targets.connections() == 0


def test_the_operators_feed_named_localhost_is_allowed_as_written(fresh_server, feed):
    # `--feed jsonfeed:http://localhost:PORT/feed.json`: the host as written, on its port, is reached (the addresses
    # `localhost` names), as is every address on the internet; nothing else inside.
    srv = fresh_server("--feed", f"jsonfeed:http://localhost:{feed.port}/feed.json", "--feed-poll-ms", "0")

    async def scenario():
        async with ws_connect(srv) as ws:
            await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3})
            _, rows = await until_all(ws, is_type("welcome"), lambda m: m["type"] == "rows" and m["count"] > 0,
                                      timeout=TIMEOUT_S)
            return rows

    assert run(scenario, timeout=60)["count"] == ITEMS


def test_with_feed_allow_private_a_next_url_inside_is_fetched_and_its_body_still_reaches_no_page(
        fresh_server, feed, targets):
    feed.next_url = targets.addresses("/feed.json")["127.0.0.2"]
    srv = serve(fresh_server, feed, "--feed-allow-private")
    older, page = load_more(srv)
    assert targets.other.requests == ["/feed.json"], "reached: the operator allowed it"
    # its text is no feed: the page is told that much, without the text; the log keeps what the body was
    assert older["error"]["code"] == "malformed", older
    assert older["error"]["message"] == (
        f"The feed's answer is malformed: {feed.next_url} is not a feed this server can read."), older
    page.saw_no_secret()
    wait_for_log(srv, "feed fetch failed")
