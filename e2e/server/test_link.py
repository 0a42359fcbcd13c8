"""`refreshkit link` (docs/LINK.md): the real link between a real client and the real server on loopback.

The link sits where the network would be; these tests check that what crosses it arrives whole and in
order, no sooner than the profile's delay, held through a stall, and that pages coming through it pass
the server's Origin check when the server is told the link's port (`--public-port`).
"""
from __future__ import annotations

import asyncio
import os
import re
import socket
import struct
import subprocess
import threading
import time
import urllib.request

import pytest
from websockets.asyncio.client import connect

from conftest import SUBPROTOCOL, RunningServer, hello, recv_until, run, send_json, server_binary
from hostile_support import HandshakeRefused, RawWebSocket
from link_support import RunningLink, free_port

# Sanitizer builds (make asan / make tsan run these tests too) are slower and bigger: wider margins.
SANITIZED = bool(os.environ.get("REFRESHKIT_SANITIZER"))
SLACK_MS = 450 if SANITIZED else 150


@pytest.fixture
def linked():
    """Starts a link and then its server (`--public-port` = the link's port); stops both at the end."""
    started: list = []

    def start(*link_args: str, server_args: tuple[str, ...] = ("--log-level", "info"),
              public: bool = True) -> tuple[RunningServer, RunningLink]:
        port = free_port()
        link = RunningLink(port, *link_args)
        started.append(link)
        extra = ("--port", str(port), *(("--public-port", str(link.port)) if public else ()), *server_args)
        server = RunningServer(*extra)
        started.append(server)
        return server, link

    yield start
    for process in started:
        process.kill()


def ws_through(link: RunningLink, origin: str | None = None):
    return connect(link.ws_url, subprotocols=[SUBPROTOCOL], compression=None, open_timeout=5, close_timeout=2,
                   ping_interval=None, max_size=1 << 20, origin=origin)


async def ping_round_trips(ws, count: int) -> list[float]:
    """The protocol's own ping/pong, one at a time: round trips in ms, measured here."""
    trips = []
    for _ in range(count):
        t = time.monotonic() * 1000
        await send_json(ws, {"type": "ping", "t": t})
        await recv_until(ws, lambda m, t=t: m["type"] == "pong" and m["t"] == t)
        trips.append(time.monotonic() * 1000 - t)
    return trips


def test_the_banner_names_both_ends_and_the_profile(linked):
    server, link = linked("--profile", "wifi")
    assert link.match.group(3) == f"127.0.0.1:{server.port}"
    assert link.match.group(4) == "wifi"
    assert link.match.group(5) == "15 ms + 0–5 ms one way"
    _, flagged = linked("--profile", "wifi", "--delay", "40", "--stall-every", "1000", "--stall-for", "100")
    assert flagged.match.group(4) == "wifi+flags"
    assert "40 ms" in flagged.match.group(5) and "stall 100 ms every 1000 ms" in flagged.match.group(5)


def test_http_through_the_link_serves_the_page(linked):
    server, link = linked("--profile", "wifi")
    with urllib.request.urlopen(link.url + "/", timeout=10) as response:
        page = response.read().decode()
    direct = urllib.request.urlopen(server.url + "/", timeout=10).read().decode()
    assert response.status == 200 and page == direct and "<canvas" in page
    with urllib.request.urlopen(link.url + "/js/app.js", timeout=10) as response:
        assert response.read() == urllib.request.urlopen(server.url + "/js/app.js", timeout=10).read()


def test_a_websocket_through_the_link_works_and_its_round_trip_is_at_least_two_delays(linked):
    server, link = linked("--profile", "lan", "--delay", "40", "--jitter", "10")

    async def scenario():
        async with ws_through(link, origin=link.url) as ws:
            _, frame = await hello(ws)
            assert frame["type"] == "frame"
            trips = await ping_round_trips(ws, 8)
        async with connect(server.ws_url, subprotocols=[SUBPROTOCOL], compression=None,
                           ping_interval=None) as direct:
            await hello(direct)
            direct_trips = await ping_round_trips(direct, 8)
        return trips, direct_trips

    trips, direct_trips = run(scenario)
    assert min(trips) >= 80, trips  # 2 × 40 ms, whatever the jitter
    assert min(trips) > min(direct_trips) + 70, (trips, direct_trips)
    # The server's log shares the session at the link's port (--public-port), not at its own.
    deadline = time.monotonic() + 5
    while not any("share=" in line for line in server.stderr) and time.monotonic() < deadline:
        time.sleep(0.02)
    shared = [line for line in server.stderr if "share=" in line]
    assert shared and all(re.search(rf"share=http://[^ /]+:{link.port}(?![0-9/])", line) for line in shared), shared


