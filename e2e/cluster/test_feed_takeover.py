"""A session on a real source survives its process: after a SIGKILL another process takes the session over from
the store by replaying its trace, whose recorded `feed_answer`s give the rows back exactly (docs/SCALING.md,
docs/FEEDS.md). Both processes serve the same SQLite feed file."""
from __future__ import annotations

import asyncio
import signal

from cluster_support import server_support, wait_for
from feed_support import items_of, requires_feeds
from test_cluster import connect_to

hello, recv_until, send_json, run = (server_support.hello, server_support.recv_until, server_support.send_json,
                                     server_support.run)


pytestmark = requires_feeds


def test_sigkill_keeps_the_rows_of_a_sqlite_feed(cluster, tmp_path):
    path = tmp_path / "feed.db"
    c = cluster(2, "--feed", f"sqlite:{path}", "--feed-poll-ms", "0")

    async def scenario():
        a = await connect_to(c.url())
        wa, _ = await hello(a)
        node, session = wa["node"], wa["session"]
        rows: list[dict] = []
        first, seen = await recv_until(a, lambda m: m["type"] == "rows" and m["count"] > 0, timeout=20)
        rows += [m for m in seen if m["type"] == "rows"] + [first]
        for _ in range(2):
            await send_json(a, {"type": "command", "name": "loadMore", "edge": "bottom"})
            answered, seen = await recv_until(a, lambda m: m["type"] == "feed_request", timeout=20)
            assert answered["error"] is None, answered
            more, after = await recv_until(a, lambda m: m["type"] == "rows", timeout=20)
            rows += [m for m in seen if m["type"] == "rows"] + [more]
        before = items_of(rows)
        assert len(before) >= 40 and len({item["id"] for item in before}) == len(before)
        # the store has every answer (member -1's applies): the state to wait for, not a duration
        await asyncio.to_thread(
            wait_for, lambda: c.redis.cli("LRANGE", f"rk:session:{session}:ops", "0", "-1").count("feed_answer") >= 3,
            what="the three answers in the store")
        c.servers[node].proc.send_signal(signal.SIGKILL)
        c.servers[node].proc.wait(5)
        await server_support.wait_closed(a)
        again = await connect_to(c.url(session, node))
        welcome, _ = await hello(again, session=session, token=wa["token"])
        assert welcome["node"] != node and welcome["takeover"]["from"] == node, welcome
        replaced, _ = await recv_until(again, lambda m: m["type"] == "rows" and m["op"] == "replace", timeout=20)
        assert replaced["items"] == before, "the same rows, item for item, after the take-over"
        await send_json(again, {"type": "command", "name": "loadMore", "edge": "bottom"})
        answered, _ = await recv_until(again, lambda m: m["type"] == "feed_request", timeout=20)
        assert answered["error"] is None and answered["kind"] == "older", answered
        more, _ = await recv_until(again, lambda m: m["type"] == "rows", timeout=20)
        assert more["op"] == "append" and more["items"][0]["time"] < before[-1]["time"], more
        await again.close()

    run(scenario, timeout=60)
