"""The wire tests that every transport passes (docs/EMBEDDING.md, "In a Hummingbird app"): hello, resume with the
token, two devices in one session, a refresh, bad messages that leave the session working, and a graceful stop. Each
runs against `refreshkit serve` and against the Hummingbird example (conftest.py's `served`)."""
from __future__ import annotations

import json
import re
import signal
import urllib.request

import pytest
import websockets

from conftest import TRANSPORTS, start
from wire_support import drag, hello, join, recv_json, recv_until, run, send_json, touch, wait_closed, ws_connect

HEX128 = re.compile(r"^[0-9a-f]{32}$")


def is_transition_to(state: str):
    return lambda m: m["type"] == "event" and m["name"] == "transition" and m["to"] == state


def test_hello_gets_a_welcome_then_a_frame(served):
    async def scenario():
        async with ws_connect(served) as ws:
            assert ws.subprotocol == "refreshkit.v1"
            welcome, frame = await hello(ws)
            assert HEX128.match(welcome["session"]) and HEX128.match(welcome["token"]), welcome
            assert welcome["preset"] == "ios" and "ios" in welcome["presets"]
            assert frame["type"] == "frame" and {"x", "y"} <= set(frame["offset"])
    run(scenario)


def test_a_page_that_comes_back_with_its_token_resumes_its_session(served):
    async def scenario():
        async with ws_connect(served) as ws:
            welcome, _ = await hello(ws)
            await drag(ws, 5, -30)
            moved, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] > 0)
        async with ws_connect(served) as ws:
            again, frame = await hello(ws, session=welcome["session"], token=welcome["token"])
            assert again["session"] == welcome["session"] and again["resumed"] is True and again["member"] == 0
            assert frame["seq"] >= moved["seq"] and frame["offset"]["y"] > 0, frame
    run(scenario)


def test_two_devices_in_one_session_see_the_same_frames(served):
    async def scenario():
        async with ws_connect(served) as a, ws_connect(served) as b:
            wa, _ = await hello(a)
            wb, _ = await hello(b, **join(wa))
            assert wb["session"] == wa["session"] and wb["member"] == 1
            room, _ = await recv_until(a, lambda m: m["type"] == "room")
            assert room["members"] == 2
            await send_json(a, touch("start", 0, 1000))
            await send_json(a, touch("move", -40, 1016))
            seen_a, _ = await recv_until(a, lambda m: m["type"] == "frame" and m["offset"]["y"] > 0)
            seen_b, _ = await recv_until(b, lambda m: m["type"] == "frame" and m["seq"] >= seen_a["seq"])
            assert seen_b["offset"] == seen_a["offset"] or seen_b["seq"] > seen_a["seq"]
    run(scenario)


def test_a_refresh_goes_through_refreshing_and_brings_rows(served):
    async def scenario():
        async with ws_connect(served) as ws:
            await hello(ws)
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            await recv_until(ws, is_transition_to("refreshing"))
            _, seen = await recv_until(ws, is_transition_to("idle"), timeout=10)
            fresh = [m for m in seen if m["type"] == "rows" and m["op"] in ("prepend", "replace")]
            loaded = [m for m in seen if m["type"] == "event" and m["name"] == "feedLoaded"]
            assert loaded or fresh, seen
    run(scenario)


def test_a_note_posted_to_the_apps_own_route_comes_on_top_with_a_refresh(served):
    if served.transport != "hummingbird":
        pytest.skip("the notes board is the Hummingbird example's own data")

    async def scenario():
        async with ws_connect(served) as ws:
            _, first = await hello(ws)
            if not (first.get("feed") or {}).get("count"):
                # the board's first page comes after the first frame (a fetch off the host's thread): taken first, so
                # that the rows the refresh brings are the refresh's
                await recv_until(ws, lambda m: m["type"] == "rows")
            request = urllib.request.Request(served.url + "/notes", data=json.dumps({"text": "Bring the map"}).encode(),
                                             headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(request, timeout=5) as answer:
                assert answer.status == 201
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            fresh, _ = await recv_until(ws, lambda m: m["type"] == "rows" and m["op"] in ("prepend", "replace"))
            assert fresh["items"][0]["text"] == "Bring the map", fresh["items"][0]
    run(scenario)


def test_bad_messages_get_errors_and_the_session_goes_on(served):
    async def scenario():
        async with ws_connect(served) as ws:
            await hello(ws)
            await ws.send('{"type": "touch", "phase": ')
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "bad_json" and error["message"], error
            await ws.send(b"\x01\x02")
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "binary_unsupported", error
            await send_json(ws, {"type": "ping", "t": 7})
            pong, _ = await recv_until(ws, lambda m: m["type"] == "pong")
            assert pong["t"] == 7
            await send_json(ws, touch("start", 0, 1))
            await recv_until(ws, lambda m: m["type"] == "frame")
    run(scenario)


def test_a_message_over_the_limit_closes_with_1009(served):
    async def scenario():
        async with ws_connect(served) as ws:
            await hello(ws)
            await ws.send(json.dumps({"type": "ping", "t": 1, "pad": "x" * (20 * 1024)}))
            assert await wait_closed(ws) == 1009
    run(scenario)


def test_a_connection_without_the_subprotocol_gets_no_session(served):
    async def scenario():
        try:
            async with ws_connect(served, subprotocol=None) as ws:
                await send_json(ws, {"type": "ping", "t": 1})
                try:
                    message = await recv_json(ws, timeout=1.0)
                except (TimeoutError, websockets.ConnectionClosed):
                    return
                assert message.get("type") != "pong", message
        except (websockets.InvalidHandshake, OSError):
            return
    run(scenario)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_graceful_stop_closes_every_websocket_with_1001_and_exits_0(transport):
    srv = start(transport)

    async def scenario():
        async with ws_connect(srv) as a, ws_connect(srv) as b:
            await hello(a)
            await hello(b)
            srv.proc.send_signal(signal.SIGTERM)
            assert await wait_closed(a) == 1001 and await wait_closed(b) == 1001
    try:
        run(scenario)
        assert srv.proc.wait(10) == 0, srv.output()
        assert not srv.error_lines(), srv.error_lines()
    finally:
        srv.kill()
