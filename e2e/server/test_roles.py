"""Roles in a session over a real WebSocket (docs/PROTOCOL.md, "Roles"): whoever starts a session owns it, and its
welcome has the two share links (drive, watch); joining takes a link's key (the id alone, or a wrong key, is
`forbidden` and changes nothing); a watch member's inputs and a drive member's `configure` are `forbidden` while
the session goes on (the watcher keeps getting the owner's frames); a joiner's trace holds no other member's
message; a resumed member keeps its role. Each attack is tried and answered with a clear error."""
from __future__ import annotations

import json
import re
import struct
import subprocess
from urllib.parse import parse_qs, urlparse

from conftest import hello, join, recv_json, recv_until, run, send_json, server_binary, ws_connect

HEX128 = re.compile(r"^[0-9a-f]{32}$")
HELLO = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}


def touch(phase: str, dy: float, t: float, seq: int | None = None) -> dict:
    message = {"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": t, "id": 1}
    if seq is not None:
        message["seq"] = seq
    return message


async def refused_hello(ws, **fields) -> dict:
    await send_json(ws, {**HELLO, **fields})
    reply = await recv_json(ws)
    assert reply["type"] == "error", reply
    return reply


async def error_for(ws, ref: str) -> dict:
    error, _ = await recv_until(ws, lambda m: m["type"] == "error" and m.get("ref") == ref)
    return error


