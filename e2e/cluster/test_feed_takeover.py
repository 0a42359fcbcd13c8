"""A session on a real source survives its process: after a SIGKILL another process takes the session over from
the store by replaying its trace, whose recorded `feed_answer`s give the rows back exactly (docs/SCALING.md,
docs/FEEDS.md). Both processes serve the same SQLite feed file."""
from __future__ import annotations

import asyncio
import signal

from cluster_support import server_support, wait_for
from feed_support import HELLO, is_loaded, is_type, items_of, until_all
from test_cluster import connect_to

send_json, run = server_support.send_json, server_support.run


def ended(edge: str):
    """The end of a load on `edge`: its `didEnd` event (the footer back at rest, ready for the next)."""
    return lambda m: m["type"] == "event" and m["name"] == "didEnd" and m.get("edge") == edge


def test_sigkill_keeps_the_rows_of_a_sqlite_feed(cluster, tmp_path):
    path = tmp_path / "feed.db"
    c = cluster(2, "--feed", f"sqlite:{path}", "--feed-poll-ms", "0")

    async def scenario():
        a = await connect_to(c.url())
        await send_json(a, HELLO)
        wa, first, request = await until_all(a, is_type("welcome"), is_loaded, is_type("feed_request"), timeout=20)
        node, session = wa["node"], wa["session"]
        rows, last_id = [first], request["id"]
        # Two pages: the window's size with pages of 20 on the test's viewport (docs/LAYOUT.md, "The window's
        # size"), so every row loaded is held and comes back with its text; the take-over of a window that
        # dropped pages is WindowTraceTests' (the same window rebuilt).
        for _ in range(1):
            await send_json(a, {"type": "command", "name": "loadMore", "edge": "bottom"})
            answered, more, _ = await until_all(a, is_type("feed_request"), is_type("rows"), ended("bottom"),
                                                timeout=20)
            assert answered["error"] is None and more["op"] == "append", (answered, more)
            rows.append(more)
            last_id = answered["id"]
        before = items_of(rows)
        assert len(before) >= 40 and len({item["id"] for item in before}) == len(before)
        # the store has every answer (member -1's applies): the state to wait for, not a duration
        await asyncio.to_thread(
            wait_for, lambda: c.redis.cli("LRANGE", f"rk:session:{session}:ops", "0", "-1").count("feed_answer") >= 2,
            what="the two answers in the store")
        c.servers[node].proc.send_signal(signal.SIGKILL)
        c.servers[node].proc.wait(5)
        await server_support.wait_closed(a)
        again = await connect_to(c.url(session, node))
        await send_json(again, {**HELLO, "session": session, "token": wa["token"]})
        welcome, replaced = await until_all(
            again, is_type("welcome"), lambda m: m["type"] == "rows" and m["op"] == "replace", timeout=20)
        assert welcome["node"] != node and welcome["takeover"]["from"] == node, welcome
        assert replaced["items"] == before, "the same rows, item for item, after the take-over"
        await send_json(again, {"type": "command", "name": "loadMore", "edge": "bottom"})
        answered, more = await until_all(
            again, lambda m: m["type"] == "feed_request" and m["id"] > last_id,
            lambda m: m["type"] == "rows" and m["op"] == "append", timeout=20)
        assert answered["error"] is None and answered["kind"] == "older", answered
        assert more["items"][0]["time"] < before[-1]["time"] and more["count"] > len(before), more
        await again.close()

    run(scenario, timeout=60)
