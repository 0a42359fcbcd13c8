"""Memory per connected session (docs/PERFORMANCE.md, "Memory per connected session"): `refreshkit serve`
against `lws-echo`, the bare transport, in one run. Part of `make bench`.

Usage: .venv/bin/python bench/memory_bench.py [--out bench/memory.json] [--sessions 2000] [--rounds 1]
           [--large 200] [--soak-seconds 0] [--tls] [--check]

For each target, a fresh process on a loopback port: its RSS (/proc/PID/status) and its heap (the server's
`refreshkit_heap_in_use_bytes` in `/metrics`, jemalloc's; lws-echo's `heap …` line on SIGUSR1, glibc's `mallinfo2`)
once it listens; then --sessions WebSockets, each sending `hello` (deltas, as the page) and awaiting the
welcome (the echo: its echo), then a five-message drag (`touch start` and four moves, numbered with `seq`)
and awaiting the frame that acknowledges the last (the echo: the fifth echo), then a ping and its pong (the
keepalive every quiet session gets). With every session connected and quiet, RSS and heap again: (after −
before) ÷ sessions is the figure. Targets alternate, echo first, --rounds times; the median round of each is
reported, and the server's RSS per session ÷ the echo's.

Then, on the server only, with the sessions still connected:
- **Large messages** (--large N): N of the sessions each send a 16 KiB message, `{"type":"trace"}` padded
  with spaces (assembled from pieces, decoded), which the server answers with the session's trace (a
  message larger than any frame); once each has its answer, heap and RSS again: what they keep of it per
  session (≈ 0: the buffers went back to their quiet size). Not a padded `touch`: an input is recorded in
  the session's trace as received (docs/TRACE.md), so its bytes stay, by design, up to the trace's limit.
- **Soak** (--soak-seconds S): the sessions stay connected and quiet (the server pings them every 10 s,
  the client answers) while RSS is read every --soak-interval seconds; its growth from the first sample to
  the last and to the largest.

--tls: both targets serve wss:// with a certificate of `refreshkit cert` (made in the run's folder), and the sessions
trust its CA: what a session costs over TLS, where OpenSSL's state for each connection is on both sides of the ratio
(docs/HTTPS.md, "Measured"). The target is then 1.5× the echo's.

--check exits 1 when the server's RSS per session is over twice the echo's (1.5× with --tls), a large message left
more than 1 KiB per session in the heap, or the soak grew RSS by more than 1 %.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
SUBPROTOCOL = "refreshkit.v1"
TIMEOUT_S = 60.0
WARM_UP_SESSIONS = 20


def rss_bytes(pid: int, field: str = "VmRSS") -> int:
    """A resident figure of /proc/PID/status: VmRSS in all, RssFile the part that is the binary's and libraries'
    pages (shared, not a session's)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


class Target:
    """`refreshkit serve` or `lws-echo` on a free loopback port; its stdout collected."""

    def __init__(self, kind: str, bin_dir: Path, web_root: str, log_dir: Path, tls: Path | None = None):
        self.kind = kind
        self.tls = tls  # `refreshkit cert`'s folder: serve wss:// with its certificate, trust its CA
        self.trust = ssl.create_default_context(cafile=str(tls / "ca.pem")) if tls else None
        self.log = log_dir / f"memory-{kind}-{time.monotonic_ns()}.log"
        if kind == "server":
            command = [str(bin_dir / "refreshkit"), "serve", "--host", "127.0.0.1", "--port", "0",
                       "--web-root", web_root, "--log-level", "warning"]
        else:
            command = [str(bin_dir / "lws-echo"), "--host", "127.0.0.1", "--port", "0",
                       "--protocol", SUBPROTOCOL, "--max-seconds", "3600"]
        if tls:
            command += ["--tls-cert", str(tls / "server.pem"), "--tls-key", str(tls / "server-key.pem")]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                                        stderr=self.log.open("wb"), text=True, bufsize=1)
        self.port = 0
        self.lines: asyncio.Queue[str] | None = None

    async def start(self) -> None:
        self.lines = asyncio.Queue()
        loop = asyncio.get_running_loop()
        assert self.process.stdout is not None
        loop.add_reader(self.process.stdout.fileno(), self._read_line)
        while not self.port:
            line = await asyncio.wait_for(self.lines.get(), 20)
            match = re.search(r"listening on https?://[^\s]*:(\d+)", line)
            if match:
                self.port = int(match.group(1))

    def _read_line(self) -> None:
        assert self.process.stdout is not None and self.lines is not None
        line = self.process.stdout.readline()
        if line:
            self.lines.put_nowait(line)
        else:
            asyncio.get_running_loop().remove_reader(self.process.stdout.fileno())

    @property
    def url(self) -> str:
        return f"{'wss' if self.tls else 'ws'}://127.0.0.1:{self.port}/"

    async def heap(self) -> dict[str, int]:
        """glibc's figures: bytes handed out, and bytes free in the arenas."""
        if self.kind == "server":
            def scrape() -> str:
                with urllib.request.urlopen(f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}/metrics",
                                            timeout=10, context=self.trust) as answer:
                    return answer.read().decode()
            text = await asyncio.to_thread(scrape)
            figures = {}
            for name, key in (("refreshkit_heap_in_use_bytes", "in_use"), ("refreshkit_heap_free_bytes", "free")):
                match = re.search(rf"^{name} ([0-9.e+]+)$", text, re.M)
                figures[key] = int(float(match.group(1))) if match else 0
            return figures
        assert self.lines is not None
        self.process.send_signal(signal.SIGUSR1)
        while True:
            line = await asyncio.wait_for(self.lines.get(), 10)
            match = re.search(r"heap in_use=(\d+) free=(\d+)", line)
            if match:
                return {"in_use": int(match.group(1)), "free": int(match.group(2))}

    async def sample(self) -> dict[str, int]:
        try:
            heap = await self.heap()
        except (TimeoutError, OSError):  # an older binary without the heap's figures
            heap = {"in_use": 0, "free": 0}
        return {"rss": rss_bytes(self.process.pid), "rss_file": rss_bytes(self.process.pid, "RssFile"),
                "heap_in_use": heap["in_use"], "heap_free": heap["free"]}

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Session:
    """One client: hello, then a five-message drag; held open afterwards."""

    def __init__(self, ws: ClientConnection, echo: bool):
        self.ws = ws
        self.echo = echo
        self.member = "0"
        self.seq = 0

    async def receive(self) -> dict:
        raw = await asyncio.wait_for(self.ws.recv(), TIMEOUT_S)
        return json.loads(raw)

    async def hello(self) -> None:
        await self.ws.send(json.dumps(
            {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "frames": "delta"}))
        while True:
            message = await self.receive()
            if message.get("type") in ("welcome", "hello"):  # the echo sends the hello back
                self.member = str(message.get("member", 0))
                return

    async def drag(self, moves: int, pad: int = 0) -> None:
        """`touch start` and `moves - 1` moves of 5 px, 16.7 ms apart (page time), the last padded with spaces
        to `pad` bytes; returns once the last is acknowledged (the echo: echoed)."""
        for index in range(moves):
            self.seq += 1
            t = round(self.seq * 16.667, 3)
            message = (f'{{"type":"touch","phase":"start","dx":0,"dy":0,"t":{t},"seq":{self.seq}}}'
                       if self.seq == 1 else
                       f'{{"type":"touch","phase":"move","dx":0,"dy":-5,"t":{t},"seq":{self.seq}}}')
            if pad and index == moves - 1:  # `pad` bytes in all: the server takes at most 16 KiB
                message = message[:-1] + " " * (pad - len(message)) + "}"
            await self.ws.send(message)
        if self.echo:
            for _ in range(moves):
                await self.receive()
            return
        while True:
            message = await self.receive()
            if message.get("type") == "error":
                raise RuntimeError(f"the server refused an input: {message}")
            if (message.get("ack") or {}).get(self.member) == self.seq:
                return

    async def keepalive(self) -> None:
        """A ping, answered: what every quiet session gets every 10 s. Its control frame is the first message
        lws copies into the connection's receive buffer (data frames are read where they arrived), so this is
        when that buffer's pages are first written, and count in RSS under an allocator that does not write
        beside each block it hands out (jemalloc)."""
        pong = await self.ws.ping()
        await asyncio.wait_for(pong, TIMEOUT_S)

    async def trace(self, pad: int = 0) -> int:
        """Asks for the session's trace, the request padded with spaces to `pad` bytes; returns the trace
        message's size in bytes."""
        request = '{"type":"trace"}'
        await self.ws.send(request[:-1] + " " * max(0, pad - len(request)) + "}")
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), TIMEOUT_S)
            if raw.startswith('{"type":"trace"'):
                return len(raw)


