"""The page's binary spelling of `touch` (docs/PROTOCOL.md, "Binary touch") over a real WebSocket: one binary message
of 40 bytes, or 48 with a `seq`, little-endian (kind 1, phase 0-3, six zero bytes, then `dx`, `dy`, `t`, `id` and
`seq` as binary64). It means exactly what the JSON spelling of the same values means: the welcome offers it, a drag
sent so moves the content as the same drag sent as JSON does and its frames acknowledge its `seq`, a fragmented one
is applied whole, a bad one gets the error the JSON spelling of its values gets (or `binary_unsupported`, or the
zero-bytes `bad_field`), is logged, and leaves the session working, the page clock and the rate limit judge both
spellings alike, and the session's trace exports every binary touch as the JSON text of it, so that `refreshkit
replay` replays the trace to the frames the session sent.

Every wait is for a state (a frame that acknowledges a `seq`, an error, a log line, a session at rest), bounded by a
timeout."""
from __future__ import annotations

import asyncio
import json
import math
import re
import struct
import subprocess
from itertools import pairwise
from pathlib import Path

import pytest

from conftest import (
    RECV_TIMEOUT_S,
    ROOT,
    RunningServer,
    hello,
    join,
    recv_json,
    recv_until,
    run,
    send_json,
    server_binary,
    ws_connect,
)
from hostile_support import OP_BINARY, OP_CONT, OP_PING, RawWebSocket, log_lines, raw_hello, strict_json, wait_for

KIND_TOUCH = 1
PHASES = {"start": 0, "move": 1, "end": 2, "cancel": 3}
MAX_SEQ = 2 ** 53
NAN = float("nan")
INF = float("inf")
REST_TIMEOUT_S = 10.0  # the drags below come to rest within about 4 s of their release


# MARK: - The two spellings


def binary_touch(phase: str | int, dx: float = 0.0, dy: float = 0.0, t: float = 0.0, id: float = 0.0,
                 seq: float | None = None, *, kind: int = KIND_TOUCH, pad: bytes = bytes(6)) -> bytes:
    """The binary spelling: 40 bytes, or 48 with `seq`. `phase` is a name or a raw code; `kind` and `pad` (bytes
    2-7) are what a page sends unless a test says otherwise."""
    code = PHASES[phase] if isinstance(phase, str) else phase
    data = struct.pack("<BB6sdddd", kind, code, pad, dx, dy, t, id)
    return data if seq is None else data + struct.pack("<d", seq)


def json_touch(phase: str, dx: float = 0.0, dy: float = 0.0, t: float = 0.0, id: float = 0.0,
               seq: float | None = None) -> dict:
    """The JSON spelling of the same values (members in the page's order, `seq` last)."""
    message = {"type": "touch", "phase": phase, "dx": dx, "dy": dy, "t": t, "id": id}
    if seq is not None:
        message["seq"] = seq
    return message


def page_text(message: dict) -> str:
    """As the page sends it (`JSON.stringify`: no spaces); a non-finite number (which JSON cannot spell) as a
    number that overflows a double, the closest a JSON text comes to it."""
    def number(value):
        if isinstance(value, float) and math.isinf(value):
            return "1e400" if value > 0 else "-1e400"
        return json.dumps(value)
    return "{" + ",".join(f"{json.dumps(key)}:{number(value)}" for key, value in message.items()) + "}"


async def send_binary(ws, data: bytes) -> None:
    await asyncio.wait_for(ws.send(data), RECV_TIMEOUT_S)


async def send_text(ws, text: str) -> None:
    await asyncio.wait_for(ws.send(text), RECV_TIMEOUT_S)


async def send_touch(ws, spelling: str, phase: str, dx: float, dy: float, t: float, id: float, seq) -> None:
    if spelling == "binary":
        await send_binary(ws, binary_touch(phase, dx, dy, t, id, seq))
    else:
        await send_text(ws, page_text(json_touch(phase, dx, dy, t, id, seq)))


def is_frame(message: dict) -> bool:
    return message["type"] == "frame"


def acked(seq: int, member: int = 0):
    """A predicate: a frame that acknowledges `member`'s input `seq`."""
    return lambda m: is_frame(m) and m.get("ack", {}).get(str(member)) == seq


def is_error(message: dict) -> bool:
    return message["type"] == "error"


def at_rest(message: dict) -> bool:
    return is_frame(message) and message["phase"] == "idle" and "segment" not in message


