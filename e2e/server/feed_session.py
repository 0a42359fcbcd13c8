"""A session on a feed source, over the wire (docs/PROTOCOL.md: `welcome.feed`, `rows`, `feed_request`): the
helpers test_feed_source_failures.py and test_feed_trace.py share. Every wait is for a message or a log line,
bounded."""
from __future__ import annotations

import time

from conftest import RunningServer, recv_until, send_json
from feed_support import HELLO, is_loaded, is_type, until_all

TIMEOUT_S = 30.0


def wait_for_log(srv: RunningServer, text: str, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        for line in list(srv.stderr):
            if text in line:
                return line
        if time.monotonic() > deadline:
            raise AssertionError(f"no log line with {text!r} within {timeout} s\n" + "\n".join(srv.stderr[-30:]))
        time.sleep(0.02)


def is_request(message: dict) -> bool:
    return message["type"] == "feed_request"


async def first_page(ws) -> tuple[dict, dict]:
    """hello, then the welcome, the first answer's rows and its `feed_request` (the first frame may come before
    or after them); returns (welcome, rows)."""
    await send_json(ws, HELLO)
    welcome, rows, _ = await until_all(ws, is_type("welcome"), is_loaded, is_request, timeout=TIMEOUT_S)
    assert welcome["feed"]["kind"] in ("jsonfeed", "sqlite"), welcome.get("feed")
    return welcome, rows


async def answer(ws, timeout: float = TIMEOUT_S) -> tuple[dict, list[dict]]:
    """The next `feed_request` (an answer applied) and what came before it."""
    return await recv_until(ws, is_request, timeout=timeout)
