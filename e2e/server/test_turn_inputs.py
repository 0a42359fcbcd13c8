"""What lws reads reaches the session host whole and in order, as it was read, through the loop's holding of each
turn's input (Sources/RefreshServer/LibWebSockets/TurnInputs.swift): a turn's pieces of messages are held in the
order read, each with its connection, kind, last-fragment flag and receive time, while their sessions' memory is
prefetched (SessionPrefetch.swift), and handed to the host together at the turn's end or before any other event; a
piece over 512 bytes is not held (what is held goes to the host first, then it), and once 32 pieces (or 16 KiB) are
held they are handed over.

- fragmented touches (JSON and binary, in continuation frames, across turns, with a ping between fragments, a
  fragment longer than a held piece, a character split between fragments) are applied whole, in turn with whole
  messages from another connection;
- a flood from 24 connections at once (a turn may read more than the 32 pieces it holds),
  each drag's last message too long to hold, is applied whole and in order;
- a connection refused in the middle of a turn (a message over the size limit, 1009) keeps what it sent before the
  refused message and nothing after it, while other connections drag on.

Each test has a server of its own, which must exit 0 on SIGTERM and log no error. Every wait is for a state (a frame
that acknowledges a seq, the pong that says the server read what was sent before its ping, a `room`, a close code),
bounded by a timeout."""
from __future__ import annotations

import asyncio
import contextlib
import time
from itertools import pairwise

import pytest
import websockets

from conftest import RECV_TIMEOUT_S, RunningServer, hello, join, run, ws_connect
from hostile_support import OP_BINARY, OP_CONT, OP_PING, OP_PONG, OP_TEXT, RawWebSocket, log_lines, strict_json
from test_binary_touch import binary_touch, is_error, is_frame, json_touch, page_text

REST_TIMEOUT_S = 10.0  # the flood's last frames: every connection's inputs read and applied before them


# MARK: - The server


@pytest.fixture
def serve():
    """Starts `refreshkit serve` with the default options (and `--log-level info`, for the log lines the tests look
    for); at teardown each server must exit 0 on SIGTERM and must not have logged an error or worse."""
    started: list[RunningServer] = []

    def start() -> RunningServer:
        srv = RunningServer("--log-level", "info")
        started.append(srv)
        return srv

    yield start
    problems = []
    try:
        for srv in started:
            problems += srv.stop_problems()
    finally:
        for srv in started:  # (one that did not stop in time failed the test: the others go too)
            srv.kill()
    assert not problems, "\n".join(problems)


# MARK: - Touches, inboxes


def spelled(spelling: str, phase: str, dx: float, dy: float, t: float, pointer: int, seq: int) -> str | bytes:
    """A touch as the page sends it: `binary`, or `page` (`JSON.stringify`'s text)."""
    if spelling == "binary":
        return binary_touch(phase, dx, dy, t, pointer, seq)
    return page_text(json_touch(phase, dx, dy, t, pointer, seq))


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


# MARK: - 1. Fragments


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


def test_fragmented_touches_are_applied_whole_among_whole_messages_from_another_connection(serve):
    srv = serve()
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


# MARK: - 2. A flood


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


def test_a_flood_from_many_connections_is_applied_whole_and_in_order(serve):
    srv = serve()
    run(lambda: flood(srv))
    assert not log_lines(srv, "rate limit"), srv.output()


# MARK: - 3. A connection refused in the middle of the traffic


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
            refused.send_json({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, **join(welcome)})
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


def test_a_connection_refused_mid_turn_keeps_what_it_sent_before_and_nothing_after(serve):
    srv = serve()
    run(lambda: refused_in_the_middle(srv))
    assert log_lines(srv, "message too large; closing with 1009"), srv.output()
