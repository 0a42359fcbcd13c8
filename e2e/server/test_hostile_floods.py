"""A client that asks and never reads cannot grow the server (docs/HARDENING.md, "Budgets in bytes").

At 6a3a380 one connection asking for its session's trace about 210 times a second, under the rate limit, and
reading nothing grew the server by 39 MiB in 1 000 requests (each queued reply kept a 37 KiB copy of the trace's
last chunk, and the outbox was bounded by count only), 150 MiB on four connections, and kept 46 MiB after they closed.
Now one trace waits at a time per connection (a request while it waits is answered by it), an export holds only the
bytes of its records, and a connection's queued messages are bounded in bytes.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from test_metrics import wait_for_metrics

TRACE = json.dumps({"type": "trace"})


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def test_a_trace_flood_that_is_never_read_holds_one_trace(fresh_server, neighbour):
    server = fresh_server("--host", "0.0.0.0")  # the neighbour reaches it, and /metrics is read from loopback
    # a session with some history, so that each trace is a few KiB
    assert neighbour.run("session", neighbour.HOST, str(server.port)) == {"welcome": True, "frames": 1}
    before = rss_bytes(server.proc.pid)
    attacker = neighbour.start("flood", neighbour.HOST, str(server.port), "4", "1000", "210", TRACE)
    try:
        sent = json.loads(attacker.stdout.readline())
        assert sent["sent"] == 1000 and sent["connections"] == 4, sent
        # the server handled them all (a state: its message counter)
        wait_for_metrics(server, lambda m: m["refreshkit_messages_total"] >= 1000, "the flood handled")
        grown = rss_bytes(server.proc.pid) - before
        # (a sanitizer keeps what is freed in quarantine for a while: its RSS says nothing of what is held)
        if not os.environ.get("REFRESHKIT_SANITIZER"):
            assert grown <= 8 << 20, f"RSS grew by {grown / (1 << 20):.1f} MiB"
        # another client is served as before
        assert neighbour.run("session", neighbour.HOST, str(server.port)) == {"welcome": True, "frames": 1}
    finally:
        attacker.stdin.close()
        attacker.wait(20)
    assert not server.error_lines()
