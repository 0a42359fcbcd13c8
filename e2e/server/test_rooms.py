"""Rooms, resume and traces over a real WebSocket: several connections share one session (every member gets
every frame and event; one pointer owns a drag), a dropped connection resumes with its token within the grace
period (mid-refresh included), wrong tokens and expired sessions, and a recorded trace that `refreshkit replay`
reproduces frame for frame."""
from __future__ import annotations

import asyncio
import json
import re
import subprocess
import time
from pathlib import Path

from conftest import (
    ROOT,
    hello,
    join,
    link_key,
    logged_id,
    recv_json,
    recv_until,
    run,
    send_json,
    server_binary,
    wait_closed,
    ws_connect,
)

HEX128 = re.compile(r"^[0-9a-f]{32}$")


def touch(phase: str, dy: float, t: float, pointer: int = 1) -> dict:
    return {"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": t, "id": pointer}


async def drain(ws, seconds: float) -> list[dict]:
    """Everything that arrives within `seconds`."""
    got: list[dict] = []
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            return got
        try:
            got.append(await recv_json(ws, timeout=left))
        except (TimeoutError, asyncio.TimeoutError):
            return got


async def raw_until(ws, predicate, timeout: float = 5.0) -> tuple[str, list[str]]:
    seen: list[str] = []

    async def loop():
        while True:
            raw = await ws.recv()
            if predicate(json.loads(raw)):
                return raw
            seen.append(raw)
    return await asyncio.wait_for(loop(), timeout), seen


def transitions(messages: list[dict]) -> list[tuple]:
    return [(m.get("edge"), m.get("from"), m.get("to"), m.get("cause"))
            for m in messages if m.get("type") == "event" and m.get("name") == "transition"]


# ---------------------------------------------------------------------------------------------- sharing


def test_a_new_session_is_member_0_and_the_log_names_it_only_by_its_hash(server):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws)
            assert welcome["member"] == 0 and "notice" not in welcome and "resumed" not in welcome
            return welcome
    welcome = run(scenario)
    session, logged = welcome["session"], logged_id(welcome["session"])
    deadline = time.monotonic() + 5
    while not any(logged in line for line in server.stderr) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any("session started" in line and logged in line and f"share=http://127.0.0.1:{server.port}" in line
               for line in server.stderr), server.output()
    keys = [link_key(welcome, role) for role in ("drive", "watch")]
    assert not [line for line in server.stderr if session in line or any(key in line for key in keys)], \
        "a session's id or keys in the log let whoever reads it in"


