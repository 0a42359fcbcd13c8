"""The same wire over both transports (docs/EMBEDDING.md, "In a Hummingbird app"): each test here runs against
`refreshkit serve` (libwebsockets) and against `examples/hummingbird-notes` (Hummingbird 2), each a real process on a
loopback port, through the same real WebSocket client. Every wait is bounded."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1]))  # e2e/: the shared helpers
from hummingbird_support import hummingbird_command  # noqa: E402  (after the path it lives on)
from wire_support import RunningServer  # noqa: E402

TRANSPORTS = ["libwebsockets", "hummingbird"]


def start(transport: str) -> RunningServer:
    if transport == "hummingbird":
        return RunningServer(program=hummingbird_command())
    return RunningServer("--log-level", "info")


@pytest.fixture(scope="module", params=TRANSPORTS)
def served(request):
    """One server of each transport, shared by a module's tests; stopped with SIGTERM, it must exit 0 without an
    error line."""
    srv = start(request.param)
    srv.transport = request.param
    yield srv
    problems = srv.stop_problems()
    assert not problems, f"the {request.param} server: " + "\n".join(problems)
