"""Input sequence numbers and frame acknowledgements over a real WebSocket (docs/PROTOCOL.md, "Prediction and
acknowledgement"): `touch` and `wheel` may carry `seq`; once a member sent one, every frame carries `ack`, each
member's last applied seq; a refused input's `error` echoes its seq; a resumed member's `welcome` carries its
ack; delta pages rebuild the same acks; and a trace of seq'd inputs from two members replays byte for byte.

Every wait is for a state (a frame whose ack says so, an error), bounded by a timeout."""
from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

from conftest import RECV_TIMEOUT_S, ROOT, hello, join, recv_json, recv_until, run, send_json, server_binary, ws_connect
from test_delta import apply_delta, exact

MAX_SEQ = 2 ** 53


def touch(phase: str, dy: float, t: float, seq=None, pointer: int = 1) -> dict:
    message = {"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": t, "id": pointer}
    if seq is not None:
        message["seq"] = seq
    return message


def wheel(dy: float, t: float, seq=None) -> dict:
    message = {"type": "wheel", "dx": 0, "dy": dy, "mode": 0, "t": t}
    if seq is not None:
        message["seq"] = seq
    return message


async def send_page(ws, message: dict) -> None:
    """Sends as the page does (`JSON.stringify`: no spaces, seq last), the spelling the server reads fastest."""
    await asyncio.wait_for(ws.send(json.dumps(message, separators=(",", ":"))), RECV_TIMEOUT_S)


def is_frame(message: dict) -> bool:
    return message["type"] == "frame"


def acked(member: int, seq: int):
    """A predicate: a frame that acknowledges `member`'s input `seq`."""
    return lambda m: is_frame(m) and m.get("ack", {}).get(str(member)) == seq


def test_a_frame_acknowledges_the_last_seq_the_session_applied(server):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, first = await hello(ws)
            assert welcome["member"] == 0 and "ack" not in welcome
            assert "ack" not in first  # nobody sent a seq yet
            # no seq: today's behaviour, no ack
            await send_page(ws, touch("start", 0, 1000.0))
            frame, _ = await recv_until(ws, is_frame)
            assert "ack" not in frame
            # one input at a time: the frame that follows it acknowledges it
            t = 1000.0
            for seq in range(1, 6):
                t += 16
                await send_page(ws, touch("move", -7, t, seq))
                frame, seen = await recv_until(ws, acked(0, seq))
                assert frame["ack"] == {"0": seq}, frame
                assert all(m.get("ack", {}).get("0", 0) < seq for m in seen if is_frame(m)), seen
            # a burst: the acks only grow, every one is a seq that was sent, and the last one comes
            for seq in range(6, 40):
                t += 16
                await send_page(ws, touch("move", -3, t, seq))
            last, seen = await recv_until(ws, acked(0, 39))
            acks = [m["ack"]["0"] for m in seen if is_frame(m)] + [39]
            assert acks == sorted(acks) and all(5 <= a <= 39 for a in acks), acks
            # an input without seq leaves the ack where it was
            await send_page(ws, touch("end", 0, t + 16))
            frame, _ = await recv_until(ws, lambda m: is_frame(m) and m["phase"] != "dragging")
            assert frame["ack"] == {"0": 39}
    run(scenario)


