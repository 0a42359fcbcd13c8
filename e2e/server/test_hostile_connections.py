"""Hostile connections: connection limits (total and per address) with a clean refusal, the WebSocket
Origin policy, idle timeouts with ping/pong, half-open sockets reaped, slow readers at bounded memory.
Loopback only; every wait is bounded.
"""
from __future__ import annotations

import os
import signal
import socket
import time

import pytest

from conftest import RunningServer
from hostile_support import (
    HandshakeRefused,
    RawWebSocket,
    error_lines,
    kernel_queues,
    log_lines,
    open_sockets,
    raw_hello,
    rss_kib,
    wait_for,
)


def open_many(srv, count: int, **kwargs) -> list[RawWebSocket]:
    return [RawWebSocket(srv.port, **kwargs) for _ in range(count)]


def close_all(sockets: list[RawWebSocket]) -> None:
    for ws in sockets:
        ws.close()


# MARK: - Connection limits


def test_total_connection_limit_refuses_cleanly_with_503(fresh_server):
    srv = fresh_server("--max-connections", "5")
    held = open_many(srv, 5)
    try:
        with pytest.raises(HandshakeRefused) as refused:
            RawWebSocket(srv.port)
        assert refused.value.status == 503, refused.value.head
        assert "retry-after" in refused.value.head.lower()
        assert wait_for(lambda: bool(log_lines(srv, "connection limit")), 2), srv.output()
        # The held connections are untouched and work.
        raw_hello(held[0])
        held[0].send_json({"type": "ping", "t": 1})
        assert held[0].recv_until(lambda m: m["type"] == "pong")[0]["t"] == 1
        # The page itself is still served while the WebSocket limit is reached.
        with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as http:
            http.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert http.recv(64).startswith(b"HTTP/1.1 200")
        # One leaves: one more may come in.
        held.pop().close()
        assert wait_for(lambda: _can_connect(srv), 3)
    finally:
        close_all(held)


def _can_connect(srv) -> bool:
    try:
        RawWebSocket(srv.port).close()
        return True
    except HandshakeRefused:
        return False


def test_per_address_limit(fresh_server):
    srv = fresh_server("--max-connections-per-address", "3", "--limit-loopback")
    held = open_many(srv, 3)
    try:
        with pytest.raises(HandshakeRefused) as refused:
            RawWebSocket(srv.port)
        assert refused.value.status == 503
        assert wait_for(lambda: bool(log_lines(srv, "connection limit", "127.0.0.1")), 2), srv.output()
    finally:
        close_all(held)
    assert wait_for(lambda: _can_connect(srv), 3)


def test_loopback_is_exempt_from_the_per_address_limit_by_default(fresh_server):
    # The loopback benchmark opens thousands of connections from 127.0.0.1 (docs/HARDENING.md).
    srv = fresh_server("--max-connections-per-address", "3")
    held = open_many(srv, 10)
    close_all(held)


def test_defaults_fit_the_loopback_benchmark(fresh_server):
    # 300 connections here (the benchmark's 7 000 need `ulimit -n`); the defaults allow 10 000.
    srv = fresh_server("--log-level", "warning")
    held = open_many(srv, 300)
    try:
        raw_hello(held[-1])
    finally:
        close_all(held)


# MARK: - Origin


@pytest.fixture(scope="module")
def origin_server():
    srv = RunningServer("--log-level", "info", "--allow-origin", "https://friend.example",
                        "--allow-origin", "http://other.test:9000")
    yield srv
    assert srv.terminate() == 0, srv.output()


@pytest.mark.parametrize("origin", [
    None,  # not a browser: no Origin header
    "http://127.0.0.1:{port}",
    "http://localhost:{port}",
    "http://LOCALHOST:{port}",
    "http://[::1]:{port}",
    "https://friend.example",
    "https://friend.example:443",
    "http://other.test:9000",
])
def test_same_origin_and_allowed_origins_are_accepted(origin_server, origin):
    value = origin.format(port=origin_server.port) if origin else None
    with RawWebSocket(origin_server.port, origin=value) as ws:
        raw_hello(ws)


