"""The `refreshkit.v1` WebSocket: hello/welcome, inputs → frames, errors that keep the session alive,
limits."""
from __future__ import annotations

import asyncio
import json
import re
import time
from itertools import pairwise

import pytest
import websockets

from conftest import hello, recv_json, recv_until, run, send_json, wait_closed, ws_connect

HEX128 = re.compile(r"^[0-9a-f]{32}$")


def test_hello_gets_welcome_then_frame(server):
    async def scenario():
        async with ws_connect(server) as ws:
            assert ws.subprotocol == "refreshkit.v1"
            welcome, frame = await hello(ws)
            assert HEX128.match(welcome["session"]), welcome
            assert HEX128.match(welcome["token"]), welcome
            assert welcome["session"] != welcome["token"]
            assert welcome["preset"] == "ios"
            assert isinstance(welcome["presets"], list) and "ios" in welcome["presets"]
            assert isinstance(welcome["serverT"], (int, float))
            assert frame["type"] == "frame"
            assert isinstance(frame["seq"], int)
            assert {"x", "y"} <= set(frame["offset"])
            assert frame["phase"] in {"idle", "dragging", "wheel", "animating"}
    run(scenario)


def test_sessions_get_distinct_ids(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            (wa, _), (wb, _) = await hello(a), await hello(b)
            assert wa["session"] != wb["session"] and wa["token"] != wb["token"]
    run(scenario)


def test_touch_drag_produces_frames(server):
    async def scenario():
        async with ws_connect(server) as ws:
            _, first = await hello(ws)
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame")
            assert frame["seq"] > first["seq"]
            last = frame
            for _ in range(6):
                t += 16.7
                await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": 20, "t": t})
                frame, _ = await recv_until(ws, lambda m: m["type"] == "frame")
                assert frame["seq"] > last["seq"]
                last = frame
            # Pulled down at the top: the content follows the finger, offset.y goes negative.
            assert last["offset"]["y"] < first["offset"]["y"], last
            assert last["phase"] == "dragging", last
            t += 16.7
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t})
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame")
            assert frame["seq"] > last["seq"]
            assert frame["phase"] in {"idle", "animating"}, frame
    run(scenario)


def test_server_time_is_wall_clock_time(server):
    """serverT, a frame's t and a pong's serverT are the wall clock's time, ms since the Unix epoch (the server's
    clock: the wall clock read at its start, advanced by the monotonic clock; docs/PROTOCOL.md, "Clocks"), so
    processes on machines synchronised by NTP agree on it."""
    async def scenario():
        async with ws_connect(server) as ws:
            before = time.time() * 1000
            welcome, frame = await hello(ws)
            await send_json(ws, {"type": "ping", "t": 1.0})
            pong, _ = await recv_until(ws, lambda m: m["type"] == "pong")
            after = time.time() * 1000
            # 1 ms for the rounding of both clocks to the microsecond, and nothing else.
            for name, value in (("welcome.serverT", welcome["serverT"]), ("frame.t", frame["t"]),
                                ("pong.serverT", pong["serverT"])):
                assert before - 1 <= value <= after + 1, (name, before, value, after)
    run(scenario)


def test_ping_gets_pong_before_and_after_hello(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await send_json(ws, {"type": "ping", "t": 12.5})
            pong = await recv_json(ws)
            assert pong["type"] == "pong" and pong["t"] == 12.5 and isinstance(pong["serverT"], (int, float))
            await hello(ws)
            await send_json(ws, {"type": "ping", "t": 99.25})
            pong2, _ = await recv_until(ws, lambda m: m["type"] == "pong")
            assert pong2["t"] == 99.25 and pong2["serverT"] >= pong["serverT"]
    run(scenario)


def test_malformed_json_is_an_error_and_the_session_keeps_working(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            await ws.send('{"type": "touch", "phase": ')
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "bad_json", error
            assert isinstance(error["message"], str) and error["message"]
            await send_json(ws, {"type": "ping", "t": 7})
            pong, _ = await recv_until(ws, lambda m: m["type"] == "pong")
            assert pong["t"] == 7
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1})
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame")
            assert frame["type"] == "frame"
    run(scenario)


