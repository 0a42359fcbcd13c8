"""`refreshkit serve --gather-from CONNECTIONS`: the two ways the loop hands what lws read to the session host. While
at least CONNECTIONS connections are open it gathers: a turn's pieces of messages are held, in the order read, each
with its connection, kind, last-fragment flag and receive time, and handed to the host together at the turn's end or
before any other event (Sources/RefreshServer/TurnInputs.swift, SessionPrefetch.swift); below that count each piece
goes to the host as lws reads it. The default count is the L2 cache over 8 KiB (256 connections with 2 MiB), so the
rest of the suite runs the direct path; `--gather-from 0` always gathers. The host must see the same either way:

- the same scripted traffic (six sessions of two members, drags in both spellings sent in bursts on every connection
  at once) makes the same frames on a direct server and on an always-gathering one: the frames at rest, the ack
  maps, the events, and every frame not made while the content moves on its own, by what it acknowledges;
- fragmented touches (JSON and binary, in continuation frames, across turns, with a ping between fragments, a
  fragment longer than a held piece, a character split between fragments) are applied whole, in turn with whole
  messages from another connection, on either path;
- the path switches while traffic flows (`--gather-from 3`: a drag begun with one connection open goes on with
  three, then with one again): every input is acknowledged, what a closing connection sent just before it closed is
  applied, and the content moves by exactly the sum of the drags' dy;
- a flood from 24 connections at once (enough that a turn may read more than the 1 024 pieces or 64 KiB it holds),
  each drag's last message too long to hold, is applied whole and in order on either path;
- a connection refused in the middle of a turn (a message over the size limit, 1009) keeps what it sent before the
  refused message and nothing after it, on either path, while other connections drag on;
- a negative count is refused at start with a clear message and a non-zero exit.

Every server must exit 0 on SIGTERM and log no error. Every wait is for a state (a frame that acknowledges a seq, a
session at rest, the pong that says the server read what was sent before its ping, a `room` or a log line that says
a connection closed, a close code), bounded by a timeout."""
from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import time
from itertools import pairwise

import pytest
import websockets

from conftest import RECV_TIMEOUT_S, ROOT, RunningServer, hello, run, server_binary, ws_connect
from hostile_support import OP_BINARY, OP_CONT, OP_PING, OP_PONG, OP_TEXT, RawWebSocket, log_lines, strict_json
from test_binary_touch import at_rest, binary_touch, is_error, is_frame, json_touch, page_text, state, transition

REST_TIMEOUT_S = 10.0  # the flings below come to rest within about 1 s of their release


# MARK: - The servers


def default_gather_from() -> int:
    """The server's default count (SessionPrefetch.fromConnections): the L2 cache's size over 8 KiB, 1 MiB where the
    system does not say."""
    try:
        size = int(subprocess.run(["getconf", "LEVEL2_CACHE_SIZE"], capture_output=True, text=True,
                                  timeout=5).stdout.strip() or 0)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        size = 0
    return (size if size > 0 else 1 << 20) // (8 << 10)


def direct_args(connections: int) -> tuple[str, ...]:
    """A server that hands every piece over as it is read while `connections` are open: the default one, unless this
    host's cache is so small that its default count would gather them."""
    return () if default_gather_from() > connections else ("--gather-from", str(connections + 1))


GATHERED = ("--gather-from", "0")


@pytest.fixture
def serve():
    """Starts `refreshkit serve` with the given options; at teardown each must exit 0 on SIGTERM and must not have
    logged an error or worse."""
    started: list[RunningServer] = []

    def start(*args: str) -> RunningServer:
        srv = RunningServer("--log-level", "info", *args)
        started.append(srv)
        return srv

    yield start
    problems = []
    try:
        for srv in started:
            code = srv.terminate()
            if code != 0:
                problems.append(f"a server exited with {code}\n" + srv.output())
            if srv.error_lines():
                problems.append("a server logged errors:\n" + "\n".join(srv.error_lines()[:10]))
    finally:
        for srv in started:  # (one that did not stop in time failed the test: the others go too)
            srv.kill()
    assert not problems, "\n".join(problems)


# MARK: - Touches, inboxes


