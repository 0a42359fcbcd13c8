"""The cluster's figures (docs/SCALING.md, "Figures"): what a dragged input costs each part of a
cluster, and how long the pages of a process killed with SIGKILL take to draw again. Part of `make bench`.

Usage: .venv/bin/python bench/cluster_bench.py [--out bench/cluster.json] [--sessions 100] [--rate 60]
           [--warmup 2] [--duration 6] [--rounds 2] [--drag-before-kill 2] [--skip-cost] [--skip-kill]

1. Cost per input. The same load, `refreshkit-load` (N sessions dragging at R Hz, deltas, as `make bench`'s
   server runs), sent (a) straight to one `refreshkit serve` with no store, (b) straight to one with the Redis
   store, (c) through HAProxy to one, (d) through HAProxy to two. The load generator reads each process's CPU
   time (its CPU-time clock) when its measured window opens and when it closes (`--watch-pid`); each
   part's CPU time ÷ the inputs sent in the window is its cost per input. Sessions per core =
   1 s ÷ (R × the servers' µs per input). Each configuration runs --rounds times, interleaved; the median is
   reported with the spread.
2. SIGKILL to drawing again. N sessions through HAProxy on two processes sharing Redis, each dragging at R Hz
   with numbered touches (`seq`), as the page does. Once every session has dragged for --drag-before-kill
   seconds (its inputs acknowledged) and every session is in the store, the process holding about half of
   them is killed with SIGKILL. Each affected client does what the page does (web/js/connection.js,
   web/js/inputs.js): after the backoff of web/js/clock.js it reconnects at `/?s=ID&n=NODE` with `hello`
   naming the session and the member's token (following `session_elsewhere`); its inputs go on being
   numbered and kept meanwhile; at the welcome it sends again the kept ones above `welcome.ack`. The figures:
   the time from the kill to its welcome, to the first frame after it, and to every input sent again being
   acknowledged; the acknowledged inputs the store did not have; the inputs lost after the resend.

Starts and stops everything it needs with the cluster tests' helpers (e2e/cluster/cluster_support.py,
scripts/cluster_config.py); needs `redis-server` and `haproxy` (scripts/ensure-deps.sh cluster) and a release
build (`swift build -c release`). Prints a table; writes the figures, the commit and the load average as JSON.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "e2e" / "cluster"))
import pytest  # noqa: E402  (the helpers report a failure with pytest.fail)
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402

import chaos  # noqa: E402  (bench/: the page's resend bound, read from web/js/inputs.js)
import cluster_support  # noqa: E402  (after the path it lives on)

RunningServer, RunningRedis, Cluster = (cluster_support.RunningServer, cluster_support.RunningRedis,
                                        cluster_support.Cluster)
SUBPROTOCOL = cluster_support.server_support.SUBPROTOCOL
HELLO = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "frames": "delta"}
# The servers log at `warning` in every configuration, as refreshkit-bench's server runs do.
SERVER_ARGS = ("--log-level", "warning")
# web/js/inputs.js: what a page keeps to send again after a resume
MAX_KEPT = chaos.MAX_KEPT
ACK = re.compile(r'"ack":\{([^}]*)\}')
# HAProxy's log line of a reconnection (the page named its node, `&n=`: scripts/cluster_config.py logs `named=1`): the
# retries field before the queues
RECONNECTION_LOGGED = re.compile(r' \d+/\d+/\d+/\d+/(\+?\d+) \d+/\d+ .*"GET / HTTP/1\.1" node=\S* named=1')
SCALING_NOTE = ("This machine has {cores} cores, shared by the servers, Redis, HAProxy and the load generator: "
                "2 processes cannot show scaling by throughput here (there is no idle core to give the second "
                "process). What scales is the CPU cost per input: when it stays flat from 1 to 2 processes, N "
                "processes on N cores of their own hold N times the sessions per core.")


def say(text: str) -> None:
    print(f"[cluster-bench] {text}", file=sys.stderr, flush=True)


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else ""


# MARK: - 1. Cost per input

def configurations() -> dict[str, str]:
    return {
        "direct": "1 process, no store, direct",
        "direct_store": "1 process, store, direct",
        "balancer_1": "1 process, store, through HAProxy",
        "balancer_2": "2 processes, store, through HAProxy",
    }


def start(configuration: str, tmp: Path):
    """The processes of one configuration: (the load's URL, {part: [pids]}, a function that stops them)."""
    if configuration == "direct":
        server = RunningServer(*SERVER_ARGS)
        return server.ws_url, {"servers": [server.proc.pid]}, server.kill
    if configuration == "direct_store":
        redis = RunningRedis()
        try:
            server = RunningServer("--node", "n1", *redis.store_args, *SERVER_ARGS)
        except BaseException:
            redis.kill()
            raise

        def stop() -> None:
            server.kill()
            redis.kill()
        return server.ws_url, {"servers": [server.proc.pid], "redis": [redis.proc.pid]}, stop
    processes = 1 if configuration == "balancer_1" else 2
    cluster = Cluster(processes, tmp, *SERVER_ARGS)
    parts = {"servers": [s.proc.pid for s in cluster.servers.values()], "redis": [cluster.redis.proc.pid],
             "haproxy": [cluster.balancer.proc.pid]}
    return cluster.balancer.ws_url, parts, cluster.stop


def load_run(configuration: str, args, tmp: Path) -> dict:
    """One refreshkit-load run against a fresh configuration: µs per input of each part."""
    url, parts, stop = start(configuration, tmp)
    try:
        pids = [pid for group in parts.values() for pid in group]
        command = [str(Path(args.bin_dir) / "refreshkit-load"), "--url", url, "--sessions", str(args.sessions),
                   "--rate", str(args.rate), "--warmup", str(args.warmup), "--duration", str(args.duration),
                   "--frames", "delta"] + [f"--watch-pid={pid}" for pid in pids]
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=args.warmup + args.duration + 90)
        try:
            report = json.loads(done.stdout.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError) as error:
            raise RuntimeError(
                f"refreshkit-load printed no report (exit {done.returncode}): {done.stderr[-500:]}") from error
    finally:
        stop()
    inputs = report["inputs_sent"]
    if report.get("failure") or inputs == 0 or report["ready_sessions"] < args.sessions:
        raise RuntimeError(f"the load failed: {report.get('failure')} ({report['ready_sessions']} sessions ready,"
                           f" {inputs} inputs sent)")
    cpu = {entry["pid"]: entry["cpu_seconds"] for entry in report["watched"]}
    kernel = {entry["pid"]: entry.get("sys_cpu_seconds") for entry in report["watched"]}
    if any(cpu.get(pid) is None for pid in pids):
        raise RuntimeError("a process of the configuration exited during the run")

    def per_input(seconds: dict, group: list[int]) -> float:
        return round(1e6 * sum(seconds[pid] for pid in group) / inputs, 2)
    run = {"inputs_sent": inputs, "window_s": report["window_s"], "inputs_per_sec": report["inputs_per_sec"],
           "latency_p50_ms": report["latency_p50_ms"], "latency_p99_ms": report["latency_p99_ms"],
           "inputs_unanswered": report["inputs_unanswered"],
           "load_generator_cpu_percent": report["client_cpu_percent"],
           "us_per_input": {part: per_input(cpu, group) for part, group in parts.items()},
           "kernel_us_per_input": {part: per_input(kernel, group) for part, group in parts.items()}}
    if len(parts["servers"]) > 1:
        run["us_per_input_each_server"] = [per_input(cpu, [pid]) for pid in parts["servers"]]
    return run


