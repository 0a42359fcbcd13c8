"""The edge controls over the real WebSocket: a strict top threshold, load-more through to noMoreData,
a side edge, and a failing load that a retry recovers. Every expectation is an observable message."""
from __future__ import annotations

from conftest import hello, recv_until, run, send_json, ws_connect

VIEWPORT_H = 844.0


def finger_travel(shown: float, d: float = VIEWPORT_H, c: float = 0.55) -> float:
    """The finger travel that shows `shown` px of pull: the rubber band's inverse x(b) = b·d/(c·(d − b))."""
    return shown * d / (c * (d - shown))


async def transitions_until(ws, edge: str, final: str, timeout: float = 10.0) -> list[str]:
    """Collects `edge`'s transitions (from→to) until it enters `final`."""
    seen: list[str] = []

    def done(message: dict) -> bool:
        if message["type"] == "event" and message["name"] == "transition" and message.get("edge") == edge:
            seen.append(f'{message["from"]}→{message["to"]}')
            return message["to"] == final
        return False

    await recv_until(ws, done, timeout=timeout)
    return seen


def test_ms_top_threshold_is_strict(server):
    """MSPullToRefreshController engages only strictly past its 30 px refreshable inset."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ms")
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            # Exactly 30 px shown: not past a strict threshold.
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": finger_travel(30), "t": t + 16})
            frame, _ = await recv_until(
                ws, lambda m: m["type"] == "frame" and any(
                    e["edge"] == "top" and abs(e["distance"] - 30) < 1e-3 for e in m["edges"]))
            top = next(e for e in frame["edges"] if e["edge"] == "top")
            assert top["state"] == "pulling", top
            # A little more, and it is armed; letting go starts it.
            await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": 2, "t": t + 32})
            await recv_until(ws, lambda m: m["type"] == "event" and m["name"] == "armed" and m.get("edge") == "top")
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 200})
            seen = await transitions_until(ws, "top", "idle")
            assert seen == ["armed→refreshing", "refreshing→finishing", "finishing→idle"], seen
    run(scenario)


def test_bottom_load_more_runs_through_to_no_more_data(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            await send_json(ws, {"type": "configure", "feed": {"totalItems": 50, "pageSize": 20, "latencyMs": 100}})
            for expected in (40, 50):  # 20 → 40 → 50: the short page ends it
                await send_json(ws, {"type": "command", "name": "scrollToEdge", "edge": "bottom", "animated": False})
                await recv_until(ws, lambda m, count=expected: m["type"] == "frame" and m["feed"]["count"] == count)
            frame, _ = await recv_until(
                ws, lambda m: m["type"] == "frame"
                and any(e["edge"] == "bottom" and e["state"] == "noMoreData" for e in m["edges"]))
            assert frame["feed"]["hasMore"] is False
            # At the end with no more pages, nothing triggers.
            await send_json(ws, {"type": "command", "name": "loadMore"})
            await send_json(ws, {"type": "command", "name": "scrollToEdge", "edge": "bottom", "animated": False})
            await send_json(ws, {"type": "ping", "t": 1})
            _, before = await recv_until(ws, lambda m: m["type"] == "pong")
            assert not any(m["type"] == "event" and m["name"] == "didStart" for m in before), before
    run(scenario)


def test_a_side_edge_refreshes(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ht")  # HTRefreshView: all four edges
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            for i in range(10):
                await send_json(ws, {"type": "touch", "phase": "move", "dx": 30, "dy": 0, "t": t + 16 * (i + 1)})
            await recv_until(ws, lambda m: m["type"] == "event" and m["name"] == "armed" and m.get("edge") == "left")
            await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 400})
            seen = await transitions_until(ws, "left", "idle")
            assert seen == ["armed→refreshing", "refreshing→finishing", "finishing→idle"], seen
    run(scenario)


def test_a_failing_load_shows_failed_and_a_retry_loads(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            await send_json(ws, {"type": "configure", "feed": {"failureRate": 1, "latencyMs": 100}})
            await send_json(ws, {"type": "command", "name": "scrollToEdge", "edge": "bottom", "animated": False})
            _, before = await recv_until(
                ws, lambda m: m["type"] == "event" and m["name"] == "transition" and m.get("edge") == "bottom"
                and m["to"] == "failed", timeout=10)
            assert any(m["type"] == "event" and m["name"] == "feedFailed" for m in before)
            assert any(m["type"] == "event" and m["name"] == "didStart" and m.get("edge") == "bottom" for m in before)
            await send_json(ws, {"type": "configure", "feed": {"failureRate": 0}})
            await send_json(ws, {"type": "command", "name": "retry", "edge": "bottom"})
            seen = await transitions_until(ws, "bottom", "idle")
            assert seen[0] == "failed→refreshing", seen
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["feed"]["count"] == 40)
            assert frame["feed"]["count"] == 40
    run(scenario)


def test_an_accepted_configure_is_echoed_as_the_whole_config(server):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws)
            assert welcome["config"]["edges"]["top"]["triggerDistance"] == 100
            await send_json(ws, {"type": "configure", "edges": {"top": {"triggerDistance": 80}}})
            config, _ = await recv_until(ws, lambda m: m["type"] == "config")
            assert config["preset"] == "ios"
            assert config["config"]["edges"]["top"]["triggerDistance"] == 80
            await send_json(ws, {"type": "configure", "preset": "jh"})
            config, _ = await recv_until(ws, lambda m: m["type"] == "config")
            assert config["preset"] == "jh" and config["config"]["edges"]["top"]["endsOnCycleBoundary"] is True
            # A refused configure changes nothing and echoes no config.
            await send_json(ws, {"type": "configure", "edges": {"top": {"triggerDistance": -5}}})
            error, before = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["ref"] == "configure" and not any(m["type"] == "config" for m in before)
    run(scenario)
