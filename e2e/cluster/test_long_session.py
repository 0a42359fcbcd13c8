"""A session of any length is taken over (docs/SCALING.md, "Sessions of any length"): once its recording has
started over from a snapshot, the store holds the snapshot (in the trace's head) and the operations after it,
and after a SIGKILL of its process another one restores the snapshot, replays the tail, checks the digest and
resumes the page where it was."""
from __future__ import annotations

import asyncio
import signal

from cluster_support import server_support, wait_for
from test_cluster import connect_to

hello, recv_until, send_json, run = (server_support.hello, server_support.recv_until, server_support.send_json,
                                     server_support.run)
SNAPSHOT_OPERATIONS = 5_000  # TraceLimits.snapshotOperations
ROUNDS = 60


def test_a_session_past_its_snapshot_is_taken_over_from_it(cluster):
    c = cluster(2)

    async def scenario():
        a = await connect_to(c.url())
        wa, _ = await hello(a, seed=8)
        node, session = wa["node"], wa["session"]
        b = await connect_to(c.url(session))
        wb, _ = await hello(b, session=session, key=server_support.link_key(wa))
        assert wb["node"] == node
        key = f"rk:session:{session}"
        t = 1000.0
        for round_ in range(ROUNDS):
            for step in range(100):  # 100 wheel messages from each page, about 250 a second (the limit is 300)
                t += 4
                dy = 5 if (round_ // 2) % 2 == 0 else -5
                for page in (a, b):
                    await send_json(page, {"type": "wheel", "dx": 0, "dy": dy, "mode": 0, "t": t})
                if step % 10 == 9:
                    await asyncio.sleep(0.04)  # pacing under the rate limit, not a wait for a state
            head = await asyncio.to_thread(c.redis.cli, "HGET", key, "head")
            if '"snapshot":"' in head:
                break
        else:
            raise AssertionError(f"no snapshot in the store after {ROUNDS} rounds")
        # a last move the store must have before the kill: that is the state to wait for
        await send_json(a, {"type": "command", "name": "scrollBy", "amount": 137})
        await asyncio.to_thread(wait_for, lambda: '"scrollBy"' in c.redis.cli("LRANGE", f"{key}:ops", "0", "-1"),
                                what="the last command in the store")
        # a third device joins now: its frames start at the session's present (the pages' own streams are
        # still full of what the wheel made), and its first idle frame is where the session comes to rest
        watcher = await connect_to(c.url(session))
        await hello(watcher, session=session, key=server_support.link_key(wa))
        frame, _ = await recv_until(watcher, lambda m: m["type"] == "frame" and m["phase"] == "idle")
        before = frame["offset"]["y"]
        c.servers[node].proc.send_signal(signal.SIGKILL)
        c.servers[node].proc.wait(5)
        for ws in (a, b, watcher):
            await server_support.wait_closed(ws)
        again = await connect_to(c.url(session, node))
        back, first = await hello(again, session=session, token=wa["token"])
        assert back["session"] == session and back["resumed"] is True and "notice" not in back, back
        assert back["node"] != node and back["takeover"]["from"] == node, back
        assert 0 < back["takeover"]["ops"] < SNAPSHOT_OPERATIONS + 2_000, "the tail after the snapshot only"
        assert abs(first["offset"]["y"] - before) <= 1, (before, first["offset"])
        await again.close()
        return back["node"]

    survivor = run(scenario)
    assert any("session taken over" in line for line in c.servers[survivor].stderr), c.servers[survivor].output()
