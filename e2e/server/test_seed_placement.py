"""Where each seed library's control sits and what starts it, over the real WebSocket against the real server:
JHPullToRefreshKit's anchors place its animation view in the gap unscaled, whatever GVRefreshControl's view
behaviours do, and IQPullToRefresh loads more on a short list only when a drag moves the content up. The library
behaviour each test holds the engine to is cited from docs/SEEDS.md."""
from __future__ import annotations

import pytest

from conftest import hello, recv_until, run, send_json, ws_connect
from test_seed_behaviours import edge_of, finger_travel, is_event, is_frame_where, synced


def close_to(a: float, b: float, tolerance: float = 1e-6) -> bool:
    return abs(a - b) < tolerance


@pytest.mark.parametrize("anchor,view_y", [("top", 0.0), ("middle", 15.0), ("bottom", 30.0)])
def test_jh_anchor_places_the_view_unscaled(server, anchor, view_y):
    """JHPullToRefreshKit, control 70 px tall pulled 100 px: the control stretches over the whole gap and its
    animation view, still 70 px and never scaled, sits at the top (0), in the middle (15) or at the bottom (30)
    of it, by the `jh` preset's own view placement (docs/SEEDS.md §1.3, Geometry: presentation and anchor)."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="jh")
            await send_json(ws, {"type": "configure", "edges": {"top": {
                "height": 70, "triggerDistance": 70, "restingInset": 70, "anchor": anchor}}})
            await recv_until(ws, lambda m: m["type"] == "config")
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            # Half revealed (35 px): the view rides above the content, unscaled.
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": finger_travel(35), "t": t + 16})
            half, _ = await recv_until(ws, is_frame_where("top", lambda e, _: close_to(e["distance"], 35, 0.01)))
            entry = edge_of(half, "top")
            assert entry["scale"] == 1, entry
            assert close_to(entry["view"]["y"], 35 - 70, 0.01) and entry["view"]["h"] == 70, entry
            # Pulled 100 px: the control fills the gap, the view sits where the anchor puts it.
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0,
                                 "dy": finger_travel(100) - finger_travel(35), "t": t + 32})
            frame, _ = await recv_until(ws, is_frame_where("top", lambda e, _: close_to(e["distance"], 100, 0.01)))
            entry = edge_of(frame, "top")
            assert close_to(entry["control"]["y"], 0) and close_to(entry["control"]["h"], entry["distance"]), entry
            assert entry["scale"] == 1, entry
            assert entry["view"]["h"] == 70, entry
            gap = entry["distance"]
            expected = {"top": 0.0, "middle": (gap - 70) / 2, "bottom": gap - 70}[anchor]
            assert close_to(entry["view"]["y"], expected) and close_to(expected, view_y, 0.01), entry
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 48})
    run(scenario)


def test_gv_stretches_ignores_the_anchor(server):
    """GVRefreshControl's `stretches` scales its view by the unclamped pull to fill the space available
    (docs/SEEDS.md §4.2, Behaviour), whatever JHPullToRefreshKit's anchor says: the view is centred on the gap,
    with a top anchor as with a middle one."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="gv")
            await send_json(ws, {"type": "configure", "edges": {"top": {
                "viewBehaviour": "stretches", "anchor": "top"}}})
            await recv_until(ws, lambda m: m["type"] == "config")
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": finger_travel(150), "t": t + 16})
            frame, _ = await recv_until(ws, is_frame_where("top", lambda e, _: close_to(e["distance"], 150, 0.01)))
            entry = edge_of(frame, "top")
            assert close_to(entry["scale"], entry["distance"] / 100), entry
            # The 100 px view, scaled about its centre, covers the gap: its centre is the gap's.
            assert close_to(entry["view"]["y"] + 50, entry["distance"] / 2), entry
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 32})
    run(scenario)


def test_iq_on_a_short_list_only_an_upward_drag_loads_more(server):
    """IQPullToRefresh on a list shorter than the viewport: its load-more progress is 1 at rest, so any small
    upward drag loads more, while a downward drag pulls the refresh control instead and loads nothing; the
    library looks at the content only when a drag moves it (docs/SEEDS.md §5.3, Load-more state machine:
    "Short content + scrollLimitReached")."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="iq")
            # 5 rows of 72 px = 360 px on an 844 px viewport; more pages exist.
            await send_json(ws, {"type": "configure", "feed": {"pageSize": 5, "totalItems": 100}})
            await recv_until(ws, lambda m: m["type"] == "frame" and m["feed"]["count"] == 5)
            # A downward drag, short of the refresh trigger (80 px), and its release.
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            for i in range(4):
                await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": 8, "t": t + 16 * (i + 1)})
            _, seen = await recv_until(ws, is_frame_where("top", lambda e, _: e["state"] == "pulling"))
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 200})
            _, moving = await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "idle")
            seen += moving + await synced(ws)
            started = [m for m in seen if m["type"] == "event" and m["name"] == "didStart"]
            assert not started, f"a downward drag started: {started}"
            # A 1 px upward drag loads more.
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t + 1000})
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -1, "t": t + 1016})
            event, _ = await recv_until(ws, is_event("didStart", "bottom"))
            assert event["cause"] == "reachEdge", event
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 1032})
    run(scenario)


def test_iq_a_touch_at_the_end_loads_nothing_until_the_content_moves(server):
    """IQPullToRefresh evaluates load more when the content's offset changes under a drag: a finger that lands
    at the end of a long list and holds still loads nothing; moving it up by a pixel does (docs/SEEDS.md §5.3)."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="iq")
            await send_json(ws, {"type": "command", "name": "scrollToEdge", "edge": "bottom", "animated": False})
            await recv_until(ws, is_frame_where(
                "bottom", lambda e, m: close_to(e["distance"], 0, 1e-3) and m["phase"] == "idle"))
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            before = await synced(ws)
            assert not any(is_event("didStart", "bottom")(m) for m in before), before
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -1, "t": t + 16})
            event, _ = await recv_until(ws, is_event("didStart", "bottom"))
            assert event["cause"] == "reachEdge", event
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 32})
    run(scenario)
