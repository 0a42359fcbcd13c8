"""`refreshkit serve --feed` (docs/FEEDS.md, "Serving"): a source that cannot work stops the server at start with
one clear line, and `POST /feed/items` adds an item to a SQLite feed (loopback only unless allowed), answering
every refusal with a JSON error. The real binary, real HTTP; every wait is for a state."""
from __future__ import annotations

import http.client
import json
import socket
import sqlite3
import subprocess
import sys

import pytest

from conftest import ROOT, server_binary
from feed_session import wait_for_log
from netns_support import NetnsPeer


def start_fails(*args: str, timeout: float = 60) -> str:
    """`serve` with `args`: it must exit non-zero without listening; returns its stderr."""
    result = subprocess.run([str(server_binary()), "serve", "--host", "127.0.0.1", "--port", "0", *args],
                            cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert result.returncode != 0, result.stdout
    assert "listening on" not in result.stdout
    return result.stderr


def post(srv, body: bytes | str | dict, method: str = "POST", headers: dict | None = None) -> tuple[int, dict]:
    """`POST /feed/items` with `body` (a dict is sent as JSON); the status and the JSON answer."""
    if isinstance(body, dict):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode()
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        conn.request(method, "/feed/items", body=body if method == "POST" else None,
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        text = response.read().decode()
        assert response.getheader("content-type") == "application/json", (response.status, text)
        return response.status, json.loads(text)
    finally:
        conn.close()


@pytest.mark.parametrize("address,message", [
    ("rss:x", "names no known source"),
    ("sqlite:", "needs a file path"),
    ("jsonfeed:ftp://example.org/feed.json", "is not an http or https address"),
])
def test_a_bad_address_is_refused_at_start(address, message):
    assert message in start_fails("--feed", address)


def test_a_sqlite_file_that_cannot_work_stops_the_start(tmp_path):
    assert "does not exist" in start_fails("--feed", f"sqlite:{tmp_path}/nowhere/feed.db")
    assert "is a folder, not a SQLite file" in start_fails("--feed", f"sqlite:{tmp_path}")

    unreadable = tmp_path / "unreadable.db"
    unreadable.write_bytes(b"")
    unreadable.chmod(0)
    assert "cannot be read" in start_fails("--feed", f"sqlite:{unreadable}")

    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"A" * 4096)
    assert "is not a SQLite database" in start_fails("--feed", f"sqlite:{garbage}")


def test_a_locked_file_stops_the_start(tmp_path, fresh_server):
    path = tmp_path / "feed.db"
    fresh_server("--feed", f"sqlite:{path}").terminate()  # created and filled
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert "is locked by another program" in start_fails("--feed", f"sqlite:{path}")
    finally:
        holder.execute("COMMIT")
        holder.close()


def test_a_new_file_is_filled_on_first_start(tmp_path, fresh_server):
    path = tmp_path / "feed.db"
    srv = fresh_server("--feed", f"sqlite:{path}")
    count = sqlite3.connect(path).execute("SELECT count(*) FROM items").fetchone()[0]
    assert count > 1000, "filled from the fortunes"
    assert srv.terminate() == 0
    assert not srv.error_lines()


def test_a_post_is_written_and_answered_with_the_item(tmp_path, fresh_server):
    path = tmp_path / "feed.db"
    srv = fresh_server("--feed", f"sqlite:{path}")
    status, item = post(srv, {"text": "  Hello from the endpoint  ", "author": "Ann"})
    assert status == 201, item
    assert item["text"] == "Hello from the endpoint" and item["author"] == "Ann"
    row = sqlite3.connect(path).execute("SELECT id, text, time FROM items ORDER BY time DESC LIMIT 1").fetchone()
    assert (str(row[0]), row[1]) == (item["id"], item["text"])
    assert item["time"] == row[2] / 1000, "time in milliseconds since 1970"
    status, second = post(srv, {"text": "no author"})
    assert status == 201 and "author" not in second and second["time"] > item["time"]
    assert srv.terminate() == 0
    assert not srv.error_lines()


@pytest.mark.parametrize("body,status,code", [
    (b"not json", 400, "bad_json"),
    ({"text": 5}, 400, "bad_field"),
    ({"text": "   "}, 400, "bad_field"),
    ({"text": "hi", "colour": "x"}, 400, "bad_field"),
    ({"text": "hi", "author": ["x"]}, 400, "bad_field"),
    ({"text": "x" * 5000}, 413, "too_large"),
])
def test_a_bad_post_gets_a_json_error(tmp_path, fresh_server, body, status, code):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}")
    got, answer = post(srv, body)
    assert (got, answer["error"]["code"]) == (status, code), answer
    assert answer["error"]["message"]
    # the server goes on taking posts
    assert post(srv, {"text": "after the refusal"})[0] == 201


