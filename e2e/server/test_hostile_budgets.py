"""One address's flood is refused while every other address is served (docs/HARDENING.md, "Budgets per address").

At 6a3a380 `POST /feed/items`, `/qr.svg` and `/feed/image` had no rate at all. Now every HTTP request, post, QR code
and image is paid for from the client address's budget (a token bucket shared by all its connections): past its
burst a flood gets `429` with `Retry-After` and a clear error, and another address is served as before.
"""
from __future__ import annotations

import http.client
import json

import pytest
from websockets.asyncio.client import connect

from conftest import SUBPROTOCOL, hello, recv_json, run, send_json, ws_connect

JSON = "Content-Type=application/json"


@pytest.fixture
def posting(fresh_server, tmp_path, neighbour):
    """The server on the neighbour's link, both sides of it allowed to post."""
    return fresh_server("--host", neighbour.HOST, "--feed", f"sqlite:{tmp_path / 'feed.db'}",
                        "--feed-post-allow", "10.214.0.0/16")


def test_a_post_flood_is_refused_after_its_burst_and_others_post_on(posting, neighbour):
    flood = neighbour.run("posts", neighbour.HOST, str(posting.port), "/feed/items", '{"text":"flood"}', "15", JSON)
    assert flood["statuses"] == {"201": 10, "429": 5}, flood
    last = flood["last"]
    assert last["type"] == "application/json" and int(last["retry_after"]) >= 1, last
    assert json.loads(last["body"])["error"]["code"] == "rate_limited", last
    assert any("over its address's budget" in line and neighbour.PEER in line for line in posting.stderr)
    # another address (this machine's side of the link) is served as before
    connection = http.client.HTTPConnection(neighbour.HOST, posting.port, timeout=10)
    connection.request("POST", "/feed/items", body=b'{"text":"mine"}', headers={"Content-Type": "application/json"})
    assert connection.getresponse().status == 201
    connection.close()
    # and the flooding address still has its session
    assert neighbour.run("session", neighbour.HOST, str(posting.port)) == {"welcome": True, "frames": 1}


def test_a_qr_code_flood_is_refused_after_its_burst(fresh_server, neighbour):
    server = fresh_server("--host", neighbour.HOST)
    codes = [neighbour.get(server.port, "/qr.svg?text=hi") for _ in range(3)]
    assert codes == [200, 200, 200]
    flood = neighbour.run("posts", neighbour.HOST, str(server.port), "/qr.svg?text=hi", "", "25")
    # a POST to /qr.svg is paid for too (405 once paid): past the burst of 20, 429
    assert flood["statuses"].get("429", 0) >= 5 and flood["last"]["status"] == 429, flood


def test_a_flood_spread_over_connections_is_refused_for_its_address(fresh_server):
    """Each connection under its own limit, the address over its budget: refused as a flood of the address, whose
    connections each go on once the rate falls."""
    server = fresh_server("--limit-loopback", "--rate-limit-per-address", "50")

    async def scenario() -> list[dict]:
        refusals = []
        sockets = [await ws_connect(server).__aenter__() for _ in range(4)]
        try:
            for ws in sockets:
                for index in range(40):  # 160 in all: each under its own burst (600), the address over its 100
                    await send_json(ws, {"type": "ping", "t": index})
            for ws in sockets:
                while True:
                    message = await recv_json(ws)
                    if message["type"] == "error":
                        refusals.append(message)
                    if message["type"] == "pong" and message["t"] == 39 or message["type"] == "error":
                        break
            return refusals
        finally:
            for ws in sockets:
                await ws.close()

    refusals = run(scenario)
    assert refusals and all(r["code"] == "rate_limited" for r in refusals), refusals
    assert "this address's connections together sent more than 50 messages/s" in refusals[0]["message"]


def test_a_hello_flood_from_one_address_evicts_no_session_of_another(fresh_server, neighbour):
    """At 6a3a380 a flood of `hello`s from one address filled the sessions table, and the idle sessions closest to
    their expiry, anyone's, were freed for it. Now an address holds at most its share: past it, its own idle
    sessions go first, and nobody else's."""
    server = fresh_server("--host", "0.0.0.0", "--max-sessions", "6", "--max-sessions-per-address", "3")

    async def leave_two_sessions() -> list[tuple[str, str]]:
        kept = []
        for _ in range(2):  # this machine's side of the link: another address than the neighbour's
            async with connect(f"ws://{neighbour.HOST}:{server.port}/", subprotocols=[SUBPROTOCOL]) as ws:
                welcome, _ = await hello(ws)
                kept.append((welcome["session"], welcome["token"]))
        return kept

    async def resume(session: str, token: str) -> dict:
        async with connect(f"ws://{neighbour.HOST}:{server.port}/", subprotocols=[SUBPROTOCOL]) as ws:
            welcome, _ = await hello(ws, session=session, token=token)
            return welcome

    kept = run(leave_two_sessions)  # idle now, waiting out their grace: the first an eviction would take
    flood = neighbour.run("hellos", neighbour.HOST, str(server.port), "20")
    # each new one frees the flooder's own oldest idle one
    assert flood == {"welcomes": 20, "errors": {}, "unanswered": 0, "closed": None}, flood
    for session, token in kept:
        welcome = run(lambda session=session, token=token: resume(session, token))
        assert welcome.get("resumed") is True and "notice" not in welcome, welcome
