"""Each seed preset moves the content through a refresh's start and end as its library animates the inset
(docs/SEEDS.md §1.6, §2.5, §3.6, §4.4, §5.6; docs/PHYSICS.md §11.3), over the real WebSocket.

The library's motion is written down here from docs/SEEDS.md, not read from the server: its duration and its
curve's control points. For every glide the test checks, with the `timed` segment the server sends:
- where the library's curve puts the content at a quarter, half and three quarters of the library's duration,
  from where the content was to the resting position, against the segment evaluated at those times (within
  0.5 px; the curve solved independently, timed_support.py);
- the segment's duration, control points, start and target, exactly (so a preset with another library's motion
  fails);
- every frame the server made during the glide: on the segment (to the wire's 3 decimals) and on the library's
  curve (within 0.5 px).
A refresh ends when the simulated feed answers (`feed.latencyMs`, set by `configure`); a load-more ends with the
library's own finish (`command` `finish`: MS's `finishRefreshingDirection:animated:`, IQ's `stopLoadMore`, HT's
`endRefresh:`), before its answer, whose new rows would leave the content inside its rest range. Every wait is
for a frame or an event."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from conftest import hello, recv_until, run, send_json, ws_connect
from timed_support import (
    EASE_IN_EASE_OUT,
    EASE_OUT,
    chain,
    curve_progress,
    follow_timed,
    is_frame,
    pull_and_release,
    starts_timed,
    timed_position,
)

VIEWPORT = {"w": 390, "h": 844}  # conftest's hello
FRACTIONS = (0.25, 0.5, 0.75)
WITHIN_PX = 0.5
# The refresh's answer comes this long after its request: after the start's glide, before any test's bound.
REFRESH_LATENCY_MS = 1000
# A load-more that only the test's `finish` ends: its answer is due long after the test is over.
HELD_LOAD = {"latencyMs": 30_000, "timeoutMs": 60_000}


@dataclass(frozen=True)
class Glide:
    """A UIView animation of the inset: its duration and its timing curve's control points."""

    ms: float
    curve: list[float]


# What each library runs, start and end alike (docs/SEEDS.md; docs/PHYSICS.md §11.3's table).
LIBRARY_GLIDE = {
    "jh": Glide(250, EASE_IN_EASE_OUT),  # kPTRAnimationDuration, a UIView animation (§1.6)
    "ms": Glide(200, EASE_IN_EASE_OUT),  # start…/finishRefreshingDirection:animated:, UIView's default (§2.5)
    "ht": Glide(250, EASE_OUT),  # UIViewAnimationOptionCurveEaseOut, from where the content is (§3.6)
    "iq": Glide(100, EASE_IN_EASE_OUT),  # contentInset ± L over 0.1 s, UIView's default (§5.6)
}
JH_EXIT_MS = 500  # the `jh` preset's exit animation, which the inset waits for (§1.6)


def library_position(glide: Glide, start: float, rest: float, elapsed_ms: float) -> float:
    return start + (rest - start) * curve_progress(glide.curve, elapsed_ms / glide.ms)


def assert_library_glide(segment: dict, glide: Glide, start: float, rest: float) -> None:
    """`segment` is the library's glide from `start` (where the content is) to `rest`."""
    assert segment["kind"] == "timed", segment
    for fraction in FRACTIONS:
        elapsed = fraction * glide.ms
        sent = timed_position(segment, segment["t0"] + elapsed)
        library = library_position(glide, start, rest, elapsed)
        assert abs(sent - library) <= WITHIN_PX, (
            f"at {fraction:g} of {glide.ms:g} ms the content is at {sent:.3f}, the library's curve puts it at "
            f"{library:.3f}", segment)
    assert segment["t1"] - segment["t0"] == pytest.approx(glide.ms, abs=1e-3), segment
    assert segment["curve"] == glide.curve, segment
    assert segment["x0"] == pytest.approx(start, abs=1e-3), (segment, start)
    assert segment["target"] == pytest.approx(rest, abs=1e-3), (segment, rest)


