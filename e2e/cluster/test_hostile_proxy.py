"""HAProxy in front of the servers never lends its loopback to the clients behind it (docs/HARDENING.md, "Proxies").

`make cluster` puts HAProxy in front of its processes, which reach them from 127.0.0.1. Before the servers knew about
proxies, a LAN neighbour through the balancer read `/metrics` and was exempt from the per-address WebSocket limit.
Here the neighbour is another host (a network namespace): HAProxy names it in X-Forwarded-For, the servers trust the
balancer (`--trusted-proxy 127.0.0.1`, as `make cluster` runs them), and the neighbour is refused as itself, while its
session through the balancer works. The same through `refreshkit link` is e2e/server/test_hostile_proxies.py.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))
from netns_support import neighbour  # noqa: E402, F401  (the fixture is used by name)

TRUST = ("--trusted-proxy", "127.0.0.1")


def test_a_neighbour_through_the_balancer_is_not_local(cluster, neighbour):  # noqa: F811
    c = cluster(2, *TRUST, bind=neighbour.HOST)
    port = str(c.balancer.port)
    for _ in range(2):  # whichever node the balancer picks
        metrics = neighbour.run("get", neighbour.HOST, port, "/metrics", "X-Forwarded-For=127.0.0.1")
        assert metrics["status"] == 403, metrics
        posted = neighbour.run("post", neighbour.HOST, port, "/feed/items", '{"text":"x"}',
                               "Content-Type=application/json")
        assert posted["status"] == 403 and f"{neighbour.PEER} via 127.0.0.1" in posted["body"], posted
    assert neighbour.run("session", neighbour.HOST, port) == {"welcome": True, "frames": 1}


def test_the_per_address_limit_counts_the_neighbour_behind_the_balancer(cluster, neighbour):  # noqa: F811
    c = cluster(1, *TRUST, bind=neighbour.HOST)
    opened = neighbour.run("sockets", neighbour.HOST, str(c.balancer.port), "70")
    assert opened["upgraded"] == 64 and opened["statuses"].get("503") == 6, opened


def test_the_access_log_holds_no_session_id(cluster, neighbour):  # noqa: F811
    c = cluster(1, *TRUST, bind=neighbour.HOST)
    neighbour.run("get", neighbour.HOST, str(c.balancer.port), "/?s=n1.0123456789abcdef0123456789abcdef&n=n1")
    logged = "\n".join(c.balancer.stdout)
    assert '"GET / HTTP/1.1" node=n1 named=1' in logged, logged
    assert "0123456789abcdef" not in logged
