"""The Hummingbird example's front door (docs/EMBEDDING.md, "In a Hummingbird app"; docs/HARDENING.md, "Who reaches
what"): the adapter asks the same `FrontDoor` (RefreshAccess) as `refreshkit serve`'s gate. Another website open in a
user's browser opens no WebSocket (403) and writes no note (403/415, a JSON error, no note added), while the page's own
origin plays on; `/metrics` answers the machine itself and the addresses allowed, read behind a trusted proxy; every
answer carries the security headers. Each test runs the real example binary on a loopback port; every wait is bounded.
"""
from __future__ import annotations

import http.client
import json
import subprocess
import time

import pytest
import websockets
from websockets.asyncio.client import connect

from hummingbird_support import hummingbird_binary, hummingbird_command
from wire_support import SUBPROTOCOL, RunningServer, drag, hello, recv_until, run

CSP = ("default-src 'none'; img-src 'self'; script-src 'self'; font-src 'self'; style-src 'self'; "
       "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self';")
EVIL = "http://evil.example"


def started(*extra: str) -> RunningServer:
    srv = RunningServer(program=hummingbird_command(*extra))
    srv.own_origin = f"http://127.0.0.1:{srv.port}"
    return srv


def stopped_cleanly(srv: RunningServer) -> None:
    problems = srv.stop_problems()
    assert not problems, "the Hummingbird example: " + "\n".join(problems)


@pytest.fixture(scope="module")
def notes():
    """The example as `make run-hummingbird` starts it: no proxy trusted, loopback its only writer and reader."""
    srv = started()
    yield srv
    stopped_cleanly(srv)


@pytest.fixture(scope="module")
def proxied():
    """The example behind a proxy on this machine (`refreshkit link`, HAProxy): 127.0.0.1 names the client in
    X-Forwarded-For; 10.0.0.5 may read the metrics and write, and one more origin may open the WebSocket."""
    srv = started("--trusted-proxy", "127.0.0.1", "--metrics-allow", "10.0.0.5", "--post-allow", "10.0.0.5",
                  "--allow-origin", "https://app.example")
    yield srv
    stopped_cleanly(srv)