def test_the_server_refuses_the_links_origin_unless_told_its_port(linked):
    _, refused_link = linked("--profile", "lan", public=False)
    _, accepted_link = linked("--profile", "lan")

    # Refusals come as the server's plain `HTTP/1.0 403`, which the raw client reads (websockets does not).
    with pytest.raises(HandshakeRefused) as refused:
        RawWebSocket(refused_link.port, origin=refused_link.url)
    assert refused.value.status == 403, refused.value.head
    # The public port is this machine's: another site on that port is still refused.
    with pytest.raises(HandshakeRefused) as refused:
        RawWebSocket(accepted_link.port, origin=f"http://evil.example:{accepted_link.port}")
    assert refused.value.status == 403, refused.value.head

    async def scenario():
        async with ws_through(accepted_link, origin=accepted_link.url) as ws:
            await hello(ws)

    run(scenario)


def test_a_stall_holds_traffic_and_releases_it_in_order(linked):
    # lan (1 ms + 0–1 ms) with a 300 ms stall every second of the link's clock.
    _, link = linked("--profile", "lan", "--stall-every", "1000", "--stall-for", "300")

    async def scenario():
        async with ws_through(link, origin=link.url) as ws:
            await hello(ws)
            sent: dict[float, float] = {}
            received: list[tuple[float, float]] = []  # (t, when)

            async def reader():
                while True:
                    message, _ = await recv_until(ws, lambda m: m["type"] == "pong", timeout=5)
                    received.append((message["t"], time.monotonic() * 1000))

            reading = asyncio.create_task(reader())
            # Pings every 20 ms until a stall has held some and ten more came back after it.
            held_index = None
            while held_index is None or len(received) < held_index + 10:
                t = float(len(sent))
                sent[t] = time.monotonic() * 1000
                await send_json(ws, {"type": "ping", "t": t})
                await asyncio.sleep(0.02)  # the probe rate, not a wait for a state
                if held_index is None:
                    for i, (pt, when) in enumerate(received):
                        if when - sent[pt] >= 200:
                            held_index = i
                            break
            while len(received) < len(sent):
                await asyncio.sleep(0.01)  # until every pong is in (the test's alarm bounds it)
            reading.cancel()
            return sent, received

    sent, received = run(scenario, timeout=40)
    order = [t for t, _ in received]
    assert order == sorted(order) == list(sent), "pongs came back out of order or some were lost"
    trips = [when - sent[t] for t, when in received]
    held = [i for i, trip in enumerate(trips) if trip >= 100]
    assert max(trips) <= 300 + SLACK_MS, trips  # held no longer than the stall (plus a busy machine's slack)
    assert len(held) >= 5, trips  # a stall holds everything sent during it …
    # … and lets it go together, in order: at least five held pongs released within the slack of each other. (Held
    # pongs are grouped by release; a busy machine may also hold one now and then outside the stall.)
    groups: list[list[float]] = []
    for i in held:
        release = received[i][1]
        if groups and release - groups[-1][-1] < SLACK_MS:
            groups[-1].append(release)
        else:
            groups.append([release])
    assert max(len(g) for g in groups) >= 5, (trips, groups)


def test_sigusr1_stalls_the_link_on_demand_and_it_keeps_serving(linked):
    # lan without jitter: 1 ms each way; SIGUSR1 holds everything for 300 ms from when the link takes it.
    _, link = linked("--profile", "lan", "--jitter", "0", "--on-demand-stall", "300")

    async def scenario():
        async with ws_through(link, origin=link.url) as ws:
            await hello(ws)
            before = await ping_round_trips(ws, 3)
            signalled = time.monotonic() * 1000
            link.stall()  # returns once the link logged that it holds the traffic
            held_from = time.monotonic() * 1000
            t = held_from
            await send_json(ws, {"type": "ping", "t": t})
            await recv_until(ws, lambda m: m["type"] == "pong" and m["t"] == t, timeout=5)
            arrived = time.monotonic() * 1000
            after = await ping_round_trips(ws, 3)
            return before, signalled, held_from, arrived, after

    before, signalled, held_from, arrived, after = run(scenario)
    # The stall began between the signal and the log line, so it ends 300 ms after a time in between.
    assert arrived - signalled >= 300, (signalled, arrived)
    assert arrived - held_from <= 300 + SLACK_MS, (held_from, arrived)
    assert max(before) < 300 and max(after) < 300, (before, after)  # only the pong sent inside it was held
    assert any("stall on demand: holding all traffic for 300 ms" in line for line in link.stderr), link.output()
    assert link.terminate() == 0  # SIGTERM still stops it cleanly after a SIGUSR1


