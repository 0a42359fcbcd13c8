"""Hostile input over a real socket: every bad message gets `error {code, message}` and a log line, and
the SAME session keeps working afterwards (its frame `seq` carries on, ping still answers, a drag still
moves it). Frames are read with a strict JSON parser: a NaN or an infinity from the server fails the test.
See docs/HARDENING.md for the policies these check.
"""
from __future__ import annotations

import json
import time

import pytest

from conftest import RunningServer
from hostile_support import OP_BINARY, OP_CONT, OP_PING, OP_TEXT, RawWebSocket, log_lines, raw_hello


class Client(RawWebSocket):
    """A raw client with a page clock and the checks every test repeats."""

    def __init__(self, srv, **kwargs):
        super().__init__(srv.port, **kwargs)
        self.srv = srv
        self.t = 1000.0
        self.seq = 0

    def hello(self, **extra) -> dict:
        welcome, frame = raw_hello(self, **extra)
        self.seq = frame["seq"]
        return welcome

    def touch(self, phase: str, dy: float = 0.0, advance: float = 16.0) -> None:
        self.t += advance
        self.send_json({"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": self.t})

    def expect_error(self, code: str, ref: str | None = None, timeout: float = 5.0) -> dict:
        error, _ = self.recv_until(lambda m: m["type"] == "error", timeout)
        assert error["code"] == code, error
        assert isinstance(error.get("message"), str) and error["message"], error
        if ref is not None:
            assert error.get("ref") == ref, error
        return error

    def assert_alive(self) -> None:
        """The same session still answers: a ping gets its pong, a drag moves it, and the frame sequence
        carries on from before (a new session would restart it)."""
        stamp = time.monotonic()
        self.send_json({"type": "ping", "t": stamp})
        # (Matched by its stamp: pongs of earlier pings may still be on their way.)
        self.recv_until(lambda m: m["type"] == "pong" and m["t"] == stamp)
        self.touch("start")
        self.touch("move", dy=12)
        frame, _ = self.recv_until(lambda m: m["type"] == "frame" and m["phase"] == "dragging")
        assert frame["seq"] > self.seq, (frame["seq"], self.seq)
        self.touch("end")
        frame, _ = self.recv_until(lambda m: m["type"] == "frame" and m["phase"] != "dragging")
        self.seq = frame["seq"]
        for key in ("x", "y"):
            assert isinstance(frame["offset"][key], (int, float))


@pytest.fixture(scope="module")
def server():
    """This file's own server (so its log holds only what these tests caused); SIGTERM must exit 0."""
    srv = RunningServer("--log-level", "info")
    yield srv
    assert srv.terminate() == 0, srv.output()


@pytest.fixture
def client(server):
    c = Client(server)
    c.hello()
    yield c
    c.close()


def rejected_logged(srv, code: str) -> bool:
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        if log_lines(srv, "rejected a message", f"code={code}") or log_lines(srv, f"code={code}"):
            return True
        time.sleep(0.05)
    return False


# MARK: - Malformed JSON, nesting, types


@pytest.mark.parametrize("text", [
    '{"type": "touch", "phase": ',
    "{'type': 'ping', 't': 1}",
    '{"type":"ping","t":1} trailing',
    '{"type":"ping","t":1,}',
    "",
    " ",
    "\u0000",
    '{"type":"ping","t":01}',
    '{"type":"ping","t":.5}',
    '{"type":"ping","t":1e}',
    '{"type":"ping","t":"\\x41"}',
    '{"type":"ping" "t":1}',
])
def test_malformed_json_is_bad_json(client, server, text):
    client.send_text(text)
    client.expect_error("bad_json")
    assert rejected_logged(server, "bad_json")
    client.assert_alive()


@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_deep_nesting_within_the_size_limit_is_bad_json(client, opening):
    depth = (16 * 1024 - 64) // len(opening)
    client.send_text(opening * depth)
    client.expect_error("bad_json")
    client.send_text("[" * 8000 + "]" * 8000)
    client.expect_error("bad_json")
    client.assert_alive()


