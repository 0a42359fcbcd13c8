"""Every way a feed source fails, over a real WebSocket against the real server (docs/FEEDS.md, docs/PROTOCOL.md):
a JSON Feed that answers HTTP 500, answers too late, sends malformed or oversized JSON, repeats ids or answers out of
order (the tests' local server, e2e/jsonfeed/feed_server.py, switched into each failure), and a SQLite file that is
missing, read-only or locked when a request comes. Each time: a `feed_request` with a clear error, the edge's failed
state, the cause in the server's log, Retry works once the source has recovered, and the session keeps working.
Every wait is for a state (a message, a log line), never for a duration."""
from __future__ import annotations

import asyncio
import http.client
import json
import sqlite3

import pytest

from conftest import RunningServer, recv_until, run, send_json, ws_connect
from feed_session import TIMEOUT_S, answer, first_page, wait_for_log
from feed_support import requires_feeds
from jsonfeed.feed_server import JSONFeedServer  # e2e/ is on the path (conftest.py)

pytestmark = requires_feeds


@pytest.fixture(scope="module")
def jsonfeed():
    # documents of 20 items, the engine's page size: every load-more past the first page fetches a document
    with JSONFeedServer(2_000, page_size=20) as feed:
        yield feed


@pytest.fixture(scope="module")
def server(jsonfeed):
    srv = RunningServer("--feed", f"jsonfeed:{jsonfeed.url}", "--feed-poll-ms", "0", "--log-level", "info")
    yield srv
    assert srv.terminate() == 0, srv.output()


@pytest.fixture(autouse=True)
def healthy(jsonfeed):
    jsonfeed.recover()
    yield
    jsonfeed.recover()


async def fail_then_retry(ws, edge: str, command: str, code: str, words: str, srv, recover) -> dict:
    """Sends `command` on `edge`; expects a `feed_request` failing with `code` (its message holding `words`), the
    edge's failed transition and the cause in the log; recovers the source; Retry must bring a page."""
    await send_json(ws, {"type": "command", "name": command, "edge": edge})
    failed, seen = await answer(ws)
    while failed["error"] is None:  # an answer still on its way from before (none is expected, but be exact)
        failed, more = await answer(ws)
        seen += more
    assert failed["error"]["code"] == code, failed
    assert words in failed["error"]["message"], failed
    assert failed["kind"] == ("refresh" if edge == "top" else "older"), failed
    transition, _ = await recv_until(ws, lambda m: m["type"] == "event" and m["name"] == "transition"
                                     and m["edge"] == edge and m.get("cause") == "feedFailed", timeout=TIMEOUT_S)
    await asyncio.to_thread(wait_for_log, srv, failed["error"]["message"])
    # the session keeps working: a drag still moves the list
    await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1e6})
    await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -30, "t": 1e6 + 16})
    await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": 1e6 + 32})
    await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] != "idle", timeout=TIMEOUT_S)
    recover()
    await send_json(ws, {"type": "command", "name": "retry", "edge": edge})
    ok, seen = await answer(ws)
    assert ok["error"] is None and ok["items"], ok
    return transition


REFRESH_FAILURES = [
    # mode, error code, words of its message
    ("error", "unavailable", "HTTP 500"),
    ("malformed", "malformed", "malformed"),
    ("oversized", "oversized", "limit"),
    ("wrong_type", "malformed", "malformed"),
    ("repeated_ids", "repeated_ids", "repeated the item id"),
    ("out_of_order", "out_of_order", "out of order"),
]


@pytest.mark.parametrize("mode,code,words", REFRESH_FAILURES, ids=[case[0] for case in REFRESH_FAILURES])
def test_a_refresh_the_source_fails(server, jsonfeed, mode, code, words):
    async def scenario():
        async with ws_connect(server) as ws:
            await first_page(ws)
            jsonfeed.fail(mode)
            await fail_then_retry(ws, "top", "refresh", code, words, server, jsonfeed.recover)
    run(scenario, timeout=60)


