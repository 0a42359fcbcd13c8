"""HTTP hardening: only files under the web root, whatever the path looks like (`..`, `%2e%2e`, `%2f`,
absolute paths, symlinks out of the root, NUL bytes), huge headers refused, and the page served with a
Content Security Policy without inline script, `X-Content-Type-Options: nosniff` and `Referrer-Policy`.
Raw sockets, so nothing normalises the request line on the way out.
"""
from __future__ import annotations

import os
import re
import socket
import time

import pytest

from conftest import ROOT, RunningServer
from hostile_support import error_lines

SECRET = b"TOP-SECRET-OUTSIDE-THE-WEB-ROOT"


def request(srv, raw: bytes, timeout: float = 5.0) -> tuple[int | None, dict[str, str], bytes]:
    """Sends `raw` as is; returns (status or None when the server just closed, headers, body)."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=timeout) as s:
        try:
            s.sendall(raw)
        except OSError:
            pass
        data = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            match = re.search(rb"content-length:\s*(\d+)", head, re.I)
            if match and len(body) >= int(match.group(1)):
                break
    if not data.startswith(b"HTTP/"):
        return None, {}, data
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode(errors="replace").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def get(srv, path: bytes | str, extra: bytes = b"") -> tuple[int | None, dict[str, str], bytes]:
    if isinstance(path, str):
        path = path.encode()
    return request(srv, b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra + b"\r\n")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A web root with symlinks: one to a secret beside the root, one to /etc, one that stays inside."""
    base = tmp_path_factory.mktemp("hardening")
    root = base / "www"
    (root / "sub").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>scratch</title>\n")
    (root / "sub" / "inside.txt").write_text("inside\n")
    (base / "secret.txt").write_bytes(SECRET + b"\n")
    (base / "secretdir").mkdir()
    (base / "secretdir" / "data.txt").write_bytes(SECRET + b" in a directory\n")
    os.symlink(base / "secret.txt", root / "leak.txt")
    os.symlink("../secret.txt", root / "sub" / "relative-leak.txt")
    os.symlink(base / "secretdir", root / "leakdir")
    os.symlink("/etc/passwd", root / "passwd.txt")
    os.symlink(root / "sub" / "inside.txt", root / "alias.txt")
    return root


@pytest.fixture(scope="module")
def site_server(site):
    srv = RunningServer("--log-level", "info", web_root=site)
    yield srv
    assert srv.terminate() == 0, srv.output()