def test_one_hundred_thousand_levels_do_not_blow_the_stack(fresh_server):
    # 100 000 levels need more than the default 16 KiB, so this server accepts 512 KiB messages.
    srv = fresh_server("--max-message-bytes", str(512 * 1024))
    with Client(srv) as c:
        c.hello()
        for text in ["[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a":' * 100_000,
                     '{"type":"ping","t":1,"x":' + "[" * 100_000 + "]" * 100_000 + "}"]:
            c.send_text(text)
            c.expect_error("bad_json")
        c.assert_alive()
    assert srv.proc.poll() is None


@pytest.mark.parametrize("text, code", [
    ("[1,2]", "bad_message"),
    ("null", "bad_message"),
    ("42", "bad_message"),
    ('"hello"', "bad_message"),
    ("{}", "bad_message"),
    ('{"type":7}', "bad_message"),
    ('{"type":null}', "bad_message"),
    ('{"type":["touch"]}', "bad_message"),
    ('{"type":"teleport"}', "unknown_type"),
    ('{"type":"TOUCH","phase":"start","dx":0,"dy":0,"t":1}', "unknown_type"),
    ('{"type":"' + "x" * 5000 + '"}', "unknown_type"),
])
def test_not_a_message_or_unknown_type(client, server, text, code):
    client.send_text(text)
    error = client.expect_error(code)
    assert len(error["message"]) < 300, "an error must not echo what the client sent at length"
    assert rejected_logged(server, code)
    client.assert_alive()


# MARK: - Fields


@pytest.mark.parametrize("message, code, ref", [
    ({"type": "touch", "dx": 0, "dy": 0, "t": 5000}, "missing_field", "touch"),
    ({"type": "touch", "phase": "move", "dy": 0, "t": 5000}, "missing_field", "touch"),
    ({"type": "touch", "phase": "move", "dx": 0, "dy": 0}, "missing_field", "touch"),
    ({"type": "wheel", "dx": 0, "dy": 3, "t": 5000}, "missing_field", "wheel"),
    ({"type": "resize"}, "missing_field", "resize"),
    ({"type": "resize", "viewport": {"w": 300}}, "missing_field", "resize"),
    ({"type": "ping"}, "missing_field", "ping"),
    ({"type": "command"}, "missing_field", "command"),
    ({"type": "touch", "phase": "hover", "dx": 0, "dy": 0, "t": 5000}, "bad_field", "touch"),
    ({"type": "touch", "phase": 1, "dx": 0, "dy": 0, "t": 5000}, "bad_field", "touch"),
    ({"type": "touch", "phase": "move", "dx": "a lot", "dy": 0, "t": 5000}, "bad_field", "touch"),
    ({"type": "touch", "phase": "move", "dx": None, "dy": 0, "t": 5000}, "bad_field", "touch"),
    ({"type": "touch", "phase": "move", "dx": [1], "dy": 0, "t": 5000}, "bad_field", "touch"),
    ({"type": "touch", "phase": "move", "dx": 0, "dy": True, "t": 5000}, "bad_field", "touch"),
    ({"type": "touch", "phase": "move", "dx": 0, "dy": 0, "t": "now"}, "bad_field", "touch"),
    ({"type": "touch", "phase": "move", "dx": 0, "dy": 0, "t": 5000, "id": 1.5}, "bad_field", "touch"),
    ({"type": "wheel", "dx": 0, "dy": 3, "mode": 7, "t": 5000}, "bad_field", "wheel"),
    ({"type": "resize", "viewport": [390, 844]}, "bad_field", "resize"),
    ({"type": "resize", "viewport": {"w": "wide", "h": 1}}, "bad_field", "resize"),
    ({"type": "command", "name": 3}, "bad_field", "command"),
    ({"type": "command", "name": "refresh", "edge": "middle"}, "bad_field", "command"),
    ({"type": "command", "name": "refresh", "animated": "yes"}, "bad_field", "command"),
    ({"type": "configure", "edges": []}, "bad_field", "configure"),
    ({"type": "configure", "edges": {"diagonal": {}}}, "bad_field", "configure"),
    ({"type": "configure", "physics": {"spring": "boing"}}, "bad_field", "configure"),
    ({"type": "configure", "feed": {"pageSize": 2.5}}, "bad_field", "configure"),
])
def test_missing_or_mistyped_fields(client, server, message, code, ref):
    client.send_json(message)
    client.expect_error(code, ref=ref)
    assert rejected_logged(server, code)
    client.assert_alive()


