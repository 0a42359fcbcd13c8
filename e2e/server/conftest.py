"""Server tests: the REAL binary (`refreshkit serve`) on an ephemeral loopback port, a real HTTP client
and a real WebSocket client (`websockets`, asyncio). Every wait is bounded.

The binary is `.build/debug/refreshkit` unless REFRESHKIT_BIN names another one. Every test is bounded by
pytest-timeout (60 s, pyproject.toml).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1]))  # e2e/: link_support.py and wire_support.py, shared
from netns_support import neighbour, other_host  # noqa: E402, F401  (fixtures: another host, e2e/netns_support.py)
from wire_support import (  # noqa: E402, F401  (after the path they live on; the tests import them from here)
    READY_TIMEOUT_S,
    RECV_TIMEOUT_S,
    ROOT,
    STOP_TIMEOUT_S,
    SUBPROTOCOL,
    RunningServer,
    hello,
    join,
    link_key,
    logged_id,
    recv_json,
    recv_until,
    run,
    send_json,
    server_binary,
    wait_closed,
    ws_connect,
)


@pytest.fixture(scope="session")
def server():
    """One server shared by the tests that only talk to it; stopped with SIGTERM, must exit 0, and must not have
    logged an error or worse, whatever the tests sent it (checked here, at its teardown, so that the check sees
    every test that used it, however the run was selected)."""
    srv = RunningServer("--log-level", "info")
    yield srv
    problems = srv.stop_problems()
    assert not problems, "the shared server: " + "\n".join(problems)


@pytest.fixture
def fresh_server():
    """A private server for tests that stop it themselves (the fixture makes sure it is gone)."""
    servers: list[RunningServer] = []

    def start(*extra_args: str, web_root: str | Path = "web") -> RunningServer:
        srv = RunningServer(*extra_args, web_root=web_root)
        servers.append(srv)
        return srv

    yield start
    for srv in servers:
        srv.kill()
    # a sanitizer's report ends the process (halt_on_error, abort_on_error): show it, whatever the test saw
    for srv in servers:
        lines = list(srv.stderr)
        start = next((i for i, line in enumerate(lines) if "Sanitizer" in line), None)
        if start is not None:
            pytest.fail("a server's sanitizer reported:\n" + "\n".join(lines[start:start + 120]), pytrace=False)