TRAVERSALS = [
    "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/.%2e/secret.txt", "/%2e./secret.txt",
    "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "/sub/..%2f..%2fsecret.txt", "/sub/%2e%2e%2f%2e%2e%2fsecret.txt",
    "/sub/../../secret.txt", "/sub/./../../secret.txt", "//../secret.txt", "/..\\secret.txt", "/..%5csecret.txt",
    "/%252e%252e/secret.txt", "/..;/secret.txt", "/sub/.../secret.txt", "/%c0%ae%c0%ae/secret.txt",
    "/..%00/secret.txt",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_traversal_never_leaves_the_web_root(site_server, path):
    status, _, body = get(site_server, path)
    assert SECRET not in body, f"{path} leaked ({status})"
    assert status in (None, 400, 403, 404), (path, status)


@pytest.mark.parametrize("path", ["/leak.txt", "/sub/relative-leak.txt", "/leakdir/data.txt", "/passwd.txt",
                                  "/leakdir/", "/%6ceak.txt"])
def test_symlinks_out_of_the_web_root_are_refused(site_server, path):
    status, _, body = get(site_server, path)
    assert SECRET not in body and b"root:" not in body, f"{path} leaked ({status})"
    assert status in (403, 404), (path, status)


def test_refused_symlinks_are_logged(site_server):
    time.sleep(1.1)  # refusals of one kind are logged at most once a second (the rest are counted)
    get(site_server, "/leak.txt")
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and not [line for line in site_server.stderr if "leak.txt" in line]:
        time.sleep(0.05)
    assert [line for line in site_server.stderr if "leak.txt" in line], site_server.output()


def test_a_symlink_that_stays_inside_is_served(site_server):
    status, _, body = get(site_server, "/alias.txt")
    assert status == 200 and body == b"inside\n"


@pytest.mark.parametrize("path", [b"/etc/passwd", b"//etc/passwd", b"/%2fetc%2fpasswd", b"///etc/passwd",
                                  b"http://127.0.0.1/etc/passwd", b"http://127.0.0.1/../../../etc/passwd",
                                  b"/proc/self/environ", b"/%2fproc%2fself%2fenviron", b"etc/passwd",
                                  b"*", b"/" + str(ROOT / "Package.swift").encode()])
def test_absolute_paths_are_refused(site_server, path):
    status, _, body = get(site_server, path)
    assert b"root:" not in body and b"PATH=" not in body and b"swift-tools-version" not in body, (path, status)
    assert status in (None, 400, 403, 404), (path, status)


@pytest.mark.parametrize("path", [b"/index.html%00.txt", b"/index.html\x00", b"/sub/inside.txt%00",
                                  b"/%00", b"/sub%00/inside.txt"])
def test_nul_bytes_are_refused(site_server, site, path):
    status, _, body = get(site_server, path)
    if path == b"/%00" and status == 200:
        # lws's URI parser drops a NUL right after a slash: this is a request for "/" (the index), nothing more.
        assert body == (site / "index.html").read_bytes()
        return
    assert status in (None, 400, 403, 404), (path, status, body[:100])


def test_huge_headers_are_refused_and_the_server_carries_on(site_server):
    status, _, _ = get(site_server, "/", extra=b"X-Huge: " + b"a" * 70_000 + b"\r\n")
    assert status in (None, 400, 413, 431), status
    many = b"".join(b"X-H%d: %s\r\n" % (i, b"b" * 100) for i in range(600))
    status, _, _ = get(site_server, "/", extra=many)
    assert status in (None, 400, 413, 431), status
    status, _, _ = get(site_server, "/" + "u" * 20_000)
    assert status in (None, 400, 404, 414, 431), status
    status, _, body = get(site_server, "/")
    assert status == 200 and b"scratch" in body


def test_encoded_slash_inside_the_root_is_harmless(site_server):
    status, _, body = get(site_server, "/sub%2finside.txt")
    assert status in (200, 400, 403, 404)
    if status == 200:
        assert body == b"inside\n"


def test_only_get_serves_files(site_server):
    for method in (b"POST", b"PUT", b"DELETE"):
        status, _, body = request(site_server, method + b" /sub/inside.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                  b"Content-Length: 0\r\nConnection: close\r\n\r\n")
        assert SECRET not in body
        assert status in (None, 400, 403, 404, 405), (method, status)


# MARK: - Headers of the real page


@pytest.fixture(scope="module")
def page_server():
    srv = RunningServer("--log-level", "info")
    yield srv
    assert srv.terminate() == 0, srv.output()


@pytest.mark.parametrize("path", ["/", "/index.html", "/no-such-file", "/../Package.swift"])
def test_security_headers_on_every_response(page_server, path):
    status, headers, _ = get(page_server, path)
    assert status is not None
    csp = headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "default-src 'none'" in csp, (path, headers)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp
    assert headers.get("x-content-type-options") == "nosniff", headers
    assert headers.get("referrer-policy") == "no-referrer", headers
    assert headers.get("x-frame-options", "").lower() == "deny", headers


def test_the_page_has_no_inline_script_or_style():
    # The CSP forbids inline script and style; the page must not need them.
    for page in (ROOT / "web").glob("*.html"):
        html = page.read_text()
        for match in re.finditer(r"<script\b([^>]*)>(.*?)</script>", html, re.S | re.I):
            assert "src=" in match.group(1) and not match.group(2).strip(), f"inline script in {page.name}"
        assert not re.search(r"\son[a-z]+\s*=", html, re.I), f"inline event handler in {page.name}"
        assert not re.search(r"<style\b", html, re.I), f"inline <style> in {page.name}"
        assert not re.search(r"\sstyle\s*=", html, re.I), f"style attribute in {page.name}"
        assert not re.search(r"(href|src|action)\s*=\s*[\"']?\s*javascript:", html, re.I), page.name


def test_no_server_errors_for_hostile_http(page_server, site_server):
    # Hostile requests are the client's problem: they are logged, but never as server errors.
    get(page_server, "/", extra=b"X-Huge: " + b"a" * 70_000 + b"\r\n")
    time.sleep(0.2)
    assert not error_lines(page_server), error_lines(page_server)[:5]
    assert not error_lines(site_server), error_lines(site_server)[:5]
