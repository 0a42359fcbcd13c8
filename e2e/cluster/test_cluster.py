"""Many processes behind one address (docs/SCALING.md): every connection of a session reaches the process
that holds it, and when that process dies another takes the session over from the store and the pages
carry on where they were."""
from __future__ import annotations

import asyncio
import json
import signal
import subprocess

from websockets.asyncio.client import connect

from cluster_support import server_support, wait_for

hello, recv_until, send_json, run = (server_support.hello, server_support.recv_until, server_support.send_json,
                                     server_support.run)
SUBPROTOCOL = server_support.SUBPROTOCOL


def connect_to(url: str):
    return connect(url, subprotocols=[SUBPROTOCOL], compression=None, open_timeout=5, close_timeout=2,
                   ping_interval=None, max_size=1 << 20)


def test_every_connection_of_a_session_reaches_the_process_that_made_it(cluster):
    c = cluster(3)

    async def scenario():
        async with connect_to(c.url()) as a:
            wa, _ = await hello(a)
            node, session = wa["node"], wa["session"]
            assert node in c.servers and session.startswith(node + "."), wa
            # Joins by the share link (the id alone in the URL): leastconn would spread them over the other
            # two processes, which have no connection, if the balancer did not route by the id.
            for _ in range(4):
                async with connect_to(c.url(session)) as b:
                    wb, _ = await hello(b, session=session, key=server_support.link_key(wa))
                    assert wb["session"] == session and wb["node"] == node and "notice" not in wb, wb
        # a resume, with the node the welcome named
        async with connect_to(c.url(session, node)) as again:
            back, _ = await hello(again, session=session, token=wa["token"])
            assert back["resumed"] is True and back["node"] == node and "takeover" not in back, back
    run(scenario)


def test_sigkill_of_the_process_mid_refresh_loses_no_session(cluster):
    c = cluster(2)

    async def scenario():
        a = await connect_to(c.url())
        wa, _ = await hello(a)
        node, session = wa["node"], wa["session"]
        b = await connect_to(c.url(session))
        wb, _ = await hello(b, session=session, key=server_support.link_key(wa))
        assert wb["node"] == node
        await send_json(a, {"type": "configure", "feed": {"latencyMs": 2500}})
        await send_json(a, {"type": "command", "name": "refresh", "edge": "top"})
        # the indicator has settled where it waits for the feed: the position to find again
        frame, _ = await recv_until(a, lambda m: m["type"] == "frame" and m["edges"][0]["state"] == "refreshing"
                                    and m["phase"] == "idle")
        before = frame["offset"]["y"]
        assert before != 0, frame
        # the store has the refresh (a write every ~100 ms): that is the state to wait for, not a duration
        await asyncio.to_thread(wait_for, lambda: '"refresh"' in c.redis.cli("LRANGE", f"rk:session:{session}:ops",
                                                                             "0", "-1"),
                                what="the refresh in the store")
        c.servers[node].proc.send_signal(signal.SIGKILL)
        c.servers[node].proc.wait(5)
        for ws in (a, b):  # both devices see their connection drop (reading what was still on its way)
            await server_support.wait_closed(ws)
        # both devices come back through the balancer, as the page does (s, n in the URL)
        a2 = await connect_to(c.url(session, node))
        again_a, frame_a = await hello(a2, session=session, token=wa["token"])
        b2 = await connect_to(c.url(session, node))
        again_b, frame_b = await hello(b2, session=session, token=wb["token"])
        for again, member in ((again_a, 0), (again_b, 1)):
            assert again["session"] == session and again["resumed"] is True and "notice" not in again, again
            assert again["member"] == member and again["node"] != node, again
            assert again["takeover"]["from"] == node and again["takeover"]["ops"] > 0, again
        assert again_a["node"] == again_b["node"], "both devices reach the same process"
        assert abs(frame_a["offset"]["y"] - before) <= 1, (before, frame_a["offset"])
        assert frame_a["edges"][0]["state"] in ("refreshing", "completing", "idle"), frame_a
        done, _ = await recv_until(
            b2, lambda m: m["type"] == "event" and m["name"] == "transition" and m["to"] == "idle", timeout=8)
        assert done["edge"] == "top"
        for ws in (a2, b2):
            await ws.close()
        return again_a["node"]

    survivor = run(scenario)
    assert any("session taken over" in line for line in c.servers[survivor].stderr), c.servers[survivor].output()