async def follow_library_glide(ws, segment: dict, glide: Glide, start: float, rest: float, axis: str = "y"):
    """Checks the segment, then follows the content to rest: each frame inside the glide on the segment and on the
    library's curve. Returns what follow_timed read."""
    assert_library_glide(segment, glide, start, rest)
    followed = await follow_timed(ws, segment, axis)
    for frame in followed.inside:
        library = library_position(glide, start, rest, frame["t"] - segment["t0"])
        assert abs(frame["offset"][axis] - library) <= WITHIN_PX, (frame["t"], frame["offset"], library)
    assert followed.rest["offset"][axis] == rest
    return followed


def is_event(name: str, edge: str):
    return lambda m: m["type"] == "event" and m["name"] == name and m.get("edge") == edge


def event_time(messages: list[dict], name: str, edge: str) -> float:
    found = [m["t"] for m in messages if is_event(name, edge)(m)]
    assert len(found) == 1, (name, edge, found)
    return found[0]


def bottom_rest(frame: dict) -> float:
    """The offset of content resting at its end: contentSize + the bottom inset − the viewport."""
    return frame["contentSize"]["h"] + frame["insets"]["bottom"] - frame["viewport"]["h"]


def test_the_independent_curve_gives_the_documented_numbers():
    """docs/PHYSICS.md §11.1: ease-in-ease-out is half way at half time and symmetric; ease-out is 68.5 % of the
    way at half time; both leave from 0 and arrive at 1."""
    for curve in (EASE_IN_EASE_OUT, EASE_OUT):
        assert curve_progress(curve, 0) == 0 and curve_progress(curve, 1) == 1
    assert curve_progress(EASE_IN_EASE_OUT, 0.5) == pytest.approx(0.5, abs=1e-12)
    assert curve_progress(EASE_IN_EASE_OUT, 0.25) == pytest.approx(1 - curve_progress(EASE_IN_EASE_OUT, 0.75),
                                                                   abs=1e-12)
    assert round(curve_progress(EASE_OUT, 0.5), 3) == 0.685


@pytest.mark.parametrize(("preset", "start"), [
    pytest.param("jh", "release", id="jh-release"),
    pytest.param("jh", "command", id="jh-command"),
    pytest.param("ms", "command", id="ms-command"),
    pytest.param("ht", "release", id="ht-release"),
    pytest.param("ht", "command", id="ht-command"),
    pytest.param("iq", "release", id="iq-release"),
    pytest.param("iq", "command", id="iq-command"),
])
def test_a_refresh_glides_in_and_out_on_the_library_curve(server, preset, start):
    """The content glides to the resting inset as the refresh starts, from where it is (where the finger left it,
    or at rest for a `command`; after a release JH's and IQ's glide carries the content from there, RefreshKit's
    reading, §1.6, §5.6), and back when it ends, on the library's duration and curve. JH holds the inset
    through its exit animation and gives it back once `didEnd` is sent (§1.6); MS, HT and IQ give it back as the
    end starts, and HT sends `didEnd` as the content arrives (§3.6)."""
    glide = LIBRARY_GLIDE[preset]

    async def scenario():
        async with ws_connect(server) as ws:
            welcome, first = await hello(ws, preset=preset)
            resting = welcome["config"]["edges"]["top"]["restingInset"]
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": REFRESH_LATENCY_MS}})
            if start == "release":
                from_y = (await pull_and_release(ws, welcome["member"]))["offset"]["y"]
                assert from_y < -resting, from_y
            else:
                from_y = first["offset"]["y"]
                assert from_y == 0, first["offset"]
                await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})

            frame, before = await recv_until(ws, is_frame(starts_timed))
            opening = chain(frame)[0]
            assert opening["t0"] == event_time(before, "didStart", "top"), "the glide starts with the refresh"
            followed = await follow_library_glide(ws, opening, glide, from_y, -resting)
            assert followed.rest["insets"]["top"] == resting, followed.rest["insets"]

            # The feed answers; the end's glide takes the content from the resting inset back to 0.
            frame, before = await recv_until(ws, is_frame(lambda f: starts_timed(f) and chain(f)[0]["target"] == 0))
            closing = chain(frame)[0]
            will_end = event_time(before, "willEnd", "top")
            if preset == "jh":
                did_end = event_time(before, "didEnd", "top")
                assert did_end - will_end == pytest.approx(JH_EXIT_MS, abs=1e-3), "the exit animation plays first"
                assert closing["t0"] == did_end, "the inset goes back once didEnd is sent"
                held = [m for m in before if m["type"] == "frame" and m["t"] >= will_end]
                assert held, "a frame during the exit animation"
                for f in held:
                    assert f["offset"]["y"] == -resting and f["insets"]["top"] == resting, (f["t"], f["offset"])
            else:
                assert closing["t0"] == will_end, "the inset goes back as the end starts"
                assert not any(is_event("didEnd", "top")(m) for m in before)
            followed = await follow_library_glide(ws, closing, glide, -resting, 0)
            assert followed.rest["insets"]["top"] == 0, followed.rest["insets"]
            if preset == "ht":
                assert event_time(followed.messages, "didEnd", "top") == closing["t1"], "didEnd as it arrives"
    run(scenario)


