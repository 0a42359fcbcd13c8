"""A local JSON Feed 1.1 (https://jsonfeed.org/version/1.1) server: the tests' and the bench's `jsonfeed:URL` source.

`JSONFeedServer(items=10_000)` serves, on an ephemeral loopback port, a feed of `items` quotations from Debian's
`fortunes` (corpus.py), newest first, in pages of `page_size` linked by `next_url`:

    GET /feed.json              the newest page (page 1)
    GET /feed.json?page=K       page K; `size=N` changes the page size; both are carried into `next_url`

Item n (ids "1" … "N", N the newest) is dated a minute before the server started for the newest, each older one 1 to
180 minutes before the one above it (seeded), in whole milliseconds, so times always agree with the order.

Failure modes, switched per request by the query (`?fail=MODE`, carried into `next_url`) or for the running server
by `fail(MODE, page=K)` (one page, or every page when `page` is None) until `recover()`:

    error          HTTP 500 with a short text body
    slow           the answer comes after `slow_s` seconds (default 7: past the source's 5 s limit), then normally
    malformed      the page's JSON cut in the middle (a valid content type)
    oversized      a valid page padded past `oversized_bytes` (default 9 MiB: past the source's 8 MiB limit)
    repeated_ids   page 1: its first item twice; page K > 1: starts with the first 3 items of page K-1 again (not
                   the items just before it, which an offset-paged feed repeats when items arrive on top)
    out_of_order   page 1: its items oldest first; page K > 1: its items dated after page 1's newest (each page
                   still newest first inside: the fault is across the boundary)
    wrong_type     a `text/html` sign-in page with status 200 (what a captive portal answers)

Images (`images_every=K`): every K-th item (ids divisible by K) has `image` `BASE/images/ID.png`, a PNG of one colour
whose size the id picks and JSON Feed does not say (images.py). `hold_images(ids)` holds them back (every one when
`ids` is None) until `release_images(ids)`; `fail_image(id, MODE)` answers one in a failure mode: error (HTTP 500),
slow (after `slow_s`), oversized (past `oversized_image_bytes`, default 5 MiB), wrong_type (text/html), lying_type
(`image/png` with HTML in it), hangup (the connection closed without an answer).

Every request is logged (`requests`), and `wait_for_request` waits for one that matches (bounded), so a test waits
for a state, never for a duration. `post(text)` puts a new item on top (as a feed that gains an item).

Run as a program for the bench: `python e2e/jsonfeed/feed_server.py --items 10000` prints
`jsonfeed listening on http://127.0.0.1:PORT/feed.json` and serves until SIGTERM or SIGINT.
"""
from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

if __package__ in (None, ""):  # run as a program: corpus.py sits beside this file
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import corpus  # type: ignore[no-redef]
else:
    from . import corpus
if __package__ in (None, ""):
    import images  # type: ignore[no-redef]
else:
    from . import images

MODES = ("error", "slow", "malformed", "oversized", "repeated_ids", "out_of_order", "wrong_type")
FEED_PATH = "/feed.json"
CONTENT_TYPE = "application/feed+json; charset=utf-8"  # JSON Feed 1.1, "Suggestions for publishers"
VERSION = "https://jsonfeed.org/version/1.1"
SEED = 28
REPEATED = 3


def rfc3339(millis: int) -> str:
    """`2026-11-24T21:59:00.123Z` for a time in ms since 1970."""
    moment = datetime.fromtimestamp(millis / 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis % 1000:03d}Z"


@dataclass
class LoggedRequest:
    """One request the server answered: its path and query, the page, the failure mode applied (or None), the
    status sent."""

    path: str
    query: dict[str, str]
    page: int | None
    mode: str | None
    status: int
    at: float = field(default_factory=time.monotonic)


