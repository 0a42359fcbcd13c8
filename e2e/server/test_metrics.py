"""The server's vital signs at `/metrics` (docs/OPERATIONS.md), read as Prometheus reads them while a page drags:
the figures move with the traffic, and only loopback (and `--metrics-allow`) may read them.

Every wait is for a state: the page's frames, or the metrics page saying so."""
from __future__ import annotations

import http.client
import os
import re
import subprocess
import time

from conftest import hello, recv_until, run, send_json, server_binary, ws_connect


def scrape(srv) -> dict[str, float]:
    """`GET /metrics`, parsed: each sample (`name` or `name{labels}`) to its value."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    try:
        conn.request("GET", "/metrics")
        response = conn.getresponse()
        body = response.read().decode()
        assert response.status == 200, body
        assert response.getheader("content-type") == "text/plain; version=0.0.4; charset=utf-8"
    finally:
        conn.close()
    samples = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def wait_for_metrics(srv, predicate, what: str, timeout: float = 10.0) -> dict[str, float]:
    deadline = time.monotonic() + timeout
    while True:
        samples = scrape(srv)
        if predicate(samples):
            return samples
        assert time.monotonic() < deadline, f"metrics never showed {what}: {samples}"
        time.sleep(0.05)  # polling interval of a state we wait for, not a wait for time to pass


def test_the_figures_move_during_a_drag(fresh_server):
    srv = fresh_server()
    before = scrape(srv)
    assert before["refreshkit_sessions"] == 0 and before["refreshkit_connections"] == 0

    async def scenario():
        async with ws_connect(srv) as ws:
            await hello(ws)
            during = wait_for_metrics(srv, lambda m: m["refreshkit_members"] == 1, "the member connected")
            assert during["refreshkit_sessions"] == 1 and during["refreshkit_connections"] == 1
            t = 1000.0
            await send_json(ws, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t})
            for _ in range(20):
                t += 16.7
                await send_json(ws, {"type": "touch", "phase": "move", "dx": 0, "dy": -5, "t": t})
                await recv_until(ws, lambda m: m["type"] == "frame" and m["phase"] == "dragging")
            await send_json(ws, {"type": "wheel", "dx": 0, "dy": "a lot", "mode": 0, "t": t})
            await recv_until(ws, lambda m: m["type"] == "error")
            return wait_for_metrics(srv, lambda m: m["refreshkit_inputs_total"] >= 21, "21 inputs")

    after = run(scenario)
    assert after["refreshkit_frames_total"] >= 20  # a frame answered each move
    assert after["refreshkit_messages_total"] >= 23  # hello, 21 touches, the bad wheel
    assert after["refreshkit_input_to_frame_seconds_count"] >= 20
    count = after["refreshkit_input_to_frame_seconds_count"]
    assert after['refreshkit_input_to_frame_seconds_bucket{le="+Inf"}'] == count
    assert after["refreshkit_sent_bytes_total"] > before["refreshkit_sent_bytes_total"] + 20 * 40
    assert after['refreshkit_errors_total{code="bad_field"}'] == 1
    assert after["refreshkit_trace_bytes"] > 0  # the session's input trace holds the drag
    # jemalloc's statistics: it serves every allocation in the process, so what it has handed out is megabytes
    # (~2 MB before any session); were another malloc serving, jemalloc would see next to nothing
    # (a sanitizer build allocates with the sanitizer's allocator and links no jemalloc: both gauges are 0 there)
    if os.environ.get("REFRESHKIT_SANITIZER"):
        assert after["refreshkit_heap_in_use_bytes"] == 0 and after["refreshkit_heap_free_bytes"] == 0
    else:
        assert after["refreshkit_heap_in_use_bytes"] > 1 << 20 and after["refreshkit_heap_free_bytes"] >= 0
    # the page went: connections and members drop, the session waits out its grace period
    gone = wait_for_metrics(srv, lambda m: m["refreshkit_connections"] == 0, "the page gone")
    assert gone["refreshkit_members"] == 0 and gone["refreshkit_sessions"] == 1


def test_another_address_is_refused_unless_allowed(fresh_server, other_host):
    # the server listens on the link to the other host; its own loopback is not the peer's address there
    srv = fresh_server("--host", other_host.HOST)
    assert other_host.get(srv.port, "/metrics") == 403
    assert other_host.get(srv.port, "/") == 200  # the page itself is for everyone
    allowed = fresh_server("--host", other_host.HOST, "--metrics-allow", other_host.NETWORK)
    assert other_host.get(allowed.port, "/metrics") == 200
    narrow = fresh_server("--host", other_host.HOST, "--metrics-allow", other_host.HOST)
    assert other_host.get(narrow.port, "/metrics") == 403  # the server's address, not the peer's


def test_a_bad_allow_entry_is_refused_at_start():
    result = subprocess.run([str(server_binary()), "serve", "--port", "0", "--metrics-allow", "10.0.0.0/33"],
                            capture_output=True, text=True, timeout=20)
    assert result.returncode != 0
    assert "--metrics-allow needs an IPv4 or IPv6 address or network" in result.stderr
    assert re.search(r"got '10\.0\.0\.0/33'", result.stderr)