def spelled(spelling: str, phase: str, dx: float, dy: float, t: float, pointer: int, seq: int) -> str | bytes:
    """A touch as the page sends it (`binary`, `page`: `JSON.stringify`'s text, read in one pass) or as another
    client might (`spaced`: `json.dumps`, with spaces, read the slow way)."""
    if spelling == "binary":
        return binary_touch(phase, dx, dy, t, pointer, seq)
    if spelling == "page":
        return page_text(json_touch(phase, dx, dy, t, pointer, seq))
    return json.dumps(json_touch(phase, dx, dy, t, pointer, seq))


def acks(frame: dict) -> tuple:
    return tuple(sorted(frame.get("ack", {}).items()))


class Inbox:
    """Every message one connection receives from the moment it is made, read in the background, and what arrives
    waited for."""

    def __init__(self, ws):
        self.ws = ws
        self.messages: list[dict] = []
        self.closed = False
        self._arrived = asyncio.Event()
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.messages.append(strict_json(raw) if isinstance(raw, str) else {"type": "binary?", "raw": raw})
                self._arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._arrived.set()

    async def until(self, predicate, timeout: float = RECV_TIMEOUT_S) -> dict:
        """The first message so far, or from now on, that `predicate` accepts."""
        async def scan() -> dict:
            index = 0
            while True:
                self._arrived.clear()
                while index < len(self.messages):
                    index += 1
                    if predicate(self.messages[index - 1]):
                        return self.messages[index - 1]
                assert not self.closed, f"the connection closed first; last messages: {self.messages[-3:]}"
                await self._arrived.wait()
        try:
            return await asyncio.wait_for(scan(), timeout)
        except TimeoutError:
            raise AssertionError(f"nothing accepted within {timeout} s; last messages: {self.messages[-3:]}") \
                from None

    async def finished(self) -> list[dict]:
        """Every message, once the connection is closed."""
        await asyncio.wait_for(self._task, RECV_TIMEOUT_S)
        return self.messages


def resting_with(ack: dict):
    return lambda m: at_rest(m) and m.get("ack") == ack


# MARK: - 1. The same traffic, the same frames


SESSIONS = 6  # of two members each: 12 connections
SEED = 20


def first_drag(session: int) -> list[tuple]:
    """Member 0's drag (pointer 1): pulled down past the top (the top edge pulling, well short of its trigger), then
    up into the list, on both axes; the finger rests before it lifts, so the content stays where it is. Scaled by
    session, so that each session's numbers are its own."""
    scale = 1 + session / 8
    t = 1000.0 + 100 * session
    steps = [("start", 0.0, 0.0, t)]
    for _ in range(4):
        t += 16.5
        steps.append(("move", 0.25, 6.0 * scale, t))
    for k in range(10):
        t += 16.75
        steps.append(("move", -0.125, -(14.0 * scale - 0.5 * k), t))
    return steps + [("end", 0.0, 0.0, t + 600.0)]


def second_drag(session: int) -> list[tuple]:
    """Member 1's drag (pointer 2), from where the first left the content: towards the top, released moving, so that
    a fling runs into the top and springs back (the top edge pulling again, by the fling)."""
    scale = 1 + session / 8
    t = 5000.0 + 100 * session
    steps = [("start", 0.0, 0.0, t)]
    for k in range(6):
        t += 16.6
        steps.append(("move", 0.0, 9.0 * scale + k, t))
    return steps + [("end", 0.0, 0.0, t + 8.3)]


FIRST_SEQ = {0: 1, 1: 101}  # each member's first seq


async def burst(members: list, drags: list[list[tuple]], pointer: int, first_seq: int, flip: int) -> None:
    """Sends every session's drag at once, without waiting for anything: step k of every session, then step k + 1
    of every session, …, so that a turn of the loop reads pieces of many connections. The spelling alternates by
    step and session (binary, then JSON: the page's text in even sessions, spaced text in odd ones)."""
    for k in range(max(map(len, drags))):
        for session, (ws, steps) in enumerate(zip(members, drags, strict=True)):
            if k < len(steps):
                phase, dx, dy, t = steps[k]
                spelling = "binary" if (k + session + flip) % 2 == 0 else ("page" if session % 2 == 0 else "spaced")
                await asyncio.wait_for(ws.send(spelled(spelling, phase, dx, dy, t, pointer, first_seq + k)),
                                       RECV_TIMEOUT_S)


