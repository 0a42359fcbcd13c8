"""Static files from web/ on the WebSocket's port: MIME types, security headers, nothing outside web/."""
from __future__ import annotations

import http.client

import pytest

from conftest import ROOT

WEB = ROOT / "web"
CSP_PARTS = [
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
    "connect-src 'self' ws: wss:", "font-src 'self'", "base-uri 'none'", "frame-ancestors 'none'",
    "form-action 'self'",
]


def get(srv, path: str) -> tuple[int, dict[str, str], bytes]:
    """GET `path` exactly as written (no client-side normalisation of `..` or escapes)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        conn.endheaders()
        response = conn.getresponse()
        body = response.read()
        headers = {k.lower(): v for k, v in response.getheaders()}
        return response.status, headers, body
    finally:
        conn.close()


def media_type(headers: dict[str, str]) -> str:
    return headers.get("content-type", "").split(";")[0].strip().lower()


def test_root_serves_index_html_with_security_headers(server):
    status, headers, body = get(server, "/")
    assert status == 200
    assert media_type(headers) == "text/html"
    assert body == (WEB / "index.html").read_bytes()
    csp = " ".join(headers.get("content-security-policy", "").split())
    for part in CSP_PARTS:
        assert part in csp, f"CSP lacks {part!r}: {csp!r}"
    assert "unsafe-inline" not in csp
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("referrer-policy") == "no-referrer"


def test_index_html_by_name(server):
    status, headers, body = get(server, "/index.html")
    assert status == 200 and media_type(headers) == "text/html"
    assert body == (WEB / "index.html").read_bytes()


def test_javascript_is_text_javascript(server):
    scripts = sorted((WEB / "js").rglob("*.js")) if (WEB / "js").is_dir() else []
    if not scripts:
        pytest.skip("no web/js/*.js yet")
    path = "/" + scripts[0].relative_to(WEB).as_posix()
    status, headers, body = get(server, path)
    assert status == 200, path
    assert media_type(headers) == "text/javascript", headers
    assert body == scripts[0].read_bytes()
    assert headers.get("x-content-type-options") == "nosniff"


MIME_TYPES = {
    ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
    ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json", ".ico": "image/x-icon",
    ".wasm": "application/wasm", ".webmanifest": "application/manifest+json",
}


@pytest.fixture(scope="module")
def scratch_site(tmp_path_factory):
    """A web root of our own (web/ belongs to the page), with one file per suffix and a secret beside it."""
    base = tmp_path_factory.mktemp("site")
    root = base / "www"
    (root / "sub").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>scratch</title>\n")
    for suffix in MIME_TYPES:
        (root / "sub" / f"file{suffix}").write_bytes(f"content of {suffix}\n".encode())
    (base / "secret.txt").write_text("TOP-SECRET-OUTSIDE-THE-WEB-ROOT\n")
    return root


@pytest.fixture(scope="module")
def scratch_server(scratch_site):
    from conftest import RunningServer
    srv = RunningServer("--log-level", "warning", web_root=scratch_site)
    yield srv
    assert srv.terminate() == 0, srv.output()


@pytest.mark.parametrize("suffix", sorted(MIME_TYPES))
def test_mime_types(scratch_server, scratch_site, suffix):
    status, headers, body = get(scratch_server, f"/sub/file{suffix}")
    assert status == 200, suffix
    assert media_type(headers) == MIME_TYPES[suffix], (suffix, headers)
    assert body == (scratch_site / "sub" / f"file{suffix}").read_bytes()
    assert headers.get("x-content-type-options") == "nosniff"


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/%2e%2e/secret.txt", "/sub/../../secret.txt", "/sub/%2e%2e/%2e%2e/secret.txt",
    "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "/sub/..%2f..%2fsecret.txt", "/.%2e/secret.txt",
])
def test_scratch_root_traversal_never_reaches_a_sibling_file(scratch_server, path):
    status, _, body = get(scratch_server, path)
    assert b"TOP-SECRET" not in body, f"{path} leaked a file outside the web root ({status})"


def test_missing_file_is_404(server):
    status, _, _ = get(server, "/no-such-file.js")
    assert status == 404


@pytest.mark.parametrize("path", [
    "/../Package.swift",
    "/%2e%2e/Package.swift",
    "/%2E%2E/Package.swift",
    "/..%2fPackage.swift",
    "/%2e%2e%2fPackage.swift",
    "/js/../../Package.swift",
    "/js/%2e%2e/%2e%2e/Package.swift",
    "/./../Package.swift",
    "//../Package.swift",
    "/....//Package.swift",
])
def test_path_traversal_never_leaves_web_root(server, path):
    secret = (ROOT / "Package.swift").read_bytes()
    status, _, body = get(server, path)
    assert b"swift-tools-version" not in body and secret not in body, f"{path} leaked Package.swift ({status})"


def test_server_still_serves_after_traversal_attempts(server):
    status, _, _ = get(server, "/")
    assert status == 200
