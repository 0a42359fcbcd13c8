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
    (["--image-cache-mb", "0"], "the image cache must be between 1 and 4096 MiB (got 0)"),
    (["--image-timeout-ms", "50"], "the image time limit must be between 100 and 60000 ms (got 50)"),
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


@pytest.mark.parametrize("url,message", [
    ("rediss://127.0.0.1:6379", "the scheme 'rediss' is not supported"),
    ("redis://127.0.0.1:6379/2?timeout=5", "query items are not supported"),
    ("redis://:hunter2@127.0.0.1:6379/two", "the database must be a number"),
    ("redis://alice@127.0.0.1:6379", "a user name needs a password"),
])
def test_an_unsupported_store_url_is_refused_at_start(url, message):
    result = serve("--host", "127.0.0.1", "--port", "0", "--store", url)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr
    assert "hunter2" not in result.stderr, "the password is not shown"
    assert "listening on" not in result.stdout


def test_help_shows_the_defaults_production_runs_with():
    """`serve --help` shows the server's defaults, which are the session host's (DefaultsTests)."""
    result = subprocess.run([str(server_binary()), "serve", "--help"], cwd=ROOT, capture_output=True, text=True,
                            timeout=20)
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for shown in ["--idle-timeout <seconds>", "(default: 20)", "--rate-limit <messages/s>", "(default: 300)",
                  "--session-grace <seconds>", "(default: 30.0)", "--tick-rate <tick-rate>", "(default: 60)",
                  "--max-message-bytes <max-message-bytes>", "(default: 16384)", "(default: ios)"]:
        assert shown in text, shown
