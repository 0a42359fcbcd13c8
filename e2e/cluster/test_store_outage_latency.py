"""A store that hangs never holds up the service thread (docs/SCALING.md, "The store going away"): the writes wait on
the store thread, so while Redis is stopped with SIGSTOP (it accepts connections and never answers) a dragging
page's frames keep coming at the tick's pace for as long as the process's serving lease lasts, and its pings are
answered at once throughout. Once the lease has run out (no batch answered for ServingLease.duration) the process
sends no frame (docs/SCALING.md, "Fencing": it cannot prove no other process took its sessions over), and draws
again as soon as Redis answers. When Redis runs again it also runs what it had buffered from the connections the
server gave up on; the server's next whole write and the store's append check keep the copy one that another process
takes over with a matching digest."""
from __future__ import annotations

import asyncio
import json
import signal
import time
from itertools import pairwise

from websockets.asyncio.client import connect

from cluster_support import server_support, wait_for

hello, recv_until, send_json, run = (server_support.hello, server_support.recv_until, server_support.send_json,
                                     server_support.run)

# A frame every tick (60 Hz) while the finger moves; the blocking client made the service thread wait up to 250 ms
# (its timeout) on every write to a stopped Redis. Well above the tick, well under the timeout.
MAX_GAP_MS = 150
CLIENT_PAUSE_MS = 50
LEASE_S = 0.4  # ServingLease.duration: frames stop this long after the last batch answered, at most
PINGS = 12  # about 1.5 s of pings while Redis is stopped: a connection attempt at least (one a second)


def connect_to(url: str):
    return connect(url, subprotocols=[server_support.SUBPROTOCOL], compression=None, open_timeout=5, close_timeout=2,
                   ping_interval=None, max_size=1 << 20)


def server_gaps(arrived: list[float], sent: list[float]) -> list[float]:
    """The pauses between two frames (ms, above the tick's pace) during which the page kept sending its inputs at its
    own pace (never pausing CLIENT_PAUSE_MS itself): those are the server's. A pause of the page's own (this test's
    process descheduled on a busy machine) holds its reading up too, so it says nothing about the server."""
    gaps = []
    for a, b in pairwise(arrived):
        if (b - a) * 1000 < 50:
            continue
        points = [a] + [s for s in sent if a < s < b] + [b]
        if max(y - x for x, y in pairwise(points)) * 1000 < CLIENT_PAUSE_MS:
            gaps.append(round((b - a) * 1000))
    return gaps


def stored_seqs(c, session: str) -> set[int]:
    """The `seq` of every input in the store's copy of `session`."""
    ops = c.redis.cli("LRANGE", f"rk:session:{session}:ops", "0", "-1").splitlines()
    return {json.loads(op)["apply"].get("seq") for op in ops if op.startswith("{") and '"apply"' in op}


def test_a_stopped_store_does_not_hold_up_a_dragging_session(cluster):
    c = cluster(2)

    async def scenario():
        ws = await connect_to(c.url())
        welcome, _ = await hello(ws)
        node, session = welcome["node"], welcome["session"]
        server = c.servers[node]
        await asyncio.to_thread(wait_for, lambda: c.redis.cli("EXISTS", f"rk:session:{session}").strip() == "1",
                                what="the session in the store")
        # While Redis is stopped: when each input went out and each frame came in (the client's monotonic clock, s).
        sent: list[float] = []
        arrived: list[float] = []
        state = {"stopped": False, "seq": 0, "acked": 0}
        done = asyncio.Event()

        async def drag():
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t, "id": 1})
            while not done.is_set():
                t += 16
                state["seq"] += 1
                await ws.send(json.dumps({"type": "touch", "phase": "move", "dx": 0, "dy": 2 if state["seq"] % 200 < 100
                                          else -2, "t": t, "id": 1, "seq": state["seq"]}))
                if state["stopped"]:
                    sent.append(time.monotonic())
                await asyncio.sleep(0.016)  # the page's input pace, not a wait for a state

        async def read():
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") in ("frame", "delta"):
                    if state["stopped"]:
                        arrived.append(time.monotonic())
                    state["acked"] = max(state["acked"], (message.get("ack") or {}).get("0", 0))
                if done.is_set():
                    return

        tasks = [asyncio.create_task(drag()), asyncio.create_task(read())]
        try:
            await asyncio.to_thread(wait_for, lambda: state["acked"] >= 10, what="the session dragging")
            c.redis.proc.send_signal(signal.SIGSTOP)
            stopped_at = time.monotonic()
            state["stopped"] = True
            # The service thread answers at once whatever the store does: the page's pings come straight back.
            answered = []
            for _ in range(PINGS):
                asked = time.monotonic()
                await asyncio.wait_for(await ws.ping(), 5)
                answered.append(round((time.monotonic() - asked) * 1000))
                await asyncio.sleep(0.1)  # the pings' pace, not a wait for a state
            await asyncio.to_thread(wait_for, lambda: any("session store is unreachable" in line
                                                          for line in server.stderr), what="the log to say so")
            assert max(answered) < MAX_GAP_MS, f"pings answered after {answered} ms while Redis was stopped"
            # Frames at the tick's pace while the lease lasted, none after it.
            during = [at for at in arrived if at < stopped_at + LEASE_S - 0.2]
            gaps = server_gaps(during, list(sent))
            assert during and (not gaps or max(gaps) < MAX_GAP_MS), \
                f"frames stopped for {max(gaps or [0]):.0f} ms while the page kept sending and the lease lasted"
            late = [round((at - stopped_at) * 1000) for at in arrived if at > stopped_at + LEASE_S + 0.2]
            assert not late, f"frames {late} ms after Redis stopped: past the serving lease"
            c.redis.proc.send_signal(signal.SIGCONT)
            state["stopped"] = False
            await asyncio.to_thread(wait_for, lambda: any("session store is back" in line for line in server.stderr),
                                    what="the log to say the store is back")
            # What Redis held from the given-up connections has run by now (it reads them before new ones); the
            # whole write that said "back" came after. One more period: an append on top of it, then the kill.
            acked = state["acked"]
            await asyncio.to_thread(wait_for, lambda: acked in stored_seqs(c, session),
                                    what="the acknowledged inputs in the store")
        finally:
            c.redis.proc.send_signal(signal.SIGCONT)
            done.set()
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(5)
        await asyncio.gather(*tasks, return_exceptions=True)
        async with connect_to(c.url(session, node)) as again:
            back, _ = await hello(again, session=session, token=welcome["token"])
            assert back["resumed"] is True and "notice" not in back, back
            assert back["node"] != node and back["takeover"]["from"] == node, back
            assert back["ack"] >= acked, (back["ack"], acked)

    run(scenario, timeout=60)
