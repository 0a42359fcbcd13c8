"""The server's HTTP answers that are not files (Sources/RefreshServer/HTTP/HTTPEndpoints.swift): `/qr.svg`, the
QR code the Share popover shows, read back by zbar as a phone's camera would."""
from __future__ import annotations

import http.client
import urllib.parse

import pytest

from qr_support import decode, svg_modules
from test_http import get

LINK = "http://192.168.1.23:8080/?s=0123456789abcdef0123456789abcdef"


def request(srv, method: str, path: str, body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    try:
        conn.request(method, path, body=body)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def qr_path(text: str) -> str:
    return "/qr.svg?text=" + urllib.parse.quote(text, safe="")


def test_the_qr_code_of_a_session_link_scans_to_it(server):
    status, headers, body = get(server, qr_path(LINK))
    assert status == 200
    assert headers["content-type"] == "image/svg+xml"
    assert headers["cache-control"] == "no-store"  # a session link is a key: kept out of caches
    assert "x-content-type-options" in headers  # lws's security headers, as on every response
    rows = svg_modules(body.decode())
    assert decode(rows) == [LINK]
    assert LINK.encode() not in body and b"192.168" not in body  # the image carries the code, not the text


@pytest.mark.parametrize("text", ["http://10.0.0.2:8080", "a b&c=d", "会话 ✓"])
def test_any_short_text_round_trips_through_the_url(server, text):
    status, _, body = get(server, qr_path(text))
    assert status == 200
    assert decode(svg_modules(body.decode())) == [text]


@pytest.mark.parametrize("path,message", [
    ("/qr.svg", b"needs ?text="),
    ("/qr.svg?text=", b"needs ?text="),
    ("/qr.svg?text=" + "a" * 201, b"at most 200 bytes"),
])
def test_a_missing_or_overlong_text_is_refused_with_the_reason(server, path, message):
    status, headers, body = get(server, path)
    assert status == 400
    assert message in body
    assert headers["content-type"].startswith("text/plain")


def test_head_has_the_headers_and_no_body(server):
    status, headers, body = request(server, "HEAD", qr_path(LINK))
    assert status == 200
    assert int(headers["content-length"]) > 100
    assert body == b""


def test_a_post_is_refused(server):
    status, _, body = request(server, "POST", qr_path(LINK), body=b"x=1")
    assert status == 405
    assert b"only GET and HEAD" in body


def test_the_page_is_still_served_beside_it(server):
    status, _, body = get(server, "/")
    assert status == 200 and b"<canvas" in body