def test_extra_fields_are_ignored(client):
    client.send_json({"type": "ping", "t": 5, "evil": {"nested": [1, 2, {"x": "y" * 1000}]}, "__proto__": {}})
    pong, _ = client.recv_until(lambda m: m["type"] == "pong")
    assert pong["t"] == 5
    client.t += 16
    client.send_json({"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": client.t, "pressure": 1e308,
                      "constructor": "x"})
    client.touch("move", dy=10)
    frame, _ = client.recv_until(lambda m: m["type"] == "frame" and m["phase"] == "dragging")
    client.touch("end")
    client.recv_until(lambda m: m["type"] == "frame" and m["phase"] != "dragging")
    client.assert_alive()


# MARK: - Numbers


@pytest.mark.parametrize("literal", ["NaN", "-NaN", "Infinity", "-Infinity", "inf", "nan", "1e", "0x10", "+1"])
def test_non_finite_literals_are_not_json(client, literal):
    client.send_text('{"type":"touch","phase":"move","dx":0,"dy":' + literal + ',"t":5000}')
    client.expect_error("bad_json")
    client.assert_alive()


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1e309", "-1.8e308"])
def test_numbers_that_overflow_a_double_are_bad_field(client, number):
    client.send_text('{"type":"wheel","dx":0,"dy":' + number + ',"mode":0,"t":5000}')
    error = client.expect_error("bad_field", ref="wheel")
    assert "finite" in error["message"], error
    client.assert_alive()


