"""Binary touches (web/js/protocol.js, `encodeBinaryTouch`) in real Chromium against the real server: to a server whose
`welcome` says `"binary":["touch"]`, a touch drag on the demo page (start, moves and end) goes out as 48-byte binary
WebSocket messages, none as JSON text, and the server reads them: the content follows the finger and frames acknowledge
the touches' `seq`. What the page sent is read from Playwright's `framesent` (a binary payload arrives as bytes)."""
from __future__ import annotations

import json
import struct
from itertools import pairwise

import pytest

from browser_support import canvas_point, frame, touch_drag, touch_end, wait_until
from conftest import PHONE, open_page

# The binary touch's layout, written out here from the wire's table rather than taken from the page: u8 kind,
# u8 phase, six zero bytes, then dx, dy, t, id and seq as little-endian doubles.
BINARY_TOUCH = struct.Struct("<BB6s5d")
TOUCH_KIND = 1
PHASES = {0: "start", 1: "move", 2: "end", 3: "cancel"}
DRAG_DY = -200.0  # px: an upward drag inside the list, where the content moves 1:1 with the finger


@pytest.fixture
def watched_phone(browser, server):
    """A phone page whose WebSocket messages to the server are all kept, in order, in `page.sent` (str or bytes),
    watched from before the page opens its socket."""
    def record(page):
        page.sent = []
        # a function of our own: Playwright sets an attribute on the handler, which a bound builtin cannot take
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: page.sent.append(payload)))

    context, page = open_page(browser, server, PHONE, before_load=record)
    yield page
    context.close()


def decode_touch(payload: bytes) -> dict:
    """A binary message as the touch it spells; asserts its length, kind, phase code and zero bytes."""
    assert len(payload) == BINARY_TOUCH.size, f"a binary message of {len(payload)} bytes, not {BINARY_TOUCH.size}"
    kind, phase, padding, dx, dy, t, pointer, seq = BINARY_TOUCH.unpack(payload)
    assert kind == TOUCH_KIND and phase in PHASES and padding == bytes(6), payload.hex()
    return {"phase": PHASES[phase], "dx": dx, "dy": dy, "t": t, "id": pointer, "seq": seq}


def touches_sent(page, since: int = 0) -> list[dict]:
    """Every touch the page has sent until now, from its `since`-th message on, each with `binary`: whether it went
    as a binary message (then decoded) or as JSON text. Playwright's sync API delivers events (`framesent` among
    them) only while a call of it runs: one round trip to the page first."""
    page.evaluate("() => null")
    touches = []
    for message in page.sent[since:]:
        if isinstance(message, bytes):
            touches.append({**decode_touch(message), "binary": True})
        elif (text := json.loads(message))["type"] == "touch":
            touches.append({**text, "binary": False})
    return touches


def text_types_sent(page, since: int = 0) -> list[str]:
    """The `type` of every JSON text message the page sent, from its `since`-th message on."""
    return [json.loads(m)["type"] for m in page.sent[since:] if isinstance(m, str)]


def acknowledged(page, member: str, seq: float) -> dict | None:
    """The page's frame once it acknowledges the page's input `seq` (the frame's `ack` for this member), else None."""
    f = frame(page)
    ack = (f.get("ack") or {}).get(member)
    return f if ack is not None and ack >= seq else None


def test_a_touch_drag_goes_out_binary_and_the_server_follows_it(watched_phone):
    page = watched_phone
    welcome = page.evaluate("() => window.refreshkit.welcome")
    assert "touch" in (welcome.get("binary") or []), (
        f"this server's welcome has binary={welcome.get('binary')!r}: it does not read binary touches")
    assert text_types_sent(page)[0] == "hello"
    member = str(page.evaluate("() => window.refreshkit.session.member"))
    start_y = frame(page)["offset"]["y"]
    before = len(page.sent)

    # the finger is held after the drag: the server's frame then shows exactly where the touches put the content
    finger = touch_drag(page, canvas_point(page, 0.5, 0.8), dy=DRAG_DY, steps=20, release=False)

    def whole_drag_acknowledged(p):
        touches = touches_sent(p, before)
        if not touches or abs(sum(t["dy"] for t in touches) - DRAG_DY) > 1:
            return None  # not every move has gone out yet
        return acknowledged(p, member, touches[-1]["seq"])

    held = wait_until(page, whole_drag_acknowledged, 10, what="the server to acknowledge the whole drag")
    touches = touches_sent(page, before)
    as_text = [t for t in touches if not t["binary"]]
    assert not as_text, f"{len(as_text)} of {len(touches)} touches went out as JSON text, the first: {as_text[0]}"
    assert held["phase"] == "dragging"
    # the content followed the finger: the server moved it by what the binary touches said (dy < 0: it scrolls up)
    moved = sum(t["dy"] for t in touches)
    assert abs(held["offset"]["y"] - (start_y - moved)) < 0.5, (start_y, moved, held["offset"])
    assert [t["phase"] for t in touches] == ["start"] + ["move"] * (len(touches) - 1)
    assert len({t["id"] for t in touches}) == 1, "one pointer"
    seqs = [t["seq"] for t in touches]
    assert all(a < b for a, b in pairwise(seqs)), seqs
    assert all(t["t"] > 0 and t["dx"] == 0 for t in touches)

    touch_end(finger)
    end = wait_until(page, lambda p: next((t for t in touches_sent(p, before) if t["phase"] == "end"), None), 5,
                     what="the touch end to go out")
    wait_until(page, lambda p: acknowledged(p, member, end["seq"]), 5, what="the server to acknowledge the touch end")
    wait_until(page, lambda p: frame(p)["phase"] == "idle", 8, what="the list to come to rest")
    assert frame(page)["offset"]["y"] > start_y + abs(DRAG_DY) - 1, "the list stays scrolled where the finger left it"
    assert all(t["binary"] for t in touches_sent(page, before)), "the touch end went out as JSON text"
    assert page.evaluate("() => window.refreshkit.errors") == []
    assert page.errors == []