async def scripted_traffic(srv: RunningServer) -> list[dict]:
    """Six sessions, each with a second member joined by its id: member 0 of every session drags at once; once every
    session is at rest, member 1 of every session drags at once, until every session is at rest again. Returns, per
    session, each member's messages and the frames at rest."""
    async with contextlib.AsyncExitStack() as stack:
        pairs = []
        for session in range(SESSIONS):
            first = await stack.enter_async_context(ws_connect(srv))
            second = await stack.enter_async_context(ws_connect(srv))
            welcome, _ = await hello(first, seed=SEED + session)
            joined, _ = await hello(second, session=welcome["session"])
            assert joined["member"] == 1 and joined["session"] == welcome["session"], joined
            pairs.append((first, second))
        inboxes = [(Inbox(first), Inbox(second)) for first, second in pairs]

        drags = [first_drag(session) for session in range(SESSIONS)]
        await burst([first for first, _ in pairs], drags, 1, FIRST_SEQ[0], 0)
        after_first = [{"0": FIRST_SEQ[0] + len(steps) - 1} for steps in drags]
        rests_first = await asyncio.gather(*(inbox.until(resting_with(after_first[session]), REST_TIMEOUT_S)
                                             for session in range(SESSIONS) for inbox in inboxes[session]))

        drags = [second_drag(session) for session in range(SESSIONS)]
        await burst([second for _, second in pairs], drags, 2, FIRST_SEQ[1], 1)
        after_second = [{**after_first[session], "1": FIRST_SEQ[1] + len(steps) - 1}
                        for session, steps in enumerate(drags)]
        rests_second = await asyncio.gather(*(inbox.until(resting_with(after_second[session]), REST_TIMEOUT_S)
                                              for session in range(SESSIONS) for inbox in inboxes[session]))
    return [{"members": [await inbox.finished() for inbox in inboxes[session]],
             "rests": [rests_first[2 * session], rests_first[2 * session + 1],
                       rests_second[2 * session], rests_second[2 * session + 1]],
             "acks": [after_first[session], after_second[session]]}
            for session in range(SESSIONS)]


def still_frames(messages: list[dict], label: str) -> dict[tuple, dict]:
    """Every frame not made while the content moves on its own (dragging, idle), by what it acknowledges: such a
    frame says what the inputs up to those acks made, whenever it was written, so that one ack map has one state."""
    by_ack: dict[tuple, dict] = {}
    for frame in (m for m in messages if is_frame(m) and m["phase"] != "animating"):
        key, seen = acks(frame), state(frame)
        assert by_ack.setdefault(key, seen) == seen, f"{label}: two states for the acks {key}:\n{by_ack[key]}\n{seen}"
    return by_ack


def check_one_run(sessions: list[dict], label: str) -> None:
    """What holds within one server's run: no errors; each connection's frames in order, its acks never going back;
    both members of a session got the same frame for every seq both got; one state per ack map."""
    for index, session in enumerate(sessions):
        by_seq: dict[int, dict] = {}
        for member, messages in enumerate(session["members"]):
            where = f"{label}, session {index}, member {member}"
            assert not [m for m in messages if m["type"] not in ("frame", "event", "room")], (where, messages)
            frames = [m for m in messages if is_frame(m)]
            for before, after in pairwise(frames):
                # (a frame is sent again, the same, after a member leaves: the seq repeats then)
                assert after["seq"] > before["seq"] or after == before, (where, before, after)
                for key, value in before.get("ack", {}).items():
                    assert after["ack"][key] >= value, (where, before["ack"], after["ack"])
            for frame in frames:
                assert by_seq.setdefault(frame["seq"], frame) == frame, (where, by_seq[frame["seq"]], frame)
            still_frames(messages, where)


