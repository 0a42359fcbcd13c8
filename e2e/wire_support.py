"""The wire as the tests speak it: a server built on the library (`refreshkit serve`, or an example's program) on an
ephemeral loopback port, and a real WebSocket client (`websockets`, asyncio) with the few steps every test takes
(connect with `refreshkit.v1`, hello, receive until, wait for the close). Shared by e2e/server and e2e/transports,
whose conftest.py files import it with `e2e/` on the path. Every wait is bounded.

The binary is `.build/debug/refreshkit` unless REFRESHKIT_BIN names another one.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import re
import subprocess
import threading
from pathlib import Path
from typing import Any, Awaitable, Callable
from urllib.parse import parse_qs, urlparse

import pytest
import websockets
from websockets.asyncio.client import ClientConnection, connect

from link_support import ChildProcess, refreshkit_binary

ROOT = Path(__file__).resolve().parents[1]

READY_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 10.0
RECV_TIMEOUT_S = 5.0
SUBPROTOCOL = "refreshkit.v1"
LISTENING = re.compile(r"^listening on (https?://\S+?)/?$")


def server_binary() -> Path:
    return refreshkit_binary()


class RunningServer(ChildProcess):
    """One `refreshkit serve` process; `url` is `http://127.0.0.1:PORT`."""

    name = "server"

    def __init__(self, *extra_args: str, web_root: str | Path = "web", program: list[str] | None = None):
        """`refreshkit serve` with `extra_args`, or `program` (another server built on the library, as
        `examples/gitlog`, given its whole command: it must print `listening on URL` as serve does)."""
        binary = server_binary()
        if not binary.exists():
            pytest.fail(f"server binary {binary} not found: run `swift build` first "
                        "(or point REFRESHKIT_BIN at a build)", pytrace=False)
        command = program or [str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--web-root",
                              str(web_root), *extra_args]
        self.proc = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        ready = threading.Event()
        found: dict[str, str] = {}

        def drain_stdout() -> None:  # keep reading so a chatty server never blocks on a full pipe
            for line in self.proc.stdout:
                self.stdout.append(line.rstrip("\n"))
                match = LISTENING.match(line.strip())
                if match and not ready.is_set():
                    found["url"] = match.group(1)
                    ready.set()
            ready.set()

        def drain_stderr() -> None:
            for line in self.proc.stderr:
                self.stderr.append(line.rstrip("\n"))

        threading.Thread(target=drain_stdout, daemon=True).start()
        threading.Thread(target=drain_stderr, daemon=True).start()
        if not ready.wait(READY_TIMEOUT_S) or "url" not in found:
            self.kill()
            pytest.fail(f"server did not print `listening on http://HOST:PORT` within {READY_TIMEOUT_S:.0f} s\n"
                        + self.output(), pytrace=False)
        self.url = found["url"]
        self.port = int(self.url.rsplit(":", 1)[1])
        self.ws_url = f"{'wss' if self.url.startswith('https') else 'ws'}://127.0.0.1:{self.port}/"

    def error_lines(self) -> list[str]:
        """Lines logged at `error` or `critical` (swift-log's stream format: `<date> <level> <label>: …`)."""
        return [line for line in list(self.stderr)
                if len(line.split(" ", 2)) > 1 and line.split(" ", 2)[1] in ("error", "critical")]

    def stop_problems(self) -> list[str]:
        """Stops the server with SIGTERM; what was wrong: an exit other than 0, or lines logged at `error` or
        worse (none: it stopped cleanly)."""
        problems = []
        code = self.terminate()
        if code != 0:
            problems.append(f"the server exited with {code}\n" + self.output())
        if self.error_lines():
            problems.append("the server logged errors:\n" + "\n".join(self.error_lines()[:10]))
        return problems


def run(coroutine_factory: Callable[[], Awaitable[Any]], timeout: float = 30.0) -> Any:
    """Runs one async scenario with an overall timeout."""
    async def bounded():
        return await asyncio.wait_for(coroutine_factory(), timeout)
    return asyncio.run(bounded())


def ws_connect(srv: RunningServer, subprotocol: str | None = SUBPROTOCOL):
    return connect(
        srv.ws_url,
        subprotocols=[subprotocol] if subprotocol else None,
        compression=None,
        open_timeout=5,
        close_timeout=2,
        ping_interval=None,
        max_size=1 << 20,
    )


async def recv_json(ws: ClientConnection, timeout: float = RECV_TIMEOUT_S) -> dict:
    raw = await asyncio.wait_for(ws.recv(), timeout)
    assert isinstance(raw, str), f"expected a text message, got {type(raw).__name__}"
    return json.loads(raw)


async def recv_until(ws: ClientConnection, predicate: Callable[[dict], bool],
                     timeout: float = RECV_TIMEOUT_S) -> tuple[dict, list[dict]]:
    """Receives until `predicate(message)`; returns that message and everything received before it."""
    seen: list[dict] = []

    async def loop() -> dict:
        while True:
            message = await recv_json(ws, timeout)
            if predicate(message):
                return message
            seen.append(message)

    found = await asyncio.wait_for(loop(), timeout)
    return found, seen


async def send_json(ws: ClientConnection, message: dict) -> None:
    await asyncio.wait_for(ws.send(json.dumps(message)), RECV_TIMEOUT_S)


async def hello(ws: ClientConnection, **extra: Any) -> tuple[dict, dict]:
    """Sends hello; returns (welcome, first frame)."""
    await send_json(ws, {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, **extra})
    welcome = await recv_json(ws)
    assert welcome["type"] == "welcome", welcome
    frame, _ = await recv_until(ws, lambda m: m["type"] == "frame")
    return welcome, frame


def link_key(welcome: dict, role: str = "drive") -> str:
    """The key (`k`) of the owner's share link for `role` (`welcome.links`, docs/PROTOCOL.md "Roles")."""
    return parse_qs(urlparse(welcome["links"][role]).query)["k"][0]


def join(welcome: dict, role: str = "drive") -> dict:
    """The `hello` fields that join the owner's session (`welcome`'s) as its `role` link does: `session` and `key`."""
    return {"session": welcome["session"], "key": link_key(welcome, role)}


def logged_id(session: str) -> str:
    """Session `session` as the server's log names it: its node prefix, `#` and 12 hex digits of its SHA-256 (never
    the id itself: docs/PROTOCOL.md, "Roles")."""
    prefix = session[:session.rindex(".") + 1] if "." in session else ""
    return prefix + "#" + hashlib.sha256(session.encode()).hexdigest()[:12]


def touch(phase: str, dy: float, t: float) -> dict:
    """A `touch` message of pointer 1 (docs/PROTOCOL.md): `dy` since its previous sample, at page time `t` (ms)."""
    return {"type": "touch", "phase": phase, "dx": 0, "dy": dy, "t": t, "id": 1}


async def drag(ws: ClientConnection, moves: int, dy: float, t: float = 1000.0) -> None:
    """A finger put down at page time `t`, moved `moves` times by `dy` 16 ms apart, and lifted 16 ms later."""
    await send_json(ws, touch("start", 0, t))
    for _ in range(moves):
        t += 16
        await send_json(ws, touch("move", dy, t))
    await send_json(ws, touch("end", 0, t + 16))


async def wait_closed(ws: ClientConnection, timeout: float = RECV_TIMEOUT_S) -> int | None:
    """Reads (and drops) messages until the connection closes; returns the close code it received."""
    async def drain():
        try:
            while True:
                await ws.recv()
        except websockets.ConnectionClosed:
            pass

    await asyncio.wait_for(drain(), timeout)
    return ws.close_code