@pytest.mark.parametrize("message", [
    {"type": "touch", "phase": "move", "dx": 1e300, "dy": 0, "t": 5000},
    {"type": "touch", "phase": "move", "dx": 0, "dy": -2e6, "t": 5000},
    {"type": "wheel", "dx": 0, "dy": 1e15, "mode": 2, "t": 5000},
    {"type": "touch", "phase": "move", "dx": 0, "dy": 0, "t": 1e300},
    {"type": "ping", "t": -1e300},
    {"type": "command", "name": "scrollBy", "amount": 1e300},
    {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 1e9},
    {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 0},
    {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": -3},
])
def test_absurd_magnitudes_are_out_of_range(client, message):
    client.send_json(message)
    client.expect_error("out_of_range", ref=message["type"])
    client.assert_alive()


def test_largest_accepted_values_keep_every_number_finite(client):
    # At the documented limits: the biggest deltas, page wheels, scroll commands. Every frame is parsed
    # strictly (no NaN/Infinity) and stays within sane bounds.
    client.touch("start")
    for sign in (1, -1, 1):
        client.touch("move", dy=sign * 1_000_000, advance=1)
    client.touch("end", advance=1)
    client.t += 1
    client.send_json({"type": "wheel", "dx": 1_000_000, "dy": -1_000_000, "mode": 2, "t": client.t})
    client.send_json({"type": "command", "name": "scrollBy", "amount": 1_000_000, "animated": True})
    client.send_json({"type": "command", "name": "scrollByPage", "amount": -1_000_000})
    client.send_json({"type": "resize", "viewport": {"w": 100_000, "h": 100_000}})
    client.send_json({"type": "resize", "viewport": {"w": 1e-9, "h": 1e-9}})
    client.send_json({"type": "resize", "viewport": {"w": 390, "h": 844}})
    deadline = time.monotonic() + 3
    frames = 0
    while time.monotonic() < deadline:
        try:
            message = client.recv_json(timeout=0.5)
        except TimeoutError:
            break
        if message["type"] == "frame":
            frames += 1
            for key in ("x", "y"):
                assert abs(message["offset"][key]) < 1e15, message["offset"]
                assert abs(message["velocity"][key]) < 1e15, message["velocity"]
    assert frames > 0
    client.assert_alive()


# MARK: - Viewports


@pytest.mark.parametrize("viewport", [
    {"w": -1, "h": 844}, {"w": 390, "h": 0}, {"w": 0, "h": 0}, {"w": 1e9, "h": 844}, {"w": 390, "h": 100_001},
    {"w": -0.0, "h": 10},
])
def test_bad_viewports_in_hello_and_resize(client, viewport):
    client.send_json({"type": "resize", "viewport": viewport})
    client.expect_error("out_of_range", ref="resize")
    client.assert_alive()
    client.send_json({"type": "hello", "viewport": viewport, "dpr": 2})
    client.expect_error("out_of_range", ref="hello")
    client.assert_alive()  # the failed hello left the running session alone


# MARK: - Timestamps


def test_timestamp_going_backwards_is_refused(client, server):
    client.touch("start")
    client.t -= 5016  # 5 s before the previous sample
    client.touch("move", dy=10)
    error = client.expect_error("bad_field", ref="touch")
    assert "backwards" in error["message"] and "touch.t" in error["message"], error
    assert rejected_logged(server, "bad_field")
    client.t += 5000
    client.touch("end")
    client.assert_alive()


def test_timestamp_jumping_hours_ahead_is_refused(client):
    client.touch("start")
    client.t += 3 * 3600 * 1000
    client.touch("move", dy=10)
    error = client.expect_error("bad_field", ref="touch")
    assert "ahead" in error["message"] or "jump" in error["message"], error
    client.t -= 3 * 3600 * 1000
    client.touch("end")
    client.assert_alive()


def test_wheel_timestamp_backwards_is_refused(client):
    client.t += 10
    client.send_json({"type": "wheel", "dx": 0, "dy": 30, "mode": 0, "t": client.t})
    client.send_json({"type": "wheel", "dx": 0, "dy": 30, "mode": 0, "t": client.t - 60_000})
    error = client.expect_error("bad_field", ref="wheel")
    assert "backwards" in error["message"], error
    client.assert_alive()


def test_small_reorderings_are_tolerated(client):
    client.touch("start")
    client.touch("move", dy=10, advance=16)
    client.touch("move", dy=10, advance=-5)  # 5 ms earlier than the previous sample: accepted
    client.touch("move", dy=10, advance=20)
    client.touch("end", advance=16)
    frame, seen = client.recv_until(lambda m: m["type"] == "frame" and m["phase"] != "dragging")
    assert not [m for m in seen if m["type"] == "error"], seen
    client.seq = frame["seq"]
    client.assert_alive()


def test_ping_timestamps_are_not_judged(client):
    for t in (5e6, 1.0, -3.0):
        client.send_json({"type": "ping", "t": t})
        pong, _ = client.recv_until(lambda m: m["type"] == "pong")
        assert pong["t"] == t
    client.assert_alive()


# MARK: - configure, commands


@pytest.mark.parametrize("patch", [
    {"feed": {"failureRate": 2}},
    {"feed": {"failureRate": -0.1}},
    {"feed": {"pageSize": 0}},
    {"feed": {"pageSize": 1e9}},
    {"feed": {"latencyMs": -5}},
    {"feed": {"latencyMs": 1e12}},
    {"feed": {"rowHeight": 0}},
    {"feed": {"timeoutMs": 0}},
    {"feed": {"totalItems": -1}},
    {"physics": {"decelerationRate": 1}},
    {"physics": {"decelerationRate": 0}},
    {"physics": {"rubberBand": 0}},
    {"physics": {"rubberBand": 5}},
    {"edges": {"top": {"triggerDistance": -5}}},
    {"edges": {"top": {"triggerDistance": 1e12}}},
    {"edges": {"top": {"height": 0}}},
    {"edges": {"bottom": {"cycleDuration": 0}}},
    {"edges": {"bottom": {"minimumVisibleDuration": 1e6}}},
])
def test_configure_values_out_of_range(client, patch):
    client.send_json({"type": "configure", **patch})
    client.expect_error("out_of_range", ref="configure")
    client.assert_alive()


def test_configure_unknown_preset(server, client):
    client.send_json({"type": "configure", "preset": "no-such-preset"})
    client.expect_error("unknown_preset", ref="configure")
    assert rejected_logged(server, "unknown_preset")  # an engine's refusal is logged like the decoder's
    client.assert_alive()


@pytest.mark.parametrize("name", ["selfDestruct", "", "REFRESH", "refresh ", "x" * 3000])
def test_unknown_commands(client, name):
    client.send_json({"type": "command", "name": name})
    error = client.expect_error("unknown_command", ref="command")
    assert len(error["message"]) < 300
    client.assert_alive()


# MARK: - Frames: binary, fragmented, oversized


def test_binary_frames_are_refused_and_the_session_continues(client, server):
    client.send_frame(OP_BINARY, b"\x00\xff" * 100)
    client.expect_error("binary_unsupported")
    assert rejected_logged(server, "binary_unsupported")
    client.send_frame(OP_BINARY, b"\x01" * 3000, fin=False)  # a fragmented binary message
    client.send_frame(OP_CONT, b"\x02" * 3000)
    client.expect_error("binary_unsupported")
    client.assert_alive()


def test_many_tiny_fragments_are_reassembled(client):
    text = json.dumps({"type": "ping", "t": 77, "pad": "f" * 2000})
    pieces = [text[i:i + 7] for i in range(0, len(text), 7)]
    client.send_frame(OP_TEXT, pieces[0].encode(), fin=False)
    for index, piece in enumerate(pieces[1:], 1):
        if index == len(pieces) // 2:
            client.send_frame(OP_PING, b"mid-message")  # a control frame between fragments is legal
        client.send_frame(OP_CONT, piece.encode(), fin=index == len(pieces) - 1)
    pong, _ = client.recv_until(lambda m: m["type"] == "pong")
    assert pong["t"] == 77
    client.assert_alive()


def test_a_message_of_exactly_the_limit_is_accepted(client):
    head = '{"type":"ping","t":9,"pad":"'
    text = head + "p" * (16 * 1024 - len(head) - 2) + '"}'
    assert len(text) == 16 * 1024
    client.send_text(text)
    pong, _ = client.recv_until(lambda m: m["type"] == "pong")
    assert pong["t"] == 9
    client.assert_alive()


def test_one_byte_over_the_limit_closes_with_1009(fresh_server):
    # A server of its own: refusal log lines are capped at one per second per kind, so on the shared server
    # another test's oversized message could have used this second's line.
    srv = fresh_server("--log-level", "info")
    with Client(srv) as c:
        c.hello()
        head = '{"type":"ping","t":9,"pad":"'
        c.send_text(head + "p" * (16 * 1024 - len(head) - 1) + '"}')
        assert c.wait_closed() == 1009
    deadline = time.monotonic() + 3  # stderr is read by another thread
    while not log_lines(srv, "message too large") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert log_lines(srv, "message too large"), srv.output()


def test_a_huge_declared_length_is_refused_without_reading_it(client, server):
    # The header announces 1 GiB; only 40 KiB follow. The server must close with 1009 after the limit, not
    # wait for (or buffer) the rest.
    started = time.monotonic()
    client.send_declared(OP_TEXT, 1 << 30, b'{"type":"ping","pad":"' + b"x" * 40_000)
    assert client.wait_closed(timeout=5) == 1009
    assert time.monotonic() - started < 3


def test_max_message_bytes_is_configurable(fresh_server):
    srv = fresh_server("--max-message-bytes", "1024")
    with Client(srv) as c:
        c.hello()
        c.send_json({"type": "ping", "t": 1, "pad": "a" * 900})
        c.recv_until(lambda m: m["type"] == "pong")
        c.send_json({"type": "ping", "t": 1, "pad": "a" * 1100})
        assert c.wait_closed() == 1009


# MARK: - Close codes libwebsockets sends (docs/PROTOCOL.md, "close codes")


def test_a_text_frame_that_is_not_utf8_closes_with_1007(server):
    with Client(server) as c:
        c.hello()
        c.send_frame(OP_TEXT, b'{"type":"ping","t":1,"pad":"\xff\xfe"}')
        assert c.wait_closed() == 1007


def test_a_reserved_opcode_closes_with_1002(server):
    with Client(server) as c:
        c.hello()
        c.send_frame(0x3, b"x")  # 0x3-0x7 are reserved for further non-control frames (RFC 6455 §5.2)
        assert c.wait_closed() == 1002

# MARK: - Floods


def test_a_burst_within_the_limit_is_served(client):
    for index in range(200):
        client.send_json({"type": "ping", "t": index})
    pongs = 0
    deadline = time.monotonic() + 5
    while pongs < 200 and time.monotonic() < deadline:
        message = client.recv_json()
        assert message["type"] != "error", message
        pongs += message["type"] == "pong"
    assert pongs == 200
    client.assert_alive()


def test_a_short_flood_is_rate_limited_then_the_session_recovers(client, server):
    payload = client.frame(OP_TEXT, b'{"type":"ping","t":1}')
    client.sock.sendall(payload * 3000)  # far beyond the burst, in well under a second
    error, _ = client.recv_until(lambda m: m["type"] == "error" and m["code"] == "rate_limited", timeout=10)
    assert "rate" in error["message"] or "messages" in error["message"], error
    # The log is read from the server's stderr by another thread: its line may come after the wire's error.
    deadline = time.monotonic() + 10
    while not (log_lines(server, "rate_limited") or log_lines(server, "rate limit")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert log_lines(server, "rate_limited") or log_lines(server, "rate limit")
    time.sleep(1.5)  # stop flooding; the bucket refills
    # Drain what the flood produced, then the same session works.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            client.recv_json(timeout=0.3)
        except TimeoutError:
            break
    client.assert_alive()


def test_a_sustained_flood_is_closed_with_1008(fresh_server):
    srv = fresh_server("--rate-limit", "50")
    with Client(srv) as c:
        c.hello()
        payload = c.frame(OP_TEXT, b'{"type":"ping","t":1}') * 50
        errors = 0
        code = None
        deadline = time.monotonic() + 15
        c.sock.setblocking(False)
        received = b""
        while time.monotonic() < deadline:
            try:
                c.sock.send(payload)
            except BlockingIOError:
                pass
            except OSError:
                break
            try:
                chunk = c.sock.recv(65536)
                if not chunk:
                    break
                received += chunk
            except BlockingIOError:
                pass
            except OSError:
                break
            time.sleep(0.005)
        c.sock.setblocking(True)
        c.buffer = received + c.buffer
        try:
            while True:
                opcode, data = c.recv_frame(timeout=2)
                if opcode == 0x8:
                    code = c.close_code
                    break
                if opcode == OP_TEXT and b'"rate_limited"' in data:
                    errors += 1
        except (ConnectionError, TimeoutError):
            code = c.close_code
        assert code == 1008, code
        assert 1 <= errors <= 20, f"{errors} rate_limited errors (at most about one per second expected)"
    assert log_lines(srv, "1008") or log_lines(srv, "flood")
    assert srv.proc.poll() is None