def cost(args, tmp: Path) -> dict:
    runs: dict[str, list[dict]] = {name: [] for name in configurations()}
    for round_index in range(1, args.rounds + 1):
        for name, label in configurations().items():
            of = f" (round {round_index} of {args.rounds})" if args.rounds > 1 else ""
            say(f"cost: {label}, {args.sessions} sessions × {args.rate:g} Hz, "
                f"{args.warmup:g} s warm-up + {args.duration:g} s{of}…")
            runs[name].append(load_run(name, args, tmp))
    figures = {}
    for name, label in configurations().items():
        figures[name] = summarize(label, runs[name], args.rate)
    figures["balancer_us_per_input"] = {
        name: figures[name]["us_per_input"]["haproxy"] for name in ("balancer_1", "balancer_2")}
    return figures


def summarize(label: str, runs: list[dict], rate: float) -> dict:
    def median(values):
        return round(statistics.median(values), 1)

    parts = [p for p in ("servers", "redis", "haproxy") if p in runs[0]["us_per_input"]]
    us = {p: median([r["us_per_input"][p] for r in runs]) for p in parts}
    kernel = {p: median([r["kernel_us_per_input"][p] for r in runs]) for p in parts}
    spread = {p: [round(min(r["us_per_input"][p] for r in runs), 1), round(max(r["us_per_input"][p] for r in runs), 1)]
              for p in parts}
    total = median([sum(r["us_per_input"][p] for p in parts) for r in runs])
    out = {
        "label": label,
        "us_per_input": us,
        "us_per_input_range": spread,
        "us_per_input_all_parts": total,
        "kernel_us_per_input": kernel,  # the part of us_per_input spent in the kernel (syscalls, loopback TCP)
        # 1 s of one core ÷ (inputs per second per session × CPU per input)
        "sessions_per_core_servers": round(1e6 / (rate * us["servers"])),
        "sessions_per_core_all_parts": round(1e6 / (rate * total)),
        "latency_p50_ms": median([r["latency_p50_ms"] for r in runs]),
        "latency_p99_ms": median([r["latency_p99_ms"] for r in runs]),
        "runs": runs,
    }
    return out