async def open_sessions(target: Target, count: int, moves: int) -> list[Session]:
    gate = asyncio.Semaphore(200)
    sessions: list[Session] = []

    async def one() -> None:
        async with gate:
            ws = await connect(target.url, subprotocols=[SUBPROTOCOL], compression=None, open_timeout=TIMEOUT_S,
                               close_timeout=2, ping_interval=None, max_size=64 << 20, ssl=target.trust)
            session = Session(ws, echo=target.kind == "echo")
            await session.hello()
            await session.drag(moves)
            await session.keepalive()
            sessions.append(session)

    await asyncio.gather(*(one() for _ in range(count)))
    return sessions


async def close_sessions(sessions: list[Session]) -> None:
    await asyncio.gather(*(s.ws.close() for s in sessions), return_exceptions=True)


def per_session(after: dict[str, int], before: dict[str, int], count: int) -> dict[str, float]:
    return {key: round((after[key] - before[key]) / count, 1) for key in after}


async def measure(kind: str, args: argparse.Namespace, log_dir: Path, extras: bool, tls: Path | None) -> dict:
    target = Target(kind, Path(args.bin_dir), args.web_root, log_dir, tls)
    result: dict = {"target": kind, "sessions": args.sessions}
    try:
        await target.start()
        # Warmed up: a few sessions do what every session does and leave, so that the code they run is paged in
        # and the runtime's caches are filled before the first sample. Otherwise the first session's page faults
        # in the binary's text (about 3 MB of the server's, file-backed and shared, not a session's) counted as
        # 1.5 KB a session at 2 000 (docs/PERFORMANCE.md, "Memory per connected session").
        await close_sessions(await open_sessions(target, WARM_UP_SESSIONS, args.moves))
        await asyncio.sleep(0.2)  # settled: lws and the runtime finished their start-up allocations
        before = await target.sample()
        sessions = await open_sessions(target, args.sessions, args.moves)
        after = await target.sample()
        result.update(before=before, after=after, per_session=per_session(after, before, args.sessions))
        if extras and args.large > 0:
            chosen = sessions[: args.large]
            for session in chosen:  # one at a time: each message passes through the shared buffers alone
                result["trace_bytes"] = await session.trace(pad=16 << 10)
            large = await target.sample()
            result["large"] = {"sessions": len(chosen), "after": large,
                               "kept_per_large_session": per_session(large, after, len(chosen))}
        if extras and args.soak_seconds > 0:
            samples = [await target.sample()]
            started = time.monotonic()
            while time.monotonic() - started < args.soak_seconds:
                await asyncio.sleep(min(args.soak_interval, args.soak_seconds))
                samples.append(await target.sample())
            first, last = samples[0]["rss"], samples[-1]["rss"]
            result["soak"] = {"seconds": args.soak_seconds, "rss_first": first, "rss_last": last,
                              "rss_max": max(s["rss"] for s in samples),
                              "rss_growth_percent": round((last - first) / first * 100, 2),
                              "heap_in_use_first": samples[0]["heap_in_use"],
                              "heap_in_use_last": samples[-1]["heap_in_use"], "samples": samples}
        await close_sessions(sessions)
    finally:
        target.stop()
    return result


