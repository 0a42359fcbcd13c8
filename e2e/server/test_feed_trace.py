"""A session on a real source records the source's answers in its trace (`feed_answer`, applied by the reserved
member -1: docs/PROTOCOL.md, docs/TRACE.md), so `refreshkit replay` plays it back byte for byte with the source gone:
the local JSON Feed server (e2e/jsonfeed/feed_server.py) is stopped before the replay. And a page may not send a
`feed_answer` itself: a clear error, and the session keeps working."""
from __future__ import annotations

import json
import subprocess

from conftest import RECV_TIMEOUT_S, ROOT, RunningServer, recv_until, run, send_json, server_binary, ws_connect
from feed_session import TIMEOUT_S, answer, first_page
from jsonfeed.feed_server import JSONFeedServer  # e2e/ is on the path (conftest.py)


def ended(edge: str):
    """The end of a load on `edge`: its `didEnd` event (a refresh's indicator gone, a footer back at rest)."""
    return lambda m: m["type"] == "event" and m["name"] == "didEnd" and m.get("edge") == edge


def test_a_trace_recorded_with_a_json_feed_replays_without_it(tmp_path):
    feed = JSONFeedServer(500, page_size=20)
    srv = RunningServer("--feed", f"jsonfeed:{feed.url}", "--feed-poll-ms", "0", "--log-level", "info")
    try:
        async def scenario():
            async with ws_connect(srv) as ws:
                await first_page(ws)
                # (no post before the load-more: the feed pages by offset, so an item posted on top would push
                # the first page's last item into the second, which the engine refuses as an item sent again)
                await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
                refreshed, _ = await answer(ws)
                assert refreshed["error"] is None
                await recv_until(ws, ended("top"), timeout=TIMEOUT_S)
                await send_json(ws, {"type": "command", "name": "loadMore", "edge": "bottom"})
                older, _ = await answer(ws)
                assert older["error"] is None and older["kind"] == "older"
                await recv_until(ws, ended("bottom"), timeout=TIMEOUT_S)
                feed.fail("error")
                await send_json(ws, {"type": "command", "name": "loadMore", "edge": "bottom"})
                await recv_until(ws, lambda m: m["type"] == "event" and m.get("cause") == "feedFailed",
                                 timeout=TIMEOUT_S)
                await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "idle")
                await send_json(ws, {"type": "trace"})
                message, _ = await recv_until(ws, lambda m: m["type"] == "trace", timeout=RECV_TIMEOUT_S)
                return message["trace"]

        trace = run(scenario, timeout=60)
    finally:
        feed.close()  # the source is gone before the replay
        assert srv.terminate() == 0, srv.output()

    assert trace["feedSource"] == f"jsonfeed:{feed.url}"
    answers = [op for op in trace["ops"] if "apply" in op and op.get("member") == -1]
    assert len(answers) >= 4, "the first page, the refresh, the load-more and the failure"
    assert all(op["apply"]["type"] == "feed_answer" for op in answers)
    assert any("error" in op["apply"] for op in answers)
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    result = subprocess.run([str(server_binary()), "replay", str(path)], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"digest {trace['digest']} — matches the recording" in result.stdout


def test_a_page_may_not_send_a_feed_answer(tmp_path):
    feed = JSONFeedServer(100, page_size=20)
    srv = RunningServer("--feed", f"jsonfeed:{feed.url}", "--feed-poll-ms", "0", "--log-level", "info")
    try:
        async def scenario():
            async with ws_connect(srv) as ws:
                _, rows = await first_page(ws)
                await send_json(ws, {"type": "feed_answer", "request": 99, "ms": 1, "items": [], "older": None,
                                     "newer": None, "hasMore": False})
                error, _ = await recv_until(ws, lambda m: m["type"] == "error")
                assert error["code"] == "bad_message" and "feed_answer" in error["message"], error
                await send_json(ws, {"type": "command", "name": "loadMore", "edge": "bottom"})
                older, _ = await answer(ws)
                assert older["error"] is None and older["items"]
                return rows

        run(scenario)
    finally:
        feed.close()
        assert srv.terminate() == 0, srv.output()
