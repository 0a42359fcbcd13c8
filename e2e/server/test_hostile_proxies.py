"""A proxy in front of the server never lends its loopback to the clients behind it (docs/HARDENING.md, "Proxies").

`make run LINK=wifi` puts `refreshkit link` in front of the server. Before the server knew about proxies, every client
reached it from the link's 127.0.0.1, so a LAN neighbour read `/metrics`, posted to the feed and held 70 WebSockets
where 64 is the per-address limit. Here the neighbour is another host (a network namespace, `NetnsPeer`): through
the link it is refused as itself, with a clear error, while a page on this machine through the same link keeps its
rights and a session through the link keeps working. The same through HAProxy is e2e/cluster/test_hostile_proxy.py.
"""
from __future__ import annotations

import http.client
import json
import subprocess

import pytest

from link_support import RunningLink


@pytest.fixture
def linked(fresh_server, tmp_path, neighbour):
    """The server on loopback trusting the link, the link on the neighbour's network (as `make run LINK=…`)."""
    server = fresh_server("--trusted-proxy", "127.0.0.1", "--feed", f"sqlite:{tmp_path / 'feed.db'}")
    link = RunningLink(server.port, "--profile", "lan", listen=f"{neighbour.HOST}:0")
    yield server, link
    link.kill()


JSON = "Content-Type=application/json"


def test_a_neighbour_through_the_link_is_not_local(linked, neighbour):
    server, link = linked
    metrics = neighbour.run("get", link.host, str(link.port), "/metrics")
    assert metrics["status"] == 403, metrics
    assert "metrics are served to loopback" in metrics["body"]
    posted = neighbour.run("post", link.host, str(link.port), "/feed/items", '{"text":"from afar"}', JSON)
    assert posted["status"] == 403, posted
    error = json.loads(posted["body"])["error"]
    assert error["code"] == "forbidden" and f"{neighbour.PEER} via 127.0.0.1" in error["message"], error
    # a claim of its own to be loopback changes nothing: the link drops it and names the neighbour
    spoofed = neighbour.run("get", link.host, str(link.port), "/metrics", "X-Forwarded-For=127.0.0.1")
    assert spoofed["status"] == 403, spoofed
    forwarded = neighbour.run("get", link.host, str(link.port), "/metrics", "Forwarded=for=127.0.0.1")
    assert forwarded["status"] == 403, forwarded
    # the refusals are logged with who was refused
    assert any(neighbour.PEER in line and "refused" in line for line in server.stderr), server.output()
    # and the neighbour's session through the link still works
    assert neighbour.run("session", link.host, str(link.port)) == {"welcome": True, "frames": 1}


def test_the_per_address_limit_counts_the_neighbour_behind_the_link(linked, neighbour):
    _, link = linked
    opened = neighbour.run("sockets", link.host, str(link.port), "70")
    assert opened["upgraded"] == 64 and opened["statuses"].get("503") == 6, opened


def test_this_machine_through_the_link_keeps_its_rights(linked):
    """A page on this machine opens the link on loopback: the link names it 127.0.0.1, and it keeps its rights."""
    server, _ = linked
    link = RunningLink(server.port, "--profile", "lan")

    connection = http.client.HTTPConnection(link.host, link.port, timeout=10)
    connection.request("GET", "/metrics")
    assert connection.getresponse().status == 200
    connection.close()
    connection = http.client.HTTPConnection(link.host, link.port, timeout=10)
    connection.request("POST", "/feed/items", body=b'{"text":"from here"}',
                       headers={"Content-Type": "application/json"})
    assert connection.getresponse().status == 201
    connection.close()
    link.kill()


def test_without_trust_the_link_is_the_client(fresh_server, neighbour):
    """A server that does not trust the proxy sees the proxy: the headers of an untrusted peer are never read."""
    server = fresh_server("--host", neighbour.HOST)
    spoofed = neighbour.run("get", neighbour.HOST, str(server.port), "/metrics", "X-Forwarded-For=127.0.0.1")
    assert spoofed["status"] == 403, spoofed


def test_a_bad_trusted_proxy_is_refused_at_start():
    from conftest import server_binary

    result = subprocess.run([str(server_binary()), "serve", "--port", "0", "--trusted-proxy", "proxy.local"],
                            capture_output=True, text=True, timeout=20)
    assert result.returncode != 0
    assert "--trusted-proxy needs an IPv4 or IPv6 address or network" in result.stderr, result.stderr
