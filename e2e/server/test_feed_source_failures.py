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
from feed_session import TIMEOUT_S, answer, first_page, is_request, wait_for_log
from feed_support import until_all
from jsonfeed.feed_server import JSONFeedServer  # e2e/ is on the path (conftest.py)


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


def failed_on(edge: str):
    """The engine's word that `edge`'s load failed: its `feedFailed` event or a transition caused by it."""
    return lambda m: (m["type"] == "event" and m.get("edge") == edge
                      and (m["name"] == "feedFailed" or m.get("cause") == "feedFailed"))


def failed_request(message: dict) -> bool:
    return message["type"] == "feed_request" and message["error"] is not None


async def fail_then_retry(ws, edge: str, command: str, code: str, words: str, srv, recover) -> list[dict]:
    """Sends `command` on `edge`; expects a `feed_request` failing with `code` (its message holding `words`), the
    edge's failure event and the cause in the log; recovers the source; Retry must bring a page. Returns the
    events of the failure."""
    await send_json(ws, {"type": "command", "name": command, "edge": edge})
    failed, event = await until_all(ws, failed_request, failed_on(edge), timeout=TIMEOUT_S)
    assert failed["error"]["code"] == code, failed
    assert words in failed["error"]["message"], failed
    assert failed["kind"] == ("refresh" if edge == "top" else "older"), failed
    await asyncio.to_thread(wait_for_log, srv, failed["error"]["message"])  # the cause, in the server's log
    # the failed load ends (a refresh stays visible its minimum time, then goes idle; a footer shows `failed`)
    ended, _ = await recv_until(ws, lambda m: m["type"] == "event" and m["name"] == "transition"
                                and m["edge"] == edge and m["to"] in ("idle", "failed"), timeout=TIMEOUT_S)
    assert edge == "top" or ended["to"] == "failed", ended
    recover()
    # Retry; a failed footer may also retry by itself (its back-off), and one that left before the source
    # recovered fails again: then Retry once more, a bounded number of times
    for _ in range(5):
        await send_json(ws, {"type": "command", "name": "retry", "edge": edge})
        ok, _ = await recv_until(ws, lambda m: (is_request(m) and m["error"] is None) or (
            m["type"] == "event" and m["name"] == "transition" and m["edge"] == edge and m["to"] == "failed"),
            timeout=TIMEOUT_S)
        if ok["type"] == "feed_request":
            break
    assert ok["type"] == "feed_request" and ok["items"], ok
    # the session keeps working: a drag still moves the list
    await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1e6})
    await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -30, "t": 1e6 + 16})
    await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": 1e6 + 32})
    # (the three touches may be applied in one tick, so no frame need show the drag in progress: the state to
    # wait for is the drag begun, then a frame after it)
    await recv_until(ws, lambda m: m["type"] == "event" and m["name"] == "gestureBegan" and m["cause"] == "drag",
                     timeout=TIMEOUT_S)
    await recv_until(ws, lambda m: m["type"] == "frame", timeout=TIMEOUT_S)
    return event


REFRESH_FAILURES = [
    # mode, error code, words of its message (a page is told "could not fetch", never the status: test_hostile_fetches)
    ("error", "unavailable", "could not fetch"),
    ("malformed", "malformed", "malformed"),
    ("oversized", "oversized", "limit"),
    ("wrong_type", "malformed", "malformed"),
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
    # mode on the second document; error code; words
    ("error", "unavailable", "could not fetch"),
    ("malformed", "malformed", "malformed"),
]


@pytest.mark.parametrize("mode,code,words", LOAD_MORE_FAILURES, ids=[case[0] for case in LOAD_MORE_FAILURES])
def test_a_load_more_the_source_fails(fresh_server, mode, code, words):
    # a server of its own: the JSON Feed source keeps the last document it fetched, so a second page another test
    # loaded would be served again without asking the feed server
    with JSONFeedServer(2_000, page_size=20) as jsonfeed:
        srv = fresh_server("--feed", f"jsonfeed:{jsonfeed.url}", "--feed-poll-ms", "0", "--log-level", "info")

        async def scenario():
            async with ws_connect(srv) as ws:
                await first_page(ws)
                jsonfeed.fail(mode, page=2)
                await fail_then_retry(ws, "bottom", "loadMore", code, words, srv, jsonfeed.recover)
        run(scenario, timeout=60)


# Feeds as they come (docs/FEEDS.md, "Order and dates"): a page not newest first, a page repeating an id, a next
# page starting with items already loaded or dated after the first page's newest: each is taken as it comes.
AS_THEY_COME = ["repeated_ids", "out_of_order"]


@pytest.mark.parametrize("mode", AS_THEY_COME)
def test_a_feed_not_newest_first_or_repeating_items_is_taken(fresh_server, mode):
    with JSONFeedServer(2_000, page_size=20) as jsonfeed:
        srv = fresh_server("--feed", f"jsonfeed:{jsonfeed.url}", "--feed-poll-ms", "0")
        jsonfeed.fail(mode)  # every page, the first one too

        async def scenario():
            async with ws_connect(srv) as ws:
                first = await first_page(ws)
                await send_json(ws, {"type": "command", "name": "loadMore"})
                loaded, _ = await recv_until(ws, lambda m: is_request(m) and m["kind"] == "older", timeout=TIMEOUT_S)
                assert loaded["error"] is None and loaded["items"] > 0, loaded
                return first
        run(scenario, timeout=60)


def test_a_failed_request_is_logged_with_its_cause(fresh_server):
    # a server of its own: the whole cause is logged at most once a second per code (docs/FEEDS.md)
    with JSONFeedServer(2_000, page_size=20) as jsonfeed:
        srv = fresh_server("--feed", f"jsonfeed:{jsonfeed.url}", "--feed-poll-ms", "0", "--log-level", "info")

        async def scenario():
            async with ws_connect(srv) as ws:
                await first_page(ws)
                jsonfeed.fail("error")
                await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
                failed, _ = await recv_until(ws, failed_request, timeout=TIMEOUT_S)
                return failed["error"]["message"]

        message = run(scenario, timeout=60)
        assert message == f"The feed is unavailable: could not fetch {jsonfeed.url}.", message
        wait_for_log(srv, message)
        # the operator's log has what the page is not told: the status
        line = wait_for_log(srv, "feed fetch failed")
        assert "answered HTTP 500" in line and line.split(" ", 2)[1] == "notice", line


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
            await recv_until(ws, lambda m: m["type"] == "event" and m["name"] == "transition" and m["edge"] == "top"
                             and m["to"] == "idle", timeout=TIMEOUT_S)
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
            assert status == 409 and body["error"]["code"] == "not_postable", (status, body)
            assert "takes no posts" in body["error"]["message"], body
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
