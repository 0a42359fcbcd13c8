"""Presets move like their libraries (docs/SEEDS.md), over the real WebSocket: the inset glides on a
`timed` segment of the library's duration and curve (docs/PHYSICS.md §11, docs/PROTOCOL.md "timed"), and
UIKit's own control (`ios`) keeps the bounce spring.

The curve is evaluated independently of the engine and the page: a plain bisection on the Bézier
(timed_support.py). test_seed_inset_curves.py follows every seed preset through a whole refresh."""
from __future__ import annotations

from conftest import hello, recv_until, run, send_json, ws_connect
from timed_support import EASE_IN_EASE_OUT, EASE_OUT, chain, follow_timed, is_frame, pull_and_release, starts_timed


def test_ms_start_and_finish_glide_in_0_2_s_on_a_timed_segment(server):
    """MSPullToRefreshController: `startRefreshingDirection:animated:` and `finishRefreshingDirection:animated:`
    move the inset (and, starting, the offset) in a 0.2 s UIView animation (docs/SEEDS.md §2.3)."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ms")
            # A slow feed, so that the refresh is still running when the start's glide has ended.
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 5000}})
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            frame, _ = await recv_until(ws, is_frame(starts_timed))
            start = chain(frame)[0]
            assert round(start["t1"] - start["t0"], 3) == 200, start
            assert start["x0"] == 0 and start["target"] == -30, start
            assert start["curve"] == EASE_IN_EASE_OUT, start
            rest = (await follow_timed(ws, start)).rest
            assert rest["offset"]["y"] == -30
            assert rest["insets"]["top"] == 30, rest["insets"]
            await send_json(ws, {"type": "command", "name": "finish", "edge": "top"})
            frame, _ = await recv_until(ws, is_frame(lambda f: starts_timed(f) and chain(f)[0]["target"] == 0))
            end = chain(frame)[0]
            assert round(end["t1"] - end["t0"], 3) == 200, end
            assert end["x0"] == -30 and end["curve"] == EASE_IN_EASE_OUT, end
            rest = (await follow_timed(ws, end)).rest
            assert rest["offset"]["y"] == 0
    run(scenario)


def test_ht_release_start_glides_in_0_25_s_ease_out_from_where_the_finger_left(server):
    """HTRefreshView freezes the offset where it shows and animates the inset over 0.25 s ease-out
    (docs/SEEDS.md §3.3)."""
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws, preset="ht")
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 5000}})
            held = await pull_and_release(ws, welcome["member"])
            frame, _ = await recv_until(ws, is_frame(starts_timed))
            start = chain(frame)[0]
            assert round(start["t1"] - start["t0"], 3) == 250, start
            assert start["x0"] == held["offset"]["y"] < -60 and start["target"] == -60, (start, held["offset"])
            assert start["curve"] == EASE_OUT, start
            rest = (await follow_timed(ws, start)).rest
            assert rest["offset"]["y"] == -60
    run(scenario)


def test_ios_still_moves_on_the_bounce_spring(server):
    """UIKit's own control: the content goes to the resting inset on the engine's spring, not a timed one."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ios")
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 5000}})
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            frame, _ = await recv_until(ws, is_frame(lambda f: f["phase"] == "animating" and chain(f)))
            assert [s["kind"] for s in chain(frame)] == ["spring"], chain(frame)
            assert chain(frame)[0]["target"] == -60
            frame, _ = await recv_until(ws, is_frame(lambda f: f["phase"] == "idle"))
            assert frame["offset"]["y"] == -60
    run(scenario)