def test_a_second_device_joins_and_both_get_every_frame_and_event(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            wa, _ = await hello(a)
            wb, _ = await hello(b, **join(wa))
            assert wb["session"] == wa["session"]
            assert HEX128.match(wb["token"]) and wb["token"] != wa["token"]
            assert wb["member"] == 1 and "notice" not in wb
            room, _ = await recv_until(a, lambda m: m["type"] == "room")
            assert room == {"type": "room", "members": 2, "member": 0}
            # A pulls to refresh; B watches.
            await send_json(a, {"type": "configure", "feed": {"latencyMs": 300}})
            t = 1000.0
            await send_json(a, touch("start", 0, t))
            for _ in range(12):
                t += 16
                await send_json(a, touch("move", 25, t))
                await asyncio.sleep(0.005)
            await send_json(a, touch("end", 0, t + 16))
            got_a, got_b = await asyncio.gather(drain(a, 2.5), drain(b, 2.5))
            ta, tb = transitions(got_a), transitions(got_b)
            assert any(t[:3] == ("top", "armed", "refreshing") for t in tb), tb
            assert ta == tb, "both members see the same transitions, in order"
            assert any(m["type"] == "event" and m["name"] == "feedLoaded" for m in got_b)
            return got_a, got_b
    got_a, got_b = run(scenario)
    frames_b = [m for m in got_b if m["type"] == "frame"]
    assert frames_b and frames_b[-1]["edges"][0]["state"] == "idle"


def test_members_get_the_same_frame_bytes(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            wa, _ = await hello(a)
            await hello(b, **join(wa))
            await send_json(a, {"type": "command", "name": "scrollBy", "amount": 600})
            frames: dict[str, dict[int, str]] = {"a": {}, "b": {}}

            async def collect(ws, key):
                end = asyncio.get_running_loop().time() + 1.0
                while asyncio.get_running_loop().time() < end:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 0.3)
                    except (TimeoutError, asyncio.TimeoutError):
                        break
                    message = json.loads(raw)
                    if message["type"] == "frame":
                        frames[key][message["seq"]] = raw
            await asyncio.gather(collect(a, "a"), collect(b, "b"))
            common = set(frames["a"]) & set(frames["b"])
            assert len(common) >= 3, frames
            for seq in common:
                assert frames["a"][seq] == frames["b"][seq]
    run(scenario)


def test_one_pointer_owns_a_drag_and_the_other_device_is_ignored_silently(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            wa, _ = await hello(a)
            await hello(b, **join(wa))
            await send_json(a, touch("start", 0, 100))
            await send_json(a, touch("move", 30, 116))
            frame, _ = await recv_until(a, lambda m: m["type"] == "frame" and m["phase"] == "dragging")
            while frame["offset"]["y"] == 0:
                frame, _ = await recv_until(a, lambda m: m["type"] == "frame")
            pulled, pulled_seq = frame["offset"]["y"], frame["seq"]
            # B tries to drag the other way, with the same pointer id: nothing moves, no error.
            for i, phase in enumerate(["start", "move", "move", "end"]):
                await send_json(b, touch(phase, -150 if phase == "move" else 0, 5000 + 16 * i))
            await send_json(b, {"type": "ping", "t": 1})
            got_b = await drain(b, 0.5)
            assert not [m for m in got_b if m["type"] == "error"], got_b
            frames_b = [m for m in got_b if m["type"] == "frame" and m["seq"] > pulled_seq]
            assert frames_b and all(f["offset"]["y"] == pulled and f["phase"] == "dragging" for f in frames_b)
            # A still owns it.
            await send_json(a, touch("move", 30, 132))
            frame, _ = await recv_until(a, lambda m: m["type"] == "frame" and m["offset"]["y"] < pulled)
            await send_json(a, touch("end", 0, 148))
    run(scenario)


def test_a_dropped_member_lifts_its_finger(server):
    async def scenario():
        async with ws_connect(server) as b:
            async with ws_connect(server) as a:
                wa, _ = await hello(a)
                await hello(b, **join(wa))
                await send_json(a, touch("start", 0, 100))
                await send_json(a, touch("move", 40, 116))
                await recv_until(b, lambda m: m["type"] == "frame" and m["phase"] == "dragging")
            # A is gone mid-drag: the drag ends (a synthesised cancel), and B can drag.
            frame, seen = await recv_until(b, lambda m: m["type"] == "frame" and m["phase"] != "dragging")
            rooms = [m for m in seen if m["type"] == "room"]
            assert rooms and rooms[-1]["members"] == 1, seen
            await send_json(b, touch("start", 0, 9000))
            await send_json(b, touch("move", 20, 9016))
            await recv_until(b, lambda m: m["type"] == "frame" and m["phase"] == "dragging")
    run(scenario)


# ---------------------------------------------------------------------------------------------- resume


def test_resume_mid_refresh_finds_the_session_and_the_refresh_finishes(server):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws)
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 1200}})
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["edges"][0]["state"] == "refreshing")
            count = frame["feed"]["count"]
        # the connection is gone (a Wi-Fi blip); come back within the grace period
        await asyncio.sleep(0.3)
        async with ws_connect(server) as ws:
            again, frame = await hello(ws, session=welcome["session"], token=welcome["token"])
            assert again["session"] == welcome["session"] and again["token"] == welcome["token"]
            assert again["member"] == 0 and again["resumed"] is True and "notice" not in again
            assert frame["edges"][0]["state"] == "refreshing", frame
            assert frame["seq"] > 1
            done, seen = await recv_until(
                ws, lambda m: m["type"] == "event" and m["name"] == "transition" and m["to"] == "idle", timeout=5)
            assert done["edge"] == "top"
            loaded = [m for m in seen if m["type"] == "event" and m["name"] == "feedLoaded"]
            assert loaded, seen
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame")
            assert frame["feed"]["count"] > count, "the refresh's new rows went on top"
            prepended = [m for m in seen if m["type"] == "rows" and m["op"] == "prepend"]
            assert prepended and prepended[0]["items"], seen
    run(scenario)


def test_a_wrong_token_is_refused_and_joins_nothing(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            wa, _ = await hello(a)
            await send_json(b, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3,
                                "session": wa["session"], "token": "0" * 32})
            error = await recv_json(b)
            assert error["type"] == "error" and error["code"] == "bad_token" and error["ref"] == "hello", error
            await send_json(b, touch("start", 0, 1))
            error = await recv_json(b)
            assert error["code"] == "not_ready"
            # nobody joined: A is still alone and hears nothing
            assert not [m for m in await drain(a, 0.3) if m["type"] == "room"]
            # ...and B can still join as a member by the link alone
            wb, _ = await hello(b, **join(wa))
            assert wb["session"] == wa["session"] and wb["member"] == 1
    run(scenario)


def test_the_newer_connection_of_a_member_wins_and_the_older_is_closed_with_4001(server):
    async def scenario():
        async with ws_connect(server) as old, ws_connect(server) as new:
            welcome, _ = await hello(old)
            again, _ = await hello(new, session=welcome["session"], token=welcome["token"])
            assert again["resumed"] is True and again["member"] == 0
            assert await wait_closed(old) == 4001
    run(scenario)


