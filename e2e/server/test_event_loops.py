"""Both event loops the server can run on (`--event-loop libuv`, the default, and lws's own `poll`) do the
same job: a session drags and gets frames, a message over the limit is refused with 1009, a quiet peer is
pinged, and SIGTERM closes everyone with 1001. The rest of the suite runs on the default loop."""
from __future__ import annotations

import asyncio
import signal

import pytest

from conftest import hello, recv_until, run, send_json, wait_closed, ws_connect


@pytest.mark.parametrize("loop", ["libuv", "poll"])
def test_each_event_loop_serves_refuses_and_shuts_down_cleanly(fresh_server, loop):
    srv = fresh_server("--event-loop", loop, "--idle-timeout", "2")

    async def scenario():
        async with ws_connect(srv) as dragging, ws_connect(srv) as oversized, ws_connect(srv) as quiet:
            _, first = await hello(dragging)
            await send_json(dragging, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1})
            await send_json(dragging, {"type": "touch", "phase": "move", "dx": 0, "dy": -40, "t": 17})
            moved, _ = await recv_until(
                dragging, lambda m: m["type"] == "frame" and m["offset"]["y"] > first["offset"]["y"])
            assert moved["phase"] == "dragging"

            await hello(oversized)
            await oversized.send("x" * (20 * 1024))
            assert await wait_closed(oversized) == 1009

            # The quiet client's library answers the server's ping, so it is still served after the ping
            # interval (1 s here) and past the hang-up time (2 s).
            await hello(quiet)
            await asyncio.sleep(2.5)
            await send_json(quiet, {"type": "ping", "t": 7})
            assert (await recv_until(quiet, lambda m: m["type"] == "pong"))[0]["t"] == 7

            srv.proc.send_signal(signal.SIGTERM)
            assert await asyncio.gather(wait_closed(dragging), wait_closed(quiet)) == [1001, 1001]

    run(scenario)
    assert srv.terminate() == 0, srv.output()
