"""A session on a feed source, over the wire (docs/PROTOCOL.md: `welcome.feed`, `rows`, `feed_request`): the
helpers test_feed_failures.py and test_feed_trace.py share. Every wait is for a message or a log line, bounded."""
from __future__ import annotations

import time

from conftest import RunningServer, hello, recv_until

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


def is_rows(message: dict) -> bool:
    return message["type"] == "rows"


def is_request(message: dict) -> bool:
    return message["type"] == "feed_request"


async def first_page(ws) -> tuple[dict, dict]:
    """hello, then the first answer's rows; returns (welcome, rows)."""
    welcome, _ = await hello(ws)
    assert welcome["feed"]["kind"] in ("jsonfeed", "sqlite"), welcome.get("feed")
    rows, _ = await recv_until(ws, lambda m: is_rows(m) and m["count"] > 0, timeout=TIMEOUT_S)
    return welcome, rows


async def answer(ws, timeout: float = TIMEOUT_S) -> tuple[dict, list[dict]]:
    """The next `feed_request` (an answer applied) and what came before it."""
    return await recv_until(ws, is_request, timeout=timeout)
