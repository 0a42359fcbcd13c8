"""What the feed tests of every suite share (e2e/server, e2e/browser, e2e/cluster; docs/FEEDS.md): the page's rows
rebuilt from the `rows` messages (docs/PROTOCOL.md), and waits on a session's messages."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Callable


def items_of(rows: list[dict]) -> list[dict]:
    """The items after applying `rows` messages in order (replace, prepend, append); each must add up to its
    `count`."""
    items: list[dict] = []
    for message in rows:
        if message["op"] == "replace":
            items = list(message["items"])
        elif message["op"] == "prepend":
            items = list(message["items"]) + items
        else:
            items += message["items"]
        assert len(items) == message["count"], message
    return items


async def until_all(ws, *predicates: Callable[[dict], bool], timeout: float = 30.0) -> list[dict]:
    """Receives until each predicate has matched a message (in any order: a `rows`, a `feed_request`, an event and
    a frame of one change may come in the order the server queued them); returns each one's first match."""
    found: list[dict | None] = [None] * len(predicates)

    async def loop() -> None:
        while any(match is None for match in found):
            raw = await ws.recv()
            assert isinstance(raw, str), f"expected a text message, got {type(raw).__name__}"
            message = json.loads(raw)
            for index, predicate in enumerate(predicates):
                if found[index] is None and predicate(message):
                    found[index] = message

    await asyncio.wait_for(loop(), timeout)
    return found  # type: ignore[return-value]


HELLO = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}


def is_type(kind: str) -> Callable[[dict], bool]:
    return lambda message: message["type"] == kind


def is_loaded(message: dict) -> bool:
    """A `rows` message that leaves items loaded."""
    return message["type"] == "rows" and message["count"] > 0
