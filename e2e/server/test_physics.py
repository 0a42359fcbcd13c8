"""Scroll physics over the real WebSocket: what the page's inputs do to the authoritative offset.

The expected numbers come from the formulas in docs/PHYSICS.md (UIScrollView's rubber band and deceleration),
computed here independently of the Swift engine.
"""
from __future__ import annotations

import math

from conftest import hello, recv_until, run, send_json, ws_connect

VIEWPORT_H = 844.0
RUBBER_BAND = 0.55
DECAY_K = 1000 * math.log(0.998)  # 1/s; UIScrollView.DecelerationRate.normal per ms


def rubber_band(x: float, d: float = VIEWPORT_H, c: float = RUBBER_BAND) -> float:
    """b(x) = (1 − 1/(x·c/d + 1))·d  (docs/PHYSICS.md §1.1)."""
    return (1 - 1 / (x * c / d + 1)) * d


async def touch(ws, phase: str, dy: float, t: float) -> None:
    await send_json(ws, {"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": t})


async def frame_where(ws, predicate, timeout: float = 5.0) -> dict:
    """The first frame that satisfies `predicate` (frames are coalesced: wait for the state, not a count)."""
    frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and predicate(m), timeout=timeout)
    return frame


def test_a_drag_past_the_top_reads_back_the_rubber_banded_offset(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            # No refresh control on top: its resting inset would move the rest position mid-drag.
            await send_json(ws, {"type": "configure", "edges": {"top": {"enabled": False}}})
            await frame_where(ws, lambda f: not any(e["edge"] == "top" for e in f["edges"]))
            await touch(ws, "start", 0, 1000.0)
            await touch(ws, "move", 200, 1016.0)
            frame = await frame_where(ws, lambda f: f["offset"]["y"] < -1)
            assert abs(frame["offset"]["y"] - -rubber_band(200)) < 1e-3, frame["offset"]
            assert abs(frame["offset"]["y"] - -97.3166) < 1e-3  # docs/PHYSICS.md §9 row 2
            # Path independence: the same total in other steps lands on the same offset.
            await touch(ws, "move", 37.5, 1032.0)
            await touch(ws, "move", 62.5, 1048.0)
            frame = await frame_where(ws, lambda f: f["offset"]["y"] < -120)
            assert abs(frame["offset"]["y"] - -rubber_band(300)) < 1e-3, frame["offset"]
    run(scenario)


def test_a_flick_comes_to_rest_at_the_decay_projection(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            # A long list, and a start far from both ends so the decay never meets an edge.
            await send_json(ws, {"type": "configure", "feed": {"totalItems": 1000, "pageSize": 1000}})
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 20000, "animated": False})
            await frame_where(ws, lambda f: f["offset"]["y"] == 20000)
            t = 5000.0
            await touch(ws, "start", 0, t)
            # The finger moves up 20 px every 8 ms on the page's own clock: 2500 px/s, and lifts at once.
            for _ in range(10):
                t += 8
                await touch(ws, "move", -20, t)
            released_at = 20200.0
            await touch(ws, "end", 0, t)
            frame = await frame_where(ws, lambda f: f["phase"] == "animating")
            assert frame["offset"]["y"] == released_at or frame["offset"]["y"] > released_at
            chain = frame["segment"]["y"]
            assert chain[0]["x0"] == released_at, chain[0]
            assert chain[0]["kind"] == "decay", chain
            assert abs(chain[0]["v0"] - 2500) < 1e-6, chain[0]
            assert abs(chain[0]["k"] - DECAY_K) < 1e-6, chain[0]  # the wire keeps 6 decimals
            projected = released_at - 2500 / DECAY_K  # x0 − v0/k (docs/PHYSICS.md §2.1)
            frame = await frame_where(ws, lambda f: f["phase"] == "idle", timeout=10)
            # Within half a device pixel of the projection (dpr 3).
            assert abs(frame["offset"]["y"] - projected) <= 0.5 / 3 + 1e-6, (frame["offset"], projected)
    run(scenario, timeout=20)


def test_a_release_while_overscrolled_springs_back_exactly_to_rest(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            await touch(ws, "start", 0, 1000.0)
            await touch(ws, "move", 120, 1016.0)   # short of the refresh threshold
            await touch(ws, "end", 0, 1200.0)  # the finger rested: no fling
            frame = await frame_where(ws, lambda f: f["phase"] == "animating")
            assert frame["segment"]["y"][0]["kind"] == "spring"
            assert frame["segment"]["y"][0]["target"] == 0
            frame = await frame_where(ws, lambda f: f["phase"] == "idle")
            assert frame["offset"]["y"] == 0
    run(scenario)