def test_the_same_traffic_makes_the_same_frames_whether_the_inputs_are_gathered_or_not(serve):
    direct = serve(*direct_args(2 * SESSIONS))
    gathered = serve(*GATHERED)
    runs = {"direct": run(lambda: scripted_traffic(direct)), "gathered": run(lambda: scripted_traffic(gathered))}
    for label, sessions in runs.items():
        check_one_run(sessions, label)

    # the script did what it says, on the direct server: the top pulled and let go by the drag, then by the fling;
    # never the bottom (whose load-more would end on the server's timers); the first drag left the content in the
    # list, the second at the top
    for index, session in enumerate(runs["direct"]):
        events = [transition(m) for m in session["members"][0] if m["type"] == "event"]
        assert ("transition", "top", "idle", "pulling", "drag") in events, (index, events)
        assert ("transition", "top", "idle", "pulling", "fling") in events, (index, events)
        assert all(edge in (None, "top") for _, edge, *_ in events), (index, events)
        assert session["rests"][0]["offset"]["y"] > 50 and session["rests"][2]["offset"] == {"x": 0, "y": 0}

    for index, (direct_session, gathered_session) in enumerate(zip(runs["direct"], runs["gathered"], strict=True)):
        where = f"session {index}"
        # at rest after each drag, both members: the same state (offset, edges, feed, ack map, …) on both servers
        for which, (got, expected) in enumerate(zip(gathered_session["rests"], direct_session["rests"], strict=True)):
            assert state(got) == state(expected), \
                f"{where}, rest {which}: gathered\n{state(got)}\n!= direct\n{state(expected)}"
        assert [rest["ack"] for rest in gathered_session["rests"]] == \
            [ack for ack in gathered_session["acks"] for _ in range(2)]
        for member in (0, 1):
            gathered_messages = gathered_session["members"][member]
            direct_messages = direct_session["members"][member]
            # the same events, in the same order (without their times)
            assert [transition(m) for m in gathered_messages if m["type"] == "event"] == \
                [transition(m) for m in direct_messages if m["type"] == "event"], f"{where}, member {member}: events"
            # every frame made while dragging or at rest: the same state for the same acks, on both servers (which
            # acks got a frame of their own depends on how the reads fell, so only those both servers wrote)
            gathered_still = still_frames(gathered_messages, "gathered")
            direct_still = still_frames(direct_messages, "direct")
            common = gathered_still.keys() & direct_still.keys()
            assert len(common) >= 2, (where, member, gathered_still.keys(), direct_still.keys())  # the two rests
            for key in sorted(common):
                assert gathered_still[key] == direct_still[key], \
                    f"{where}, member {member}, acks {key}: gathered\n{gathered_still[key]}\n!= direct\n" \
                    f"{direct_still[key]}"
            # the motion each fling started: the same segments (without their times)
            gathered_motions = [state(m)["segment"] for m in gathered_messages if is_frame(m) and "segment" in m]
            direct_motions = [state(m)["segment"] for m in direct_messages if is_frame(m) and "segment" in m]
            assert gathered_motions and direct_motions, where
            assert gathered_motions[0] == direct_motions[0], (where, gathered_motions[0], direct_motions[0])


# MARK: - 2. Fragments


class FragmentingSocket(RawWebSocket):
    """A raw client that can also wait for the pong to its ping: once it is back, the server has read everything the
    client sent before the ping. What arrives meanwhile is kept for `recv_json`."""

    def __init__(self, port: int):
        super().__init__(port)
        self.kept: list[tuple[int, bytes]] = []

    def _any_frame(self, deadline: float) -> tuple[int, bytes]:
        first, second = self._read_exact(2, deadline)
        length = second & 0x7F
        if length == 126:
            length = int.from_bytes(self._read_exact(2, deadline), "big")
        elif length == 127:
            length = int.from_bytes(self._read_exact(8, deadline), "big")
        return first & 0x0F, self._read_exact(length, deadline)

    def recv_frame(self, timeout: float = 5.0, answer_pings: bool = True) -> tuple[int, bytes]:
        if self.kept:
            return self.kept.pop(0)
        deadline = time.monotonic() + timeout
        while True:
            opcode, payload = self._any_frame(deadline)
            if opcode == OP_PING:
                self.send_frame(OP_PONG, payload)
            elif opcode != OP_PONG:
                return opcode, payload

    def read_so_far(self, label: bytes, timeout: float = 5.0) -> None:
        """Pings, and reads until the pong that answers it."""
        self.send_frame(OP_PING, label)
        deadline = time.monotonic() + timeout
        while True:
            opcode, payload = self._any_frame(deadline)
            if opcode == OP_PONG and payload == label:
                return
            if opcode == OP_PING:
                self.send_frame(OP_PONG, payload)
            elif opcode != OP_PONG:
                self.kept.append((opcode, payload))

    def send_pieces(self, opcode: int, data: bytes, cuts: list[int]) -> list[bytes]:
        """The frames of one message cut at `cuts` (not sent): the first with `opcode`, the others continuations, the
        last final."""
        edges = [0, *cuts, len(data)]
        pieces = [data[a:b] for a, b in pairwise(edges)]
        return [self.frame(opcode if index == 0 else OP_CONT, piece, fin=index == len(pieces) - 1)
                for index, piece in enumerate(pieces)]


