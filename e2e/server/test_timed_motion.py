"""Presets move like their libraries (docs/SEEDS.md), over the real WebSocket: the inset glides on a
`timed` segment of the library's duration and curve (docs/PHYSICS.md §11, docs/PROTOCOL.md "timed"), and
UIKit's own control (`ios`) keeps the bounce spring.

The curve is evaluated here independently of the engine and the page: a plain bisection on the Bézier."""
from __future__ import annotations

from conftest import hello, recv_until, run, send_json, ws_connect

EASE_IN_EASE_OUT = [0.42, 0, 0.58, 1]  # Core Animation's easeInEaseOut, UIView's default curve
EASE_OUT = [0, 0, 0.58, 1]  # Core Animation's easeOut (HTRefreshView)
VIEWPORT_H = 844.0


def bezier(s: float, p1: float, p2: float) -> float:
    return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s * s * p2 + s ** 3


def curve_progress(curve: list[float], fraction: float) -> float:
    """y for x = fraction on the unit cubic Bézier with control points (x1, y1), (x2, y2), by bisection."""
    if fraction <= 0:
        return 0.0
    if fraction >= 1:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(100):
        mid = (low + high) / 2
        if bezier(mid, curve[0], curve[2]) < fraction:
            low = mid
        else:
            high = mid
    return bezier((low + high) / 2, curve[1], curve[3])


def timed_position(segment: dict, t: float) -> float:
    fraction = (t - segment["t0"]) / (segment["t1"] - segment["t0"])
    return segment["x0"] + (segment["target"] - segment["x0"]) * curve_progress(segment["curve"], fraction)


def is_frame(predicate):
    return lambda m: m["type"] == "frame" and predicate(m)


def vertical(frame: dict) -> list[dict]:
    return (frame.get("segment") or {}).get("y") or []


async def follow_timed(ws, segment: dict) -> dict:
    """Reads frames until the segment's end: every frame in between shows the curve's position at its own
    time (within the wire's 3 decimals); returns the first frame at rest."""
    checked = 0
    while True:
        frame, _ = await recv_until(ws, lambda m: m["type"] == "frame")
        if frame["phase"] != "animating":
            assert frame["offset"]["y"] == segment["target"], frame["offset"]
            assert checked > 0 or frame["t"] >= segment["t1"]
            return frame
        chain = vertical(frame)
        if chain and chain[0] == segment and segment["t0"] < frame["t"] < segment["t1"]:
            expected = timed_position(segment, frame["t"])
            assert abs(frame["offset"]["y"] - expected) <= 2e-3, (frame["t"], frame["offset"]["y"], expected)
            checked += 1


def test_ms_start_and_finish_glide_in_0_2_s_on_a_timed_segment(server):
    """MSPullToRefreshController: `startRefreshingDirection:animated:` and `finishRefreshingDirection:animated:`
    move the inset (and, starting, the offset) in a 0.2 s UIView animation (docs/SEEDS.md §2.3)."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ms")
            # A slow feed, so that the refresh is still running when the start's glide has ended.
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 5000}})
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            frame, _ = await recv_until(ws, is_frame(lambda f: vertical(f)[:1] and vertical(f)[0]["kind"] == "timed"))
            start = vertical(frame)[0]
            assert round(start["t1"] - start["t0"], 3) == 200, start
            assert start["x0"] == 0 and start["target"] == -30, start
            assert start["curve"] == EASE_IN_EASE_OUT, start
            rest = await follow_timed(ws, start)
            assert rest["offset"]["y"] == -30
            assert rest["insets"]["top"] == 30, rest["insets"]
            await send_json(ws, {"type": "command", "name": "finish", "edge": "top"})
            frame, _ = await recv_until(
                ws,
                is_frame(lambda f: vertical(f)[:1] and vertical(f)[0]["kind"] == "timed"
                         and vertical(f)[0]["target"] == 0),
            )
            end = vertical(frame)[0]
            assert round(end["t1"] - end["t0"], 3) == 200, end
            assert end["x0"] == -30 and end["curve"] == EASE_IN_EASE_OUT, end
            rest = await follow_timed(ws, end)
            assert rest["offset"]["y"] == 0
    run(scenario)


def test_ht_release_start_glides_in_0_25_s_ease_out_from_where_the_finger_left(server):
    """HTRefreshView freezes the offset where it shows and animates the inset over 0.25 s ease-out
    (docs/SEEDS.md §3.3)."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ht")
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 5000}})
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            for i in range(10):
                await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": 30, "t": t + 16 * (i + 1)})
            # The finger rests, then lifts: no fling.
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 400})
            frame, _ = await recv_until(ws, is_frame(lambda f: vertical(f)[:1] and vertical(f)[0]["kind"] == "timed"))
            start = vertical(frame)[0]
            assert round(start["t1"] - start["t0"], 3) == 250, start
            assert start["x0"] < -60 and start["target"] == -60, start
            assert start["curve"] == EASE_OUT, start
            rest = await follow_timed(ws, start)
            assert rest["offset"]["y"] == -60
    run(scenario)


def test_ios_still_moves_on_the_bounce_spring(server):
    """UIKit's own control: the content goes to the resting inset on the engine's spring, not a timed one."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ios")
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 5000}})
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            frame, _ = await recv_until(ws, is_frame(lambda f: f["phase"] == "animating" and vertical(f)))
            assert [s["kind"] for s in vertical(frame)] == ["spring"], vertical(frame)
            assert vertical(frame)[0]["target"] == -60
            frame, _ = await recv_until(ws, is_frame(lambda f: f["phase"] == "idle"))
            assert frame["offset"]["y"] == -60
    run(scenario)
