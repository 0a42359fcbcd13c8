"""Where each seed library's control sits and what starts it, over the real WebSocket against the real server:
IQPullToRefresh loads more on a short list only when a drag moves the content up. The library behaviour each
test holds the engine to is cited from docs/SEEDS.md."""
from __future__ import annotations

from conftest import hello, recv_until, run, send_json, ws_connect
from test_seed_behaviours import is_event, is_frame_where, synced


def close_to(a: float, b: float, tolerance: float = 1e-6) -> bool:
    return abs(a - b) < tolerance


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