def welcomed(ws: RawWebSocket, seed: int) -> dict:
    ws.send_json({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "seed": seed})
    welcome = ws.recv_json()
    assert welcome["type"] == "welcome", welcome
    ws.recv_until(is_frame)
    return welcome


@pytest.mark.parametrize("path", ["direct", "gathered"])
def test_fragmented_touches_are_applied_whole_among_whole_messages_from_another_connection(serve, path):
    srv = serve(*(direct_args(2) if path == "direct" else GATHERED))
    with FragmentingSocket(srv.port) as a, FragmentingSocket(srv.port) as b:
        welcomed(a, 31)
        welcomed(b, 32)
        b_seq = 0
        b_moved = 0.0

        def whole_from_b(dy: float, phase: str = "move", t: float | None = None) -> None:
            """One whole touch from b (pointer 1), binary and JSON by turns, sent at once."""
            nonlocal b_seq, b_moved
            b_seq += 1
            b_moved += dy
            data = spelled("binary" if b_seq % 2 else "page", phase, 0.0, dy, t or 2000.0 + 16 * b_seq, 1, b_seq)
            b.send_frame(OP_BINARY if isinstance(data, bytes) else OP_TEXT,
                         data if isinstance(data, bytes) else data.encode())

        a_moved = 0.0
        # A JSON start in three fragments, each read in a turn of its own (the pong says so), b's whole start and
        # moves between them.
        frames = a.send_pieces(OP_TEXT, page_text(json_touch("start", 0.0, 0.0, 1000.0, 7, 1)).encode(), [9, 40])
        a.sock.sendall(frames[0])
        whole_from_b(0.0, "start")
        a.read_so_far(b"1")
        a.sock.sendall(frames[1])
        whole_from_b(-3.0)
        a.read_so_far(b"2")
        whole_from_b(-3.0)
        a.sock.sendall(frames[2])
        frame, seen = a.recv_until(lambda m: is_frame(m) and m.get("ack") == {"0": 1})
        assert frame["phase"] == "dragging" and not [m for m in seen if is_error(m)], (frame, seen)

        # A binary move in five fragments, b's whole moves between each, all sent at once (one turn may read them
        # all), then again with a ping between the fragments (read in turns of their own).
        for seq, with_pings in ((2, False), (3, True)):
            frames = a.send_pieces(OP_BINARY, binary_touch("move", 0.0, -12.5, 1000.0 + 16 * seq, 7, seq),
                                   [1, 8, 24, 47])
            for index, piece in enumerate(frames):
                a.sock.sendall(piece)
                whole_from_b(-1.5)
                if with_pings:
                    a.read_so_far(f"{seq}.{index}".encode())
            a_moved -= 12.5
            frame, seen = a.recv_until(lambda m, seq=seq: is_frame(m) and m.get("ack") == {"0": seq})
            assert frame["offset"]["y"] == -a_moved and not [m for m in seen if is_error(m)], (frame, seen)

        # A JSON move whose middle fragment is longer than a held piece (512 bytes: it goes to the host at once,
        # after what was held before it), and one whose text is cut inside a character (UTF-8 of "→" and "ž").
        padded = page_text({**json_touch("move", 0.0, -7.25, 1064.0, 7), "note": "x" * 700, "seq": 4}).encode()
        frames = a.send_pieces(OP_TEXT, padded, [100, 100 + 600])
        assert len(frames[1]) > 512
        for piece in frames:
            whole_from_b(-2.0)
            a.sock.sendall(piece)
        a_moved -= 7.25
        frame, seen = a.recv_until(lambda m: is_frame(m) and m.get("ack") == {"0": 4})
        assert frame["offset"]["y"] == -a_moved and not [m for m in seen if is_error(m)], (frame, seen)
        data = (page_text(json_touch("move", 0.0, -4.5, 1080.0, 7))[:-1] + ',"note":"a→b ž","seq":5}').encode()
        arrow = data.index("→".encode())
        ezh = data.index("ž".encode())
        frames = a.send_pieces(OP_TEXT, data, [arrow + 1, arrow + 2, ezh + 1])
        for index, piece in enumerate(frames):
            a.sock.sendall(piece)
            whole_from_b(-1.0)
            a.read_so_far(f"5.{index}".encode())
        a_moved -= 4.5
        frame, seen = a.recv_until(lambda m: is_frame(m) and m.get("ack") == {"0": 5})
        assert frame["offset"]["y"] == -a_moved and not [m for m in seen if is_error(m)], (frame, seen)

        # The end, binary in two fragments around b's end, after the finger rested (no fling): both drags end where
        # they were, each having moved the content by exactly the sum of its dy, every input acknowledged.
        frames = a.send_pieces(OP_BINARY, binary_touch("end", 0.0, 0.0, 1700.0, 7, 6), [20])
        a.sock.sendall(frames[0])
        whole_from_b(0.0, "end", 2000.0 + 16 * b_seq + 600.0)
        a.sock.sendall(frames[1])
        frame, seen = a.recv_until(lambda m: is_frame(m) and m.get("ack") == {"0": 6} and m["phase"] != "dragging")
        assert not [m for m in seen if is_error(m)], seen
        assert frame["phase"] == "idle" and frame["offset"] == {"x": 0, "y": -a_moved}, frame
        frame, seen = b.recv_until(lambda m: is_frame(m) and m.get("ack") == {"0": b_seq} and m["phase"] != "dragging")
        assert not [m for m in seen if is_error(m)], seen
        assert frame["phase"] == "idle" and frame["offset"] == {"x": 0, "y": -b_moved}, (frame, b_moved)
        assert b_seq >= 20, b_seq


