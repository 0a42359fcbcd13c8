"""`serve --tls-cert --tls-key` (docs/HTTPS.md): the one port speaks https and wss with a certificate that a test CA
signed (made here with the `openssl` tool, as `refreshkit cert` would make one). A client that trusts the CA completes
hello and a drag over wss; a plain `http://` request on the port is redirected to the same path and query over https;
a plain `ws://` upgrade is refused with a clear answer; a client that does not trust the CA is refused by its own TLS
check and the server carries on; files that cannot serve TLS stop the start with a clear error."""
from __future__ import annotations

import http.client
import socket
import ssl
import subprocess
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from conftest import SUBPROTOCOL, RunningServer, hello, recv_until, run, server_binary
from wire_support import drag

pytestmark = pytest.mark.skipif(subprocess.run(["which", "openssl"], capture_output=True).returncode != 0,
                                reason="needs the openssl tool")


def openssl(*arguments: str, cwd: Path) -> None:
    subprocess.run(["openssl", *arguments], cwd=cwd, check=True, capture_output=True, timeout=30)


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Path:
    """A CA, and a certificate it signed for 127.0.0.1 and localhost; and a second CA nobody trusts."""
    folder = tmp_path_factory.mktemp("pki")
    for ca in ("ca", "other-ca"):
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", f"/CN=RefreshKit test {ca}", "-keyout", f"{ca}-key.pem", "-out", f"{ca}.pem",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign", cwd=folder)
    openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost",
            "-keyout", "server-key.pem", "-out", "server.csr", cwd=folder)
    (folder / "server.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-days", "2",
            "-extfile", "server.ext", "-out", "server.pem", cwd=folder)
    return folder


@pytest.fixture(scope="module")
def tls_server(pki):
    srv = RunningServer("--tls-cert", str(pki / "server.pem"), "--tls-key", str(pki / "server-key.pem"),
                        "--log-level", "info")
    yield srv
    problems = srv.stop_problems()
    assert not problems, "\n".join(problems)


def trusting(pki: Path, ca: str = "ca") -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(pki / f"{ca}.pem"))


def test_it_says_https_and_a_client_that_trusts_the_ca_drags_over_wss(pki, tls_server):
    assert tls_server.url.startswith("https://127.0.0.1:") and tls_server.ws_url.startswith("wss://")

    async def scenario():
        async with connect(tls_server.ws_url, subprotocols=[SUBPROTOCOL], ssl=trusting(pki), open_timeout=10,
                           ping_interval=None) as ws:
            welcome, first = await hello(ws)
            assert welcome["links"]["drive"].startswith("/?s="), welcome
            await drag(ws, 5, -40.0)
            moved = lambda m: m["type"] == "frame" and m.get("offset") != first.get("offset")  # noqa: E731
            frame, _ = await recv_until(ws, moved)
            return frame

    assert run(scenario)["type"] == "frame"
    # the page over https, with the server's security headers
    connection = http.client.HTTPSConnection("127.0.0.1", tls_server.port, context=trusting(pki), timeout=10)
    connection.request("GET", "/")
    answer = connection.getresponse()
    assert answer.status == 200 and b"<html" in answer.read().lower()


def test_plain_http_on_the_tls_port_is_redirected_to_the_same_address_over_https(tls_server):
    connection = http.client.HTTPConnection("127.0.0.1", tls_server.port, timeout=10)
    connection.request("GET", "/?s=0123abcd&k=ff00", headers={"Host": f"127.0.0.1:{tls_server.port}"})
    answer = connection.getresponse()
    answer.read()
    assert answer.status == 308
    assert answer.getheader("Location") == f"https://127.0.0.1:{tls_server.port}/?s=0123abcd&k=ff00"
    # a Host that is not a host name is not repeated back: the server's own address instead
    connection = http.client.HTTPConnection("127.0.0.1", tls_server.port, timeout=10)
    connection.request("GET", "/js/a%20b.js", headers={"Host": "evil\"<>"})
    answer = connection.getresponse()
    answer.read()
    assert answer.status == 308 and answer.getheader("Location") == f"https://127.0.0.1:{tls_server.port}/js/a%20b.js"


def test_a_plain_websocket_on_the_tls_port_is_refused_and_says_why(tls_server):
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=10) as raw:
        raw.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{tls_server.port}\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: {SUBPROTOCOL}\r\n\r\n").encode())
        answer = b""
        while b"wss://" not in answer:
            chunk = raw.recv(4096)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith((b"HTTP/1.0 403", b"HTTP/1.1 403")) and b"this server speaks wss:// only" in answer, answer


def test_a_client_that_does_not_trust_the_ca_is_refused_and_the_server_carries_on(pki, tls_server):
    async def untrusting():
        async with connect(tls_server.ws_url, subprotocols=[SUBPROTOCOL], ssl=trusting(pki, "other-ca"),
                           open_timeout=10):
            pass

    with pytest.raises(ssl.SSLCertVerificationError):
        run(untrusting)

    async def trusted():
        async with connect(tls_server.ws_url, subprotocols=[SUBPROTOCOL], ssl=trusting(pki), open_timeout=10,
                           ping_interval=None) as ws:
            return (await hello(ws))[0]

    assert run(trusted)["type"] == "welcome"


@pytest.mark.parametrize("arguments,says", [
    (["--tls-cert", "{pki}/server.pem"], "--tls-cert needs --tls-key"),
    (["--tls-cert", "{pki}/server.pem", "--tls-key", "{pki}/ca-key.pem"], "is not the key of the certificate"),
    (["--tls-cert", "{pki}/nothing.pem", "--tls-key", "{pki}/server-key.pem"], "cannot read the TLS certificate"),
    (["--tls-cert", "{pki}/server.ext", "--tls-key", "{pki}/server-key.pem"], "is not a PEM certificate"),
    (["--public-tls"], "--public-tls needs --public-port"),
])
def test_what_cannot_serve_tls_stops_the_start_with_a_clear_error(pki, arguments, says):
    command = [str(server_binary()), "serve", "--host", "127.0.0.1", "--port", "0", "--web-root", "web",
               *[argument.format(pki=pki) for argument in arguments]]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert finished.returncode != 0 and says in finished.stderr + finished.stdout, finished


def test_the_servers_own_answers_come_over_https_on_http_1_1(pki, tls_server):
    """A browser offers h2 first; the server takes HTTP/1.1 (docs/HTTPS.md, "HTTP/1.1 only"), over which its own
    answers (a QR code, the metrics) are written. Without a CA of `refreshkit cert` (no --tls-ca), /ca says so."""
    context = trusting(pki)
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as wrapped:
            assert wrapped.selected_alpn_protocol() == "http/1.1"
    for path, status in (("/qr.svg?text=x", 200), ("/metrics", 200), ("/ca", 404), ("/ca.crt", 404)):
        connection = http.client.HTTPSConnection("127.0.0.1", tls_server.port, context=trusting(pki), timeout=10)
        connection.request("GET", path)
        answer = connection.getresponse()
        assert answer.status == status and answer.read(), path