def test_ms_a_release_sets_the_inset_at_once_and_the_bounce_settles_then_the_finish_glides(server):
    """MSPullToRefreshController applies the refreshing inset at once when a release engages it, so UIKit's bounce
    carries the content to it: a spring, not a timed glide; the finish glides 0.2 s all the same (§2.5)."""
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws, preset="ms")
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": REFRESH_LATENCY_MS}})
            await pull_and_release(ws, welcome["member"])
            frame, _ = await recv_until(ws, is_frame(lambda f: f["phase"] == "animating" and chain(f)))
            assert [s["kind"] for s in chain(frame)] == ["spring"], chain(frame)
            assert chain(frame)[0]["target"] == -30, chain(frame)
            frame, _ = await recv_until(ws, is_frame(lambda f: starts_timed(f) and chain(f)[0]["target"] == 0))
            await follow_library_glide(ws, chain(frame)[0], LIBRARY_GLIDE["ms"], -30, 0)
    run(scenario)


async def frames_until_rest(ws) -> list[dict]:
    """The frames up to and including the first at rest."""
    frames = []
    while True:
        frame, _ = await recv_until(ws, lambda m: m["type"] == "frame")
        frames.append(frame)
        if frame["phase"] != "animating":
            return frames


@pytest.mark.parametrize("preset", ["gv", "ios"])
def test_uikit_controls_move_on_the_bounce_spring(server, preset):
    """UIRefreshControl (and GVRefreshControl, which is one) leave the inset to UIKit: no timed segment; the
    content goes to the resting inset and back on the bounce spring (§4.4; docs/PHYSICS.md §11.3)."""
    async def scenario():
        async with ws_connect(server) as ws:
            welcome, _ = await hello(ws, preset=preset)
            resting = welcome["config"]["edges"]["top"]["restingInset"]
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": REFRESH_LATENCY_MS}})
            await send_json(ws, {"type": "command", "name": "refresh", "edge": "top"})
            for target in (-resting, 0):  # the start, then the end
                frame, _ = await recv_until(ws, is_frame(lambda f, to=target: chain(f) and chain(f)[0]["target"] == to))
                assert [s["kind"] for s in chain(frame)] == ["spring"], chain(frame)
                frames = await frames_until_rest(ws)
                assert not any(s["kind"] == "timed" for f in frames for s in chain(f)), [chain(f) for f in frames]
                assert frames[-1]["offset"]["y"] == target, frames[-1]["offset"]
    run(scenario)