def state(frame: dict) -> dict:
    """What a frame says of the scroll state, without the server's times (each session runs on its own receive
    times; the page's `t` decides the velocities) and the frame's own count: a motion's segments without `t0`/`t1`,
    an edge without its cycle's and exit's start. A frame made while the content moves on its own says where the
    motion is at the time the frame was written, which the server's load decides: of it, only the motion (the
    segments from the release on, which the page's inputs decide) and what no tick changes."""
    segment = {axis: [{k: v for k, v in part.items() if k not in ("t0", "t1")} for part in chain]
               for axis, chain in frame.get("segment", {}).items()}
    if frame["phase"] == "animating":
        return {"phase": frame["phase"], "segment": segment, "ack": frame.get("ack"), "feed": frame["feed"],
                "contentSize": frame["contentSize"]}
    kept = {key: value for key, value in frame.items() if key not in ("t", "seq", "segment", "edges")}
    kept["segment"] = segment
    kept["edges"] = [{k: v for k, v in edge.items() if k not in ("cycle", "exit")} for edge in frame["edges"]]
    return kept


def transition(event: dict) -> tuple:
    return event["name"], event.get("edge"), event.get("from"), event.get("to"), event.get("cause")


# MARK: - The server, its log


@pytest.fixture(scope="module")
def server():
    """This file's own server, so that its log holds only what these tests caused; SIGTERM must exit 0, and nothing
    the tests sent may make it log an error."""
    srv = RunningServer("--log-level", "info")
    yield srv
    problems = srv.stop_problems()
    assert not problems, "\n".join(problems)


def log_mark(srv) -> int:
    """Where the server's log is now: lines after it are what the test caused from here on."""
    return len(srv.stderr)


def rejections(srv, error: dict, mark: int) -> int:
    """How many times since `mark` the server logged the refusal `error` (its code and its reason, as sent)."""
    needles = ("rejected a message", f"code={error['code']}", f"reason={error['message']}")
    return sum(1 for line in list(srv.stderr)[mark:] if all(needle in line for needle in needles))


def assert_logged(srv, error: dict, mark: int, count: int = 1) -> None:
    """The server logged `error` `count` times since `mark` (its stderr is read by another thread, so the line may
    come after the wire's error)."""
    assert wait_for(lambda: rejections(srv, error, mark) >= count, 5), (
        f"the server did not log {error} {count} times ({rejections(srv, error, mark)})\n"
        + "\n".join(log_lines(srv, "rejected a message")[-5:]))


# MARK: - A drag in either spelling


# A drag by pointer 3 with fractional deltas and times, on both axes: pulled down past the top (rubber band, the top
# edge pulling), then up into the list, released moving, so that the release starts a fling that decays in the list
# (short of the bottom); every input numbered. Each step: (phase, dx, dy, t, seq).
DRAG = ([("start", 0.0, 0.0, 1000.0, 1)]
        + [("move", 0.25, 6.5 + step * 1.75, 1000.0 + 16.7 * (step + 1), 2 + step) for step in range(6)]
        + [("move", -0.5, -(20.5 - step * 1.375), 1100.2 + 16.6 * (step + 1), 8 + step) for step in range(10)]
        + [("end", 0.0, 0.0, 1282.8, 18)])
POINTER = 3


async def drag(srv, spellings: list[str], steps=DRAG, seed: int = 7) -> dict:
    """Runs `steps` in a new session, each in its spelling (`"json"` or `"binary"`), waiting after each for the
    frame that acknowledges it; then waits for the session to come to rest. Returns the acknowledging frames, the
    frame at rest, the transitions (events) and every frame received."""
    assert len(spellings) == len(steps)
    async with ws_connect(srv) as ws:
        welcome, first = await hello(ws, seed=seed)
        assert welcome["binary"] == ["touch"]
        received: list[dict] = [first]
        acks: list[dict] = []
        last_seq = 0
        for spelling, (phase, dx, dy, t, seq) in zip(spellings, steps, strict=True):
            await send_touch(ws, spelling, phase, dx, dy, t, POINTER, seq)
            frame, seen = await recv_until(ws, acked(seq))
            received += seen + [frame]
            assert not [m for m in seen if is_error(m)], (spelling, phase, seq, seen)
            # the frames before it acknowledge the previous input, never one not sent yet
            assert all(m["ack"] == {"0": last_seq} for m in seen if is_frame(m) and "ack" in m), seen
            acks.append(frame)
            last_seq = seq
        rest = acks[-1]
        if not at_rest(rest):
            rest, seen = await recv_until(ws, at_rest, timeout=REST_TIMEOUT_S)
            received += seen + [rest]
        assert rest["ack"] == {"0": last_seq}, rest
        return {"acks": acks, "rest": rest, "events": [transition(m) for m in received if m["type"] == "event"],
                "received": received}