def request(srv: RunningServer, method: str, path: str, body: str | bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request on a connection of its own: (status, headers by lowercase name, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    try:
        connection.request(method, path, body=body.encode() if isinstance(body, str) else body,
                           headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {name.lower(): value for name, value in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def post_note(srv: RunningServer, body: str | bytes, headers: dict[str, str]) -> tuple[int, dict]:
    status, answer_headers, raw = request(srv, "POST", "/notes", body, headers)
    assert answer_headers.get("content-type", "").startswith("application/json"), (status, answer_headers, raw)
    return status, json.loads(raw)


def own_post(srv: RunningServer, text: str) -> int:
    """A note from the page's own origin, as its `fetch` sends it: created; returns its id."""
    own = {"Content-Type": "application/json", "Origin": srv.own_origin, "Sec-Fetch-Site": "same-origin"}
    status, answer = post_note(srv, json.dumps({"text": text}), own)
    assert status == 201, answer
    return int(answer["id"])


def wait_for_log(srv: RunningServer, *texts: str, timeout: float = 5.0) -> str:
    """The first log line that holds all of `texts`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(srv.stderr) + list(srv.stdout):
            if all(text in line for text in texts):
                return line
        time.sleep(0.05)
    raise AssertionError(f"no log line with {texts!r}:\n" + srv.output())


def ws_open(srv: RunningServer, origin: str | None, headers: dict[str, str] | None = None):
    return connect(srv.ws_url, subprotocols=[SUBPROTOCOL], origin=origin, additional_headers=headers,
                   compression=None, open_timeout=5, close_timeout=2, ping_interval=None, max_size=1 << 20)


def refused_handshake(srv: RunningServer, origin: str | None, headers: dict[str, str] | None = None):
    """The handshake's answer, which must be a refusal."""
    async def scenario():
        with pytest.raises(websockets.InvalidStatus) as refused:
            async with ws_open(srv, origin, headers):
                pass
        return refused.value.response
    return run(scenario)


def plays(srv: RunningServer, origin: str | None, headers: dict[str, str] | None = None) -> dict:
    """Opens the WebSocket, says hello and drags: the list moves. Returns the welcome."""
    async def scenario():
        async with ws_open(srv, origin, headers) as ws:
            welcome, _ = await hello(ws)
            await drag(ws, 5, -30)
            moved, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m["offset"]["y"] > 0)
            assert moved["offset"]["y"] > 0
            return welcome
    return run(scenario)


# MARK: - The WebSocket

@pytest.mark.parametrize("origin,reason", [
    (EVIL, "not this server's origin"),
    ("null", "opaque origin (null)"),
    ("http://127.0.0.1:1", "not this server's origin"),  # this machine, another port: another origin
    ("http://evil.example/path", "malformed origin"),
])
def test_a_websocket_from_another_origin_is_refused_and_the_pages_own_goes_on(notes, origin, reason):
    response = refused_handshake(notes, origin)
    assert response.status_code == 403, (response.status_code, response.body)
    assert reason in response.body.decode(), response.body
    assert response.headers["Content-Security-Policy"] == CSP, response.headers
    assert response.headers["X-Content-Type-Options"] == "nosniff", response.headers
    line = wait_for_log(notes, "origin refused", reason)
    assert " notice " in line, line
    welcome = plays(notes, notes.own_origin)
    assert welcome["type"] == "welcome"


def test_the_servers_own_names_and_a_client_without_origin_open_the_websocket(notes):
    plays(notes, f"http://localhost:{notes.port}")
    plays(notes, None)  # not a browser: a browser always sends Origin with a WebSocket handshake


def test_an_allowed_origin_opens_the_websocket_and_others_are_still_refused(proxied):
    local = {"X-Forwarded-For": "127.0.0.1"}
    plays(proxied, "https://app.example", local)
    assert refused_handshake(proxied, "https://other.example", local).status_code == 403


def test_the_session_host_sees_the_client_the_trusted_proxy_names(proxied):
    plays(proxied, proxied.own_origin, {"X-Forwarded-For": "10.0.0.9"})
    wait_for_log(proxied, "connection opened", "peer=10.0.0.9 ")


# MARK: - Writes

@pytest.mark.parametrize("body,headers,status,code", [
    # a cross-site fetch with a simple content type needs no preflight: refused for its origin and for its type
    ('{"text":"x"}', {"Content-Type": "text/plain", "Origin": EVIL}, 403, "cross_site"),
    ('{"text":"x"}', {"Content-Type": "text/plain"}, 415, "unsupported_media_type"),
    # an HTML form's body from a sandboxed frame or a file: page, and from no page at all
    ("text=x", {"Content-Type": "application/x-www-form-urlencoded", "Origin": "null"}, 403, "cross_site"),
    ("text=x", {"Content-Type": "application/x-www-form-urlencoded"}, 415, "unsupported_media_type"),
    # what the browser says of the page, whatever its Origin
    ('{"text":"x"}', {"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "cross_site"),
    ('{"text":"x"}', {"Content-Type": "application/json", "Origin": "http://127.0.0.1:1"}, 403, "cross_site"),
    ('{"text":"x"}', {"Content-Type": "application/json", "Origin": EVIL, "Sec-Fetch-Site": "same-site"}, 403,
     "cross_site"),
])
def test_a_cross_site_or_non_json_note_is_refused_and_none_is_added(notes, body, headers, status, code):
    before = own_post(notes, "before the attack")
    got, answer = post_note(notes, body, headers)
    assert (got, answer["error"]["code"]) == (status, code), answer
    assert answer["error"]["message"], answer
    assert " notice " in wait_for_log(notes, "write refused", f"status={status}", code)
    # the next note is the very next one: the refused one was never added
    assert own_post(notes, "after the attack") == before + 1


@pytest.mark.parametrize("body,status,code", [
    ("not json", 400, "bad_json"),
    ('["a note"]', 400, "bad_json"),
    ('{"text": 5}', 400, "bad_field"),
    ('{"text": "   "}', 400, "bad_field"),
    (json.dumps({"text": "x" * 5000}), 413, "too_large"),
])
def test_a_bad_note_gets_a_json_error_and_notes_go_on(notes, body, status, code):
    got, answer = post_note(notes, body, {"Content-Type": "application/json"})
    assert (got, answer["error"]["code"]) == (status, code), answer
    assert answer["error"]["message"], answer
    own_post(notes, "after the refusal")


def test_a_same_origin_note_is_created_with_its_id(notes):
    first = own_post(notes, "Bring the map")
    status, answer = post_note(notes, json.dumps({"text": "and the compass"}), {"Content-Type": "application/json"})
    assert status == 201 and int(answer["id"]) == first + 1, answer


def test_writes_behind_the_proxy_are_the_named_clients(proxied):
    json_type = {"Content-Type": "application/json"}
    status, answer = post_note(proxied, '{"text":"from afar"}', {**json_type, "X-Forwarded-For": "10.0.0.9"})
    assert (status, answer["error"]["code"]) == (403, "forbidden"), answer
    assert "10.0.0.9 via 127.0.0.1" in answer["error"]["message"], answer
    # a client that claims loopback to the left of the proxy's own entry gains nothing
    status, answer = post_note(proxied, '{"text":"spoof"}', {**json_type, "X-Forwarded-For": "127.0.0.1, 10.0.0.9"})
    assert status == 403, answer
    # a proxied request that names nobody has no address, and no rights
    assert post_note(proxied, '{"text":"unnamed"}', json_type)[0] == 403
    assert post_note(proxied, '{"text":"allowed"}', {**json_type, "X-Forwarded-For": "10.0.0.5"})[0] == 201
    assert post_note(proxied, '{"text":"this machine"}', {**json_type, "X-Forwarded-For": "127.0.0.1"})[0] == 201


# MARK: - Metrics

def test_metrics_answer_the_machine_itself_and_the_allowed_only(proxied):
    status, headers, body = request(proxied, "GET", "/metrics", headers={"X-Forwarded-For": "10.0.0.9"})
    assert status == 403, body
    assert json.loads(body)["error"]["code"] == "forbidden", body
    wait_for_log(proxied, "metrics refused", "10.0.0.9 via 127.0.0.1")
    assert request(proxied, "GET", "/metrics", headers={"X-Forwarded-For": "127.0.0.1, 10.0.0.9"})[0] == 403
    assert request(proxied, "GET", "/metrics")[0] == 403  # a proxied request that names nobody
    for named in ["127.0.0.1", "10.0.0.5"]:
        status, _, body = request(proxied, "GET", "/metrics", headers={"X-Forwarded-For": named})
        assert status == 200 and b"# TYPE" in body, (named, status, body[:200])


def test_metrics_from_loopback_without_a_proxy_ignore_the_forwarding_header(notes):
    status, _, body = request(notes, "GET", "/metrics")
    assert status == 200 and b"# TYPE" in body, body[:200]
    # the headers of a peer that is not a trusted proxy are never read: it is the client, loopback here
    assert request(notes, "GET", "/metrics", headers={"X-Forwarded-For": "10.0.0.9"})[0] == 200


# MARK: - Headers

@pytest.mark.parametrize("method,path,status", [
    ("GET", "/", 200),
    ("GET", "/index.html", 200),
    ("GET", "/js/app.js", 200),
    ("GET", "/css/app.css", 200),
    ("HEAD", "/", 200),
    ("GET", "/controls/index.json", 200),
    ("GET", "/no-such-file.js", 404),
    ("GET", "/controls/nope.js", 404),
    ("GET", "/metrics", 200),
])
def test_every_answer_carries_the_security_headers(notes, method, path, status):
    got, headers, body = request(notes, method, path)
    assert got == status, (path, got, body[:200])
    assert headers.get("content-security-policy") == CSP, headers
    assert headers.get("x-content-type-options") == "nosniff", headers
    assert headers.get("x-frame-options") == "deny" and headers.get("referrer-policy") == "no-referrer", headers


def test_refusals_carry_the_security_headers_too(notes):
    _, headers, _ = request(notes, "POST", "/notes", "x", {"Content-Type": "text/plain", "Origin": EVIL})
    assert headers.get("content-security-policy") == CSP and headers.get("x-content-type-options") == "nosniff"


# MARK: - The command line

@pytest.mark.parametrize("option,value,message", [
    ("--trusted-proxy", "proxy.local", "--trusted-proxy needs an IPv4 or IPv6 address or network"),
    ("--metrics-allow", "10.0.0.0/33", "--metrics-allow needs an IPv4 or IPv6 address or network"),
    ("--post-allow", "everyone", "--post-allow needs an IPv4 or IPv6 address or network"),
    ("--allow-origin", "evil.example", "--allow-origin needs scheme://host[:port]"),
])
def test_a_bad_front_door_option_stops_the_start(option, value, message):
    result = subprocess.run([str(hummingbird_binary()), "--port", "0", option, value],
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert message in result.stderr, result.stderr
