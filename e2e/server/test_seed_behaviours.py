"""The presets behave like their seed libraries (docs/SEEDS.md), over the real
WebSocket: each test drives the real server the way a user would and reads what the frames and events say.
The library behaviour each test holds the engine to is cited from docs/SEEDS.md (the research notes'
headings)."""
from __future__ import annotations

from conftest import hello, recv_until, run, send_json, ws_connect

VIEWPORT_H = 844.0


def finger_travel(shown: float, d: float = VIEWPORT_H, c: float = 0.55) -> float:
    """The finger travel that shows `shown` px of pull: the rubber band's inverse x(b) = b·d/(c·(d − b))."""
    return shown * d / (c * (d - shown))


def edge_of(frame: dict, name: str) -> dict | None:
    return next((e for e in frame["edges"] if e["edge"] == name), None)


def is_frame_where(name: str, test) -> callable:
    """A predicate: a frame whose `name` edge exists and passes `test`."""
    def predicate(message: dict) -> bool:
        if message["type"] != "frame":
            return False
        entry = edge_of(message, name)
        return entry is not None and test(entry, message)
    return predicate


def is_event(name: str, edge: str):
    return lambda m: m["type"] == "event" and m["name"] == name and m.get("edge") == edge


async def synced(ws) -> list[dict]:
    """Everything the server sent before it answered a ping sent now: every input sent earlier is applied."""
    await send_json(ws, {"type": "ping", "t": 1})
    _, before = await recv_until(ws, lambda m: m["type"] == "pong")
    return before