@pytest.mark.parametrize("body,headers,status,code", [
    # a cross-site fetch with a simple content type needs no preflight: refused for its origin and its type
    ('{"text":"x"}', {"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403, "cross_site"),
    ('{"text":"x"}', {"Content-Type": "text/plain"}, 415, "unsupported_media_type"),
    # an HTML form's body from a sandboxed frame or a file: page
    ("text=x", {"Content-Type": "application/x-www-form-urlencoded", "Origin": "null"}, 403, "cross_site"),
    ("text=x", {"Content-Type": "application/x-www-form-urlencoded"}, 415, "unsupported_media_type"),
    # what the browser says of the page, whatever its Origin
    ('{"text":"x"}', {"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "cross_site"),
    ('{"text":"x"}', {"Content-Type": "application/json", "Origin": "http://127.0.0.1:1"}, 403, "cross_site"),
    ('{"text":"x","url":"javascript:alert(1)"}', {"Content-Type": "application/json"}, 400, "bad_field"),
])
def test_a_cross_site_or_non_json_post_is_refused(tmp_path, fresh_server, body, headers, status, code):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}")
    got, answer = post(srv, body, headers=headers)
    assert (got, answer["error"]["code"]) == (status, code), answer
    assert answer["error"]["message"]
    assert f"status={status}" in wait_for_log(srv, "feed post refused")
    stored = sqlite3.connect(tmp_path / "feed.db").execute("SELECT count(*) FROM items WHERE text = 'x'").fetchone()
    assert stored == (0,)
    # the server's own page may post, and the server goes on taking posts
    own = {"Origin": f"http://127.0.0.1:{srv.port}", "Sec-Fetch-Site": "same-origin"}
    assert post(srv, {"text": "from the page", "url": "https://example.org/a"}, headers=own)[0] == 201


def test_a_chunked_post_is_refused_with_411_and_posts_go_on(tmp_path, fresh_server):
    """A body without a Content-Length (chunked) would reach no callback in libwebsockets 4.1: it is refused at
    once, with JSON, instead of waiting forever."""
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}")
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
        sock.sendall(b"POST /feed/items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n10\r\n{\"text\": \"hi!\"}\r\n0\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 411"), answer
    assert json.loads(body)["error"]["code"] == "length_required", body
    assert post(srv, {"text": "after the refusal"})[0] == 201


def test_other_methods_and_feeds_without_posts_are_refused(tmp_path, fresh_server):
    srv = fresh_server("--feed", f"sqlite:{tmp_path / 'feed.db'}")
    status, answer = post(srv, "", method="GET")
    assert (status, answer["error"]["code"]) == (405, "method_not_allowed")

    simulated = fresh_server()
    status, answer = post(simulated, {"text": "hi"})
    assert (status, answer["error"]["code"]) == (409, "not_postable")
    assert "simulated" in answer["error"]["message"]

    path = tmp_path / "readonly.db"
    fresh_server("--feed", f"sqlite:{path}").terminate()
    path.chmod(0o444)
    readonly = fresh_server("--feed", f"sqlite:{path}")
    assert any("read-only" in line for line in readonly.stderr), readonly.output()
    status, answer = post(readonly, {"text": "hi"})
    assert (status, answer["error"]["code"]) == (409, "not_postable")


def test_a_post_from_another_host_is_refused_unless_allowed(tmp_path, fresh_server, other_host):
    srv = fresh_server("--host", other_host.HOST, "--feed", f"sqlite:{tmp_path / 'a.db'}")
    assert post_from(other_host, srv.port) == 403
    allowed = fresh_server("--host", other_host.HOST, "--feed", f"sqlite:{tmp_path / 'b.db'}",
                           "--feed-post-allow", other_host.NETWORK)
    assert post_from(other_host, allowed.port) == 201


def post_from(peer: NetnsPeer, port: int) -> int:
    """The status of a post sent from the other host."""
    code = ("import http.client,sys; c=http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5); "
            "c.request('POST', '/feed/items', body=b'{\"text\":\"from afar\"}', "
            "headers={'Content-Type': 'application/json'}); print(c.getresponse().status)")
    result = subprocess.run(["ip", "netns", "exec", peer.name, sys.executable, "-c", code, peer.HOST, str(port)],
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, result.stderr
    return int(result.stdout)


def test_a_bad_allow_entry_is_refused_at_start():
    assert "--feed-post-allow needs an IPv4 or IPv6 address or network" in start_fails(
        "--feed-post-allow", "10.0.0.0/33")