def test_invalid_message_errors_carry_a_code(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            for text, code in [('[1,2]', "bad_message"), ('{"type":"teleport"}', "unknown_type")]:
                await ws.send(text)
                error, _ = await recv_until(ws, lambda m: m["type"] == "error")
                assert error["code"] == code, (text, error)
    run(scenario)


def test_input_before_hello_is_not_ready(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1})
            error = await recv_json(ws)
            assert error["type"] == "error" and error["code"] == "not_ready", error
            assert error.get("ref") == "touch"
            # ...and hello still works afterwards.
            await hello(ws)
    run(scenario)


def test_unknown_preset_in_hello_is_an_error(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 1,
                                 "preset": "no-such-preset"})
            error = await recv_json(ws)
            assert error["type"] == "error" and error["code"] == "unknown_preset", error
            await hello(ws)  # a valid hello still succeeds
    run(scenario)


def test_second_hello_starts_a_new_session(server):
    async def scenario():
        async with ws_connect(server) as ws:
            first, _ = await hello(ws)
            second, frame = await hello(ws)
            assert second["session"] != first["session"]
            assert frame["type"] == "frame"
    run(scenario)


def test_binary_frame_is_unsupported(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await ws.send(b"\x01\x02\x03")
            error = await recv_json(ws)
            assert error["type"] == "error" and error["code"] == "binary_unsupported", error
            await send_json(ws, {"type": "ping", "t": 1})
            pong = await recv_json(ws)
            assert pong["type"] == "pong"
    run(scenario)


def test_message_over_16_kib_closes_with_1009(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            big = json.dumps({"type": "ping", "t": 1, "pad": "x" * (20 * 1024)})
            await ws.send(big)
            assert await wait_closed(ws) == 1009
    run(scenario)


def test_fragmented_message_within_the_limit_is_accepted(server):
    async def scenario():
        async with ws_connect(server) as ws:
            text = json.dumps({"type": "ping", "t": 3, "pad": "y" * 9000})
            await ws.send([text[:4000], text[4000:8000], text[8000:]])  # three fragments
            pong = await recv_json(ws)
            assert pong["type"] == "pong" and pong["t"] == 3
    run(scenario)


def test_single_frame_larger_than_the_receive_buffer_is_reassembled(server):
    # 12 KiB in one frame arrives in several 4 KiB RECEIVE callbacks; under the 16 KiB limit.
    async def scenario():
        async with ws_connect(server) as ws:
            await ws.send(json.dumps({"type": "ping", "t": 4, "pad": "w" * (12 * 1024)}))
            pong = await recv_json(ws)
            assert pong["type"] == "pong" and pong["t"] == 4
    run(scenario)


def test_fragmented_message_over_the_limit_closes_with_1009(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await ws.send(["z" * 6000 for _ in range(4)])
            assert await wait_closed(ws) == 1009
    run(scenario)


def test_connection_without_the_subprotocol_gets_nothing_from_refreshkit(server):
    # Without `refreshkit.v1` the connection binds to the HTTP dummy protocol: no session, no replies.
    async def scenario():
        try:
            async with ws_connect(server, subprotocol=None) as ws:
                await send_json(ws, {"type": "ping", "t": 1})
                try:
                    message = await recv_json(ws, timeout=1.0)
                except (TimeoutError, websockets.ConnectionClosed):
                    return
                assert message.get("type") != "pong", message
        except (websockets.InvalidHandshake, OSError):
            return
    run(scenario)


def test_animation_is_ticked_without_input_and_stops_at_rest(server):
    # A small pull at the top, released: the spring back is driven by the server's tick alone.
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1000})
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": 40, "t": 1016})
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": 1200})
            loop = asyncio.get_running_loop()
            arrivals: list[float] = []
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "animating")
            while frame["phase"] != "idle":
                frame, _ = await recv_until(ws, lambda m: m["type"] == "frame", timeout=3)
                arrivals.append(loop.time())
            assert len(arrivals) >= 3, "the animation produced no tick frames"
            gaps = sorted(b - a for a, b in pairwise(arrivals))
            if gaps:
                median = gaps[len(gaps) // 2]
                assert 0.005 <= median <= 0.05, f"median tick gap {median * 1000:.1f} ms (60 Hz expected)"
            # At rest the session is idle: the server sends nothing more.
            with pytest.raises((TimeoutError, asyncio.TimeoutError)):
                await recv_json(ws, timeout=0.5)
    run(scenario)