def test_the_servers_carry_on_without_the_store_and_catch_up_when_it_returns(cluster):
    c = cluster(1)
    server = c.servers["n1"]

    async def scenario():
        async with connect_to(c.url()) as ws:
            welcome, _ = await hello(ws)
            session = welcome["session"]
            await asyncio.to_thread(wait_for, lambda: c.redis.cli("EXISTS", f"rk:session:{session}").strip() == "1",
                                    what="the session in the store")
            port = c.redis.port
            c.redis.kill()
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 300})
            await asyncio.to_thread(wait_for, lambda: any("session store is unreachable" in line
                                                          for line in server.stderr), what="the log to say so")
            # the session carries on in memory
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] != 0)
            # the store returns (empty: a restarted Redis), and the server writes the session again
            from cluster_support import RunningRedis
            c.redis = RunningRedis(port)
            await asyncio.to_thread(wait_for, lambda: any("session store is back" in line for line in server.stderr),
                                    what="the log to say the store is back")
            ops = c.redis.cli("LRANGE", f"rk:session:{session}:ops", "0", "-1")
            assert '"scrollBy"' in ops, ops

    run(scenario)


def test_sigterm_hands_every_session_over_with_no_acknowledged_input_lost(cluster):
    """A rolling deploy: the process stops with SIGTERM while 50 sessions drag; every session is found again on
    another process, and each acknowledges at least every input it had acknowledged before."""
    c = cluster(2)
    sessions = 50

    async def scenario():
        pages, others = [], []
        while len(pages) < sessions:  # sessions until 50 are on n1 (leastconn spreads them over both)
            ws = await connect_to(c.url())
            welcome, _ = await hello(ws)
            if welcome["node"] == "n1":
                pages.append({"ws": ws, "welcome": welcome, "acked": 0, "seq": 0})
            else:
                others.append(ws)
        stop = asyncio.Event()

        async def drag(page):
            ws, t = page["ws"], 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t, "id": 1})
            while not stop.is_set():
                t += 33
                page["seq"] += 1
                try:
                    await ws.send(json.dumps({"type": "touch", "phase": "move", "dx": 0, "dy": 3, "t": t, "id": 1,
                                              "seq": page["seq"]}))
                except Exception:
                    return
                await asyncio.sleep(0.033)

        async def read(page):  # what the server acknowledged, frame by frame
            try:
                async for raw in page["ws"]:
                    message = json.loads(raw)
                    ack = message.get("ack") if message.get("type") == "frame" else None
                    if ack and "0" in ack:
                        page["acked"] = max(page["acked"], ack["0"])
            except Exception:
                pass

        tasks = [asyncio.create_task(f(p)) for p in pages for f in (drag, read)]
        await asyncio.to_thread(wait_for, lambda: all(p["acked"] >= 5 for p in pages), what="every session dragging")
        c.servers["n1"].proc.send_signal(signal.SIGTERM)
        await asyncio.to_thread(c.servers["n1"].proc.wait, 15)
        stop.set()
        await asyncio.gather(*tasks)
        assert c.servers["n1"].proc.returncode == 0, c.servers["n1"].output()
        for page in pages:
            welcome = page["welcome"]
            async with connect_to(c.url(welcome["session"], "n1")) as ws:
                again, _ = await hello(ws, session=welcome["session"], token=welcome["token"])
                assert again["resumed"] is True and again["node"] == "n2" and "notice" not in again, again
                assert again["takeover"]["from"] == "n1", again
                assert again.get("ack", 0) >= page["acked"], (again.get("ack"), page["acked"])
        for ws in others:
            await ws.close()

    run(scenario, timeout=50)


def test_serve_refuses_a_bad_node_name_or_store_address():
    binary = server_support.server_binary()
    for args, message in ((["--node", "bad name"], "node must be 1 to 32 letters"),
                          (["--store", "http://x"], "--store 'http://x': the scheme 'http' is not supported")):
        done = subprocess.run([str(binary), "serve", "--port", "0", *args], capture_output=True, text=True, timeout=10)
        assert done.returncode != 0 and message in done.stderr, done.stderr