def test_a_refresh_the_source_does_not_answer_in_time(server, jsonfeed):
    async def scenario():
        async with ws_connect(server) as ws:
            await first_page(ws)
            jsonfeed.fail("slow")  # 7 s: past the source's 5 s limit
            await fail_then_retry(ws, "top", "refresh", "timed_out", "did not answer within", server,
                                  jsonfeed.recover)
    run(scenario, timeout=60)


LOAD_MORE_FAILURES = [
    # mode on the second document; error code; words. The page is right in itself: the engine finds the fault
    # against the items loaded (an id it has, an item newer than the last one).
    ("repeated_ids", "malformed", "again"),
    ("out_of_order", "out_of_order", "newer than"),
    ("error", "unavailable", "HTTP 500"),
    ("malformed", "malformed", "malformed"),
]


@pytest.mark.parametrize("mode,code,words", LOAD_MORE_FAILURES, ids=[case[0] for case in LOAD_MORE_FAILURES])
def test_a_load_more_the_source_fails(server, jsonfeed, mode, code, words):
    async def scenario():
        async with ws_connect(server) as ws:
            await first_page(ws)
            jsonfeed.fail(mode, page=2)
            transition = await fail_then_retry(ws, "bottom", "loadMore", code, words, server, jsonfeed.recover)
            assert transition["to"] == "failed", transition
    run(scenario, timeout=60)


# MARK: - SQLite


@pytest.fixture
def sqlite_server(tmp_path, fresh_server):
    path = tmp_path / "feed.db"
    srv = fresh_server("--feed", f"sqlite:{path}", "--feed-poll-ms", "0", "--log-level", "info")
    srv.feed_path = path  # type: ignore[attr-defined]
    return srv


def test_the_sqlite_file_locked_on_a_request(sqlite_server):
    srv = sqlite_server

    async def scenario():
        async with ws_connect(srv) as ws:
            await first_page(ws)
            holder = sqlite3.connect(srv.feed_path, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
            try:
                await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
                failed, _ = await answer(ws)
                assert failed["error"]["code"] in ("locked", "timed_out"), failed
            finally:
                holder.execute("COMMIT")
                holder.close()
            await send_json(ws, {"type": "command", "name": "retry", "edge": "top"})
            ok, _ = await answer(ws)
            assert ok["error"] is None, ok
    run(scenario, timeout=60)


def test_the_sqlite_file_removed_while_serving(sqlite_server):
    """The server keeps its file open: a file removed (or moved) under it still answers from what is open, and
    nothing crashes; the next start would say the file is missing."""
    srv = sqlite_server

    async def scenario():
        async with ws_connect(srv) as ws:
            await first_page(ws)
            srv.feed_path.rename(srv.feed_path.with_suffix(".away"))
            await send_json(ws, {"type": "command", "name": "loadMore", "edge": "bottom"})
            older, _ = await answer(ws)
            assert older["error"] is None or older["error"]["message"], older
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1e6})
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -30, "t": 1e6 + 16})
            await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] != "idle", timeout=TIMEOUT_S)
    run(scenario, timeout=60)
    assert srv.proc.poll() is None, "the server is still running"


def test_a_read_only_sqlite_file_serves_pages_and_refuses_posts(tmp_path, fresh_server):
    path = tmp_path / "feed.db"
    fresh_server("--feed", f"sqlite:{path}").terminate()  # created and filled
    path.chmod(0o444)
    srv = fresh_server("--feed", f"sqlite:{path}", "--feed-poll-ms", "0", "--log-level", "info")

    async def scenario():
        async with ws_connect(srv) as ws:
            welcome, rows = await first_page(ws)
            status, body = await asyncio.to_thread(post_item, srv, {"text": "Not to be written."})
            assert status >= 400 and "read-only" in json.dumps(body), (status, body)
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            again, _ = await answer(ws)
            assert again["error"] is None, again
    run(scenario, timeout=60)


def post_item(srv: RunningServer, item: dict) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        connection.request("POST", "/feed/items", body=json.dumps(item), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()