@pytest.mark.parametrize("origin", [
    "http://evil.example",
    "http://evil.example:{port}",
    "http://127.0.0.1:1",
    "http://127.0.0.1",
    "null",
    "file://",
    "https://friend.example:8443",
    "http://friend.example",
    "http://127.0.0.1.evil.example:{port}",
    "http://127.0.0.1:{port}@evil.example",
    "http://127.0.0.1:{port}/path",
    "javascript://127.0.0.1:{port}",
    "http://" + "a" * 5000 + ".example",
])
def test_cross_origin_websockets_are_refused_and_logged(origin_server, origin):
    value = origin.format(port=origin_server.port)
    with pytest.raises(HandshakeRefused) as refused:
        RawWebSocket(origin_server.port, origin=value)
    if len(value) > 4000:
        # Longer than lws's whole header space: the request itself is refused before any policy runs.
        assert refused.value.status in (None, 400, 403, 431), refused.value.head
        return
    assert refused.value.status == 403, refused.value.head
    assert wait_for(lambda: bool(log_lines(origin_server, "origin refused")), 2)


def test_the_server_s_lan_address_is_same_origin(origin_server):
    lan = _lan_ipv4()
    if lan is None:
        pytest.skip("no non-loopback IPv4 address on this machine")
    with RawWebSocket(origin_server.port, origin=f"http://{lan}:{origin_server.port}",
                      host=f"{lan}:{origin_server.port}") as ws:
        raw_hello(ws)


def _lan_ipv4() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            address = probe.getsockname()[0]
            return None if address.startswith("127.") else address
    except OSError:
        return None


# MARK: - Idle timeouts, half-open sockets


def test_a_peer_that_never_answers_pings_is_hung_up(fresh_server):
    srv = fresh_server("--idle-timeout", "3")
    with RawWebSocket(srv.port) as silent, RawWebSocket(srv.port) as polite:
        raw_hello(silent)
        raw_hello(polite)
        started = time.monotonic()
        # `silent` reads but never answers a ping: a half-open or wedged peer, as the server sees it.
        deadline = started + 10
        code = "open"
        while time.monotonic() < deadline:
            try:
                opcode, _ = silent.recv_frame(timeout=0.25, answer_pings=False)
                if opcode == 0x8:
                    code = silent.close_code
                    break
            except TimeoutError:
                pass
            except ConnectionError:
                code = None
                break
            try:
                polite.recv_frame(timeout=0.25)  # answers its pings, so it stays
            except TimeoutError:
                pass
        elapsed = time.monotonic() - started
        assert code != "open", "the silent peer was never hung up"
        assert silent.pings_received >= 1, "the server never pinged"
        assert elapsed < 8, elapsed
        # The polite peer answered and is still served.
        for _ in range(3):
            try:
                polite.recv_frame(timeout=0.2)
            except TimeoutError:
                pass
        polite.send_json({"type": "ping", "t": 3})
        assert polite.recv_until(lambda m: m["type"] == "pong")[0]["t"] == 3


def test_a_tcp_connection_that_never_speaks_is_reaped(fresh_server):
    srv = fresh_server("--idle-timeout", "3")
    before = open_sockets(srv.proc.pid)
    sockets = [socket.create_connection(("127.0.0.1", srv.port), timeout=5) for _ in range(20)]
    try:
        # Accepted (within 10 s: a starved host accepts late; lws's header timeout, which reaps them, is longer).
        assert wait_for(lambda: open_sockets(srv.proc.pid) >= before + 20, 10), (before, open_sockets(srv.proc.pid))
        # lws drops connections that send no request within its header timeout.
        assert wait_for(lambda: open_sockets(srv.proc.pid) <= before + 2, 25), (before, open_sockets(srv.proc.pid))
    finally:
        for s in sockets:
            s.close()


def test_a_slowloris_does_not_starve_other_clients(fresh_server):
    srv = fresh_server()
    slow = []
    try:
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(s)
        with RawWebSocket(srv.port) as ws:
            raw_hello(ws)
    finally:
        for s in slow:
            s.close()


# MARK: - Slow readers


