"""Who holds a session (docs/SCALING.md, "Who holds a session"): a node killed and started again under its name
gets its old sessions' links from the balancer (the id names it), while another process holds them. It sends
the pages there (`session_elsewhere`) instead of taking the session a second time, so two devices of one
session never end up on two processes."""
from __future__ import annotations

import asyncio
import signal

from cluster_support import RunningServer, server_support, wait_for
from test_cluster import connect_to

hello, recv_until, send_json, run = (server_support.hello, server_support.recv_until, server_support.send_json,
                                     server_support.run)


def test_a_node_started_again_sends_pages_to_the_process_that_took_its_sessions(cluster):
    c = cluster(2)

    async def answering_node(url: str) -> str:
        async with connect_to(url) as ws:
            welcome, _ = await hello(ws)
            return welcome["node"]

    async def scenario():
        a = await connect_to(c.url())
        wa, _ = await hello(a)
        home, session = wa["node"], wa["session"]
        other = next(name for name in c.servers if name != home)
        await asyncio.to_thread(wait_for, lambda: c.redis.cli("EXISTS", f"rk:session:{session}").strip() == "1",
                                what="the session in the store")
        port = c.servers[home].port
        c.servers[home].proc.send_signal(signal.SIGKILL)
        c.servers[home].proc.wait(5)
        await server_support.wait_closed(a)
        # the page comes back through the balancer and the other process takes the session over
        a = await connect_to(c.url(session, home))
        back, _ = await hello(a, session=session, token=wa["token"])
        assert back["resumed"] is True and back["node"] == other and back["takeover"]["from"] == home, back
        # the killed node runs again, on its port, under its name; wait until the balancer uses it again
        c.servers[home] = RunningServer("--node", home, *c.redis.store_args, "--log-level", "info",
                                        "--public-port", str(c.balancer.port), "--port", str(port))
        probe = c.url(home + "." + "0" * 32)  # an id naming the node: routed to it once it is up

        async def node_back():
            while await answering_node(probe) != home:
                pass  # each probe is a new session on whichever node answered: HAProxy's check brings it back

        await asyncio.wait_for(node_back(), 20)
        # a second device opens the session's link (no `n`): it reaches the id's node, which sends it on
        async with connect_to(c.url(session)) as b:
            await send_json(b, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "session": session,
                                "key": server_support.link_key(wa)})
            refusal, _ = await recv_until(b, lambda m: m["type"] in ("error", "welcome"))
            assert refusal["type"] == "error" and refusal["code"] == "session_elsewhere", refusal
            assert refusal["node"] == other and refusal["ref"] == "hello", refusal
        async with connect_to(c.url(session, refusal["node"])) as b:
            joined, _ = await hello(b, session=session, key=server_support.link_key(wa))
            assert joined["session"] == session and joined["node"] == other and joined["member"] == 1, joined
            assert "notice" not in joined, joined
            # one session: a's drag reaches b
            await send_json(a, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1, "id": 1})
            await send_json(a, {"type": "touch", "phase": "move", "dx": 0, "dy": -40, "t": 17, "id": 1})
            await recv_until(b, lambda m: m["type"] == "frame" and m["offset"]["y"] >= 40)
        assert "session taken over" not in "\n".join(c.servers[home].stderr), c.servers[home].output()
        await a.close()
    run(scenario)
