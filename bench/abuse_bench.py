"""`make abuse` (docs/HARDENING.md, "The abuse bench"): each attack of a hostile client against a release build, from
another host (a network namespace), while a legitimate client on another address does what a page does; what the
attack did to the server and what the legitimate client saw.

Usage: .venv/bin/python bench/abuse_bench.py [--bin .build/release/refreshkit] [--out bench/abuse.json] [--check]

Stages, each on a fresh server:
- trace_flood: four connections ask for their session's trace 1 000 times at 210 a second and never read; the
  server's RSS growth once it handled them (target: at most 8 MiB).
- silent_sockets: the server under `prlimit --nofile=256:256`, 300 sockets from the attacker that never send a byte;
  how long a `GET /` from the other address takes (target: under 1 s) and how many lines the server logged
  (target: at most 1 000).
- input_flood: 64 connections from the attacker each send touch moves as fast as the rate limit lets them (19 200 a
  second in all at 300 each); the legitimate client's input → frame latency, p50 and p99, quiet and under the flood
  (target: p99 under the flood at most twice the quiet one).
- post_flood: 30 posts from the attacker at once; how many were taken before the 429s (target: refused after a
  burst), and whether the other address could post meanwhile.
- hello_flood: with --max-sessions 300, two sessions of the other address left idle, then 1 000 `hello`s from the
  attacker, each a new session; whether the other address's sessions are still there (target: both resume).

Needs root and iproute2 (a network namespace), as the e2e tests of the same attacks do (e2e/server/test_hostile_*.py).
--check exits 1 when a target does not hold.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "e2e"))
from netns_support import ProxyPeer  # noqa: E402

SUBPROTOCOL = "refreshkit.v1"
LISTENING = re.compile(r"listening on http://\S+:(\d+)")


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class Server:
    """A release `refreshkit serve` on every interface (the attacker reaches it on the namespace's link)."""

    def __init__(self, binary: Path, *args: str, prefix: tuple[str, ...] = ()):
        self.log = tempfile.NamedTemporaryFile("w+", prefix="abuse-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([*prefix, str(binary), "serve", "--host", "0.0.0.0", "--port", "0",
                                      "--web-root", "web", "--qr", "never", *args],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.port = 0
        deadline = time.monotonic() + 30
        while not self.port and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if match := LISTENING.search(line):
                self.port = int(match.group(1))
        if not self.port:
            raise RuntimeError("the server did not say where it listens")

    def log_lines(self) -> int:
        return len(Path(self.log.name).read_text().splitlines())

    def messages_handled(self) -> float:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        connection.close()
        match = re.search(r"^refreshkit_messages_total (\S+)$", text, re.M)
        return float(match.group(1)) if match else 0.0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        Path(self.log.name).unlink(missing_ok=True)


async def drag_latencies(host: str, port: int, moves: int) -> list[float]:
    """A page's drag from `host`: each move numbered (`seq`), and the time until a frame acknowledges it (ms)."""
    import websockets

    latencies: list[float] = []
    async with websockets.connect(f"ws://{host}:{port}/", subprotocols=[SUBPROTOCOL], max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}))
        member = None
        while member is None:
            message = json.loads(await ws.recv())
            if message.get("type") == "welcome":
                member = str(message["member"])
        t = 1000.0
        await ws.send(json.dumps({"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": t, "id": 1, "seq": 1}))
        for seq in range(2, moves + 2):
            t += 16
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "touch", "phase": "move", "dx": 0, "dy": 3 if seq % 2 else -3,
                                      "t": t, "id": 1, "seq": seq}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message.get("type") in ("frame", "delta") and message.get("ack", {}).get(member, 0) >= seq:
                    break
            latencies.append((time.monotonic() - sent) * 1000)
        await ws.send(json.dumps({"type": "touch", "phase": "end", "dx": 0, "dy": 0, "t": t + 16, "id": 1,
                                  "seq": moves + 2}))
    return latencies


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def trace_flood(binary: Path, peer: ProxyPeer) -> dict:
    server = Server(binary)
    try:
        assert peer.run("session", peer.HOST, str(server.port))["welcome"]
        before = rss_bytes(server.proc.pid)
        attacker = peer.start("flood", peer.HOST, str(server.port), "4", "1000", "210", '{"type":"trace"}')
        json.loads(attacker.stdout.readline())
        deadline = time.monotonic() + 30
        while server.messages_handled() < 1000 and time.monotonic() < deadline:
            time.sleep(0.05)  # polling a state: the server's message counter
        grown = rss_bytes(server.proc.pid) - before
        attacker.stdin.close()
        attacker.wait(20)
        return {"rss_growth_mib": round(grown / (1 << 20), 2), "target_mib": 8, "holds": grown <= 8 << 20}
    finally:
        server.stop()


