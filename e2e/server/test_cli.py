"""`refreshkit serve` refuses bad options with a clear message and a non-zero exit."""
from __future__ import annotations

import subprocess

import pytest

from conftest import ROOT, server_binary


def serve(*args: str) -> subprocess.CompletedProcess:
    binary = server_binary()
    if not binary.exists():
        pytest.fail(f"server binary {binary} not found", pytrace=False)
    return subprocess.run([str(binary), "serve", *args], cwd=ROOT, capture_output=True, text=True, timeout=20)


def test_unknown_preset_lists_the_presets():
    result = serve("--host", "127.0.0.1", "--port", "0", "--preset", "no-such-preset")
    assert result.returncode != 0
    assert "unknown preset 'no-such-preset'" in result.stderr
    assert "ios" in result.stderr


@pytest.mark.parametrize("args,message", [
    (["--port", "70000"], "port must be between 0 and 65535"),
    (["--web-root", "no/such/folder"], "does not exist"),
    (["--max-message-bytes", "10"], "max message bytes"),
    (["--log-level", "loud"], "log-level"),
    (["--event-loop", "select"], "Please provide one of 'libuv' and 'poll'"),
])
def test_invalid_options_are_refused(args, message):
    result = serve("--host", "127.0.0.1", *args)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr
    assert "listening on" not in result.stdout


def test_port_in_use_fails_cleanly(server):
    result = serve("--host", "127.0.0.1", "--port", str(server.port), "--web-root", "web")
    assert result.returncode == 1, result
    assert "could not listen" in result.stderr
    assert "listening on" not in result.stdout