@pytest.mark.parametrize(("preset", "edge"), [
    pytest.param("ms", "bottom", id="ms-bottom"),
    pytest.param("iq", "bottom", id="iq-bottom"),
    pytest.param("ht", "right", id="ht-right"),
])
def test_a_load_more_glides_in_and_out_on_the_library_curve(server, preset, edge):
    """A load-more edge whose library animates its inset: a start by the library's call (`loadMore`) reveals the
    control on the library's glide from the content's rest at that edge, and its finish glides back
    (MS §2.5, IQ §5.6, HT's right edge §3.6)."""
    glide = LIBRARY_GLIDE[preset]
    axis = "y" if edge == "bottom" else "x"

    async def scenario():
        async with ws_connect(server) as ws:
            welcome, first = await hello(ws, preset=preset)
            resting = welcome["config"]["edges"][edge]["restingInset"]
            await send_json(ws, {"type": "configure", "feed": HELD_LOAD})
            if edge == "bottom":
                # Not a drag: neither preset's footer starts on it (MS pulls, IQ's ignores all but a moving hand).
                await send_json(ws, {"type": "command", "name": "scrollToEdge", "edge": "bottom", "animated": False})
                at_end, _ = await recv_until(ws, is_frame(lambda f: f["offset"]["y"] > 0))
                assert at_end["phase"] == "idle" and at_end["offset"]["y"] == bottom_rest(at_end), at_end["offset"]
                from_position = at_end["offset"]["y"]
            else:
                from_position = first["offset"]["x"]
                assert from_position == 0 and first["contentSize"]["w"] == VIEWPORT["w"], first
            await send_json(ws, {"type": "command", "name": "loadMore", "edge": edge})

            frame, before = await recv_until(ws, is_frame(lambda f: starts_timed(f, axis)))
            opening = chain(frame, axis)[0]
            assert opening["t0"] == event_time(before, "didStart", edge), "the glide starts with the load"
            followed = await follow_library_glide(ws, opening, glide, from_position, from_position + resting, axis)
            assert followed.rest["insets"][edge] == resting, followed.rest["insets"]

            await send_json(ws, {"type": "command", "name": "finish", "edge": edge})
            frame, before = await recv_until(ws, is_frame(lambda f: starts_timed(f, axis)))
            closing = chain(frame, axis)[0]
            assert closing["t0"] == event_time(before, "willEnd", edge), "the inset goes back as the end starts"
            followed = await follow_library_glide(ws, closing, glide, from_position + resting, from_position, axis)
            assert followed.rest["insets"][edge] == 0, followed.rest["insets"]
    run(scenario)


def test_ht_footer_keeps_its_prompt_through_a_load_and_nothing_moves(server):
    """HTRefreshView's AutoTrigger footer skips the inset logic: its start and end change no inset and move
    nothing (docs/SEEDS.md §3.4); the preset's footer rests on its 44 px prompt, which is also its resting inset,
    so a load that it starts on reaching the end neither glides nor springs, from `didStart` to `didEnd`."""
    async def scenario():
        async with ws_connect(server) as ws:
            _, first = await hello(ws, preset="ht")
            rest = bottom_rest(first)  # the list's end with the footer's prompt shown
            assert first["insets"]["bottom"] == 44 and rest > 0, first
            await send_json(ws, {"type": "configure", "feed": {"latencyMs": 300}})
            await send_json(ws, {"type": "command", "name": "scrollToEdge", "edge": "bottom", "animated": False})
            await recv_until(ws, is_event("didStart", "bottom"))
            _, during = await recv_until(ws, is_event("didEnd", "bottom"))
            after, _ = await recv_until(ws, lambda m: m["type"] == "frame")
            frames = [m for m in during if m["type"] == "frame"] + [after]
            for frame in frames:
                assert not chain(frame) and frame["offset"]["y"] == rest, (frame["t"], frame["offset"], chain(frame))
                assert frame["insets"]["bottom"] == 44, frame["insets"]
            assert after["feed"]["count"] > first["feed"]["count"], "the page came in"
    run(scenario)
