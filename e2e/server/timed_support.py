"""What the timed-motion suites share (test_timed_motion.py, test_seed_inset_curves.py): Core Animation's timing
curves, a `timed` segment evaluated independently of the engine and the page (a plain bisection on the Bézier, not
their Newton solve: docs/PHYSICS.md §11.1, docs/PROTOCOL.md "timed"), and the wire reads that follow the content
along one."""
from __future__ import annotations

from dataclasses import dataclass

from conftest import recv_until, send_json

# Core Animation's named curves, as a `timed` segment writes them: [x1, y1, x2, y2] (docs/PHYSICS.md §11.1).
EASE_IN_EASE_OUT = [0.42, 0, 0.58, 1]  # easeInEaseOut: UIView's default curve (JH, MS, IQ)
EASE_OUT = [0, 0, 0.58, 1]  # easeOut: UIViewAnimationOptionCurveEaseOut (HTRefreshView)

# A frame's offset is written to 3 decimals; the curve is solved here to double precision.
ON_CURVE_PX = 2e-3


def bezier(s: float, p1: float, p2: float) -> float:
    return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s * s * p2 + s ** 3


def curve_progress(curve: list[float], fraction: float) -> float:
    """y for x = fraction on the unit cubic Bézier with control points (x1, y1), (x2, y2), by bisection."""
    if fraction <= 0:
        return 0.0
    if fraction >= 1:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(100):
        mid = (low + high) / 2
        if bezier(mid, curve[0], curve[2]) < fraction:
            low = mid
        else:
            high = mid
    return bezier((low + high) / 2, curve[1], curve[3])


def timed_position(segment: dict, t: float) -> float:
    fraction = (t - segment["t0"]) / (segment["t1"] - segment["t0"])
    return segment["x0"] + (segment["target"] - segment["x0"]) * curve_progress(segment["curve"], fraction)


def is_frame(predicate):
    return lambda m: m["type"] == "frame" and predicate(m)


def chain(frame: dict, axis: str = "y") -> list[dict]:
    """The frame's motion segments on `axis` (empty while that axis is not animating)."""
    return (frame.get("segment") or {}).get(axis) or []


def starts_timed(frame: dict, axis: str = "y") -> bool:
    """Whether the frame's chain on `axis` starts with a `timed` segment."""
    return bool(chain(frame, axis)) and chain(frame, axis)[0]["kind"] == "timed"


@dataclass
class Followed:
    """What `follow_timed` read: the first frame at rest, the frames made inside the segment (each checked on its
    curve), and every other message, in order."""

    rest: dict
    inside: list[dict]
    messages: list[dict]


async def follow_timed(ws, segment: dict, axis: str = "y") -> Followed:
    """Reads until the content rests after `segment`: every frame made inside it carries it first on `axis` and
    shows the curve's position at its own time (within the wire's 3 decimals); the content comes to rest at the
    segment's target, not before its end."""
    inside: list[dict] = []
    messages: list[dict] = []
    while True:
        frame, before = await recv_until(ws, lambda m: m["type"] == "frame")
        messages.extend(before)
        if frame["phase"] != "animating":
            assert frame["offset"][axis] == segment["target"], (frame["offset"], segment)
            assert frame["t"] >= segment["t1"], (frame["t"], segment)
            return Followed(frame, inside, messages)
        if segment["t0"] < frame["t"] < segment["t1"]:
            assert chain(frame, axis)[:1] == [segment], (frame["t"], chain(frame, axis), segment)
            expected = timed_position(segment, frame["t"])
            assert abs(frame["offset"][axis] - expected) <= ON_CURVE_PX, (frame["t"], frame["offset"], expected)
            inside.append(frame)


async def pull_and_release(ws, member: int, dx: float = 0.0, dy: float = 30.0, moves: int = 10) -> dict:
    """One finger drags `moves` steps of (dx, dy) px, rests and lifts: no fling. Its touches carry a `seq`, and the
    lift is sent once a frame acknowledges the last move (docs/PROTOCOL.md, "Prediction and acknowledgement"), so
    the frame returned shows where the content is as the finger lifts."""
    t = 1000.0
    await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t, "seq": 1})
    for i in range(moves):
        await send_json(ws, {"type": "touch", "phase": "move", "dx": dx, "dy": dy, "t": t + 16 * (i + 1),
                             "seq": i + 2})
    held, _ = await recv_until(ws, is_frame(lambda f: (f.get("ack") or {}).get(str(member)) == moves + 1))
    assert held["phase"] == "dragging", held
    await send_json(ws, {"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 400, "seq": moves + 2})
    return held
