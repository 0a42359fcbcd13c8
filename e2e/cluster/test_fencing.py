"""A node wrongly marked down splits nothing (docs/SCALING.md, "Fencing"), under `make cluster`'s own supervisord
configuration (scripts/cluster_supervisor.py, run by bench/chaos.py's `Supervised`): the holder of a two-device
session keeps serving its connected device while HAProxy's health check of it fails (pointed at a closed port
through HAProxy's runtime API), so the balancer sends the other device's reconnection to the backup, which takes
the session over at the next epoch. The holder's next batch brings the store's notice (or its write is refused
for its epoch): it stops serving the session at once and sends its page to the new holder. The new holder sends
no frame of the session until the old holder's serving lease is over (docs/SCALING.md, "Fencing";
ServingLease). Checked from the store (the epoch, the holder, the old holder's log) and from the pages' frames:
every frame of the old holder reached its page before the new holder's first frame reached the other (no
moment with two holders at all), and both devices carry on together on the new holder with every input
applied."""
from __future__ import annotations

import asyncio
import json
import sys
import time

import pytest
import websockets

from cluster_support import ROOT, server_support, wait_for
from test_cluster import connect_to

sys.path.insert(0, str(ROOT / "bench"))
import chaos  # noqa: E402

hello, recv_until, send_json = server_support.hello, server_support.recv_until, server_support.send_json


@pytest.fixture
def supervised(tmp_path):
    for tool in ("supervisord", "redis-server", "haproxy"):
        if not __import__("shutil").which(tool):
            pytest.fail(f"{tool} is not installed: run `scripts/ensure-deps.sh test`", pytrace=False)
    cluster = chaos.Supervised(server_support.server_binary(), 2, tmp_path / "run", log_level="info")
    yield cluster
    cluster.stop()


def redis(c: chaos.Supervised, *args: str) -> str:
    return chaos.cluster_supervisor.redis_cli(c.run, c.layout.redis(), *args).strip()  # with the run's password