def assert_same_drag(got: dict, expected: dict, label: str) -> None:
    assert len(got["acks"]) == len(expected["acks"])
    for (phase, _, _, _, seq), frame, reference in zip(DRAG, got["acks"], expected["acks"], strict=True):
        assert state(frame) == state(reference), f"{label}: the frame acknowledging {phase} seq {seq}:\n" \
            f"{state(frame)}\n!=\n{state(reference)}"
    assert state(got["rest"]) == state(expected["rest"]), f"{label}: at rest:\n{got['rest']}\n!=\n{expected['rest']}"
    assert got["events"] == expected["events"], label


# MARK: - 1. The welcome


def test_the_welcome_offers_the_binary_touch(server):
    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            welcome, _ = await hello(a)
            assert welcome["binary"] == ["touch"], welcome
            joined, _ = await hello(b, **join(welcome))  # a member that joins is offered it too
            assert joined["member"] == 1 and joined["binary"] == ["touch"], joined
        async with ws_connect(server) as c:
            resumed, _ = await hello(c, session=welcome["session"], token=welcome["token"])
            assert resumed["resumed"] is True and resumed["binary"] == ["touch"], resumed
    run(scenario)


# MARK: - 2. A binary drag is the JSON drag


def test_a_binary_drag_moves_the_content_exactly_as_the_same_drag_in_json(server):
    async def scenario():
        as_json = await drag(server, ["json"] * len(DRAG))
        as_binary = await drag(server, ["binary"] * len(DRAG))
        return as_json, as_binary

    as_json, as_binary = run(scenario)
    # the drag did what it says: pulled past the top, then scrolled into the list, released moving
    pulled = [frame["offset"]["y"] for frame in as_json["acks"]]
    assert min(pulled) < 0 < max(pulled), pulled
    assert ("transition", "top", "idle", "pulling", "drag") in as_json["events"], as_json["events"]
    # (and stayed clear of the bottom, whose load-more would end on the server's timers, not on the inputs)
    assert all(edge in (None, "top") for _, edge, *_ in as_json["events"]), as_json["events"]
    assert as_json["acks"][-1]["phase"] == "animating", as_json["acks"][-1]
    assert as_json["acks"][-2]["phase"] == "dragging" and as_json["acks"][-2]["velocity"]["y"] > 0
    # every binary touch acknowledged in turn, and the same frames as JSON made, number for number
    assert [frame["ack"] for frame in as_binary["acks"]] == [{"0": seq} for *_, seq in DRAG]
    assert_same_drag(as_binary, as_json, "binary vs JSON")


# MARK: - 6. Both spellings in one drag


def test_json_and_binary_touches_mix_in_one_drag(server):
    alternating = ["json" if index % 2 == 0 else "binary" for index in range(len(DRAG))]  # JSON start, binary end
    other_way = ["binary" if spelling == "json" else "json" for spelling in alternating]

    async def scenario():
        return (await drag(server, ["json"] * len(DRAG)), await drag(server, alternating),
                await drag(server, other_way))

    as_json, mixed, mixed_other = run(scenario)
    assert alternating[0] == "json" and alternating[-1] == "binary"
    assert_same_drag(mixed, as_json, "JSON start, binary end")
    assert_same_drag(mixed_other, as_json, "binary start, JSON end")