def median_round(rounds: list[dict]) -> dict:
    ordered = sorted(rounds, key=lambda r: r["per_session"]["rss"])
    return ordered[len(ordered) // 2]


async def main_async(args: argparse.Namespace) -> int:
    log_dir = Path(os.environ.get("TMPDIR", "/tmp")) / f"refreshkit-memory-bench-{os.getpid()}"
    log_dir.mkdir(parents=True, exist_ok=True)
    tls = None
    if args.tls:
        tls = log_dir / "tls"
        subprocess.run([str(Path(args.bin_dir) / "refreshkit"), "cert", "--dir", str(tls)], check=True,
                       capture_output=True, timeout=60)
    limit = 1.5 if tls else 2.0
    rounds: dict[str, list[dict]] = {"echo": [], "server": []}
    for index in range(args.rounds):
        for kind in ("echo", "server"):
            last = index == args.rounds - 1
            rounds[kind].append(await measure(kind, args, log_dir, extras=last and kind == "server", tls=tls))
    echo, server = median_round(rounds["echo"]), median_round(rounds["server"])
    extras = rounds["server"][-1]
    ratio = round(server["per_session"]["rss"] / echo["per_session"]["rss"], 2)
    figures = {
        "sessions": args.sessions, "moves": args.moves, "tls": bool(tls), "rss_ratio_limit": limit,
        "server_rss_bytes_per_session": server["per_session"]["rss"],
        "server_heap_bytes_per_session": server["per_session"]["heap_in_use"],
        "echo_rss_bytes_per_session": echo["per_session"]["rss"],
        "echo_heap_bytes_per_session": echo["per_session"]["heap_in_use"],
        "rss_ratio_to_echo": ratio,
        "large": extras.get("large"), "soak": extras.get("soak"),
        "rounds": rounds,
        "git_commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                     text=True).stdout.strip(),
        "load_average": os.getloadavg()[0],
    }
    print(f"memory per connected session{' over TLS (wss)' if tls else ''} ({args.sessions} sessions, hello + "
          f"{args.moves}-message drag; median of {args.rounds} round(s)):")
    print(f"  {'':12} {'RSS B':>10} {'heap B':>10}")
    print(f"  {'lws-echo':12} {echo['per_session']['rss']:>10.0f} {echo['per_session']['heap_in_use']:>10.0f}")
    print(f"  {'refreshkit':12} {server['per_session']['rss']:>10.0f} {server['per_session']['heap_in_use']:>10.0f}"
          f"   ({ratio}× the echo's RSS; target ≤ {limit:g}×)")
    failures = []
    if ratio > limit:
        failures.append(f"RSS per session is {ratio}× the echo's (target ≤ {limit:g}×)")
    if figures["large"]:
        kept = figures["large"]["kept_per_large_session"]
        print(f"  after a 16 KiB message and a trace ({figures['large']['sessions']} sessions): "
              f"heap {kept['heap_in_use']:+.0f} B, RSS {kept['rss']:+.0f} B per such session")
        if kept["heap_in_use"] > 1024:
            failures.append(f"a large message left {kept['heap_in_use']:.0f} B per session in the heap")
    if figures["soak"]:
        soak = figures["soak"]
        print(f"  idle {soak['seconds']:.0f} s: RSS {soak['rss_first']} → {soak['rss_last']} B "
              f"({soak['rss_growth_percent']:+.2f} %), max {soak['rss_max']}")
        if soak["rss_growth_percent"] > 1:
            failures.append(f"idle sessions grew RSS by {soak['rss_growth_percent']} %")
    Path(args.out).write_text(json.dumps(figures, indent=2) + "\n")
    print(f"  written to {args.out}")
    if args.check and failures:
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="bench/memory.json")
    parser.add_argument("--bin-dir", default=str(ROOT / ".build" / "release"))
    parser.add_argument("--web-root", default="web")
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=5, help="messages of each session's drag")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--large", type=int, default=200, help="sessions that send a 16 KiB message")
    parser.add_argument("--soak-seconds", type=float, default=0)
    parser.add_argument("--soak-interval", type=float, default=10)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--tls", action="store_true", help="both targets over TLS (wss), the target 1.5×")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.sessions + 1024)), hard))
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