class JSONFeedServer:
    """The feed, on `url` (`http://127.0.0.1:PORT/feed.json`) until `close()`; a context manager."""

    def __init__(self, items: int = 10_000, *, page_size: int = 50, seed: int = SEED, host: str = "127.0.0.1",
                 port: int = 0, slow_s: float = 7.0, oversized_bytes: int = 9 * 1024 * 1024,
                 newest_ms: int | None = None, images_every: int = 0, oversized_image_bytes: int = 5 * 1024 * 1024):
        if items < 0 or page_size < 1:
            raise ValueError("items must be ≥ 0 and page_size ≥ 1")
        self.page_size = page_size
        self.slow_s = slow_s
        self.oversized_bytes = oversized_bytes
        self.oversized_image_bytes = oversized_image_bytes
        self.images_every = images_every
        self.image_gate = images.ImageGate()
        self._lock = threading.Condition()
        self._closing = threading.Event()
        self._failures: dict[int | None, str] = {}
        self.requests: list[LoggedRequest] = []
        self.items = self._make_items(items, seed, newest_ms)
        self._http = ThreadingHTTPServer((host, port), _handler(self))
        self._http.daemon_threads = True
        self.port = self._http.server_address[1]
        self.base = f"http://{host}:{self.port}"
        self.url = self.base + FEED_PATH
        if images_every > 0:
            for item in self.items:
                if int(item["id"]) % images_every == 0:
                    item["image"] = self.image_url(item["id"])
        self._thread = threading.Thread(target=self._http.serve_forever, name="jsonfeed", daemon=True)
        self._thread.start()

    # MARK: - The items

    @staticmethod
    def _make_items(count: int, seed: int, newest_ms: int | None) -> list[dict]:
        entries = corpus.load()
        generator = random.Random(seed)
        order = list(range(len(entries)))
        generator.shuffle(order)
        moment = newest_ms if newest_ms is not None else int(time.time() * 1000) - 60_000
        items = []
        for index in range(count):  # newest first
            entry = entries[order[index % len(entries)]]
            item: dict = {"id": str(count - index), "content_text": entry.text, "date_published": rfc3339(moment),
                          "_ms": moment}
            if entry.author:
                item["authors"] = [{"name": entry.author}]
            items.append(item)
            moment -= generator.randint(60, 180 * 60) * 1000
        return items

    def post(self, text: str, author: str | None = None) -> dict:
        """Puts a new item on top, dated now (or a millisecond after the newest); returns it."""
        with self._lock:
            newest = self.items[0] if self.items else None
            moment = max(int(time.time() * 1000), (newest["_ms"] + 1) if newest else 0)
            item: dict = {"id": str(int(newest["id"]) + 1 if newest else 1), "content_text": text,
                          "date_published": rfc3339(moment), "_ms": moment}
            if author:
                item["authors"] = [{"name": author}]
            self.items.insert(0, item)
            return public(item)

    # MARK: - Images

    def image_url(self, item_id: str) -> str:
        return f"{self.base}{images.IMAGE_PREFIX}{item_id}.png"

    def hold_images(self, ids: list[str] | None = None) -> None:
        """Holds the images of `ids` (every image when None) back until `release_images`."""
        self.image_gate.hold(ids)

    def release_images(self, ids: list[str] | None = None) -> None:
        self.image_gate.release(ids)

    def fail_image(self, item_id: str, mode: str | None) -> None:
        """Answers item `item_id`'s image in `mode` (images.MODES) from now on; None: normally again."""
        if mode is not None and mode not in images.MODES:
            raise ValueError(f"unknown image failure mode {mode!r}; expected one of {', '.join(images.MODES)}")
        with self._lock:
            if mode is None:
                self.image_gate.modes.pop(item_id, None)
            else:
                self.image_gate.modes[item_id] = mode

    def answer_image(self, path: str) -> tuple[int, str, bytes, float, str | None]:
        """(status, content type, body, seconds to wait first, mode) for a GET of an image path."""
        name = path[len(images.IMAGE_PREFIX):]
        item_id = name.removesuffix(".png")
        if not name.endswith(".png") or not item_id.isdigit():
            self._log(LoggedRequest(path, {}, None, None, 404))
            return 404, "text/plain; charset=utf-8", b"not found\n", 0.0, None
        with self._lock:
            mode = self.image_gate.modes.get(item_id)
        status, kind, body = images.answer(item_id, mode, self.oversized_image_bytes)
        self._log(LoggedRequest(path, {}, None, mode, status))
        return status, kind, body, self.slow_s if mode == "slow" else 0.0, mode

    # MARK: - Failures

    def fail(self, mode: str, *, page: int | None = None) -> None:
        """From now on, answer page `page` (every page when None) in `mode` (one of MODES)."""
        if mode not in MODES:
            raise ValueError(f"unknown failure mode {mode!r}; expected one of {', '.join(MODES)}")
        with self._lock:
            self._failures[page] = mode

    def recover(self) -> None:
        """Answer every page normally again."""
        with self._lock:
            self._failures.clear()

    def _mode_for(self, page: int, query: dict[str, str]) -> str | None:
        if query.get("fail"):
            return query["fail"]
        with self._lock:
            return self._failures.get(page, self._failures.get(None))

    # MARK: - The request log

    def wait_for_request(self, predicate=lambda request: True, *, after: int = 0, timeout: float = 10.0
                         ) -> LoggedRequest:
        """The first logged request from index `after` on that `predicate` accepts; AssertionError after
        `timeout` seconds without one."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for request in self.requests[after:]:
                    if predicate(request):
                        return request
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching feed request within {timeout} s; saw {self.requests[after:]}")
                self._lock.wait(left)

    def _log(self, request: LoggedRequest) -> None:
        with self._lock:
            self.requests.append(request)
            self._lock.notify_all()

    # MARK: - Answers

    def answer(self, path: str, query: dict[str, str]) -> tuple[int, str, bytes, float]:
        """(status, content type, body, seconds to wait first) for a GET of `path?query`."""
        if path != FEED_PATH:
            self._log(LoggedRequest(path, query, None, None, 404))
            return 404, "text/plain; charset=utf-8", b"not found\n", 0.0
        try:
            page = int(query.get("page", "1"))
            size = int(query.get("size", str(self.page_size)))
            if page < 1 or size < 1:
                raise ValueError
        except ValueError:
            self._log(LoggedRequest(path, query, None, None, 400))
            return 400, "text/plain; charset=utf-8", b"page and size are positive integers\n", 0.0
        mode = self._mode_for(page, query)
        if mode is not None and mode not in MODES:
            self._log(LoggedRequest(path, query, page, None, 400))
            return 400, "text/plain; charset=utf-8", f"unknown failure mode {mode}\n".encode(), 0.0
        status, kind, body, delay = 200, CONTENT_TYPE, b"", 0.0
        if mode == "error":
            status, kind, body = 500, "text/plain; charset=utf-8", b"internal server error (failure mode: error)\n"
        elif mode == "wrong_type":
            kind = "text/html; charset=utf-8"
            body = b"<!doctype html><html><head><title>Sign in</title></head><body><form>Sign in to the network"
            body += b"</form></body></html>\n"
        else:
            document = self.document(page, size, query, mode)
            body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
            if mode == "malformed":
                body = body[: len(body) // 2]
            elif mode == "oversized":
                padding = max(0, self.oversized_bytes - len(body) + 1)
                document["_padding"] = "x" * padding  # an extension member (JSON Feed 1.1: names start with "_")
                body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
            elif mode == "slow":
                delay = float(query["delay_ms"]) / 1000 if "delay_ms" in query else self.slow_s
        self._log(LoggedRequest(path, query, page, mode, status))
        return status, kind, body, delay

    def document(self, page: int, size: int, query: dict[str, str], mode: str | None = None) -> dict:
        """Page `page` of `size` items as a JSON Feed document, altered by `mode` where it changes the items."""
        with self._lock:
            items = self.items
            start = (page - 1) * size
            chosen = [dict(item) for item in items[start:start + size]]
            has_next = start + size < len(items)
            newest_ms = items[0]["_ms"] if items else 0
            previous = [dict(item) for item in items[max(0, start - size):max(0, start - size) + REPEATED]]
        if mode == "repeated_ids":
            chosen = ([chosen[0]] + chosen) if page == 1 and chosen else previous + chosen[: size - len(previous)]
        elif mode == "out_of_order":
            if page == 1:
                chosen.reverse()
            else:
                for offset, item in enumerate(chosen):  # newer than page 1's top, still newest first
                    item["_ms"] = newest_ms + 1000 * (len(chosen) - offset)
                    item["date_published"] = rfc3339(item["_ms"])
        document: dict = {"version": VERSION, "title": "RefreshKit test feed (Debian fortunes)",
                          "home_page_url": self.base + "/", "feed_url": self.url,
                          "items": [public(item) for item in chosen]}
        if has_next:
            carried = {key: query[key] for key in ("size", "fail", "delay_ms") if key in query}
            document["next_url"] = self.url + "?" + urlencode({"page": page + 1, **carried})
        return document

    # MARK: - Life

    def close(self) -> None:
        self._closing.set()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=10)

    def __enter__(self) -> JSONFeedServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def public(item: dict) -> dict:
    """The item as the feed shows it (without the server's own `_ms`)."""
    return {key: value for key, value in item.items() if key != "_ms"}


def _handler(feed: JSONFeedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            parts = urlsplit(self.path)
            query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
            if parts.path.startswith(images.IMAGE_PREFIX):
                status, kind, body, delay, mode = feed.answer_image(parts.path)
                feed.image_gate.wait(parts.path[len(images.IMAGE_PREFIX):].removesuffix(".png"), feed._closing)
                if mode == "hangup":
                    self.close_connection = True
                    return
            else:
                status, kind, body, delay = feed.answer(parts.path, query)
            if delay and feed._closing.wait(delay):
                return
            try:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (its time limit)
                pass

        def log_message(self, format: str, *args) -> None:  # noqa: A002 (http.server's name)
            pass  # the request log is `feed.requests`

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--page-size", type=int, default=50)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fail", choices=MODES, help="answer every page in this failure mode")
    parser.add_argument("--images-every", type=int, default=0, help="every K-th item has an image")
    arguments = parser.parse_args()
    server = JSONFeedServer(arguments.items, page_size=arguments.page_size, port=arguments.port,
                            images_every=arguments.images_every)
    if arguments.fail:
        server.fail(arguments.fail)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print(f"jsonfeed listening on {server.url} ({len(server.items)} items, pages of {server.page_size})", flush=True)
    stop.wait()
    server.close()


if __name__ == "__main__":
    main()