# The memory a reader that stops reading costs, and its catch-up once it reads again: its release is applied within
# seconds. (In 2 of 4 fresh-clone CI runs it was not applied within 30 s; what the reader got meanwhile, one frame and
# two events each second, all `dragging`, is what a held pull makes with no input at all. One cause found since: a
# release read in a burst with the moves queued before it was refused by the rate limit, the next test. If it fails
# again, its message says where the release's bytes were.)
def test_a_client_that_never_reads_costs_bounded_memory(fresh_server):
    srv = fresh_server("--log-level", "warning")
    pid = srv.proc.pid
    # A small receive buffer, set before connecting (setting it later shrinks an open window, and the
    # sender then waits for TCP's persist timer: a client-side stall, not the server's).
    with RawWebSocket(srv.port, receive_buffer=4096) as reader:
        raw_hello(reader)
        baseline = rss_kib(pid)
        # Drags (each one a frame) and pings (each one a queued pong) for 4 s, never reading a byte.
        t = 1000.0
        reader.send_json({"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
        started = time.monotonic()
        sent = 0
        while time.monotonic() - started < 4:
            for _ in range(20):
                t += 4
                reader.send_json({"type": "touch", "phase": "move", "dx": 0, "dy": 3, "t": t})
                reader.send_json({"type": "ping", "t": t})
                sent += 2
            time.sleep(0.2)
        grown = rss_kib(pid) - baseline
        print(f"RSS growth for a client that does not read: {grown} KiB")
        # Sanitizer builds (make asan / make tsan) keep freed memory in quarantine: only a loose bound there.
        bound = 4 * 1024 * (32 if os.environ.get("REFRESHKIT_SANITIZER") else 1)
        assert grown < bound, f"the server grew by {grown} KiB for one client that does not read"
        # Another client is served meanwhile.
        with RawWebSocket(srv.port) as other:
            raw_hello(other)
        # When the reader finally reads, it gets the newest state (and, if it fell behind, `lagging`): read
        # until the frame after the release.
        reader.send_json({"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 4})
        started = time.monotonic()
        received: list[tuple[float, str, object]] = []
        last_frame = None
        lagging = 0
        while last_frame is None or last_frame["phase"] == "dragging":
            try:
                message = reader.recv_json(timeout=max(0.0, started + 10 - time.monotonic()))
            except TimeoutError:
                break
            kind = message["type"]
            received.append((round(time.monotonic() - started, 3), kind, message.get("seq", message.get("code"))))
            if kind == "frame":
                last_frame = message
            lagging += kind == "error" and message["code"] == "lagging"
        # Else, where the release's bytes are: in the client's socket (not acknowledged), in the server's (not
        # read by the server), or read (then the errors say whether a screen refused it).
        kinds = {kind: sum(1 for _, k, _ in received if k == kind) for _, kind, _ in received}
        errors = [code for _, kind, code in received if kind == "error"]
        assert last_frame is not None and last_frame["phase"] != "dragging", (
            f"the release was not applied within 10 s ({kernel_queues(reader)}; received {kinds}, errors {errors}, "
            f"first {received[:5]}, last {received[-5:]}; last frame {last_frame})")
        assert lagging <= 1, received
    assert not error_lines(srv), error_lines(srv)[:5]


# A page's input that queued up (a busy server; here it is stopped) is read in one burst and judged by the rate limit
# as it is read: the moves past the bucket are dropped, but the release at the end of them is applied (a release
# dropped left the session `dragging` until the next touch; RateLimiter.passRelease).
def test_a_release_read_in_a_burst_the_rate_limit_refuses_is_applied(fresh_server):
    srv = fresh_server("--log-level", "warning")
    with RawWebSocket(srv.port) as page:
        raw_hello(page)
        t = 1000.0
        os.kill(srv.proc.pid, signal.SIGSTOP)
        try:
            # 802 messages, past the bucket of 600 (the default 300 messages/s), all queued in the kernel.
            page.send_json({"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            for _ in range(800):
                t += 4
                page.send_json({"type": "touch", "phase": "move", "dx": 0, "dy": 3, "t": t})
            page.send_json({"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 4})
        finally:
            os.kill(srv.proc.pid, signal.SIGCONT)
        _, seen = page.recv_until(lambda m: m["type"] == "frame" and m["phase"] != "dragging", timeout=10)
        assert any(m["type"] == "error" and m["code"] == "rate_limited" for m in seen), "the burst was limited"
    assert not error_lines(srv), error_lines(srv)[:5]