def test_an_expired_session_starts_fresh_with_a_notice(fresh_server):
    srv = fresh_server("--session-grace", "0.3", "--log-level", "info")

    async def scenario():
        async with ws_connect(srv) as ws:
            welcome, _ = await hello(ws)
        await asyncio.sleep(1.0)
        async with ws_connect(srv) as ws:
            fresh, frame = await hello(ws, session=welcome["session"], token=welcome["token"])
            assert fresh["notice"] == "session_expired"
            assert fresh["session"] != welcome["session"] and fresh["token"] != welcome["token"]
            assert fresh["member"] == 0 and frame["seq"] == 1
            # an unknown id (a link from before a restart) is the same
            other, _ = await hello(ws, session="f" * 32)
            assert other["notice"] == "session_expired" and other["session"] != "f" * 32
        return welcome["session"]
    session = run(scenario)
    deadline = time.monotonic() + 3
    while not any("session freed" in line and logged_id(session) in line for line in srv.stderr):
        assert time.monotonic() < deadline, srv.output()
        time.sleep(0.05)


def test_session_grace_is_validated():
    result = subprocess.run([str(server_binary()), "serve", "--host", "127.0.0.1", "--session-grace=-1"],
                            cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert result.returncode != 0 and "session grace" in result.stderr, result.stderr


# ---------------------------------------------------------------------------------------------- traces


def replay(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(server_binary()), "replay", str(path), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=30)


def test_a_trace_replays_with_the_same_transitions_and_frames(server, tmp_path):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            wa, _ = await hello(a, seed=42, preset="jh")
            await hello(b, **join(wa))
            await send_json(a, {"type": "configure", "feed": {"latencyMs": 250, "failureRate": 0.3}})
            received: list[dict] = []
            t = 500.0
            for _ in range(3):  # three pulls: with failures in the mix (the seed decides which)
                await send_json(b, touch("start", 0, t))
                for _ in range(10):
                    t += 16
                    await send_json(b, touch("move", 30, t))
                    await asyncio.sleep(0.004)
                await send_json(b, touch("end", 0, t + 16))
                t += 1000
                received += await drain(a, 1.3)
            await send_json(a, {"type": "wheel", "dx": 0, "dy": 300, "mode": 0, "t": t})
            received += await drain(a, 0.8)
            await send_json(a, {"type": "trace"})
            raw, seen = await raw_until(a, lambda m: m["type"] == "trace")
            received += [json.loads(s) for s in seen]
            return raw, received
    raw, received = run(scenario)
    assert raw.startswith('{"type":"trace","trace":{"format":"refreshkit.trace.v2"')
    trace = json.loads(raw)["trace"]
    assert trace["preset"] == "jh" and trace["seed"] == 42 and trace["dpr"] == 3 and not trace["truncated"]
    assert any(op.get("member") == 1 for op in trace["ops"])
    assert trace["frames"] == sum(1 for op in trace["ops"] if op.get("frame"))
    path = tmp_path / "trace.json"
    path.write_text(raw[len('{"type":"trace","trace":'):-1])

    result = replay(path)
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"frames {trace['frames']} digest {trace['digest']} — matches the recording" in result.stdout
    printed = re.findall(r"^t=[-\d.]+ms (\w+) (\w+)→(\w+) (\w+)$", result.stdout, re.MULTILINE)
    assert printed == [t for t in transitions(received)], result.stdout
    assert any(edge == "top" and to == "refreshing" for edge, _, to, _ in printed), printed

    report = json.loads(replay(path, "--json").stdout)
    assert report["matches"] is True and report["digest"] == trace["digest"]
    assert [(t["edge"], t["from"], t["to"], t["cause"]) for t in report["transitions"]] == printed
    frames = [json.loads(line) for line in replay(path, "--frames").stdout.splitlines() if line.startswith("{")]
    assert len(frames) == trace["frames"] and all(f["type"] == "frame" for f in frames)

    # one recorded number changed: the replay says so and fails
    mutated = tmp_path / "mutated.json"
    assert '"dy": 30,' in path.read_text()  # the page's text exactly as sent (json.dumps spacing)
    mutated.write_text(path.read_text().replace('"dy": 30,', '"dy": 31,', 1))
    bad = replay(mutated)
    assert bad.returncode == 1 and "differs from the recording" in bad.stderr, bad.stderr
    unreadable = tmp_path / "nope.json"
    unreadable.write_text('{"format":"something else"}')
    assert replay(unreadable).returncode == 2


def test_trace_before_hello_is_not_ready(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await send_json(ws, {"type": "trace"})
            error = await recv_json(ws)
            assert error["code"] == "not_ready" and error["ref"] == "trace"
    run(scenario)


def test_trace_recording_can_be_limited(fresh_server):
    srv = fresh_server("--trace-limit", "5")

    async def scenario():
        async with ws_connect(srv) as ws:
            await hello(ws)
            for _ in range(10):
                await send_json(ws, {"type": "command", "name": "scrollBy", "amount": 10, "animated": False})
            await send_json(ws, {"type": "trace"})
            message, _ = await recv_until(ws, lambda m: m["type"] == "trace")
            return message["trace"]
    trace = run(scenario)
    assert trace["truncated"] is True and len(trace["ops"]) == 5