def test_ht_hides_its_footer_while_the_list_fits(server):
    """HTRefreshView, on a list no taller than the viewport less the app's insets, hides its footer, switches
    load-more off and gives the bottom inset back (docs/SEEDS.md §3.4, contentSize changes); once the list is
    taller, the footer and its prompting inset come back."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ht")
            # 5 rows of 72 px = 360 px on an 844 px viewport: the list fits; more pages exist.
            await send_json(ws, {"type": "configure", "feed": {"pageSize": 5, "totalItems": 100}})
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["feed"]["count"] == 5)
            bottom = edge_of(frame, "bottom")
            assert bottom["state"] == "disabled", bottom
            assert frame["insets"]["bottom"] == 0, frame["insets"]
            # A pull up at the end starts nothing.
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            for i in range(8):
                await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -40, "t": t + 16 * (i + 1)})
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 400})
            await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "idle")
            before = await synced(ws)
            assert not any(is_event("didStart", "bottom")(m) for m in before), before
            # A taller list: the footer is back with its prompting inset (44 px in the preset).
            await send_json(ws, {"type": "configure", "feed": {"pageSize": 20}})
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["feed"]["count"] == 20)
            assert edge_of(frame, "bottom")["state"] == "idle", edge_of(frame, "bottom")
            assert frame["insets"]["bottom"] == 44, frame["insets"]
    run(scenario)


def test_iq_a_fling_that_reaches_the_end_loads_nothing_until_a_drag(server):
    """IQPullToRefresh's default footer: a fling that reaches the end after the finger lifted does not load
    more; a later drag at the end does (docs/SEEDS.md §5.3, Load-more state machine). The engine's `fling:
    ignore` says the same: momentum never starts anything."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="iq")
            # A fast flick upwards: 20 rows (1440 px) on 844 px, the end is 596 px away.
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            for i in range(6):
                await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -50, "t": t + 8 * (i + 1)})
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 56})
            await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "animating")
            rest, moving = await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "idle")
            before = moving + await synced(ws)
            started = [m for m in before if is_event("didStart", "bottom")(m)]
            assert not started, f"a fling started a load: {started}"
            # It did reach the end: the content rests on it.
            assert abs(edge_of(rest, "bottom")["distance"]) < 1, edge_of(rest, "bottom")
            # A drag at the end starts the load.
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t + 2000})
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -10, "t": t + 2016})
            event, _ = await recv_until(ws, is_event("didStart", "bottom"))
            assert event["cause"] == "reachEdge", event
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 2032})
    run(scenario)


def test_gv_stretches_by_the_unclamped_pull(server):
    """GVRefreshControl's `stretches` scales the view by its visible percentage, which is not clamped: 1.5 at
    150 % (docs/SEEDS.md §4.2, Behaviour)."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="gv")
            await send_json(ws, {"type": "configure", "edges": {"top": {"viewBehaviour": "stretches"}}})
            await recv_until(ws, lambda m: m["type"] == "config")
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": finger_travel(50), "t": t + 16})
            half, _ = await recv_until(ws, is_frame_where("top", lambda e, _: abs(e["distance"] - 50) < 0.01))
            assert abs(edge_of(half, "top")["scale"] - 0.5) < 1e-3, edge_of(half, "top")
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0,
                                 "dy": finger_travel(150) - finger_travel(50), "t": t + 32})
            frame, _ = await recv_until(ws, is_frame_where("top", lambda e, _: abs(e["distance"] - 150) < 0.01))
            assert abs(edge_of(frame, "top")["scale"] - 1.5) < 1e-3, edge_of(frame, "top")
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 48})
    run(scenario)


def test_ht_dragging_footer_engages_past_its_prompt(server):
    """HTRefreshView's DraggingTrigger footer measures its pull past the bottom inset, which includes the
    prompting inset (docs/SEEDS.md §3.4, Bottom/Right, DraggingTrigger): with refreshable 60 and prompting
    60 it engages only more than 60 px past the prompt, not on any pull past the footer."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ht")
            await send_json(ws, {"type": "configure", "edges": {"bottom": {
                "trigger": "onRelease", "triggerDistance": 60, "promptingInset": 60, "restingInset": 60,
                "height": 60}}})
            await send_json(ws, {"type": "command", "name": "scrollToEdge", "edge": "bottom", "animated": False})
            # At rest on the end, the footer's 60 px prompt shows: 60 px beyond the list's own end.
            await recv_until(ws, is_frame_where(
                "bottom", lambda e, m: abs(e["distance"] - 60) < 1e-3 and m["phase"] == "idle"))
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            # 40 px past the prompt: pulling, 40/60 of the way.
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -finger_travel(40), "t": t + 16})
            frame, seen = await recv_until(ws, is_frame_where("bottom", lambda e, _: abs(e["distance"] - 100) < 0.01))
            bottom = edge_of(frame, "bottom")
            assert bottom["state"] == "pulling", bottom
            assert abs(bottom["progress"] - 40 / 60) < 1e-3, bottom
            assert not any(is_event("armed", "bottom")(m) for m in seen), seen
            # 70 px past the prompt: armed; letting go loads.
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0,
                                 "dy": -(finger_travel(70) - finger_travel(40)), "t": t + 32})
            await recv_until(ws, is_event("armed", "bottom"))
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 200})
            await recv_until(ws, is_event("didStart", "bottom"))
    run(scenario)


def test_iq_preload_counts_on_pull_to_refresh_and_load_more(server):
    """IQPullToRefresh's `preloadOffset` moves both thresholds: pull-to-refresh is eligible at
    (pull + preload) / length ≥ 1 (docs/SEEDS.md §5.2), and the load-more progress runs over the footer's
    length up to `preload` before the end (docs/SEEDS.md §5.3)."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="iq")
            await send_json(ws, {"type": "configure", "edges": {"top": {"preload": 30}, "bottom": {"preload": 100}},
                                 "feed": {"latencyMs": 50}})
            await recv_until(ws, lambda m: m["type"] == "config")
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": finger_travel(40), "t": t + 16})
            frame, _ = await recv_until(ws, is_frame_where("top", lambda e, _: abs(e["distance"] - 40) < 0.01))
            top = edge_of(frame, "top")
            assert top["state"] == "pulling" and abs(top["progress"] - 70 / 80) < 1e-3, top
            # 55 px shown: 55 + 30 ≥ 80, eligible.
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0,
                                 "dy": finger_travel(55) - finger_travel(40), "t": t + 32})
            frame, _ = await recv_until(ws, is_frame_where("top", lambda e, _: abs(e["distance"] - 55) < 0.01))
            assert edge_of(frame, "top")["state"] == "armed", edge_of(frame, "top")
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 200})
            await recv_until(ws, lambda m: is_event("transition", "top")(m) and m["to"] == "idle", timeout=10)
            rest, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "idle")
            # The end is (content − viewport) px away (the refresh put its new rows on top); 130 px before it
            # the 60 px footer with a 100 px preload is half way.
            end = rest["contentSize"]["h"] - rest["viewport"]["h"]
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": end - 130, "animated": False})
            frame, _ = await recv_until(ws, is_frame_where("bottom", lambda e, _: abs(e["distance"] + 130) < 0.01))
            bottom = edge_of(frame, "bottom")
            assert bottom["state"] == "idle" and abs(bottom["progress"] - 0.5) < 1e-3, bottom
    run(scenario)


def test_ht_auto_footer_starts_once_it_shows_strictly(server):
    """HTRefreshView's AutoTrigger footer starts once it has started to show above the list's end, `y + H − C
    > B − promptingInset`, strictly (docs/SEEDS.md §3.3): with the list's end exactly on the viewport's edge
    nothing starts; one pixel more and it loads."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ht")
            # 20 rows of 72 px on 844 px: the list's end meets the viewport's edge 596 px down.
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 596, "animated": False})
            frame, seen = await recv_until(ws, is_frame_where("bottom", lambda e, _: abs(e["distance"]) < 1e-9))
            assert edge_of(frame, "bottom")["state"] == "idle", edge_of(frame, "bottom")
            before = seen + await synced(ws)
            assert not any(is_event("didStart", "bottom")(m) for m in before), before
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 1, "animated": False})
            event, _ = await recv_until(ws, is_event("didStart", "bottom"))
            assert event["cause"] == "reachEdge", event
    run(scenario)