# MARK: - 3. The path switches while traffic flows


def connections_closed(srv: RunningServer) -> int:
    return len(log_lines(srv, "connection closed"))


async def logged_closed(srv: RunningServer, count: int, timeout: float = RECV_TIMEOUT_S) -> None:
    """Waits until the server has logged `count` connections closed (it does so as it takes them off its count)."""
    deadline = time.monotonic() + timeout
    while connections_closed(srv) < count:
        assert time.monotonic() < deadline, f"{connections_closed(srv)} connections closed, not {count}\n" \
            + srv.output()
        await asyncio.sleep(0.02)


def test_inputs_stay_whole_and_in_order_while_the_path_switches(serve):
    srv = serve("--gather-from", "3")
    moved = {"first": 0.0, "second": 0.0}

    async def scenario():
        async with ws_connect(srv) as first:
            welcome, _ = await hello(first, seed=41)
            inbox = Inbox(first)
            seq = 0
            t = 1000.0

            async def drag_first(dy: float, phase: str = "move", rested: bool = False) -> None:
                """One more of the first connection's drag (pointer 1), binary and JSON by turns, sent at once."""
                nonlocal seq, t
                seq += 1
                t += 600.0 if rested else 16.0
                moved["first"] += dy
                spelling = "binary" if seq % 2 else "page"
                await asyncio.wait_for(first.send(spelled(spelling, phase, 0.0, dy, t, 1, seq)), RECV_TIMEOUT_S)

            # one connection open: direct
            await drag_first(0.0, "start")
            for _ in range(3):
                await drag_first(-4.25)
            frame = await inbox.until(lambda m: is_frame(m) and m.get("ack") == {"0": seq})
            assert frame["offset"]["y"] == -moved["first"] and frame["phase"] == "dragging", frame

            # the drag goes on while two more connections open (gathered once the third is counted, which is before
            # its welcome): one a session of its own, one a second member of the first one's session
            await drag_first(-3.5)
            await drag_first(-3.5)
            async with ws_connect(srv) as second, ws_connect(srv) as third:
                await drag_first(-2.0)
                await hello(second, seed=42)
                await drag_first(-2.0)
                joined, _ = await hello(third, session=welcome["session"])
                assert joined["member"] == 1, joined
                await inbox.until(lambda m: m["type"] == "room" and m["members"] == 2)
                second_inbox = Inbox(second)
                # all three at once: the first drags on; the second drags in its session (and ends, the finger
                # rested); the third's touches, another member's pointer while the first's drags, are ignored but
                # applied, and it closes right after them, before any is acknowledged
                second_steps = [("start", 0.0, 5000.0)] + [("move", -(2.0 + k / 4), 5016.0 + 16 * k)
                                                           for k in range(8)] + [("end", 0.0, 6000.0)]
                third_steps = [("start", 0.0, 7000.0)] + [("move", 30.0, 7016.0 + 16 * k) for k in range(5)]
                for k in range(max(len(second_steps), len(third_steps))):
                    await drag_first(-1.25)
                    if k < len(second_steps):
                        phase, dy, when = second_steps[k]
                        moved["second"] += dy
                        await second.send(spelled("page" if k % 2 else "binary", phase, 0.0, dy, when, 1, 1 + k))
                    if k < len(third_steps):
                        phase, dy, when = third_steps[k]
                        await third.send(spelled("binary" if k % 2 else "page", phase, 0.0, dy, when, 2, 201 + k))
                await third.close()
                # (the first is told the third left once the server has taken it off its count)
                third_acked = {"0": seq, "1": 200 + len(third_steps)}
                await inbox.until(lambda m: m["type"] == "room" and m["members"] == 1)
                frame = await inbox.until(lambda m: is_frame(m) and m.get("ack") == third_acked)
                assert frame["offset"]["y"] == -moved["first"] and frame["phase"] == "dragging", frame
                frame = await second_inbox.until(lambda m: is_frame(m) and m.get("ack") == {"0": len(second_steps)}
                                                 and m["phase"] != "dragging")
                assert frame["phase"] == "idle" and frame["offset"] == {"x": 0, "y": -moved["second"]}, \
                    (frame, moved)
                assert not [m for m in second_inbox.messages if is_error(m)], second_inbox.messages
            # the second and the third closed: one connection open again, direct
            await logged_closed(srv, 2)
            for _ in range(4):
                await drag_first(-0.75)
            frame = await inbox.until(lambda m: is_frame(m) and m.get("ack", {}).get("0") == seq)
            assert frame["offset"]["y"] == -moved["first"] and frame["phase"] == "dragging", frame
            await drag_first(0.0, "end", rested=True)
            frame = await inbox.until(lambda m: is_frame(m) and m.get("ack") == {**third_acked, "0": seq}
                                      and m["phase"] != "dragging")
            assert frame["phase"] == "idle" and frame["offset"] == {"x": 0, "y": -moved["first"]}, (frame, moved)
            assert not [m for m in inbox.messages if is_error(m)], inbox.messages
            # the first connection's acks never went back, and named only what was sent
            seen = [m["ack"]["0"] for m in inbox.messages if is_frame(m) and "ack" in m]
            assert seen == sorted(seen) and set(seen) <= set(range(1, seq + 1)), seen

    run(scenario)


