"""A device that joins with the session's id in its `hello` only (docs/PROTOCOL.md, `hello.session`), its WebSocket
at `/` (no `s`, no `n`): the balancer sends it to any process. One that does not hold the session sends it to the
live holder (`session_elsewhere`, docs/SCALING.md "Who holds a session"), whether the session is in the store yet
or not, and the device lands in the live session: no new session, no second copy taken over."""
from __future__ import annotations

import asyncio

from cluster_support import server_support, wait_for
from test_cluster import connect_to

hello, recv_until, send_json, run = (server_support.hello, server_support.recv_until, server_support.send_json,
                                     server_support.run)


async def join_by_hello_only(c, session: str, key: str) -> tuple[dict, object]:
    """Joins `session` with its drive link's `key` as the page does: at `/`, then wherever `session_elsewhere`
    says. Returns the refusal and the joined connection."""
    ws = await connect_to(c.url())
    await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "session": session,
                         "key": key})
    answer, _ = await recv_until(ws, lambda m: m["type"] in ("error", "welcome"))
    assert answer["type"] == "error" and answer["code"] == "session_elsewhere", answer
    assert answer["ref"] == "hello", answer
    await ws.close()
    ws = await connect_to(c.url(session, answer["node"]))
    return answer, ws


def test_a_device_joining_with_the_id_in_hello_only_lands_in_the_live_session(cluster):
    c = cluster(2)

    async def scenario():
        a = await connect_to(c.url())
        wa, _ = await hello(a)
        home, session = wa["node"], wa["session"]
        # at once (the session may not be in the store yet: its node's lease says it lives), then once stored;
        # the balancer's leastconn sends each to the other process, which holds fewer connections
        joined = []
        for stored in (False, True):
            if stored:
                await asyncio.to_thread(wait_for,
                                        lambda: c.redis.cli("EXISTS", f"rk:session:{session}").strip() == "1",
                                        what="the session in the store")
            refusal, ws = await join_by_hello_only(c, session, server_support.link_key(wa))
            assert refusal["node"] == home, refusal
            welcome, _ = await hello(ws, session=session, key=server_support.link_key(wa))
            assert welcome["session"] == session and welcome["node"] == home, welcome
            assert "notice" not in welcome and "takeover" not in welcome, welcome
            joined.append((welcome, ws))
        assert [w["member"] for w, _ in joined] == [1, 2]
        # one session, one process: a's drag reaches both, the same frame
        await send_json(a, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1, "id": 1})
        await send_json(a, {"type": "touch", "phase": "move", "dx": 0, "dy": -40, "t": 17, "id": 1})
        frames = [await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] >= 40)
                  for ws in (a, *(ws for _, ws in joined))]
        assert len({(f["t"], f["offset"]["y"]) for f, _ in frames}) == 1, [f for f, _ in frames]
        for name, server in c.servers.items():
            log = "\n".join(server.stderr)
            assert "session taken over" not in log, (name, server.output())
        assert sum("sent there" in line for line in c.servers[next(n for n in c.servers if n != home)].stderr) == 2
        for ws in (a, *(ws for _, ws in joined)):
            await ws.close()

    run(scenario)
