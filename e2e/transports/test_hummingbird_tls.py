"""The Hummingbird example over TLS (docs/HTTPS.md, "In a Hummingbird app"): built with the package's TLS trait
(NIOSSL), it serves https and wss from `--tls-cert` and `--tls-key`, the flags `refreshkit serve` takes, with the
certificate `refreshkit cert` makes. A wss client that trusts the CA completes hello and a drag, with the page's
https:// origin; a client that does not trust the CA is refused by its own check and the app carries on; an
http:// origin is another site's now. A build without the trait refuses the flags, saying how to get it.

The example with the trait is its own build (`make hummingbird-tls-build`, `.build-tls`): REFRESHKIT_HUMMINGBIRD_TLS_BIN
names it. Part of `make check`, not `make test`: BoringSSL is minutes of a core to compile."""
from __future__ import annotations

import http.client
import os
import ssl
import subprocess
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from hummingbird_support import ROOT, hummingbird_binary
from tls_support import certificates
from wire_support import SUBPROTOCOL, RunningServer, drag, hello, recv_until, run

TLS_BIN = Path(os.environ.get("REFRESHKIT_HUMMINGBIRD_TLS_BIN",
                              ROOT / ".build-tls" / "debug" / "refreshkit-hummingbird"))


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Path:
    return certificates(tmp_path_factory.mktemp("refreshkit-cert"))


@pytest.fixture(scope="module")
def over_tls(pki):
    if not TLS_BIN.exists():
        pytest.fail(f"{TLS_BIN} not found: run `make hummingbird-tls-build`", pytrace=False)
    srv = RunningServer(program=[str(TLS_BIN), "--host", "127.0.0.1", "--port", "0", "--web-root", str(ROOT / "web"),
                                 "--tls-cert", str(pki / "server.pem"), "--tls-key", str(pki / "server-key.pem")])
    yield srv
    problems = srv.stop_problems()
    assert not problems, "the Hummingbird example over TLS: " + "\n".join(problems)


def test_a_client_that_trusts_the_ca_drags_over_wss_with_the_pages_https_origin(pki, over_tls):
    assert over_tls.url.startswith("https://127.0.0.1:") and over_tls.ws_url.startswith("wss://")
    trusting = ssl.create_default_context(cafile=str(pki / "ca.pem"))

    async def scenario():
        origin = {"Origin": f"https://127.0.0.1:{over_tls.port}"}
        async with connect(over_tls.ws_url, subprotocols=[SUBPROTOCOL], ssl=trusting, additional_headers=origin,
                           open_timeout=10, ping_interval=None) as ws:
            welcome, first = await hello(ws)
            await drag(ws, 5, -40.0)
            frame, _ = await recv_until(ws, lambda m: m["type"] == "frame" and m.get("offset") != first.get("offset"))
            assert welcome["role"] == "owner"
        # the same host over http:// is another origin now
        with pytest.raises(InvalidStatus) as refused:
            async with connect(over_tls.ws_url, subprotocols=[SUBPROTOCOL], ssl=trusting, open_timeout=10,
                               additional_headers={"Origin": f"http://127.0.0.1:{over_tls.port}"}):
                pass
        assert refused.value.response.status_code == 403
        # a client that does not trust the CA stops at its own check; the app carries on
        with pytest.raises(ssl.SSLCertVerificationError):
            async with connect(over_tls.ws_url, subprotocols=[SUBPROTOCOL], ssl=ssl.create_default_context(),
                               open_timeout=10):
                pass
        async with connect(over_tls.ws_url, subprotocols=[SUBPROTOCOL], ssl=trusting, open_timeout=10,
                           ping_interval=None) as again:
            await hello(again)

    run(scenario)
    page = http.client.HTTPSConnection("127.0.0.1", over_tls.port, context=trusting, timeout=10)
    page.request("GET", "/")
    answer = page.getresponse()
    assert answer.status == 200 and b"<html" in answer.read().lower()


def test_a_build_without_the_trait_refuses_the_flags_and_says_how(pki):
    plain = hummingbird_binary()
    if not plain.exists():
        pytest.fail(f"{plain} not found: run `make hummingbird-build`", pytrace=False)
    done = subprocess.run([str(plain), "--port", "0", "--tls-cert", str(pki / "server.pem"), "--tls-key",
                           str(pki / "server-key.pem")], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "build it with the TLS trait" in done.stderr, done.stderr