# MARK: - 2. SIGKILL to drawing again

def backoff_ms(attempt: int) -> float:
    """The page's reconnect delay (web/js/clock.js backoffDelay): from 250 ms doubling to 5 s, equal jitter."""
    ceiling = min(5000, 250 * 2 ** max(0, attempt))
    return ceiling / 2 + random.random() * ceiling / 2


def ws_connect(url: str):
    return connect(url, subprotocols=[SUBPROTOCOL], compression=None, open_timeout=5, close_timeout=1,
                   ping_interval=None, max_size=1 << 20)


class Page:
    """One simulated page: its session and member, the inputs it numbered, what the server acknowledged, and
    the times of its reconnection after the kill."""

    def __init__(self, index: int):
        self.index = index
        self.ws = None
        self.welcome: dict = {}
        self.seq = 0  # the page's count of its inputs (`seq`), continued across reconnects
        self.acked = 0  # the last `ack` for this member
        self.pressed = False  # a touch start was sent on this connection
        self.moves = 0
        self.affected = False
        self.acked_at_kill = 0
        self.sent_at_kill = 0
        self.closed_at = self.reopened_at = self.welcome_at = self.frame_at = None
        self.attempts = 0
        self.again: dict = {}
        self.failure: str | None = None
        self.reconnecting = False  # between the close and the welcome: inputs are numbered and kept, not sent
        self.kept: collections.deque = collections.deque(maxlen=MAX_KEPT)  # (seq, text, at) of the last inputs
        self.resent: list[int] = []  # the seqs sent again after the welcome
        self.numbered_at_welcome = 0
        self.caught_up_at = None  # the first frame acknowledging the last input sent again

    def keep(self, seq: int, text: str, at: float) -> None:
        """web/js/inputs.js ResendLog.record: the last MAX_KEPT inputs, however old."""
        self.kept.append((seq, text, at))

    def to_resend(self, welcome: dict, at: float) -> list[tuple[int, str]]:
        """web/js/inputs.js ResendLog.onWelcome: after a resume, the kept inputs numbered above `welcome.ack`."""
        ack = welcome.get("ack")
        if welcome.get("resumed") is not True or not isinstance(ack, int) or ack < 0:
            self.kept.clear()
            return []
        return [(seq, text) for seq, text, _ in self.kept if seq > ack]

    def note(self, raw: str) -> None:
        """Reads this member's `ack` from a frame or delta (docs/PROTOCOL.md: `"ack":{"<member>":seq,…}`, patched
        member by member in a delta). A pattern, not json.loads: the client reads 6 000 messages a second on a
        busy machine, and its own delay would be counted in the figures."""
        found = ACK.search(raw)
        if found:
            entry = re.search(f'"{self.welcome.get("member")}":(\\d+)', found.group(1))
            if entry:
                self.acked = max(self.acked, int(entry.group(1)))
                if self.resent and self.caught_up_at is None and self.acked >= self.resent[-1]:
                    self.caught_up_at = time.monotonic()


