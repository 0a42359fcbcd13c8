"""Delta frames over a real WebSocket (docs/PROTOCOL.md, "delta"): a page that says `"frames":"delta"` in its
hello gets a whole `frame` first and then `delta`s, which rebuild, exactly, the frames a page without it gets;
a bad `frames` value is refused with a clear error and the session carries on."""
from __future__ import annotations

import asyncio
import json
from decimal import Decimal

from conftest import hello, join, recv_json, recv_until, run, send_json, ws_connect


def touch(phase: str, dy: float, t: float, pointer: int = 1) -> dict:
    return {"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": t, "id": pointer}


def exact(raw: str) -> dict:
    """A message with its numbers as exact decimals, so equality means "the same numbers as written"."""
    return json.loads(raw, parse_float=Decimal, parse_int=Decimal)


def merge_patch(target, patch):
    """RFC 7386."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def apply_delta(base: dict, delta: dict) -> dict:
    """The page's side of a delta, from PROTOCOL.md: merge patch (type becomes frame), edges patched by name
    or replaced by an array, and every edge's distance and velocity following the scroll unless given."""
    patch = {k: v for k, v in delta.items() if k not in ("type", "edges")}
    frame = merge_patch(base, patch)
    frame["type"] = "frame"
    edges = delta.get("edges")
    if isinstance(edges, list):
        frame["edges"] = edges
        return frame
    rebuilt = []
    for entry in base["edges"]:
        name = entry["edge"]
        axis = "y" if name in ("top", "bottom") else "x"
        leading = name in ("top", "left")
        moved = frame["offset"][axis] - base["offset"][axis]
        followed = dict(entry)
        followed["distance"] = entry["distance"] - moved if leading else entry["distance"] + moved
        followed["velocity"] = -frame["velocity"][axis] if leading else frame["velocity"][axis]
        rebuilt.append(merge_patch(followed, (edges or {}).get(name, {})))
    frame["edges"] = rebuilt
    return frame


async def collect(ws, seconds: float) -> list[str]:
    """Every message text that arrives within `seconds`."""
    got: list[str] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            got.append(await asyncio.wait_for(ws.recv(), left))
        except (TimeoutError, asyncio.TimeoutError):
            break
    return got


def rebuild(texts: list[str], base: dict | None = None) -> tuple[dict[int, dict], int, int]:
    """Applies a connection's frames and deltas in order; returns the frames by seq, and how many deltas and
    delta bytes there were."""
    frames: dict[int, dict] = {}
    deltas = delta_bytes = 0
    for raw in texts:
        message = exact(raw)
        if message["type"] == "frame":
            base = message
        elif message["type"] == "delta":
            assert base is not None, "a delta before any frame"
            base = apply_delta(base, message)
            deltas += 1
            delta_bytes += len(raw.encode())
        else:
            continue
        frames[int(base["seq"])] = base
    return frames, deltas, delta_bytes


def test_a_delta_member_rebuilds_exactly_the_frames_of_a_full_member(server):
    """Two members of one room: A takes whole frames, B deltas. A scrolls, pulls to refresh and lets go; every
    frame B rebuilt from its deltas is the frame A got with the same seq."""
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            wa, first_a = await hello(a)
            wb, first_b = await hello(b, **join(wa), frames="delta")
            assert first_b["type"] == "frame"  # the first frame after welcome is whole
            await send_json(a, {"type": "configure", "feed": {"latencyMs": 300}})
            t = 1000.0
            await send_json(a, touch("start", 0, t))
            for dy in [-20] * 10 + [20] * 10 + [25] * 12:  # scroll up, back, then pull past the top
                t += 16
                await send_json(a, touch("move", dy, t))
                await asyncio.sleep(0.012)
            await send_json(a, touch("end", 0, t + 16))
            return await asyncio.gather(collect(a, 2.5), collect(b, 2.5)), first_b

    (got_a, got_b), first_b = run(scenario)
    full = {int(m["seq"]): m for m in map(exact, got_a) if m["type"] == "frame"}
    assert not any(json.loads(raw)["type"] == "delta" for raw in got_a), "A never asked for deltas"
    rebuilt, deltas, delta_bytes = rebuild(got_b, exact(json.dumps(first_b)))
    assert deltas >= 40, f"only {deltas} deltas"
    assert sum(1 for raw in got_b if json.loads(raw)["type"] == "frame") == 0, "no whole frame after the first"
    common = sorted(set(full) & set(rebuilt))
    assert len(common) >= 40, (len(full), len(rebuilt))
    for seq in common:
        assert rebuilt[seq] == full[seq], f"seq {seq}:\n{rebuilt[seq]}\n!=\n{full[seq]}"
    # the pull refreshed: the rebuilt frames went through refreshing and back
    states = [f["edges"][0]["state"] for f in rebuilt.values()]
    assert "refreshing" in states and states[-1] == "idle", states
    full_bytes = sum(len(raw.encode()) for raw in got_a if json.loads(raw)["type"] == "frame")
    assert delta_bytes / deltas < full_bytes / len(full) / 3


def test_the_first_frame_after_every_welcome_is_whole(server):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, frame = await hello(ws, frames="delta")
            assert frame["type"] == "frame" and frame["seq"] == 1
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 300})
            delta, _ = await recv_until(ws, lambda m: m["type"] in ("frame", "delta"))
            assert delta["type"] == "delta"
            # a second hello on the same connection: a whole frame again after its welcome
            await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "frames": "delta",
                                 "session": welcome["session"], "token": welcome["token"]})
            again, _ = await recv_until(ws, lambda m: m["type"] == "welcome")
            assert again["resumed"] is True
            frame, _ = await recv_until(ws, lambda m: m["type"] in ("frame", "delta"))
            assert frame["type"] == "frame"
        # resumed on a new connection: whole first, then deltas
        async with ws_connect(server) as ws:
            _, frame = await hello(ws, session=welcome["session"], token=welcome["token"], frames="delta")
            assert frame["type"] == "frame"
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": -100})
            delta, _ = await recv_until(ws, lambda m: m["type"] in ("frame", "delta"))
            assert delta["type"] == "delta"
    run(scenario)


def test_frames_full_is_the_default_and_can_be_asked_for(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws, frames="full")
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 300})
            got = [json.loads(raw) for raw in await collect(ws, 1.0)]
            kinds = {m["type"] for m in got}
            assert "frame" in kinds and "delta" not in kinds, kinds
    run(scenario)


def test_a_bad_frames_value_is_refused_and_the_session_carries_on(server):
    async def scenario():
        async with ws_connect(server) as ws:
            for bad in ["deltas", "", 1, True, {"x": 1}]:
                await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "frames": bad})
                error = await recv_json(ws)
                assert error == {"type": "error", "code": "bad_field",
                                 "message": "hello.frames must be one of full, delta", "ref": "hello"}, error
            # nothing was joined: an input is still too early
            await send_json(ws, touch("start", 0, 100))
            error = await recv_json(ws)
            assert error["code"] == "not_ready", error
            # a good hello works
            welcome, _ = await hello(ws, frames="delta")
            # a bad second hello changes nothing: the session, and its deltas, carry on
            await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "frames": "binary",
                                 "session": welcome["session"], "token": welcome["token"]})
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "bad_field" and "hello.frames" in error["message"], error
            await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 200})
            delta, seen = await recv_until(ws, lambda m: m["type"] in ("frame", "delta") and "offset" in m)
            assert delta["type"] == "delta", delta
            assert not [m for m in seen if m["type"] == "welcome"], seen
    run(scenario)