def test_two_members_acks_are_independent_and_a_page_without_seq_has_none(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b, ws_connect(server) as c:
            wa, _ = await hello(a)
            wb, _ = await hello(b, **join(wa))
            wc, _ = await hello(c, **join(wa))
            assert (wa["member"], wb["member"], wc["member"]) == (0, 1, 2)
            t = 1000.0
            await send_page(a, touch("start", 0, t, 1))
            for seq in range(2, 6):
                t += 16
                await send_page(a, touch("move", -10, t, seq))
            await recv_until(b, acked(0, 5))
            await send_page(a, touch("end", 0, t + 16, 6))
            for seq in (100, 101, 102):
                await send_page(b, wheel(40, 5000 + seq, seq))

            def both(m):
                return is_frame(m) and m.get("ack") == {"0": 6, "1": 102}

            for ws in (a, b, c):
                frame, seen = await recv_until(ws, both)
                # member 0's ack never moved while member 1 sent, and member 1's came only with its own
                for m in seen + [frame]:
                    if is_frame(m) and "1" in m.get("ack", {}):
                        assert m["ack"]["0"] == 6, m["ack"]
                    assert "2" not in m.get("ack", {}), m  # c never sends a seq: no entry of its own
            # member 1 goes on numbering; member 0's ack stays
            await send_page(b, wheel(-40, 6000, 103))
            frame, _ = await recv_until(c, acked(1, 103))
            assert frame["ack"] == {"0": 6, "1": 103}
    run(scenario)


def test_a_bad_seq_is_refused_with_a_clear_error_and_the_session_carries_on(server):
    async def scenario():
        async with ws_connect(server) as ws:
            # before hello: not_ready, echoing the seq
            await send_page(ws, touch("start", 0, 10, 3))
            error = await recv_json(ws)
            assert error == {"type": "error", "code": "not_ready", "message": "send hello before any input",
                             "ref": "touch", "seq": 3}, error
            await hello(ws)
            await send_page(ws, touch("start", 0, 1000, 1))
            await recv_until(ws, acked(0, 1))
            integer = "touch.seq must be an integer from 0 to 9007199254740992"
            in_range = "touch.seq must be from 0 to 9007199254740992"
            for bad, code, message in [("2", "bad_field", integer), (2.5, "bad_field", integer),
                                       (True, "bad_field", integer), ({"n": 2}, "bad_field", integer),
                                       (-1, "out_of_range", in_range), (MAX_SEQ + 2, "out_of_range", in_range)]:
                await send_page(ws, touch("move", -50, 1016, bad))
                error, seen = await recv_until(ws, lambda m: m["type"] == "error")
                assert error == {"type": "error", "code": code, "message": message, "ref": "touch"}, (bad, error)
            await send_page(ws, wheel(10, 1020, -5))
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error == {"type": "error", "code": "out_of_range",
                             "message": "wheel.seq must be from 0 to 9007199254740992", "ref": "wheel"}, error
            # another field's error echoes a valid seq, so the page can drop that input
            await send_page(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": "far", "t": 1030, "id": 1,
                                 "seq": 7})
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error == {"type": "error", "code": "bad_field", "message": "touch.dy must be a finite number",
                             "ref": "touch", "seq": 7}, error
            # so does the page clock's refusal (a t more than 1 s older than the newest)
            await send_page(ws, touch("move", -50, -9000, 8))
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "bad_field" and "touch.t went backwards" in error["message"], error
            assert error["seq"] == 8 and error["ref"] == "touch", error
            # none of them was applied: the next good input is acknowledged, after seq 1 and nothing between
            await send_page(ws, touch("move", -20, 1050, MAX_SEQ))
            frame, seen = await recv_until(ws, acked(0, MAX_SEQ))
            assert all(m["ack"] == {"0": 1} for m in seen if is_frame(m)), seen
            assert frame["offset"]["y"] > 0  # the drag moved the content: the session works
    run(scenario)


def test_an_input_the_session_applied_already_is_refused_not_applied_twice(server):
    """A resend that crossed its first sending (docs/SCALING.md, "Resending"): the same seq, or one below the
    member's last applied, gets `already_applied` with its seq and moves nothing; the next input goes on."""
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            await send_page(ws, touch("start", 0, 1000, 1))
            await send_page(ws, touch("move", -30, 1016, 2))
            frame, _ = await recv_until(ws, acked(0, 2))
            y = frame["offset"]["y"]
            for seq in (2, 1):
                await send_page(ws, touch("move", -30, 1016, seq))
                error, seen = await recv_until(ws, lambda m: m["type"] == "error")
                assert error == {"type": "error", "code": "already_applied", "ref": "touch", "seq": seq,
                                 "message": f"input {seq} was applied already (the session applied this device's "
                                            "inputs up to 2)"}, error
                assert all(m["offset"]["y"] == y for m in seen if is_frame(m)), seen
            await send_page(ws, wheel(10, 1030, 2))
            error, _ = await recv_until(ws, lambda m: m["type"] == "error")
            assert (error["code"], error["ref"], error["seq"]) == ("already_applied", "wheel", 2), error
            await send_page(ws, touch("move", -30, 1032, 3))
            frame, seen = await recv_until(ws, acked(0, 3))
            assert all(m["ack"] == {"0": 2} for m in seen if is_frame(m)), seen
            assert frame["offset"]["y"] == y + 30  # moved once by the new input, never by the repeats
    run(scenario)