def test_the_page_clock_judges_both_spellings_against_each_other(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await hello(ws)
            await send_text(ws, page_text(json_touch("start", t=10_000.0, id=1, seq=1)))
            await recv_until(ws, acked(1))
            # a binary sample 5 s older than the newest JSON one is refused with its seq
            await send_binary(ws, binary_touch("move", dy=-40.0, t=5_000.0, id=1, seq=2))
            error, _ = await recv_until(ws, is_error)
            assert error == {"type": "error", "code": "bad_field", "ref": "touch", "seq": 2,
                             "message": "touch.t went backwards by 5000 ms (at most 1000 ms is tolerated)"}, error
            # a binary sample up to 1 s older is reordering, accepted
            await send_binary(ws, binary_touch("move", dy=-10.0, t=9_200.0, id=1, seq=3))
            frame, seen = await recv_until(ws, acked(3))
            assert frame["offset"]["y"] == 10 and not [m for m in seen if is_error(m)], (frame, seen)
            # and the other way round: a JSON sample 5 s older than the newest binary one
            await send_binary(ws, binary_touch("move", dy=-10.0, t=20_000.0, id=1, seq=4))
            await recv_until(ws, acked(4))
            await send_text(ws, page_text(json_touch("move", dy=-40.0, t=15_000.0, id=1, seq=5)))
            error, _ = await recv_until(ws, is_error)
            assert error["code"] == "bad_field" and error["seq"] == 5, error
            assert error["message"].startswith("touch.t went backwards by 5000 ms"), error
            # (the finger rested before it lifted: no fling, the content stays where the applied moves put it)
            await send_binary(ws, binary_touch("end", t=20_600.0, id=1, seq=6))
            frame, seen = await recv_until(ws, acked(6))
            assert all(m["ack"]["0"] in (4, 6) for m in seen if is_frame(m)), seen  # 2 and 5 never applied
            assert frame["offset"]["y"] == 20 and frame["phase"] == "idle", frame
    run(scenario)


# MARK: - 3. Bad binary messages


def assert_names_length_and_first_byte(message: str, data: bytes) -> None:
    """`…; got 40 bytes, the first 1`: the numbers after the last "got" are the length and the first byte (none for
    an empty message)."""
    assert "got" in message, message
    named = re.findall(r"\d+", message.rsplit("got", 1)[1])
    assert named == [str(len(data))] + ([str(data[0])] if data else []), message


TOUCH_40 = binary_touch("move", 0.0, -50.0, 1016.0, 1)
NOT_A_TOUCH = [
    pytest.param(b"", id="empty"),
    pytest.param(b"\x01", id="one byte"),
    pytest.param(TOUCH_40[:39], id="39 bytes"),
    pytest.param(TOUCH_40 + b"\x00", id="41 bytes"),
    pytest.param(TOUCH_40 + bytes(7), id="47 bytes"),
    pytest.param(TOUCH_40 + bytes(9), id="49 bytes"),
    pytest.param(TOUCH_40 * 2, id="two touches in one message"),
    pytest.param(bytes([1]) * 1000, id="1000 bytes"),
    pytest.param(binary_touch("move", 0.0, -50.0, 1016.0, 1, 2, kind=0), id="kind 0"),
    pytest.param(binary_touch("move", 0.0, -50.0, 1016.0, 1, 2, kind=2), id="kind 2"),
    pytest.param(binary_touch("move", 0.0, -50.0, 1016.0, 1, kind=0x7B), id="kind '{'"),
    pytest.param(binary_touch(4, 0.0, -50.0, 1016.0, 1, 2), id="phase 4"),
    pytest.param(binary_touch(255, 0.0, -50.0, 1016.0, 1), id="phase 255"),
    pytest.param(bytes(48), id="48 zero bytes"),
]

TOUCH_FIELDS = "touch.{} must be a finite number"
SEQ_INTEGER = "touch.seq must be an integer from 0 to 9007199254740992"
SEQ_RANGE = "touch.seq must be from 0 to 9007199254740992"
# (How far ahead depends on the real time that passed since the start, so its numbers are not compared.)
AHEAD = re.compile(r"touch\.t jumped ahead by \d+ ms more than the time that passed \(at most 3600000 ms\)")
# A binary touch whose values the JSON path refuses: (the touch's values, the code, the message (None: only the JSON
# spelling's error is compared), whether the error carries its seq). Each would move the content if applied.
REFUSED_VALUES = [
    pytest.param(dict(dx=NAN, dy=-50.0), "bad_field", TOUCH_FIELDS.format("dx"), True, id="dx NaN"),
    pytest.param(dict(dx=INF, dy=-50.0), "bad_field", TOUCH_FIELDS.format("dx"), True, id="dx +inf"),
    pytest.param(dict(dy=-INF), "bad_field", TOUCH_FIELDS.format("dy"), True, id="dy -inf"),
    pytest.param(dict(dy=NAN), "bad_field", TOUCH_FIELDS.format("dy"), True, id="dy NaN"),
    pytest.param(dict(dy=-50.0, t=NAN), "bad_field", TOUCH_FIELDS.format("t"), True, id="t NaN"),
    pytest.param(dict(dy=-50.0, t=INF), "bad_field", TOUCH_FIELDS.format("t"), True, id="t +inf"),
    pytest.param(dict(dx=1_000_000.5, dy=-50.0), "out_of_range", None, True, id="dx beyond 1e6"),
    pytest.param(dict(dy=-2e6), "out_of_range", None, True, id="dy -2e6"),
    pytest.param(dict(dy=-1e300), "out_of_range", None, True, id="dy -1e300"),
    pytest.param(dict(dy=-50.0, t=1e13), "out_of_range", None, True, id="t 1e13"),
    pytest.param(dict(dy=-50.0, id=1.5), "bad_field", "touch.id must be an integer", True, id="id 1.5"),
    pytest.param(dict(dy=-50.0, id=NAN), "bad_field", "touch.id must be an integer", True, id="id NaN"),
    pytest.param(dict(dy=-50.0, id=INF), "bad_field", "touch.id must be an integer", True, id="id +inf"),
    pytest.param(dict(dy=-50.0, id=float(MAX_SEQ + 2)), "out_of_range", None, True, id="id beyond 2^53"),
    pytest.param(dict(dy=-50.0, seq=2.5), "bad_field", SEQ_INTEGER, False, id="seq 2.5"),
    pytest.param(dict(dy=-50.0, seq=NAN), "bad_field", SEQ_INTEGER, False, id="seq NaN"),
    pytest.param(dict(dy=-50.0, seq=INF), "bad_field", SEQ_INTEGER, False, id="seq +inf"),
    pytest.param(dict(dy=-50.0, seq=-1.0), "out_of_range", SEQ_RANGE, False, id="seq -1"),
    pytest.param(dict(dy=-50.0, seq=float(MAX_SEQ + 2)), "out_of_range", SEQ_RANGE, False, id="seq beyond 2^53"),
    pytest.param(dict(dx=NAN, dy=-50.0, seq=2.5), "bad_field", TOUCH_FIELDS.format("dx"), False,
                 id="dx NaN and seq 2.5"),
    pytest.param(dict(dy=-50.0, t=-5000.0), "bad_field",
                 "touch.t went backwards by 6000 ms (at most 1000 ms is tolerated)", True, id="t backwards"),
    pytest.param(dict(dy=-50.0, t=1000.0 + 3 * 3600 * 1000), "bad_field", AHEAD, True, id="t hours ahead"),
]


async def started(ws) -> dict:
    """A new session with a binary drag started (pointer 1, seq 1, t = 1000) at the top: offset 0."""
    await hello(ws)
    await send_binary(ws, binary_touch("start", t=1000.0, id=1, seq=1))
    frame, _ = await recv_until(ws, acked(1))
    assert frame["offset"]["y"] == 0 and frame["phase"] == "dragging", frame
    return frame


async def assert_session_carries_on(ws, refused: set[int]) -> None:
    """The session still works: a ping is answered, and a good binary move (seq 3, 10 px up) is applied, and only it
    since the start: the content is exactly 10 px up, and no frame acknowledged a refused seq."""
    await send_json(ws, {"type": "ping", "t": 4242.5})
    pong, _ = await recv_until(ws, lambda m: m["type"] == "pong" and m["t"] == 4242.5)
    await send_binary(ws, binary_touch("move", 0.0, -10.0, 1032.0, 1, 3))
    frame, seen = await recv_until(ws, acked(3))
    assert frame["offset"] == {"x": 0, "y": 10} and frame["phase"] == "dragging", frame
    assert not [m for m in seen if is_frame(m) and m.get("ack", {}).get("0") in refused], seen
    await send_binary(ws, binary_touch("end", 0.0, 0.0, 1048.0, 1, 4))
    await recv_until(ws, lambda m: acked(4)(m) and m["phase"] != "dragging")


@pytest.mark.parametrize("data", NOT_A_TOUCH)
def test_a_binary_message_that_is_not_a_touch_is_binary_unsupported(server, data):
    async def scenario():
        async with ws_connect(server) as ws:
            await started(ws)
            mark = log_mark(server)
            await send_binary(ws, data)
            error, _ = await recv_until(ws, is_error)
            assert error["code"] == "binary_unsupported", error
            assert set(error) == {"type", "code", "message"}, error  # not a touch: no ref, no seq
            assert len(error["message"]) < 300, "an error must not echo what the client sent"
            assert_names_length_and_first_byte(error["message"], data)
            assert_logged(server, error, mark)
            await assert_session_carries_on(ws, refused={2})
    run(scenario)


@pytest.mark.parametrize("values, code, message, carries_seq", REFUSED_VALUES)
def test_a_binary_touch_the_json_path_would_refuse_gets_the_same_error(server, values, code, message, carries_seq):
    fields = {"dx": 0.0, "dy": 0.0, "t": 1016.0, "id": 1.0, "seq": 2, **values}

    async def scenario():
        async with ws_connect(server) as ws:
            await started(ws)
            mark = log_mark(server)
            await send_binary(ws, binary_touch("move", **fields))
            error, _ = await recv_until(ws, is_error)
            expected = {"type": "error", "code": code, "ref": "touch"}
            if carries_seq:
                expected["seq"] = 2
            assert {k: v for k, v in error.items() if k != "message"} == expected, error
            if isinstance(message, re.Pattern):
                assert message.fullmatch(error["message"]), error
            elif message is not None:
                assert error["message"] == message, error
            # the JSON spelling of the same values gets exactly the same error (NaN, which JSON cannot spell, only
            # above; an infinity as a number that overflows, which the decoder reads as one)
            if not any(isinstance(v, float) and math.isnan(v) for v in fields.values()):
                await send_text(ws, page_text(json_touch("move", **fields)))
                same, _ = await recv_until(ws, is_error)
                if isinstance(message, re.Pattern):
                    assert message.fullmatch(same["message"]), same
                    assert {**same, "message": ""} == {**error, "message": ""}, f"binary: {error}\nJSON:   {same}"
                    assert_logged(server, error, mark)
                    assert_logged(server, same, mark)
                else:
                    assert same == error, f"binary: {error}\nJSON:   {same}"
                    assert_logged(server, error, mark, 2)
            else:
                assert_logged(server, error, mark)
            await assert_session_carries_on(ws, refused={2})
    run(scenario)


@pytest.mark.parametrize("with_seq", [True, False], ids=["48 bytes", "40 bytes"])
@pytest.mark.parametrize("index, value", [(2, 1), (5, 0x80), (7, 0xFF)])
def test_nonzero_bytes_2_to_7_are_bad_field(server, with_seq, index, value):
    async def scenario():
        async with ws_connect(server) as ws:
            await started(ws)
            pad = bytearray(6)
            pad[index - 2] = value
            data = binary_touch("move", 0.0, -50.0, 1016.0, 1, 2 if with_seq else None, pad=bytes(pad))
            assert data[index] == value and len(data) == (48 if with_seq else 40)
            mark = log_mark(server)
            await send_binary(ws, data)
            error, _ = await recv_until(ws, is_error)
            expected = {"type": "error", "code": "bad_field", "ref": "touch"}
            if with_seq:
                expected["seq"] = 2
            assert {k: v for k, v in error.items() if k != "message"} == expected, error
            assert error["message"] == "bytes 2-7 of a binary touch must be zero", error
            assert_logged(server, error, mark)
            await assert_session_carries_on(ws, refused={2})
    run(scenario)


def test_a_binary_touch_before_hello_is_not_ready_as_json_is(server):
    async def scenario():
        async with ws_connect(server) as ws:
            await send_binary(ws, binary_touch("start", t=10.0, id=1, seq=3))
            error = await recv_json(ws)
            await send_text(ws, page_text(json_touch("start", t=10.0, id=1, seq=3)))
            same = await recv_json(ws)
            assert error == same == {"type": "error", "code": "not_ready", "message": "send hello before any input",
                                     "ref": "touch", "seq": 3}, (error, same)
            await send_binary(ws, bytes(5))
            error = await recv_json(ws)
            assert error["code"] == "binary_unsupported", error
            # the connection is fine: hello still opens a session, and a binary drag works in it
            await started(ws)
            await assert_session_carries_on(ws, refused=set())
    run(scenario)


# MARK: - 4. Fragments


@pytest.mark.parametrize("cuts", [[1], [8], [24], [40], [47], [2, 30], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
                         ids=lambda cuts: "cut at " + ",".join(map(str, cuts)))
def test_a_fragmented_binary_touch_is_applied_like_a_whole_one(server, cuts):
    with RawWebSocket(server.port) as ws:
        welcome, _ = raw_hello(ws)
        assert welcome["binary"] == ["touch"]

        def send_in_pieces(data: bytes, ping_between: bool = False) -> None:
            edges = [0, *cuts, len(data)]
            pieces = [data[a:b] for a, b in pairwise(edges)]
            for index, piece in enumerate(pieces):
                if ping_between and index == 1:
                    ws.send_frame(OP_PING, b"between")  # a control frame between fragments is legal
                ws.send_frame(OP_BINARY if index == 0 else OP_CONT, piece, fin=index == len(pieces) - 1)

        send_in_pieces(binary_touch("start", 0.0, 0.0, 1000.0, 2, 1))
        frame, _ = ws.recv_until(acked(1))
        assert frame["phase"] == "dragging" and frame["offset"]["y"] == 0, frame
        # a whole move, then the same move in pieces: each moves the content by exactly its 12.5 px
        ws.send_frame(OP_BINARY, binary_touch("move", 0.0, -12.5, 1016.0, 2, 2))
        frame, _ = ws.recv_until(acked(2))
        assert frame["offset"]["y"] == 12.5, frame
        send_in_pieces(binary_touch("move", 0.0, -12.5, 1032.0, 2, 3), ping_between=True)
        frame, seen = ws.recv_until(acked(3))
        assert frame["offset"]["y"] == 25 and not [m for m in seen if is_error(m)], (frame, seen)
        # a refused one in pieces gets the error the whole one gets, with its seq
        send_in_pieces(binary_touch("move", NAN, -12.5, 1048.0, 2, 4))
        error, _ = ws.recv_until(is_error)
        assert error == {"type": "error", "code": "bad_field", "message": "touch.dx must be a finite number",
                         "ref": "touch", "seq": 4}, error
        # the end in pieces, without a seq (the 40-byte form), after the finger rested (no fling): the drag ends
        # where it was
        send_in_pieces(binary_touch("end", 0.0, 0.0, 1600.0, 2))
        frame, seen = ws.recv_until(lambda m: is_frame(m) and m["phase"] != "dragging")
        assert frame["ack"] == {"0": 3} and frame["offset"]["y"] == 25 and frame["phase"] == "idle", frame
        assert all(m.get("ack", {}).get("0") != 4 for m in seen if is_frame(m)), seen


# MARK: - 5. The trace


def test_the_trace_holds_binary_touches_as_json_and_replays_to_the_same_frames(server, tmp_path: Path):
    # The values a page would send, chosen to round-trip exactly or not at all: fractions that are not short in
    # decimal, a negative zero, the largest seq, a touch without seq (40 bytes); member 1 sends some too.
    steps_a = [
        ("start", 0.0, 0.0, 1000.0, 7, 1),
        ("move", -0.0, -7.123456789012345, 1016.6666666666667, 7, 2),
        ("move", 0.1, -(1 / 3), 1033.3333333333333, 7, 3),
        ("move", 2.5e-7, -19.999999999999996, 1050.0000000000002, 7, None),
        ("move", -1.0, -1_000_000.0, 1066.7, 7, 5),  # at the limit: accepted
        ("move", 0.0, -31.25, 1083.4, 7, MAX_SEQ - 1),
        ("end", 0.0, 0.0, 1100.125, 7, MAX_SEQ),
    ]
    steps_b = [("start", 0.0, 0.0, 50.0, 1, 100), ("move", 0.0, 42.0, 66.5, 1, 101), ("end", 0.0, 0.0, 83.25, 1, 102)]

    async def scenario():
        async with ws_connect(server) as a, ws_connect(server) as b:
            raw_frames: list[str] = []  # every frame `a` received, as the bytes it received

            async def until(predicate, timeout: float = RECV_TIMEOUT_S) -> dict:
                async def loop() -> dict:
                    while True:
                        text = await asyncio.wait_for(a.recv(), timeout)
                        message = json.loads(text)
                        if is_frame(message):
                            raw_frames.append(text)
                        if is_error(message):
                            assert message["seq"] == 4 and message["code"] == "bad_field", message
                        if predicate(message):
                            return message
                return await asyncio.wait_for(loop(), timeout)

            await send_json(a, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "seed": 11})
            welcome = await until(lambda m: m["type"] == "welcome")
            await until(is_frame)
            await hello(b, **join(welcome))
            for phase, dx, dy, t, pointer, seq in steps_a:
                await send_binary(a, binary_touch(phase, dx, dy, t, pointer, seq))
                if phase == "move" and seq == 3:
                    # a refused one in between (not recorded: only what the session applied is)
                    await send_binary(a, binary_touch("move", NAN, -5.0, 1040.0, 7, 4))
            released = await until(lambda m: acked(MAX_SEQ)(m) and m["phase"] != "dragging")
            if not at_rest(released):
                await until(at_rest, REST_TIMEOUT_S)
            for phase, dx, dy, t, pointer, seq in steps_b:
                await send_binary(b, binary_touch(phase, dx, dy, t, pointer, seq))
            released = await until(lambda m: is_frame(m) and m.get("ack") == {"0": MAX_SEQ, "1": 102})
            if not at_rest(released):
                await until(at_rest, REST_TIMEOUT_S)
            await send_json(a, {"type": "trace"})
            while True:
                raw = await asyncio.wait_for(a.recv(), RECV_TIMEOUT_S)
                if json.loads(raw)["type"] == "trace":
                    return raw, raw_frames
                if is_frame(json.loads(raw)):
                    raw_frames.append(raw)

    raw, raw_frames = run(scenario)
    trace = strict_json(raw)["trace"]  # still one JSON document: no NaN, no binary
    applies = [op for op in trace["ops"] if "apply" in op]
    expected = [(0, json_touch(phase, dx, dy, t, pointer, seq)) for phase, dx, dy, t, pointer, seq in steps_a] \
        + [(1, json_touch(phase, dx, dy, t, pointer, seq)) for phase, dx, dy, t, pointer, seq in steps_b]
    assert len(applies) == len(expected), applies
    for op, (member, message) in zip(applies, expected, strict=True):
        assert op["member"] == member, op
        # the page's spelling: the same members in the same order, the same numbers (exactly: no rounding)
        assert list(op["apply"]) == list(message), op
        assert op["apply"] == message, f"{op['apply']}\n!=\n{message}"
        for key in ("dx", "dy", "t", "id", "seq"):
            if key in message:
                assert float(op["apply"][key]) == float(message[key]), (key, op["apply"], message)
    # a negative zero reads as 0, and is written so (docs/PROTOCOL.md, "Binary touch")
    assert '{"type":"touch","phase":"move","dx":0,"dy":-7.123456789012345,"t":1016.6666666666667,"id":7,"seq":2}' \
        in raw, [line for line in raw.splitlines() if '"seq":2}' in line]
    # `refreshkit replay` reads those JSON texts with the server's JSON decoder and makes the same frames
    path = tmp_path / "trace.json"
    path.write_text(raw[len('{"type":"trace","trace":'):-1])
    result = subprocess.run([str(server_binary()), "replay", str(path), "--frames"], cwd=ROOT,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"frames {trace['frames']} digest {trace['digest']} — matches the recording" in result.stdout, \
        result.stdout
    replayed = {json.loads(line)["seq"]: line for line in result.stdout.splitlines() if line.startswith("{")}
    assert len(replayed) == trace["frames"]
    received = {json.loads(text)["seq"]: text for text in raw_frames}
    assert len(received) >= 10, "the drags' frames"
    for seq, text in received.items():
        assert replayed.get(seq) == text, f"frame {seq}:\nreceived {text}\nreplayed {replayed.get(seq)}"
    assert json.loads(replayed[max(replayed)])["ack"] == {"0": MAX_SEQ, "1": 102}


# MARK: - The rate limit


def test_binary_touches_count_against_the_rate_limit_and_a_binary_end_still_lands(fresh_server):
    srv = fresh_server("--rate-limit", "20", "--log-level", "info")  # 20 messages/s, bursts of 40

    async def scenario():
        async with ws_connect(srv) as ws:
            await hello(ws)
            t = 1000.0
            await send_binary(ws, binary_touch("start", t=t, id=1, seq=1))
            await recv_until(ws, acked(1))
            # far beyond the burst, in one go, each 1 px up: most are dropped, unanswered; and the end right behind
            # them, while the limiter refuses, which is applied all the same (a release passes, one a second), so the
            # drag is not held (the finger rested first: no fling)
            for seq in range(2, 302):
                t += 1
                await send_binary(ws, binary_touch("move", 0.0, -1.0, t, 1, seq))
            await send_binary(ws, binary_touch("end", t=t + 500, id=1, seq=1000))
            # (the error and the end's frame, in whichever order the server writes them)
            received: list[dict] = []
            while not (any(is_error(m) for m in received)
                       and any(acked(1000)(m) and m["phase"] != "dragging" for m in received)):
                received.append(await recv_json(ws))
            errors = [m for m in received if is_error(m)]
            assert [m["code"] for m in errors] == ["rate_limited"], errors  # the dropped ones get no answer
            assert "seq" not in errors[0] and "20 messages/s" in errors[0]["message"], errors
            frame = next(m for m in received if acked(1000)(m) and m["phase"] != "dragging")
            assert frame["phase"] == "idle", frame
            # some of the moves were applied (the burst), most were not: the content moved by as many px
            applied = frame["offset"]["y"]
            assert 10 <= applied < 150 and applied == int(applied), frame
    run(scenario)
    assert wait_for(lambda: bool(log_lines(srv, "rate limit exceeded", "code=rate_limited")), 5), srv.output()
    assert srv.terminate() == 0, srv.output()