# MARK: - 4. A flood


FLOOD_CONNECTIONS = 24
FLOOD_MOVES = 180  # each 1 px up: well below the rate limit's burst (600)


async def flood(srv: RunningServer) -> None:
    """Every connection a session of its own, each dragging at once: a start, many 1 px moves, then the end as a JSON
    text padded beyond what a turn holds (512 bytes), after the finger rested. An end applied before the moves read
    before it would leave them unapplied: each content must move by exactly its moves."""
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(ws_connect(srv)) for _ in range(FLOOD_CONNECTIONS)]
        for index, ws in enumerate(sockets):
            await hello(ws, seed=50 + index)
        inboxes = [Inbox(ws) for ws in sockets]
        last = FLOOD_MOVES + 2
        for k in range(last):
            for ws in sockets:
                if k == 0:
                    message = spelled("binary", "start", 0.0, 0.0, 1000.0, 1, 1)
                elif k < last - 1:
                    message = spelled("binary" if k % 3 else "page", "move", 0.0, -1.0, 1000.0 + 8 * k, 1, 1 + k)
                else:
                    end = {**json_touch("end", 0.0, 0.0, 1000.0 + 8 * k + 600.0, 1), "pad": "p" * 600, "seq": last}
                    message = page_text(end)
                    assert len(message) > 512
                await asyncio.wait_for(ws.send(message), RECV_TIMEOUT_S)
        frames = await asyncio.gather(*(inbox.until(lambda m: is_frame(m) and m.get("ack") == {"0": last}
                                                    and m["phase"] != "dragging", REST_TIMEOUT_S)
                                        for inbox in inboxes))
        for index, (frame, inbox) in enumerate(zip(frames, inboxes, strict=True)):
            assert frame["phase"] == "idle" and frame["offset"] == {"x": 0, "y": FLOOD_MOVES}, (index, frame)
            assert not [m for m in inbox.messages if m["type"] not in ("frame", "event")], (index, inbox.messages)


@pytest.mark.parametrize("path", ["direct", "gathered"])
def test_a_flood_from_many_connections_is_applied_whole_and_in_order(serve, path):
    srv = serve(*(direct_args(FLOOD_CONNECTIONS) if path == "direct" else GATHERED))
    run(lambda: flood(srv))
    assert not log_lines(srv, "rate limit"), srv.output()


# MARK: - 5. A connection refused in the middle of the traffic