class Elsewhere(Exception):
    """`session_elsewhere`: another process holds the session; connect again naming it (docs/SCALING.md)."""

    def __init__(self, node: str):
        super().__init__(node)
        self.node = node


async def hello(ws, on_welcome=None, **extra) -> tuple[dict, float, float]:
    """Sends hello; returns the welcome, and the monotonic times of the welcome and of the first frame.
    `on_welcome(welcome)`, awaited as soon as the welcome arrives, sends what the page sends then."""
    await ws.send(json.dumps({**HELLO, **extra}))
    welcome = None
    welcome_at = None
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if message["type"] == "welcome":
            welcome, welcome_at = message, time.monotonic()
            if on_welcome:
                await on_welcome(welcome)
        elif message["type"] == "error" and welcome is None:
            if message.get("code") == "session_elsewhere" and isinstance(message.get("node"), str):
                raise Elsewhere(message["node"])
            raise RuntimeError(f"hello refused: {message}")
        elif message["type"] == "frame" and welcome is not None:
            return welcome, welcome_at, time.monotonic()


async def sigkill(args, tmp: Path) -> dict:
    say(f"sigkill: {args.sessions} sessions through HAProxy on 2 processes with Redis, dragging at "
        f"{args.rate:g} Hz…")
    cluster = await asyncio.to_thread(Cluster, 2, tmp, *SERVER_ARGS)
    try:
        figures = await sigkill_on(cluster, args)
        figures["haproxy_retried_reconnections"] = await retried_reconnections(cluster, figures["back_sessions"])
        return figures
    finally:
        cluster.stop()