def test_the_owner_welcome_has_both_links_and_every_welcome_a_role(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b, ws_connect(server) as c:
            owner, _ = await hello(a)
            assert owner["role"] == "owner" and owner["member"] == 0
            links = owner["links"]
            assert set(links) == {"drive", "watch"}
            keys = {}
            for role, link in links.items():
                url = urlparse(link)
                assert url.scheme == "" and url.path == "/", link
                query = parse_qs(url.query)
                assert query["s"] == [owner["session"]]
                assert HEX128.match(query["k"][0]), link
                keys[role] = query["k"][0]
            assert keys["drive"] != keys["watch"] and owner["session"] not in keys.values()
            assert owner["token"] not in keys.values()
            driver, _ = await hello(b, **join(owner, "drive"))
            watcher, _ = await hello(c, **join(owner, "watch"))
            assert driver["role"] == "drive" and watcher["role"] == "watch"
            assert driver["session"] == watcher["session"] == owner["session"]
            assert "links" not in driver and "links" not in watcher, "only the owner is handed the links"
    run(scenario)


def test_joining_by_id_alone_or_with_a_wrong_key_is_forbidden_and_changes_nothing(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            owner, _ = await hello(a)
            alone = await refused_hello(b, session=owner["session"])
            assert alone["code"] == "forbidden" and alone["ref"] == "hello", alone
            assert "key" in alone["message"], alone
            wrong = await refused_hello(b, session=owner["session"], key="0" * 32)
            assert wrong["code"] == "forbidden" and wrong["ref"] == "hello", wrong
            token = await refused_hello(b, session=owner["session"], key=owner["token"])
            assert token["code"] == "forbidden", "a member's token is not a key"
            # nothing changed: the owner is alone, and the refused connection may still join with a real key
            await send_json(a, {"type": "ping", "t": 1})
            _, seen = await recv_until(a, lambda m: m["type"] == "pong")
            assert not [m for m in seen if m["type"] == "room"], seen
            joined, _ = await hello(b, **join(owner, "drive"))
            assert joined["member"] == 1 and joined["role"] == "drive"
            # an id that does not exist still makes a new session, as before
            async with ws_connect(server) as c:
                fresh, _ = await hello(c, session="f" * 32)
                assert fresh["notice"] == "session_expired" and fresh["role"] == "owner" and "links" in fresh
    run(scenario)


def test_a_watch_member_may_send_nothing_but_keeps_getting_the_owners_frames(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as w:
            owner, _ = await hello(a)
            await hello(w, **join(owner, "watch"))
            refused = [
                ("touch", touch("start", 0, 1000, seq=7)),
                ("wheel", {"type": "wheel", "dx": 0, "dy": 40, "mode": 0, "t": 1001, "seq": 8}),
                ("command", {"type": "command", "name": "refresh", "edge": "top"}),
                ("resize", {"type": "resize", "viewport": {"w": 300, "h": 500}}),
                ("configure", {"type": "configure", "feed": {"latencyMs": 900}}),
            ]
            for ref, message in refused:
                await send_json(w, message)
                error = await error_for(w, ref)
                assert error["code"] == "forbidden", error
                assert "watch" in error["message"], error
                if "seq" in message:
                    assert error["seq"] == message["seq"], error
            # a binary touch too, with its seq (docs/PROTOCOL.md, "Binary touch")
            await w.send(binary_touch(phase=0, dy=0, t=1002.0, seq=9))
            error = await error_for(w, "touch")
            assert error["code"] == "forbidden" and error["seq"] == 9, error
            # the owner drags: the watcher sees it
            await send_json(a, touch("start", 0, 2000))
            await send_json(a, touch("move", 60, 2016))
            await send_json(a, touch("move", 60, 2032))
            frame, _ = await recv_until(
                w, lambda m: m["type"] == "frame" and m["phase"] == "dragging" and m["offset"]["y"] < 0)
            await send_json(a, touch("end", 0, 2048))
            # nothing of the watcher's reached the session: the viewport and the configuration are the owner's
            assert frame["viewport"] == {"w": 390, "h": 844}, frame
    run(scenario)


def test_a_drive_member_drags_but_may_not_configure(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as d:
            owner, _ = await hello(a)
            await hello(d, **join(owner, "drive"))
            await send_json(d, {"type": "configure", "preset": "jh"})
            error = await error_for(d, "configure")
            assert error["code"] == "forbidden" and "owner" in error["message"], error
            await send_json(d, touch("start", 0, 1000))
            await send_json(d, touch("move", 50, 1016))
            await send_json(d, touch("move", 50, 1032))
            frame, seen = await recv_until(a, lambda m: m["type"] == "frame" and m["phase"] == "dragging")
            assert not [m for m in seen if m["type"] == "config"], "the drive member's configure changed nothing"
            await send_json(d, touch("end", 0, 1048))
            # the owner may configure, and everyone is told
            await send_json(a, {"type": "configure", "preset": "jh"})
            config, _ = await recv_until(d, lambda m: m["type"] == "config")
            assert config["preset"] == "jh"
    run(scenario)


def test_a_joiners_trace_holds_no_message_of_another_member(server, tmp_path):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            owner, _ = await hello(a)
            joined, _ = await hello(b, **join(owner, "drive"))
            # the owner's messages carry a marker a leak would show
            await send_json(a, {"type": "command", "name": "scrollBy", "amount": 123.25})
            await send_json(a, touch("start", 0, 1000))
            await send_json(a, touch("move", 30, 1016))
            await send_json(a, touch("end", 0, 1032))
            await recv_until(b, lambda m: m["type"] == "frame" and m["phase"] != "dragging")
            await send_json(b, {"type": "command", "name": "scrollBy", "amount": 7.5})
            await recv_until(b, lambda m: m["type"] == "frame")
            await send_json(b, {"type": "trace"})
            mine, _ = await recv_until(b, lambda m: m["type"] == "trace", timeout=10)
            await send_json(a, {"type": "trace"})
            whole, _ = await recv_until(a, lambda m: m["type"] == "trace", timeout=10)
            return joined, mine["trace"], whole["trace"]
    joined, mine, whole = run(scenario)
    applies = [op for op in mine["ops"] if "apply" in op]
    assert applies and all(op["member"] == joined["member"] for op in applies), applies
    assert "123.25" not in json.dumps(mine), "another member's message leaked into a joiner's trace"
    assert mine["partial"] is True and mine["member"] == joined["member"]
    assert any("frame" in op for op in mine["ops"]) and mine["frames"] > 0
    assert "partial" not in whole and any(op.get("member") == 0 for op in whole["ops"] if "apply" in op)
    # a partial trace says so when replayed, rather than failing obscurely
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(mine))
    replay = subprocess.run([str(server_binary()), "replay", str(path)], capture_output=True, text=True, timeout=30)
    assert replay.returncode == 2, replay
    assert "partial trace" in replay.stderr and "cannot reproduce" in replay.stderr, replay.stderr


def test_resume_keeps_the_role(server):
    async def scenario():
        async with ws_connect(server) as a:
            owner, _ = await hello(a)
            async with ws_connect(server) as w:
                watcher, _ = await hello(w, **join(owner, "watch"))
            async with ws_connect(server) as w:
                again, _ = await hello(w, session=owner["session"], token=watcher["token"])
                assert again["resumed"] is True and again["role"] == "watch" and again["member"] == watcher["member"]
                await send_json(w, {"type": "command", "name": "refresh", "edge": "top"})
                error = await error_for(w, "command")
                assert error["code"] == "forbidden"
        async with ws_connect(server) as a:
            back, _ = await hello(a, session=owner["session"], token=owner["token"])
            assert back["role"] == "owner" and back["links"] == owner["links"], "the owner keeps its links"
    run(scenario)


def binary_touch(phase: int, dy: float, t: float, seq: int, pointer: int = 1) -> bytes:
    """A binary touch (docs/PROTOCOL.md, "Binary touch"): 48 bytes with its seq."""
    return struct.pack("<BB6xddddd", 1, phase, 0.0, dy, t, float(pointer), float(seq))