def silent_sockets(binary: Path, peer: ProxyPeer) -> dict:
    server = Server(binary, prefix=("prlimit", "--nofile=256:256"))
    try:
        attacker = peer.start("hold", peer.HOST, str(server.port), "300")
        opened = json.loads(attacker.stdout.readline())["opened"]
        began = time.monotonic()
        connection = http.client.HTTPConnection(peer.HOST, server.port, timeout=10)
        connection.request("GET", "/")
        status = connection.getresponse().status
        took = time.monotonic() - began
        connection.close()
        lines = server.log_lines()
        attacker.stdin.close()
        attacker.wait(20)
        return {"opened": opened, "get_status": status, "get_seconds": round(took, 3), "log_lines": lines,
                "holds": status == 200 and took < 1.0 and lines <= 1000}
    finally:
        server.stop()


def input_flood(binary: Path, peer: ProxyPeer, moves: int) -> dict:
    server = Server(binary)
    try:
        quiet = asyncio.run(drag_latencies(peer.HOST, server.port, moves))
        move = json.dumps({"type": "touch", "phase": "move", "dx": 0, "dy": 1, "t": 2000, "id": 1})
        attacker = peer.start("flood", peer.HOST, str(server.port), "64", "200000", "19200", move)
        flooded = asyncio.run(drag_latencies(peer.HOST, server.port, moves))
        attacker.stdin.close()
        attacker.kill()
        quiet_p99, flooded_p99 = p(quiet, 0.99), p(flooded, 0.99)
        return {"quiet_p50_ms": round(p(quiet, 0.5), 2), "quiet_p99_ms": round(quiet_p99, 2),
                "flood_p50_ms": round(p(flooded, 0.5), 2), "flood_p99_ms": round(flooded_p99, 2),
                "ratio": round(flooded_p99 / quiet_p99, 2), "holds": flooded_p99 <= 2 * quiet_p99}
    finally:
        server.stop()


def post_flood(binary: Path, peer: ProxyPeer) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(binary, "--feed", f"sqlite:{folder}/feed.db", "--feed-post-allow", "10.214.0.0/16")
        try:
            flood = peer.run("posts", peer.HOST, str(server.port), "/feed/items", '{"text":"flood"}', "30",
                             "Content-Type=application/json")
            connection = http.client.HTTPConnection(peer.HOST, server.port, timeout=10)
            connection.request("POST", "/feed/items", body=b'{"text":"mine"}',
                               headers={"Content-Type": "application/json"})
            other = connection.getresponse().status
            connection.close()
            statuses = flood["statuses"]
            return {"statuses": statuses, "other_address_status": other,
                    "holds": statuses.get("429", 0) > 0 and statuses.get("201", 0) <= 11 and other == 201}
        finally:
            server.stop()


async def idle_sessions(host: str, port: int, count: int) -> list[tuple[str, str]]:
    """`count` sessions made and left (each waits out its grace): their ids and tokens."""
    import websockets

    kept = []
    for _ in range(count):
        async with websockets.connect(f"ws://{host}:{port}/", subprotocols=[SUBPROTOCOL]) as ws:
            await ws.send(json.dumps({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3}))
            while (message := json.loads(await ws.recv())).get("type") != "welcome":
                pass
            kept.append((message["session"], message["token"]))
    return kept


async def resumes(host: str, port: int, session: str, token: str) -> bool:
    import websockets

    async with websockets.connect(f"ws://{host}:{port}/", subprotocols=[SUBPROTOCOL]) as ws:
        await ws.send(json.dumps({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "session": session,
                                  "token": token}))
        while (message := json.loads(await ws.recv())).get("type") != "welcome":
            pass
        return message.get("resumed") is True


def hello_flood(binary: Path, peer: ProxyPeer) -> dict:
    server = Server(binary, "--max-sessions", "300")
    try:
        kept = asyncio.run(idle_sessions(peer.HOST, server.port, 2))
        flood = peer.run("hellos", peer.HOST, str(server.port), "1000")
        resumed = sum(asyncio.run(resumes(peer.HOST, server.port, s, t)) for s, t in kept)
        return {"flood": flood, "others_resumed": f"{resumed}/2", "holds": resumed == 2}
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=Path, default=ROOT / ".build" / "release" / "refreshkit")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "abuse.json")
    parser.add_argument("--moves", type=int, default=300, help="moves of the legitimate client's drag")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    results: dict[str, dict] = {}
    with ProxyPeer() as peer:
        for name, stage in (("trace_flood", lambda: trace_flood(args.bin, peer)),
                            ("silent_sockets", lambda: silent_sockets(args.bin, peer)),
                            ("input_flood", lambda: input_flood(args.bin, peer, args.moves)),
                            ("post_flood", lambda: post_flood(args.bin, peer)),
                            ("hello_flood", lambda: hello_flood(args.bin, peer))):
            print(f"[abuse] {name}…", file=sys.stderr, flush=True)
            results[name] = stage()
            print(f"[abuse] {name}: {json.dumps(results[name])}", file=sys.stderr, flush=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"{'attack':<16} {'holds':<6} figures")
    for name, figures in results.items():
        shown = ", ".join(f"{k}={v}" for k, v in figures.items() if k != "holds")
        print(f"{name:<16} {'yes' if figures['holds'] else 'NO':<6} {shown}")
    return 1 if args.check and not all(f["holds"] for f in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