async def retried_reconnections(cluster, reconnections: int) -> int | None:
    """How many reconnections HAProxy retried (on a backup, after its pause before a retry): from its log's
    `actconn/feconn/beconn/srv_conn/retries` (`+N` when redispatched), written when each connection closes.
    None if the log did not show every reconnection within 5 s of closing them."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        lines = [m for m in map(RECONNECTION_LOGGED.search, list(cluster.balancer.stdout)) if m]
        if len(lines) >= reconnections:
            return sum(m.group(1) != "0" for m in lines)
        await asyncio.sleep(0.05)
    return None


async def sigkill_on(cluster, args) -> dict:
    pages = [Page(i) for i in range(args.sessions)]
    for page in pages:  # one after another, as pages arriving: leastconn spreads them over both processes
        page.ws = await ws_connect(cluster.url())
        page.welcome, _, _ = await hello(page.ws)
    victim = max(cluster.servers, key=lambda node: sum(p.welcome["node"] == node for p in pages))
    for page in pages:
        page.affected = page.welcome["node"] == victim
    affected = [p for p in pages if p.affected]
    killed = asyncio.Event()
    all_back = asyncio.Event()
    stop = asyncio.Event()
    kill_at = 0.0

    async def reconnect(page: Page) -> None:
        """What web/js/connection.js does after a close: back off, reopen with s and n, hello with the token;
        and web/js/inputs.js: at the welcome, send again the kept inputs the session does not have."""
        page.closed_at = time.monotonic()
        page.reconnecting = True
        session, node = page.welcome["session"], page.welcome["node"]
        attempt = 0

        async def resend(welcome: dict) -> None:
            page.reconnecting = False
            page.numbered_at_welcome = page.seq
            again = page.to_resend(welcome, time.monotonic())
            page.resent = [seq for seq, _ in again]
            for _, text in again:
                await ws.send(text)
            page.ws = ws  # the finger is still down: its moves go on (the first one sent again began a drag)

        while time.monotonic() - kill_at < 20:
            await asyncio.sleep(backoff_ms(attempt) / 1000)
            attempt += 1
            page.attempts = attempt
            page.reopened_at = time.monotonic()
            try:
                ws = await ws_connect(cluster.url(session, node))
                again, welcome_at, frame_at = await hello(ws, resend, session=session, token=page.welcome["token"])
            except Elsewhere as elsewhere:
                node = elsewhere.node
                continue
            except (OSError, InvalidHandshake, ConnectionClosed, asyncio.TimeoutError):
                page.ws, page.reconnecting = None, True
                continue
            except RuntimeError as error:
                page.failure = str(error)
                break
            page.again, page.welcome_at, page.frame_at = again, welcome_at, frame_at
            if again.get("session") != session or not again.get("resumed") or "notice" in again:
                page.failure = f"not resumed: {json.dumps(again)[:200]}"
            page.welcome = again
            break
        else:
            page.failure = "did not reconnect within 20 s"
        check_all_back()

    def check_all_back() -> None:
        if all(p.failure or (p.frame_at is not None and (not p.resent or p.caught_up_at is not None))
               for p in affected):
            all_back.set()

    async def read(page: Page) -> None:
        while not stop.is_set():
            ws = page.ws
            try:
                async for raw in ws:
                    page.note(raw)
                    if page.caught_up_at is not None and killed.is_set() and not all_back.is_set():
                        check_all_back()
            except ConnectionClosed:
                pass
            if stop.is_set():
                return
            if not killed.is_set() or not page.affected or page.closed_at is not None:
                page.failure = page.failure or "connection closed unexpectedly"
                return
            page.ws = None
            await reconnect(page)
            if page.failure:
                return

    async def drag() -> None:
        """Every page moves its finger at the rate, each move numbered, as the page's touches are."""
        period = 1 / args.rate
        next_tick = time.monotonic()
        while not stop.is_set():
            next_tick += period
            for page in pages:
                ws = page.ws
                if ws is None and not page.reconnecting:
                    continue
                page.seq += 1
                t = round(time.monotonic() * 1000, 3)
                if not page.pressed:
                    phase, dy = "start", 0
                    page.pressed, page.moves = True, 0
                else:
                    page.moves += 1
                    dy = -5 if (page.moves // 30) % 2 == 0 else 5  # back and forth inside the first page
                    phase = "move"
                # the page's spelling (docs/PROTOCOL.md, "acknowledgement"), written out: no json.dumps per move
                message = f'{{"type":"touch","phase":"{phase}","dx":0,"dy":{dy},"t":{t},"id":1,"seq":{page.seq}}}'
                page.keep(page.seq, message, t / 1000)
                if ws is None:  # reconnecting: numbered and kept, sent after the welcome
                    continue
                try:
                    await ws.send(message)
                except ConnectionClosed:
                    pass
            await asyncio.sleep(max(0.0, next_tick - time.monotonic()))

    lags: list[tuple[float, float]] = []

    async def watch_loop() -> None:
        """How late this client's own loop wakes up: its delays are in every time it takes."""
        while not stop.is_set():
            before = time.monotonic()
            await asyncio.sleep(0.005)
            lags.append((before, 1000 * (time.monotonic() - before - 0.005)))

    tasks = [asyncio.create_task(read(p)) for p in pages] + [asyncio.create_task(f()) for f in (drag, watch_loop)]
    try:
        # The state to kill in: every session has dragged (its inputs acknowledged) for --drag-before-kill
        # seconds, and every session is in the store (its first write, whole, has happened).
        ops_keys = [f"rk:session:{p.welcome['session']}:ops" for p in pages]
        deadline = time.monotonic() + 30 + args.drag_before_kill
        while not (all(p.acked >= args.rate * args.drag_before_kill for p in pages)
                   and int(cluster.redis.cli("EXISTS", *ops_keys).strip() or 0) == len(pages)):
            if time.monotonic() > deadline or any(p.failure for p in pages):
                raise RuntimeError("the sessions did not all drag and reach the store in time: "
                                   + next((p.failure for p in pages if p.failure), "no failure named"))
            await asyncio.sleep(0.05)
        cpu_before = resource.getrusage(resource.RUSAGE_SELF)
        for page in affected:
            page.acked_at_kill, page.sent_at_kill = page.acked, page.seq
        kill_at = time.monotonic()
        cluster.servers[victim].proc.send_signal(signal.SIGKILL)
        killed.set()
        try:
            await asyncio.wait_for(all_back.wait(), 25)
        except asyncio.TimeoutError:
            pass
        cpu_after = resource.getrusage(resource.RUSAGE_SELF)
        elapsed = time.monotonic() - kill_at
    finally:
        stop.set()
        for page in pages:
            if page.ws is not None:
                await page.ws.close()
        await asyncio.gather(*tasks, return_exceptions=True)

    back = [p for p in affected if p.frame_at is not None and not p.failure]
    failures = [f"session {p.index}: {p.failure or 'not back'}" for p in affected if p not in back]
    failures += [f"session {p.index} (not affected): {p.failure}" for p in pages if not p.affected and p.failure]

    def ms(values):
        values = sorted(values)
        return {"p50": round(statistics.median(values), 1), "max": round(values[-1], 1)} if values else None

    missing = [max(0, p.acked_at_kill - p.again.get("ack", 0)) for p in back]
    # inputs the page numbered before its welcome that the new holder neither had nor got again
    lost = [len(set(range(p.again.get("ack", 0) + 1, p.numbered_at_welcome + 1)) - set(p.resent)) for p in back]
    takeovers = [p.again.get("takeover") or {} for p in back]
    client_cpu = (cpu_after.ru_utime + cpu_after.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime)
    return {
        "sessions": len(pages),
        "dragged_before_kill_s": args.drag_before_kill,
        "killed_node": victim,
        "affected_sessions": len(affected),
        "back_sessions": len(back),
        "resumed_on": sorted({p.welcome.get("node") for p in back}),
        "failures": failures[:10],
        "kill_to_closed_ms": ms([1000 * (p.closed_at - kill_at) for p in back]),
        "kill_to_welcome_ms": ms([1000 * (p.welcome_at - kill_at) for p in back]),
        "kill_to_first_frame_ms": ms([1000 * (p.frame_at - kill_at) for p in back]),
        "kill_to_first_frame_ms_each": sorted(round(1000 * (p.frame_at - kill_at), 1) for p in back),
        "reconnect_to_first_frame_ms": ms([1000 * (p.frame_at - p.reopened_at) for p in back]),
        "backoff_ms": ms([1000 * (p.reopened_at - p.closed_at) for p in back]),
        "reconnect_attempts": ms([p.attempts for p in back]),
        "takeover_catch_up_ms": ms([t["catchUpMs"] for t in takeovers if "catchUpMs" in t]),
        "takeover_ops": ms([t["ops"] for t in takeovers if "ops" in t]),
        "acknowledged_inputs_not_in_store": ms(missing),
        "acknowledged_ms_not_in_store": ms([1000 * n / args.rate for n in missing]),
        "inputs_resent": ms([len(p.resent) for p in back]),
        "inputs_lost_after_resend": ms(lost),
        "kill_to_resent_acknowledged_ms": ms([1000 * (p.caught_up_at - kill_at) for p in back
                                              if p.caught_up_at is not None]),
        "resent_acknowledged_sessions": sum(p.caught_up_at is not None for p in back if p.resent),
        "client_cpu_percent": round(100 * client_cpu / elapsed, 1) if elapsed > 0 else None,
        "client_loop_lag_ms": ms([lag for at, lag in lags if kill_at <= at <= kill_at + elapsed]),
        "reconnect": "as the page: backoff 125–250 ms (then 250–500 ms…), ws://…/?s=ID&n=NODE, hello with session "
                     "and token",
    }


# MARK: - Output

def table(results: dict) -> str:
    lines = [f"Cluster figures at {results['git_commit']} (load average {results['load_average_at_start']} at "
             f"the start, {results['load_average_at_end']} at the end)"]
    c = results.get("cost")
    if c:
        w = results["workload"]
        lines += ["", f"CPU µs per input, {w['sessions']} sessions dragging at {w['rate_hz']:g} Hz "
                      f"({w['duration_s']:g} s measured × {w['rounds']} rounds, median [min–max]):",
                  f"{'configuration':38} {'servers':>17} {'Redis':>14} {'HAProxy':>16} {'sessions/core':>13}"
                  f" {'latency p50/p99':>16}"]
        for name in configurations():
            f = c[name]

            def cell(part: str, width: int, f: dict = f) -> str:
                if part not in f["us_per_input"]:
                    return "—".rjust(width)
                lo, hi = f["us_per_input_range"][part]
                return f"{f['us_per_input'][part]:.1f} [{lo:.1f}–{hi:.1f}]".rjust(width)
            latency = f"{f['latency_p50_ms']:.1f} / {f['latency_p99_ms']:.1f} ms"
            lines.append(f"{f['label']:38} {cell('servers', 17)} {cell('redis', 14)} {cell('haproxy', 16)} "
                         f"{f['sessions_per_core_servers']:>13} {latency:>16}")
        lines.append("sessions/core: 1 s ÷ (rate × the servers' µs per input); with every part counted: "
                     + ", ".join(f"{c[n]['sessions_per_core_all_parts']}" for n in configurations()))
        lines.append(f"HAProxy's own cost per input: {c['balancer_us_per_input']['balancer_1']:.1f} µs (1 process),"
                     f" {c['balancer_us_per_input']['balancer_2']:.1f} µs (2 processes)")
        lines.append(results["scaling_note"])
    k = results.get("sigkill")
    if k:
        def pm(key, unit=" ms"):
            v = k.get(key)
            return f"p50 {v['p50']:g}{unit}, max {v['max']:g}{unit}" if v else "—"
        lines += ["", f"SIGKILL of {k['killed_node']} holding {k['affected_sessions']} of {k['sessions']} dragging "
                      f"sessions: {k['back_sessions']} drawing again on {', '.join(k['resumed_on']) or '—'}",
                  f"  kill → connection closed       {pm('kill_to_closed_ms')}",
                  f"  page's backoff before reopening {pm('backoff_ms')}",
                  f"  kill → welcome                 {pm('kill_to_welcome_ms')}",
                  f"  kill → first frame             {pm('kill_to_first_frame_ms')}",
                  f"  reopen → first frame           {pm('reconnect_to_first_frame_ms')} "
                  f"(HAProxy retried {k.get('haproxy_retried_reconnections', '?')} of them)",
                  f"  take-over catch-up             {pm('takeover_catch_up_ms')} ({pm('takeover_ops', ' ops')})",
                  f"  acknowledged, not in the store {pm('acknowledged_inputs_not_in_store', '')} "
                  f"({pm('acknowledged_ms_not_in_store')} of input)",
                  f"  sent again after the welcome   {pm('inputs_resent', '')}; lost after that "
                  f"{pm('inputs_lost_after_resend', '')}",
                  f"  kill → all sent again acked    {pm('kill_to_resent_acknowledged_ms')}",
                  f"  the clients' own loop lag      {pm('client_loop_lag_ms')} "
                  f"(their CPU {k['client_cpu_percent']}% of a core)"]
        for failure in k["failures"]:
            lines.append(f"  FAILED: {failure}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench/cluster.json", help="where the JSON figures go")
    parser.add_argument("--bin-dir", default=str(ROOT / ".build" / "release"),
                        help="where refreshkit and refreshkit-load are")
    parser.add_argument("--sessions", type=int, default=100, help="sessions (connections) in both parts")
    parser.add_argument("--rate", type=float, default=60.0, help="inputs per second per session")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of input before each measured window")
    parser.add_argument("--duration", type=float, default=6.0, help="seconds measured per load run")
    parser.add_argument("--rounds", type=int, default=2, help="load runs per configuration (the median is given)")
    parser.add_argument("--drag-before-kill", type=float, default=2.0,
                        help="seconds every session has dragged (acknowledged) before the SIGKILL")
    parser.add_argument("--skip-cost", action="store_true", help="skip the cost per input")
    parser.add_argument("--skip-kill", action="store_true", help="skip SIGKILL to drawing again")
    args = parser.parse_args()
    if (args.sessions < 2 or args.rate <= 0 or args.duration <= 0 or args.warmup < 0 or args.rounds < 1
            or not 0 < args.drag_before_kill <= 60):
        parser.error("--sessions ≥ 2, --rate > 0, --duration > 0, --warmup ≥ 0, --rounds ≥ 1, "
                     "--drag-before-kill 0…60 s")
    os.environ["REFRESHKIT_BIN"] = str((Path(args.bin_dir) / "refreshkit").resolve())  # the helpers' server
    for tool in ("refreshkit", "refreshkit-load"):
        if not (Path(args.bin_dir) / tool).exists():
            print(f"error: {Path(args.bin_dir) / tool} not found: run `swift build -c release`", file=sys.stderr)
            return 2

    started = time.monotonic()
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    results = {
        "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "git_commit": commit + (" (with uncommitted changes)" if dirty else ""),
        "cores": os.cpu_count(),
        "load_average_at_start": load_average(),
        "workload": {"sessions": args.sessions, "rate_hz": args.rate, "warmup_s": args.warmup,
                     "duration_s": args.duration, "rounds": args.rounds, "frames": "delta",
                     "server_arguments": list(SERVER_ARGS), "build": "swift build -c release"},
        "topology": "servers, Redis, HAProxy and the load generator share the machine's cores over loopback",
        "scaling_note": SCALING_NOTE.format(cores=os.cpu_count()),
        "notes": [],
    }
    failed = False
    with tempfile.TemporaryDirectory(prefix="refreshkit-cluster-bench-") as tmp:
        if not args.skip_cost:
            try:
                results["cost"] = cost(args, Path(tmp))
            except (RuntimeError, subprocess.TimeoutExpired, pytest.fail.Exception) as error:
                say(f"cost failed: {error}")
                results["notes"].append(f"cost failed: {error}")
                failed = True
        if not args.skip_kill:
            try:
                results["sigkill"] = asyncio.run(asyncio.wait_for(sigkill(args, Path(tmp)), 120))
                failed = failed or bool(results["sigkill"]["failures"])
            except (RuntimeError, asyncio.TimeoutError, pytest.fail.Exception) as error:
                say(f"sigkill failed: {error}")
                results["notes"].append(f"sigkill failed: {error}")
                failed = True
    results["load_average_at_end"] = load_average()
    results["elapsed_s"] = round(time.monotonic() - started, 1)
    out = ROOT / args.out if not Path(args.out).is_absolute() else Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    print(table(results))
    print(f"wrote {args.out} in {results['elapsed_s']:g} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