def test_a_live_node_the_balancer_finds_down_serves_nothing_the_new_holder_serves(supervised):
    c = supervised

    async def scenario():
        one = await connect_to(c.url())
        w1, _ = await hello(one)
        home, session = w1["node"], w1["session"]
        other = next(name for name in c.nodes if name != home)
        two = await connect_to(c.url(session))
        w2, _ = await hello(two, session=session, key=server_support.link_key(w1))
        assert w2["node"] == home, w2

        def both_members_stored() -> bool:
            stored = redis(c, "HGET", f"rk:session:{session}", "members")
            return bool(stored) and len(json.loads(stored)["members"]) == 2

        await asyncio.to_thread(wait_for, both_members_stored, what="both members in the store")
        assert redis(c, "HGET", f"rk:session:{session}", "epoch") == "1"

        # The holder lives, but its health check fails: the balancer marks it down (two failed checks).
        await asyncio.to_thread(c.check_fails, home, True)
        await asyncio.to_thread(wait_for, lambda: c.server_state(home) == "DOWN", what=f"HAProxy to mark {home} down")
        pid = c.pid(home)

        # Device two's link drops; it reconnects as the page does (n: its holder), and the balancer sends it to
        # the backup through the holder's backend: the backup takes the session over from the live holder.
        await two.close()
        two = await connect_to(c.url(session, home))
        back2, _ = await hello(two, session=session, token=w2["token"])
        assert back2["resumed"] is True and back2["node"] == other, back2
        assert back2["takeover"]["from"] == home, back2
        moved_at = time.monotonic()
        # Everything the new holder sends device two, with its arrival time.
        from_new: list[tuple[float, dict]] = []

        async def read_new_holder():
            async for raw in two:
                from_new.append((time.monotonic(), json.loads(raw)))

        new_reader = asyncio.create_task(read_new_holder())
        await asyncio.to_thread(wait_for, lambda: redis(c, "HGET", f"rk:session:{session}", "epoch") == "2",
                                what="the take-over's claim of epoch 2")
        assert redis(c, "HGET", f"rk:session:{session}", "node") == other

        # Device one is still connected to the old holder and drags: that holder's next write is refused for its
        # epoch, and it tells the page where the session is now, then closes.
        frames_from_old: list[float] = []
        told = None
        closed_with = None

        async def read_old_holder():
            nonlocal told, closed_with
            try:
                async for raw in one:
                    message = json.loads(raw)
                    if message["type"] in ("frame", "delta"):
                        assert told is None, "a frame from the old holder after it let the session go"
                        frames_from_old.append(time.monotonic())
                        assert not any(m["type"] in ("frame", "delta") for _, m in from_new), \
                            "the old holder drew the session after the new holder had drawn it"
                    elif message["type"] == "error" and message["code"] == "session_elsewhere":
                        told = message
            finally:
                closed_with = one.close_code

        reader = asyncio.create_task(read_old_holder())
        t = time.monotonic() * 1000
        seq = 0
        deadline = time.monotonic() + 10
        while not reader.done() and time.monotonic() < deadline:
            seq += 1
            t += 16
            try:
                await send_json(one, {"type": "touch", "phase": "start" if seq == 1 else "move", "dx": 0,
                                      "dy": 0 if seq == 1 else -3, "t": t, "id": 1, "seq": seq})
            except websockets.ConnectionClosed:
                break
            await asyncio.sleep(0.016)
        await asyncio.wait_for(reader, 5)
        assert told is not None, "the old holder never let the session go"
        told_at = time.monotonic()
        assert told["node"] == other and "ref" not in told, told
        # Nothing more from the old holder: the connection closes after the error (1001).
        assert closed_with == 1001
        # No overlap at all: the old holder's last frame reached its page before the new holder's first frame
        # reached the other device (the new holder waited out the old holder's serving lease).
        first_new = next((at for at, m in from_new if m["type"] in ("frame", "delta")), None)
        if first_new is not None and frames_from_old:
            assert frames_from_old[-1] < first_new, (frames_from_old[-1] - first_new)
        assert c.pid(home) == pid, "the old holder lives on: it was only marked down"
        logs = (c.run / f"{home}.log").read_text()
        assert "session held by another process now" in logs, logs[-2000:]

        # Device one reconnects where it was told (n = the new holder) and resumes there; the inputs the old
        # holder applied but could not store are sent again by the page and applied once.
        one = await connect_to(c.url(session, told["node"]))
        back1, _ = await hello(one, session=session, token=w1["token"])
        assert back1["resumed"] is True and back1["node"] == other, back1
        kept = list(range(back1.get("ack", 0) + 1, seq + 1))
        assert seq - back1.get("ack", 0) <= 60, "more than the page's second of inputs would be missing"
        for k in kept:
            t += 16
            await send_json(one, {"type": "touch", "phase": "move", "dx": 0, "dy": -3, "t": t, "id": 1, "seq": k})
        await send_json(one, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 16, "id": 1,
                              "seq": seq + 1})
        frame, _ = await recv_until(one, lambda m: m["type"] == "frame"
                                    and (m.get("ack") or {}).get(str(w1["member"])) == seq + 1)
        # both devices on one process, seeing the same session

        def seen_by_two():
            return next((m for _, m in from_new if m["type"] == "frame"
                         and (m.get("ack") or {}).get(str(w1["member"])) == seq + 1), None)

        deadline = time.monotonic() + 10
        while seen_by_two() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # polling the collected frames for the state, bounded
        seen = seen_by_two()
        assert seen is not None, from_new[-3:]
        assert seen["offset"] == frame["offset"]
        first_new = next(at for at, m in from_new if m["type"] in ("frame", "delta"))
        assert not frames_from_old or frames_from_old[-1] < first_new
        new_reader.cancel()
        assert redis(c, "HGET", f"rk:session:{session}", "node") == other
        assert redis(c, "HGET", f"rk:session:{session}", "epoch") == "2"
        await asyncio.to_thread(c.check_fails, home, False)
        await one.close()
        await two.close()
        return told_at - moved_at

    asyncio.run(scenario())
