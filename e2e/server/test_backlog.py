"""A backlog of inputs read at once gets one frame, the latest (ServiceLoop, "One frame per read").

Several messages written in one `sendall` reach the server in one read, as the inputs of a page do when the
server has fallen behind. Every input is applied and every event is sent, in order; the frame they would
each have made is written once, after the last of them.
"""
from __future__ import annotations

import json
import socket

from hostile_support import OP_TEXT, RawWebSocket, raw_hello


def send_together(ws: RawWebSocket, messages: list[dict]) -> None:
    """All `messages` in one TCP write: one read on the server's side."""
    ws.sock.sendall(b"".join(RawWebSocket.frame(OP_TEXT, json.dumps(m).encode()) for m in messages))


def messages_within(ws: RawWebSocket, seconds: float) -> list[dict]:
    """Everything the server sends in the next `seconds` (the socket stays usable)."""
    received = []
    while True:
        try:
            received.append(ws.recv_json(timeout=seconds))
        except (TimeoutError, socket.timeout):
            return received


def test_moves_read_together_get_one_frame_with_all_of_them(server):
    with RawWebSocket(server.port) as ws:
        raw_hello(ws)
        ws.send_json({"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1000.0})
        before, _ = ws.recv_until(lambda m: m["type"] == "frame")
        # Finger up, content scrolls down into the list: the offset moves by exactly the finger's travel.
        moves = [{"type": "touch", "phase": "move", "dx": 0, "dy": -10, "t": 1000.0 + 16.7 * (i + 1)}
                 for i in range(5)]
        send_together(ws, moves)
        # A held finger does not tick, so whatever arrives now was made by these inputs.
        after = [m for m in messages_within(ws, 0.4) if m["type"] == "frame"]
        assert len(after) == 1, [(f["seq"], f["offset"]) for f in after]
        frame = after[0]
        assert frame["seq"] == before["seq"] + 1, (before["seq"], frame["seq"])
        assert frame["offset"]["y"] == before["offset"]["y"] + 50, (before["offset"], frame["offset"])
        assert frame["phase"] == "dragging"
        # The session goes on input by input as before.
        ws.send_json({"type": "touch", "phase": "move", "dx": 0, "dy": -10, "t": 1200.0})
        next_frame, _ = ws.recv_until(lambda m: m["type"] == "frame")
        assert next_frame["seq"] == frame["seq"] + 1
        assert next_frame["offset"]["y"] == frame["offset"]["y"] + 10


def test_a_backlog_still_delivers_every_event_before_its_frame(server):
    with RawWebSocket(server.port) as ws:
        raw_hello(ws)
        # A pull past the threshold and a release, all in one read: the top edge goes idle → pulling →
        # armed → refreshing, and each transition is an event the page must see, before the frame.
        t = 1000.0
        batch = [{"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t}]
        for _ in range(12):
            t += 16.7
            batch.append({"type": "touch", "phase": "move", "dx": 0, "dy": 40, "t": t})
        batch.append({"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 16.7})
        send_together(ws, batch)
        frame, before = ws.recv_until(lambda m: m["type"] == "frame")
        transitions = [(m["from"], m["to"]) for m in before
                       if m["type"] == "event" and m.get("name") == "transition" and m.get("edge") == "top"]
        assert transitions[:3] == [("idle", "pulling"), ("pulling", "armed"), ("armed", "refreshing")], transitions
        top = next(e for e in frame["edges"] if e["edge"] == "top")
        assert top["state"] == "refreshing", top
        assert frame["phase"] == "animating", frame["phase"]
        assert not [m for m in before if m["type"] == "error"], before