def test_the_link_passes_a_half_close_and_the_reply_after_it():
    """A client that shuts its sending side still gets the server's answer, then the server's close."""
    upstream = socket.socket()
    upstream.bind(("127.0.0.1", 0))
    upstream.listen(1)

    def serve_once():
        conn, _ = upstream.accept()
        with conn:
            data = b""
            while chunk := conn.recv(65536):
                data += chunk
            conn.sendall(b"got " + str(len(data)).encode())

    threading.Thread(target=serve_once, daemon=True).start()
    link = RunningLink(upstream.getsockname()[1], "--profile", "wifi")
    try:
        client = socket.create_connection(("127.0.0.1", link.port), timeout=10)
        payload = bytes(range(256)) * 4096  # 1 MiB
        client.sendall(payload)
        client.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
        client.close()
        assert answer == b"got %d" % len(payload)
        assert link.terminate() == 0
    finally:
        link.kill()
        upstream.close()


def test_a_reset_arrives_after_the_bytes_sent_before_it():
    upstream = socket.socket()
    upstream.bind(("127.0.0.1", 0))
    upstream.listen(1)

    def reset_after_a_reply():
        conn, _ = upstream.accept()
        conn.recv(100)
        conn.sendall(b"last words")
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()  # RST

    threading.Thread(target=reset_after_a_reply, daemon=True).start()
    link = RunningLink(upstream.getsockname()[1], "--profile", "wifi")
    try:
        client = socket.create_connection(("127.0.0.1", link.port), timeout=10)
        client.sendall(b"hello")
        received = b""
        with pytest.raises(ConnectionResetError):
            while chunk := client.recv(100):
                received += chunk
        assert received == b"last words"
        client.close()
        assert link.proc.poll() is None and link.terminate() == 0
    finally:
        link.kill()
        upstream.close()


def test_a_direction_stops_reading_when_its_queue_is_full():
    """An upstream that reads nothing: the link holds at most --queue-limit (plus kernel buffers) and
    then leaves the client's bytes in the client's socket, as a slow network would."""
    upstream = socket.socket()
    upstream.bind(("127.0.0.1", 0))
    upstream.listen(1)
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(upstream.accept()[0]), daemon=True).start()
    link = RunningLink(upstream.getsockname()[1], "--profile", "lan", "--queue-limit", "1")
    try:
        client = socket.create_connection(("127.0.0.1", link.port), timeout=10)
        client.setblocking(False)
        chunk = b"x" * 65536
        sent = 0
        stuck_since = None
        while sent < 64 << 20:  # until the client's socket stays full for 0.5 s (or 64 MiB went: a failure)
            try:
                sent += client.send(chunk)
                stuck_since = None
            except BlockingIOError:
                stuck_since = stuck_since or time.monotonic()
                if time.monotonic() - stuck_since > 0.5:
                    break
                time.sleep(0.01)
        assert sent < 24 << 20, f"the link took {sent >> 20} MiB from a client whose upstream reads nothing"
        rss_kib = int(next(line.split()[1] for line in open(f"/proc/{link.proc.pid}/status")
                           if line.startswith("VmRSS:")))
        assert rss_kib < 64 * 1024 * (8 if SANITIZED else 1), rss_kib
        client.close()
        assert link.terminate() == 0
    finally:
        link.kill()
        for conn in accepted:
            conn.close()
        upstream.close()


def test_an_upstream_that_refuses_resets_the_client_and_the_link_keeps_serving():
    link = RunningLink(free_port(), "--profile", "lan")
    try:
        for _ in range(2):
            client = socket.socket()
            client.settimeout(10)
            try:  # the link resets the client's connection (even before connect returns) or closes it
                client.connect(("127.0.0.1", link.port))
                client.sendall(b"GET / HTTP/1.1\r\n\r\n")
                assert client.recv(100) == b""
            except (ConnectionResetError, BrokenPipeError):
                pass
            client.close()
        deadline = time.monotonic() + 5
        while not any("Connection refused" in line for line in link.stderr) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any("Connection refused" in line for line in link.stderr), link.output()
        assert link.proc.poll() is None
        assert link.terminate() == 0
    finally:
        link.kill()


@pytest.mark.parametrize("args, message", [
    (("--profile", "dial-up"), "unknown profile 'dial-up'"),
    (("--loss", "200"), "loss must be a probability"),
    (("--stall-every", "100", "--stall-for", "200"), "a stall must be shorter than its period"),
    (("--listen", "nowhere"), "--listen needs host:port"),
    (("--on-demand-stall", "0"), "--on-demand-stall must be a finite number of ms > 0"),
])
def test_bad_flags_are_named(args, message):
    result = subprocess.run([str(server_binary()), "link", "--upstream", "127.0.0.1:1", *args],
                            capture_output=True, text=True, timeout=10)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr
