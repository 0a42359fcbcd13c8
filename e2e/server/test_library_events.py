"""Each library's own events over the wire (`"events": "library"`, docs/SEEDS.md §(b), docs/PROTOCOL.md "event"):
one pull that starts a refresh and the feed's answer that ends it, and the control's callbacks each library's
delegate would receive, in its order, with what it leaves out left out; every library event names ours as `kit`.
RefreshKit's own events stay the default."""
from __future__ import annotations

import pytest

from conftest import hello, recv_until, run, send_json, ws_connect

# The control's callbacks as each library sends them for one pull-to-refresh, start to end (docs/SEEDS.md §(b)).
EXPECTED = {
    "ios": ["valueChanged"],
    "gv": ["valueChanged"],
    "jh": ["valueChanged", "refreshControlDidStart", "refreshControlDidStartAnimationCycle",
           "refreshControlDidEndAnimationCycle", "refreshControlDidEnd"],
    "ms": ["canEngage", "didEngage"],
    "ht": ["CanEngageRefresh", "DidEngageRefresh", "WillEndRefresh", "DidEndRefresh"],
    "iq": [".pulling", ".eligible", ".refreshing", "refreshTriggered", ".none"],
}
OURS = {"armed", "disarmed", "willStart", "didStart", "cycleStarted", "cycleEnded", "endRequested", "willEnd", "didEnd"}


async def one_refresh(ws) -> list[dict]:
    """Pulls the top 300 px (past every seed's trigger) in ten moves, rests, lets go, and reads every message until
    the first frame after the top is back at rest from its refresh (a turn's events go out before its frame);
    returns the top's events."""
    t = 1000.0
    await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
    for i in range(10):
        await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": 30, "t": t + 16 * (i + 1)})
    await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 400})
    events: list[dict] = []
    ended = False

    def done(m: dict) -> bool:
        nonlocal ended
        if m["type"] == "event" and m.get("edge") == "top":
            events.append(m)
            ended = ended or (m["name"] == "transition" and m["from"] == "finishing" and m["to"] == "idle")
        return ended and m["type"] == "frame"
    await recv_until(ws, done, timeout=10)
    return events


def library_names(events: list[dict]) -> list[str]:
    return [e["name"] for e in events if "kit" in e]


@pytest.mark.parametrize("preset", list(EXPECTED))
def test_a_refresh_in_the_librarys_own_events(server, preset):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws, preset=preset)
            assert welcome["config"]["events"] == "refreshkit", "RefreshKit's events are the default"
            await send_json(ws, {"type": "configure", "events": "library", "feed": {"latencyMs": 400}})
            config, _ = await recv_until(ws, lambda m: m["type"] == "config")
            assert config["config"]["events"] == "library"
            events = await one_refresh(ws)
            names = library_names(events)
            if preset == "jh":  # its cycles repeat while the refresh runs: the first and the last are checked
                assert names[:3] == EXPECTED["jh"][:3] and names[-2:] == EXPECTED["jh"][-2:], names
            elif preset == "iq":  # `.pulling` comes again each time the pull drops back below the trigger
                assert [n for i, n in enumerate(names) if i == 0 or n != names[i - 1]] == EXPECTED["iq"], names
            else:
                assert names == EXPECTED[preset], names
            # no callback of ours is sent under our own name, and every library event says which of ours it is
            assert not [e for e in events if e["name"] in OURS], events
            assert all(e["kit"] in OURS | {"transition"} for e in events if "kit" in e), events
    run(scenario)


def test_refreshkits_events_stay_the_default(server):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws, preset="ht")
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 400}})
            await recv_until(ws, lambda m: m["type"] == "config")
            events = await one_refresh(ws)
            assert not [e for e in events if "kit" in e], events
            names = [e["name"] for e in events if e["name"] != "transition"]
            for name in ("armed", "willStart", "didStart", "willEnd", "didEnd"):
                assert names.count(name) == 1, names
    run(scenario)


def test_a_preset_without_a_library_refuses_library_events(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, preset="ios")
            await send_json(ws, {"type": "configure", "events": "mine"})
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "bad_field" and "configure.events" in error["message"], error
    run(scenario)
