#!/usr/bin/env python3
"""Does a feed request in flight delay any session's frames? (docs/PERFORMANCE.md, "Feed sources")

The server runs its source's requests on a thread of its own (docs/FEEDS.md), so the service thread should never
wait for one. This measures it from the outside: `--sessions` pages drag at 60 Hz through a server whose source is
the local JSON Feed (e2e/jsonfeed) answering every request after `--delay-ms`, and each page records the gaps
between the frames it receives. Two phases of `--seconds` each, in one run: first with no request in flight, then
with every dragging page asking for its next page again as soon as the last one answered, so requests are always
queued or running. It prints the frame gaps' p50/p99/max in both phases; the target is the same p99 within 2 ms.

    .venv/bin/python bench/feed_frames_bench.py [--sessions 10] [--seconds 5] [--delay-ms 100] [--out F]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "e2e"))
from jsonfeed.feed_server import JSONFeedServer  # noqa: E402

LISTENING = re.compile(r"^listening on (http://\S+?)/?$")
HELLO = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}
TARGET_MS = 2.0


def start_server(binary: str, feed: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--feed", feed, "--feed-poll-ms", "0",
         "--log-level", "warning"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 20
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        match = LISTENING.match(line.strip())
        if match:
            return process, match.group(1).replace("http://", "ws://")
    process.kill()
    raise SystemExit("the server did not start")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


async def page(url: str, seconds: float, load: bool, gaps: list[float], requests: list[int]) -> None:
    async with connect(url, subprotocols=["refreshkit.v1"], max_size=None) as ws:
        await ws.send(json.dumps(HELLO))
        while json.loads(await ws.recv())["type"] != "feed_request":  # the first page has come
            pass
        t = 1000.0
        if load:
            await ws.send(json.dumps({"type": "command", "name": "loadMore", "edge": "bottom"}))
        await ws.send(json.dumps({"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t}))
        end = time.monotonic() + seconds
        last: float | None = None
        moves = 0

        async def receive() -> None:
            nonlocal last
            async for raw in ws:
                message = json.loads(raw)
                now = time.monotonic()
                if message["type"] in ("frame", "delta"):
                    if last is not None:
                        gaps.append((now - last) * 1000)
                    last = now
                elif message["type"] == "feed_request":
                    requests.append(1)
                elif load and message["type"] == "event" and message["name"] == "didEnd" and \
                        message.get("edge") == "bottom":  # the footer is idle again: the next page at once
                    await ws.send(json.dumps({"type": "command", "name": "loadMore", "edge": "bottom"}))

        receiver = asyncio.create_task(receive())
        while time.monotonic() < end:  # a slow drag, up for half a second, then down, 60 Hz
            t += 1000 / 60
            moves += 1
            dy = -2 if (moves // 30) % 2 == 0 else 2
            await ws.send(json.dumps({"type": "touch", "phase": "move", "dx": 0, "dy": dy, "t": t}))
            await asyncio.sleep(1 / 60)
        await ws.send(json.dumps({"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 16}))
        receiver.cancel()


async def phase(url: str, sessions: int, seconds: float, load: bool) -> dict:
    gaps: list[float] = []
    requests: list[int] = []
    await asyncio.gather(*(page(url, seconds, load, gaps, requests) for _ in range(sessions)))
    return {"frames": len(gaps) + sessions, "requests_answered": len(requests),
            "gap_p50_ms": round(percentile(gaps, 50), 2), "gap_p99_ms": round(percentile(gaps, 99), 2),
            "gap_max_ms": round(max(gaps), 2) if gaps else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--delay-ms", type=int, default=100)
    parser.add_argument("--out", type=Path)
    arguments = parser.parse_args()
    binary = os.environ.get("REFRESHKIT_BIN", str(ROOT / ".build/release/refreshkit"))
    with JSONFeedServer(20_000, page_size=20) as feed:
        process, url = start_server(binary, f"jsonfeed:{feed.url}?fail=slow&delay_ms={arguments.delay_ms}")
        try:
            quiet = asyncio.run(phase(url, arguments.sessions, arguments.seconds, load=False))
            loaded = asyncio.run(phase(url, arguments.sessions, arguments.seconds, load=True))
        finally:
            process.terminate()
            process.wait(10)
    result = {"sessions": arguments.sessions, "delay_ms": arguments.delay_ms, "no_request": quiet,
              "requests_in_flight": loaded}
    print(f"frame gaps, {arguments.sessions} sessions dragging at 60 Hz, source answering after "
          f"{arguments.delay_ms} ms:")
    for name, figures in (("no request in flight", quiet), ("requests always in flight", loaded)):
        print(f"  {name:<26} p50 {figures['gap_p50_ms']:6.2f} ms  p99 {figures['gap_p99_ms']:6.2f} ms  "
              f"max {figures['gap_max_ms']:6.2f} ms  ({figures['requests_answered']} requests answered)")
    difference = loaded["gap_p99_ms"] - quiet["gap_p99_ms"]
    print(f"  p99 difference {difference:+.2f} ms (target within {TARGET_MS} ms): "
          f"{'met' if difference <= TARGET_MS else 'NOT met'}")
    if arguments.out:
        arguments.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