async def refused_in_the_middle(srv: RunningServer) -> None:
    """Two connections drag in sessions of their own; a second member of the first session sends, in one write,
    touches (ignored, the first member's pointer owns the drag, but applied), a message over the size limit, and more
    touches: it is closed with 1009, what it sent before the refused message is applied, nothing after it is, and the
    drags move their content by exactly their dy."""
    async with ws_connect(srv) as first, ws_connect(srv) as other:
        welcome, _ = await hello(first, seed=61)
        await hello(other, seed=62)
        refused = RawWebSocket(srv.port)
        try:
            refused.send_json({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3,
                               "session": welcome["session"]})
            joined = refused.recv_until(lambda m: m["type"] == "welcome")[0]
            assert joined["member"] == 1, joined
            inboxes = [Inbox(first), Inbox(other)]
            await inboxes[0].until(lambda m: m["type"] == "room" and m["members"] == 2)
            # (the first member's pointer is down before the second member's touches come: which of two sockets
            # a turn reads first is not for the test to say)
            for ws in (first, other):
                await ws.send(spelled("binary", "start", 0.0, 0.0, 1000.0, 1, 1))
            for inbox in inboxes:
                await inbox.until(lambda m: is_frame(m) and m.get("ack") == {"0": 1} and m["phase"] == "dragging")
            before = b"".join(refused.frame(OP_BINARY, binary_touch("move", 0.0, 25.0, 3000.0 + k, 4, 300 + k))
                              for k in range(1, 11))
            head = b'{"type":"ping","t":1,"pad":"'
            oversized = refused.frame(OP_TEXT, head + b"p" * (16 * 1024 - len(head)) + b'"}')
            after = b"".join(refused.frame(OP_BINARY, binary_touch("move", 0.0, 25.0, 3100.0 + k, 4, 400 + k))
                             for k in range(1, 11))
            for k in range(1, 21):
                for ws in (first, other):
                    await ws.send(spelled("page" if k % 2 else "binary", "move", 0.0, -1.5, 1000.0 + 16 * k, 1, 1 + k))
                if k == 10:
                    refused.sock.sendall(before + oversized + after)
            assert await asyncio.to_thread(refused.wait_closed) == 1009
        finally:
            refused.close()
        for ws in (first, other):
            await ws.send(spelled("binary", "end", 0.0, 0.0, 1000.0 + 16 * 20 + 600.0, 1, 22))
        ends = await asyncio.gather(
            inboxes[0].until(lambda m: is_frame(m) and m.get("ack") == {"0": 22, "1": 310} and m["phase"] == "idle"),
            inboxes[1].until(lambda m: is_frame(m) and m.get("ack") == {"0": 22} and m["phase"] == "idle"))
        for frame in ends:
            assert frame["offset"] == {"x": 0, "y": 30}, frame
        for inbox in inboxes:
            assert not [m for m in inbox.messages if is_error(m)], inbox.messages
            assert all(m["ack"].get("1", 0) <= 310 for m in inbox.messages if is_frame(m) and "ack" in m), \
                [m["ack"] for m in inbox.messages if is_frame(m) and "ack" in m]


@pytest.mark.parametrize("path", ["direct", "gathered"])
def test_a_connection_refused_mid_turn_keeps_what_it_sent_before_and_nothing_after(serve, path):
    srv = serve(*(direct_args(3) if path == "direct" else GATHERED))
    run(lambda: refused_in_the_middle(srv))
    assert log_lines(srv, "message too large; closing with 1009"), srv.output()


# MARK: - 6. A negative count


@pytest.mark.parametrize("value", ["-1", "-256"])
def test_a_negative_count_is_refused_at_start(value):
    binary = server_binary()
    if not binary.exists():
        pytest.fail(f"server binary {binary} not found", pytrace=False)

    def serve_with(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--web-root", "web", *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=20)

    result = serve_with(f"--gather-from={value}")
    assert result.returncode != 0, result
    assert f"--gather-from must be 0 or more connections (got {value})" in result.stderr, result.stderr
    assert "listening on" not in result.stdout, result.stdout
    # Spelled as two words, the option parser takes the value for an option and refuses it first (as it does for
    # every option's negative value): refused too, naming the option.
    result = serve_with("--gather-from", value)
    assert result.returncode != 0, result
    assert "--gather-from" in result.stderr, result.stderr
    assert "listening on" not in result.stdout, result.stdout