def test_a_resumed_member_gets_its_ack_in_the_welcome(server):
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws)
            await send_page(ws, wheel(30, 100, 11))
            await send_page(ws, wheel(30, 110, 12))
            await recv_until(ws, acked(0, 12))
        async with ws_connect(server) as ws:
            again, _ = await hello(ws, session=welcome["session"], token=welcome["token"])
            assert again["resumed"] is True and again["member"] == 0 and again["ack"] == 12, again
            # a new member of the session has no ack yet, and the old one continues above it
            async with ws_connect(server) as other:
                joined, frame = await hello(other, **join(welcome))
                assert joined["member"] == 1 and "ack" not in joined
                assert frame["ack"] == {"0": 12}
                await send_page(ws, wheel(30, 200, 13))
                await recv_until(other, acked(0, 13))
            # a resumed member that never sent a seq: 0, none of its inputs applied
            async with ws_connect(server) as other:
                back, _ = await hello(other, session=welcome["session"], token=joined["token"])
                assert back["resumed"] is True and back["member"] == 1 and back["ack"] == 0  # none applied
    run(scenario)


def test_delta_pages_rebuild_the_acks_of_full_frame_pages(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            wa, _ = await hello(a)
            _, first_b = await hello(b, **join(wa), frames="delta")
            raw_a: list[str] = []
            raw_b: list[str] = []

            async def until(ws, raw: list[str], predicate, base=None):
                """Receives until `predicate` holds for the frame the page holds (deltas applied); returns it."""
                while True:
                    text = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S)
                    raw.append(text)
                    message = exact(text)
                    if message["type"] == "frame":
                        base = message
                    elif message["type"] == "delta":
                        base = apply_delta(base, message)
                    else:
                        continue
                    if predicate(base):
                        return base

            t = 1000.0
            held_b = exact(json.dumps(first_b))
            await send_page(a, touch("start", 0, t, 1))
            for seq in range(2, 25):
                t += 16
                await send_page(a, touch("move", -6, t, seq))
                if seq % 4 == 0:
                    # b waits for the frame that acks its wheel: each of these deltas carries an ack change,
                    # however the server coalesces frames on a busy machine
                    await send_page(b, wheel(20, 9000 + seq, 300 + seq))
                    held_b = await until(b, raw_b, lambda f, s=300 + seq: f.get("ack", {}).get("1") == s, held_b)
            await send_page(a, touch("end", 0, t + 16, 25))
            await send_page(b, wheel(20, 9100, 400))
            final = {"0": 25, "1": 400}
            await until(a, raw_a, lambda f: f.get("ack") == final)
            await until(b, raw_b, lambda f: f.get("ack") == final, held_b)
            return first_b, raw_a, raw_b

    first_b, raw_a, raw_b = run(scenario)
    full = {int(m["seq"]): m for m in map(exact, raw_a) if m["type"] == "frame"}
    base = exact(json.dumps(first_b))
    rebuilt = {}
    delta_acks = 0
    for text in raw_b:
        message = exact(text)
        if message["type"] == "delta":
            delta_acks += "ack" in message
            base = apply_delta(base, message)
            rebuilt[int(base["seq"])] = base
        elif message["type"] == "frame":
            base = message
            rebuilt[int(base["seq"])] = base
    assert delta_acks >= 3, raw_b
    assert base["ack"] == {"0": 25, "1": 400}, base
    common = sorted(set(full) & set(rebuilt))
    assert len(common) >= 3, (sorted(full), sorted(rebuilt))
    for seq in common:
        assert rebuilt[seq] == full[seq], f"seq {seq}:\n{rebuilt[seq]}\n!=\n{full[seq]}"


def test_a_trace_of_seqd_inputs_from_two_members_replays_byte_for_byte(server, tmp_path: Path):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            wa, _ = await hello(a, seed=5)
            await hello(b, **join(wa))
            t = 500.0
            await send_page(b, touch("start", 0, t, 1))
            for seq in range(2, 12):
                t += 16
                await send_page(b, touch("move", -14, t, seq))
                await send_page(a, wheel(10, 2000 + seq, 1000 + seq))
            await send_page(b, touch("end", 0, t + 16, 12))
            await recv_until(a, lambda m: is_frame(m) and m.get("ack") == {"0": 1011, "1": 12})
            await send_json(a, {"type": "trace"})
            while True:
                raw = await asyncio.wait_for(a.recv(), RECV_TIMEOUT_S)
                if json.loads(raw)["type"] == "trace":
                    return raw

    raw = run(scenario)
    trace = json.loads(raw)["trace"]
    applies = [op for op in trace["ops"] if "apply" in op]
    assert {op["member"] for op in applies if "seq" in op["apply"]} == {0, 1}
    path = tmp_path / "trace.json"
    path.write_text(raw[len('{"type":"trace","trace":'):-1])
    result = subprocess.run([str(server_binary()), "replay", str(path), "--frames"], cwd=ROOT,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"digest {trace['digest']} — matches the recording" in result.stdout
    frames = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(frames) == trace["frames"]
    assert frames[-1]["ack"] == {"0": 1011, "1": 12}
