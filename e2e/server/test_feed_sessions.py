"""Sessions over a real source (docs/FEEDS.md, "Serving"; docs/PROTOCOL.md): `refreshkit serve --feed sqlite:…` in a
temporary folder, a real WebSocket. The first page arrives as `rows`, refresh and load-more run through commands
and the source, a post through the endpoint shows as `new_items`, and a page that sends `feed_answer` itself gets a
clear error while its session goes on. Every wait is for a message."""
from __future__ import annotations

import http.client
import json
import subprocess

from conftest import recv_until, run, send_json, server_binary, ws_connect


def post(srv, text: str) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        conn.request("POST", "/feed/items", body=json.dumps({"text": text, "author": "Test"}),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        body = json.loads(response.read())
    finally:
        conn.close()
    assert response.status == 201, body
    return body


def is_rows(op: str | None = None, nonempty: bool = False):
    return lambda m: (m["type"] == "rows" and (op is None or m["op"] == op)
                      and (not nonempty or len(m["items"]) > 0))


async def first_page(ws) -> dict:
    """Says hello and waits for the first page's `rows` (the first frame may come before or after it)."""
    await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3})
    rows, _ = await recv_until(ws, is_rows("replace", nonempty=True))
    return rows


def test_the_first_page_then_load_more_and_refresh_come_from_the_source(tmp_path, fresh_server):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}", "--feed-poll-ms", "0")

    async def scenario():
        async with ws_connect(srv) as ws:
            await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3})
            welcome, _ = await recv_until(ws, lambda m: m["type"] == "welcome")
            feed = welcome["feed"]
            assert feed["source"] == f"sqlite:{tmp_path / 'feed.db'}" and feed["kind"] == "sqlite", feed
            assert feed["postable"] is True
            first, _ = await recv_until(ws, is_rows("replace", nonempty=True))
            items = first["items"]
            assert first["count"] == len(items) > 0
            times = [item["time"] for item in items]
            assert times == sorted(times, reverse=True), "newest first"
            assert all(item["text"] for item in items)
            request, _ = await recv_until(ws, lambda m: m["type"] == "feed_request")
            assert request["error"] is None and request["items"] == len(items)
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["feed"]["count"] == len(items))

            await send_json(ws, {"type": "command", "name": "loadMore"})
            more, _ = await recv_until(ws, is_rows("append"))
            assert more["count"] == len(items) + len(more["items"])
            assert more["items"][0]["time"] < items[-1]["time"]
            request, _ = await recv_until(ws, lambda m: m["type"] == "feed_request")
            assert request["kind"] == "older" and request["error"] is None

            posted = post(srv, "A new item on top")
            await send_json(ws, {"type": "command", "name": "refresh"})
            fresh, _ = await recv_until(ws, lambda m: m["type"] == "rows" and m["op"] in ("prepend", "replace"))
            assert fresh["items"][0]["id"] == posted["id"], fresh
            request, _ = await recv_until(ws, lambda m: m["type"] == "feed_request")
            assert request["kind"] == "refresh" and request["error"] is None
    run(scenario)


def test_a_post_is_announced_as_one_new_item(tmp_path, fresh_server):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}", "--feed-poll-ms", "0")

    async def scenario():
        async with ws_connect(srv) as ws:
            await first_page(ws)
            post(srv, "Posted while the page looks")
            news, _ = await recv_until(ws, lambda m: m["type"] == "new_items" and m["count"] > 0)
            assert news == {"type": "new_items", "count": 1, "more": False}
            # refreshing brings it in, and the notice clears
            await send_json(ws, {"type": "command", "name": "refresh"})
            cleared, _ = await recv_until(ws, lambda m: m["type"] == "new_items")
            assert cleared["count"] == 0
    run(scenario)


def test_an_item_posted_by_another_program_is_found_by_the_poll(tmp_path, fresh_server):
    path = tmp_path / "feed.db"
    srv = fresh_server("--feed", f"sqlite:{path}", "--feed-poll-ms", "100")

    async def scenario():
        async with ws_connect(srv) as ws:
            await first_page(ws)
            result = subprocess.run([str(server_binary()), "post", "--feed", f"sqlite:{path}", "From the CLI"],
                                    capture_output=True, text=True, timeout=30)
            assert result.returncode == 0, result.stderr
            news, _ = await recv_until(ws, lambda m: m["type"] == "new_items" and m["count"] > 0, timeout=10)
            assert news["count"] == 1
    run(scenario)


def test_a_page_that_sends_a_feed_answer_gets_an_error_and_goes_on(tmp_path, fresh_server):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}", "--feed-poll-ms", "0")

    async def scenario():
        async with ws_connect(srv) as ws:
            await first_page(ws)
            await send_json(ws, {"type": "feed_answer", "request": 2, "ms": 1, "items": [], "older": None,
                                 "newer": None, "hasMore": False})
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "bad_message" and "feed source" in error["message"], error
            await send_json(ws, {"type": "command", "name": "loadMore"})
            await recv_until(ws, is_rows("append"))
    run(scenario)
    assert srv.terminate() == 0
    assert not srv.error_lines()
