#!/usr/bin/env python3
"""Bounded soak of the real server on loopback: N clients for S seconds, each one a page that drags, flings,
wheels, pings, refreshes, and now and then leaves and comes back (resuming its session half of the time).
Passes when the server's memory is flat (RSS after the run vs after warm-up), it logged no error, no client
got an `error` message or an unexpected close, and SIGTERM still exits 0.

    scripts/soak.py                          # 200 clients x 120 s (make soak)
    scripts/soak.py --clients 50 --seconds 20
    REFRESHKIT_BIN=.build-asan/debug/refreshkit scripts/soak.py --clients 20 --seconds 30

Clients run in several processes (asyncio + websockets); every wait has a timeout.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUBPROTOCOL = "refreshkit.v1"


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def strict(text: str) -> dict:
    def refuse(name):
        raise ValueError(f"non-finite number {name}")
    return json.loads(text, parse_constant=refuse)


async def client(index: int, url: str, until: float, stats: dict, rng: random.Random) -> None:
    import websockets
    from websockets.asyncio.client import connect

    session = token = None
    while time.monotonic() < until:
        stay = rng.uniform(15, 40)  # then leave and come back
        hello = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}
        if session and rng.random() < 0.5:
            hello.update(session=session, token=token)
        try:
            async with connect(url, subprotocols=[SUBPROTOCOL], compression=None, open_timeout=10,
                               close_timeout=3, ping_interval=None, max_size=1 << 20) as ws:
                stats["connections"] += 1
                await asyncio.wait_for(ws.send(json.dumps(hello)), 5)
                welcome = strict(await asyncio.wait_for(ws.recv(), 10))
                if welcome.get("type") != "welcome":
                    stats["errors"] += 1
                    stats["samples"].append(welcome)
                    return
                session, token = welcome["session"], welcome["token"]
                reader = asyncio.create_task(read(ws, stats))
                try:
                    await act(ws, min(until, time.monotonic() + stay), stats, rng)
                finally:
                    reader.cancel()
                    try:
                        await reader
                    except (asyncio.CancelledError, Exception):  # noqa: BLE001
                        pass
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as error:
            stats["unexpected_closes"] += 1
            if len(stats["samples"]) < 5:
                stats["samples"].append(f"client {index}: {type(error).__name__}: {error}")
            await asyncio.sleep(1)


async def read(ws, stats: dict) -> None:
    import websockets
    try:
        async for raw in ws:
            stats["received"] += 1
            if '"type":"error"' in raw:
                stats["errors"] += 1
                if len(stats["samples"]) < 5:
                    stats["samples"].append(raw[:200])
            elif stats["received"] % 50 == 0:
                strict(raw)  # spot-check: valid JSON, no NaN/Infinity
    except websockets.ConnectionClosed as closed:
        if closed.rcvd is not None and closed.rcvd.code not in (1000, 1001):
            stats["unexpected_closes"] += 1
            if len(stats["samples"]) < 5:
                stats["samples"].append(f"closed with {closed.rcvd.code} {closed.rcvd.reason}")


async def act(ws, until: float, stats: dict, rng: random.Random) -> None:
    def now_ms() -> float:
        return time.monotonic() * 1000

    async def send(message: dict) -> None:
        await asyncio.wait_for(ws.send(json.dumps(message)), 5)
        stats["sent"] += 1

    last_ping = 0.0
    while time.monotonic() < until:
        choice = rng.random()
        if choice < 0.55:  # a drag: pull or scroll, then lift (a fling when fast)
            direction = rng.choice([-1, 1])
            await send({"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": now_ms()})
            for _ in range(rng.randint(5, 25)):
                await asyncio.sleep(1 / 30)
                await send({"type": "touch", "phase": "move", "dx": rng.uniform(-2, 2),
                            "dy": direction * rng.uniform(2, 40), "t": now_ms()})
            await send({"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": now_ms()})
        elif choice < 0.75:
            for _ in range(rng.randint(3, 12)):
                await send({"type": "wheel", "dx": 0, "dy": rng.uniform(-120, 120), "mode": 0, "t": now_ms()})
                await asyncio.sleep(1 / 60)
        elif choice < 0.85:
            await send({"type": "command", "name": rng.choice(["refresh", "loadMore", "scrollToEdge", "scrollByPage"]),
                        "amount": rng.choice([-1, 1]), "edge": rng.choice(["top", "bottom"])})
        elif choice < 0.9:
            await send({"type": "configure", "feed": {"latencyMs": rng.choice([50, 300, 1500]),
                                                     "failureRate": rng.choice([0, 0.2])}})
        elif choice < 0.93:
            await send({"type": "resize", "viewport": {"w": rng.choice([390, 844]), "h": rng.choice([844, 390])}})
        if time.monotonic() - last_ping > 2:
            await send({"type": "ping", "t": now_ms()})
            last_ping = time.monotonic()
        await asyncio.sleep(rng.uniform(0.2, 2.0))


def worker(first: int, count: int, url: str, until_wall: float, seed: int, queue) -> None:
    stats = {"connections": 0, "sent": 0, "received": 0, "errors": 0, "unexpected_closes": 0, "samples": []}
    until = time.monotonic() + (until_wall - time.time())

    async def main():
        rng = random.Random(seed)
        tasks = []
        for index in range(first, first + count):
            tasks.append(asyncio.create_task(client(index, url, until, stats, random.Random(rng.random()))))
            await asyncio.sleep(0.01)  # ramp up
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), until - time.monotonic() + 60)

    try:
        asyncio.run(main())
    except Exception as error:  # noqa: BLE001
        stats["unexpected_closes"] += 1
        stats["samples"].append(f"worker: {type(error).__name__}: {error}")
    queue.put(stats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--warmup", type=float, default=15, help="seconds before the baseline RSS sample")
    parser.add_argument("--max-growth-kib", type=int, default=8 * 1024,
                        help="allowed RSS growth from after warm-up to the end (default 8 MiB)")
    parser.add_argument("--binary", default=os.environ.get("REFRESHKIT_BIN", str(ROOT / ".build/release/refreshkit")))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the summary here")
    parser.add_argument("--server-arg", action="append", default=[],
                        help="an extra argument for `refreshkit serve` (repeatable), e.g. --server-arg=--trace-limit=0")
    args = parser.parse_args()

    binary = Path(args.binary)
    if not binary.is_absolute():
        binary = ROOT / binary
    server = subprocess.Popen(
        [str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--web-root", "web", "--log-level", "notice",
         *args.server_arg],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stderr_lines: list[str] = []
    threading.Thread(target=lambda: stderr_lines.extend(line.rstrip() for line in server.stderr), daemon=True).start()
    port = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and port is None:
        line = server.stdout.readline()
        match = re.match(r"listening on http://127\.0\.0\.1:(\d+)", line.strip())
        if match:
            port = int(match.group(1))
        if not line and server.poll() is not None:
            break
    if port is None:
        server.kill()
        print("soak: the server did not start", file=sys.stderr)
        return 1
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    url = f"ws://127.0.0.1:{port}/"
    pid = server.pid
    started = time.monotonic()
    rss = {"idle": rss_kib(pid)}
    until_wall = time.time() + args.seconds

    queue = mp.Queue()
    per = [args.clients // args.processes + (1 if i < args.clients % args.processes else 0)
           for i in range(args.processes)]
    processes, first = [], 0
    for index, count in enumerate(per):
        if count == 0:
            continue
        process = mp.Process(target=worker, args=(first, count, url, until_wall, args.seed * 1000 + index, queue))
        process.start()
        processes.append(process)
        first += count

    samples = []
    time.sleep(min(args.warmup, args.seconds / 2))
    rss["warm"] = rss_kib(pid)
    while time.time() < until_wall:
        time.sleep(min(10, max(0.1, until_wall - time.time())))
        samples.append(rss_kib(pid))
    rss["end"] = rss_kib(pid)

    totals = {"connections": 0, "sent": 0, "received": 0, "errors": 0, "unexpected_closes": 0, "samples": []}
    for _ in processes:
        try:
            stats = queue.get(timeout=120)
        except Exception:  # noqa: BLE001
            totals["unexpected_closes"] += 1
            continue
        for key in ("connections", "sent", "received", "errors", "unexpected_closes"):
            totals[key] += stats[key]
        totals["samples"] += stats["samples"]
    for process in processes:
        process.join(30)
        if process.is_alive():
            process.kill()
    time.sleep(3)
    rss["after_disconnect"] = rss_kib(pid)
    server.send_signal(signal.SIGTERM)
    try:
        exit_code = server.wait(15)
    except subprocess.TimeoutExpired:
        server.kill()
        exit_code = "killed"
    time.sleep(0.2)
    server_errors = [line for line in stderr_lines if len(line.split(" ", 2)) > 1
                     and line.split(" ", 2)[1] in ("error", "critical")]

    growth = rss["end"] - rss["warm"]
    summary = {
        "clients": args.clients, "seconds": args.seconds, "server_args": args.server_arg,
        "elapsed_s": round(time.monotonic() - started, 1),
        "rss_kib": rss, "rss_samples_kib": samples, "rss_growth_after_warmup_kib": growth,
        "connections": totals["connections"], "messages_sent": totals["sent"],
        "messages_received": totals["received"], "error_replies": totals["errors"],
        "unexpected_closes": totals["unexpected_closes"], "server_error_lines": len(server_errors),
        "server_exit": exit_code, "examples": totals["samples"][:5] + server_errors[:5],
    }
    ok = (growth <= args.max_growth_kib and totals["errors"] == 0 and totals["unexpected_closes"] == 0
          and not server_errors and exit_code == 0 and totals["received"] > 0)
    summary["pass"] = ok
    text = json.dumps(summary, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
