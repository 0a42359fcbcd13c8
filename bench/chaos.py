#!/usr/bin/env python3
"""The chaos run (docs/SCALING.md, "The chaos run"): `make cluster`'s own supervisord configuration
(scripts/cluster_supervisor.py: Redis, the servers, HAProxy, each started again when it exits), 50 sessions with
two devices each dragging through the balancer as the page does, and for the whole run, at random: a server
killed (SIGKILL), a server frozen and thawed (SIGSTOP, SIGCONT), a live server's health check made to fail
(HAProxy's runtime API points its check at a closed port: the balancer finds it down while it serves on), and
Redis frozen for a few seconds. Then it prints what the pages saw:

- sessions lost: a device that came back to a new session (`session_expired`) or never came back;
- inputs lost: numbered inputs the session never applied (a welcome's `ack` below the oldest input the device
  still kept to send again, or an input never acknowledged by the end);
- inputs refused as applied: inputs a device sent again that the session had applied already (`already_applied`:
  applied once, not twice);
- epochs refused: sessions a process let go because the store refused its epoch (the servers' logs);
- sessions split at the end: the two devices of a session not both on the process the store names as its
  holder, once everything is back up;
- moments two processes served one session: a frame from a process reaching one device after another
  process's frame of the same session reached a device, on a connection welcomed before that (two holders at
  once), with the longest such overlap and the median.

    .venv/bin/python bench/chaos.py [--seconds 300] [--sessions 50] [--processes 3] [--seed N] [--json OUT]

Exits 1 unless sessions lost, sessions split, inputs lost and moments of two holders are all 0. Needs supervisord,
redis-server and haproxy (scripts/ensure-deps.sh cluster) and a release build.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import cluster_supervisor  # noqa: E402
from cluster_supervisor import accepts, free_base_port  # noqa: E402

SUBPROTOCOL = "refreshkit.v1"
# The page keeps its last this many inputs to send again: read from the page's own module (web/js/inputs.js).
MAX_KEPT = int(re.search(r"export const MAX_KEPT = (\d+);", (ROOT / "web/js/inputs.js").read_text()).group(1))
INPUT_PERIOD_S = 0.1  # one input per session every 100 ms (one device drags at a time)


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")


class Supervised:
    """`make cluster`'s configuration (scripts/cluster_supervisor.py) run by supervisord in a directory of its own,
    Redis's password with it (`run/store.password`)."""

    def __init__(self, binary: Path, processes: int, run: Path, log_level: str = "notice"):
        self.port = free_base_port(processes)
        self.run = run
        self.layout = cluster_supervisor.Layout(bin=binary, processes=processes, port=self.port, run=run,
                                                bind="127.0.0.1")
        self.conf = cluster_supervisor.write(self.layout, ["--web-root", "web", "--log-level", log_level])
        self.nodes = dict(self.layout.nodes())
        self.proc = subprocess.Popen(["supervisord", "-c", str(self.conf)], cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for(lambda: all(accepts(p) for p in [self.port, self.layout.redis(), *self.nodes.values()]), 30,
                 "Redis, the servers and HAProxy to listen")
        wait_for(lambda: (run / "haproxy.sock").exists(), 10, "HAProxy's runtime API")
        # Listening is not enough: on a busy machine a server may start after HAProxy's first checks, and the
        # balancer finds it up again only after two good ones (a backup it would send pages to meanwhile is down).
        wait_for(lambda: all(self.server_state(n) == "UP" for n in self.nodes), 30, "HAProxy to find every server up")

    def ctl(self, *args: str) -> str:
        return subprocess.run(["supervisorctl", "-c", str(self.conf), *args], capture_output=True, text=True,
                              timeout=10).stdout.strip()

    def pid(self, program: str) -> int:
        text = self.ctl("pid", program)
        return int(text) if text.isdigit() else 0

    def haproxy(self, command: str) -> str:
        return cluster_supervisor.haproxy(self.run / "haproxy.sock", command)

    def check_fails(self, node: str, failing: bool) -> None:
        """Points `node`'s health check at a closed port (`failing`), or back at the node: the balancer then finds
        the live node down (two failed checks), or up again (two good ones)."""
        port = self.layout.redis() + 1 if failing else self.nodes[node]  # nothing listens at Redis's port + 1
        self.haproxy(f"set server node_{node}/{node} check-port {port}")

    def server_state(self, node: str) -> str:
        """HAProxy's view of `node`: `UP`, `DOWN`, … (from `show stat`)."""
        return cluster_supervisor.server_state(self.run / "haproxy.sock", node)

    def holder(self, session: str) -> str:
        """The node the store names as `session`'s holder."""
        return cluster_supervisor.redis_cli(self.run, self.layout.redis(), "HGET", f"rk:session:{session}",
                                            "node").strip()

    def url(self, session: str | None = None, node: str | None = None) -> str:
        query = [f"{k}={v}" for k, v in (("s", session), ("n", node)) if v]
        return f"ws://127.0.0.1:{self.port}/" + ("?" + "&".join(query) if query else "")

    def logs(self) -> str:
        return "".join((self.run / f"{name}.log").read_text(errors="replace") for name in self.nodes
                       if (self.run / f"{name}.log").exists())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


@dataclass
class Served:
    """One frame's arrival: when, on which device, from which process, over which connection."""
    t: float
    device: int
    node: str
    connection: int
    welcomed: float


@dataclass
class Device:
    """One device of a session, reconnecting as the page does (web/js/connection.js, web/js/inputs.js)."""
    index: int
    session: str | None = None
    token: str | None = None
    key: str | None = None  # the owner's drive link's key, until this device has a token (docs/PROTOCOL.md, "Roles")
    drive_key: str | None = None  # the owner's: its welcome's drive link
    member: int | None = None
    node: str | None = None
    seq: int = 0
    kept: list[tuple[int, float, dict]] = field(default_factory=list)  # (seq, sent at, message)
    acked: int = 0
    ws: object = None
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    lost_session: bool = False
    lost_inputs: int = 0
    welcomes: int = 0
    moved: int = 0  # session_elsewhere after a welcome (the process let the session go)
    refused_again: int = 0  # `already_applied`: an input sent again that the session had applied (not twice)
    offline_since: float | None = None  # when its last welcomed connection ended


# The faults a run makes: a server SIGKILLed, a server SIGSTOPped for a while, a live server's health check made to
# fail, Redis stopped. A run draws them at random from FAULT_DRAW (kills and failed checks twice as often), or takes
# a list of them in turn.
FAULTS = ("kill", "stop", "check", "redis")
FAULT_DRAW = ("kill", "kill", "stop", "check", "check", "redis")


class Run:
    def __init__(self, cluster: Supervised, sessions: int, seed: int):
        self.cluster = cluster
        self.random = random.Random(seed)
        self.sessions: list[tuple[Device, Device]] = []
        self.served: dict[str, list[Served]] = {}
        self.connections = 0
        self.stopping = False
        self.count = sessions
        self.events: list[tuple[float, str]] = []
        self.lossy_outages: list[float] = []  # how long a device was offline before a welcome that lost inputs
        self.start = time.monotonic()

    # --- devices ---

    async def connect(self, device: Device, pair: tuple[Device, Device]) -> None:
        """Keeps `device` connected until the run stops: hello, welcome, frames; again after any loss."""
        backoff = 0.125
        while not self.stopping and not device.lost_session:
            try:
                async with websockets.connect(self.cluster.url(device.session, device.node),
                                              subprotocols=[SUBPROTOCOL], compression=None, open_timeout=3,
                                              close_timeout=1, ping_interval=None, max_size=1 << 22) as ws:
                    hello = {"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, "preset": "ios"}
                    if device.session:
                        hello["session"] = device.session
                    if device.token:
                        hello["token"] = device.token
                    elif device.key:
                        hello["key"] = device.key
                    await ws.send(json.dumps(hello))
                    await self.serve(device, pair, ws)
                    backoff = 0.125
            except (OSError, asyncio.TimeoutError, websockets.InvalidStatus, websockets.ConnectionClosed,
                    websockets.InvalidHandshake):
                pass
            device.ws = None
            if device.connected.is_set():
                device.offline_since = time.monotonic()
            device.connected.clear()
            if self.stopping:
                return
            await asyncio.sleep(self.random.uniform(backoff, 2 * backoff))
            backoff = min(backoff * 2, 1.0)

    async def serve(self, device: Device, pair: tuple[Device, Device], ws) -> None:
        self.connections += 1
        connection = self.connections
        welcomed_at = None
        node = None
        async for raw in ws:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "welcome":
                welcomed_at = time.monotonic()
                node = message["node"]
                if device.session and message["session"] != device.session:
                    device.lost_session = True  # a new session (`session_expired`): this one is lost to it
                    return
                device.session, device.token = message["session"], message["token"]
                if links := message.get("links"):
                    device.drive_key = links["drive"].split("k=", 1)[1]
                device.member, device.node = message["member"], node
                device.welcomes += 1
                ack = message.get("ack", 0) or 0
                device.acked = max(device.acked, ack)
                # the page sends again, in order, the inputs it kept above the welcome's ack
                kept = [k for k in device.kept if k[0] > ack]
                oldest = kept[0][0] if kept else device.seq + 1
                lost = max(0, oldest - 1 - ack)  # neither applied nor kept to send again
                device.lost_inputs += lost
                if lost and device.offline_since is not None:
                    self.lossy_outages.append(welcomed_at - device.offline_since)
                device.acked = max(device.acked, oldest - 1)
                device.ws = ws
                for _, _, sent in kept:
                    await ws.send(json.dumps(sent))
                device.connected.set()
            elif kind in ("frame", "delta") and welcomed_at is not None:
                self.served.setdefault(device.session, []).append(
                    Served(time.monotonic(), device.index, node, connection, welcomed_at))
                ack = (message.get("ack") or {}).get(str(device.member))
                if isinstance(ack, int):
                    device.acked = max(device.acked, ack)
            elif kind == "error" and message.get("code") == "session_elsewhere" and message.get("node"):
                if welcomed_at is not None:
                    device.moved += 1
                device.node = message["node"]
                await ws.close()
                return
            elif kind == "error" and message.get("code") == "already_applied":
                device.refused_again += 1
            elif kind == "error" and message.get("code") == "bad_token":
                device.token = None
                await ws.close()
                return

    async def drag(self, pair: tuple[Device, Device]) -> None:
        """One device of the session drags at a time (a touch every 100 ms), switching every few seconds."""
        which = 0
        gesture_until = 0.0
        pointer = 0
        direction = 1
        while not self.stopping:
            await asyncio.sleep(INPUT_PERIOD_S)
            device = pair[which]
            if device.lost_session or device.session is None:
                which = 1 - which
                continue
            now = time.monotonic()
            t_ms = round(time.monotonic() * 1000, 1)  # the page clock: ms since some origin
            if now >= gesture_until:
                phase = "start"
                pointer += 1
                gesture_until = now + self.random.uniform(1, 3)
                direction = -direction
                if self.random.random() < 0.3:
                    which = 1 - which
                    device = pair[which]
                    if device.session is None:
                        continue
            else:
                phase = "move"
            device.seq += 1
            message = {"type": "touch", "phase": phase, "dx": 0, "dy": 4 * direction, "t": t_ms,
                       "id": pointer, "seq": device.seq}
            device.kept.append((device.seq, now, message))
            del device.kept[:-MAX_KEPT]
            if device.ws is not None:
                try:
                    await device.ws.send(json.dumps(message))
                except websockets.ConnectionClosed:
                    pass

    # --- chaos ---

    async def chaos(self, seconds: float, pause: tuple[float, float] = (2.0, 5.0),
                    kinds: tuple[str, ...] | None = None) -> None:
        """Faults until `seconds` are over: each of a kind drawn at random, or taken in turn from `kinds` (a short
        run that must meet every kind)."""
        c = self.cluster
        until = self.start + seconds
        turn = 0
        while time.monotonic() < until:
            await asyncio.sleep(self.random.uniform(*pause))
            if time.monotonic() >= until:
                break
            if kinds:
                kind = kinds[turn % len(kinds)]
                turn += 1
            else:
                kind = self.random.choice(FAULT_DRAW)
            node = self.random.choice(list(c.nodes))
            if kind == "kill":
                pid = c.pid(node)
                if pid:
                    os.kill(pid, signal.SIGKILL)
                    self.note(f"SIGKILL {node}")
            elif kind == "stop":
                pid = c.pid(node)
                if pid:
                    held = self.random.uniform(1.5, 3)
                    os.kill(pid, signal.SIGSTOP)
                    self.note(f"SIGSTOP {node} for {held:.1f} s")
                    # the pages' keepalive gives up on a frozen process: one device of each session reconnects
                    await asyncio.sleep(1)
                    await self.drop_links(node)
                    await asyncio.sleep(held - 1)
                    os.kill(pid, signal.SIGCONT)
            elif kind == "check":
                held = self.random.uniform(2, 4)
                await asyncio.to_thread(c.check_fails, node, True)
                self.note(f"{node}'s health check failing for {held:.1f} s (the node lives)")
                started = time.monotonic()
                await asyncio.to_thread(wait_for, lambda n=node: c.server_state(n) == "DOWN", 5, f"{node} DOWN")
                # while the balancer finds it down, one device of each of its sessions loses its link and
                # reconnects: the balancer sends it to a backup, which takes the session over from the live node
                await self.drop_links(node)
                await asyncio.sleep(max(0.0, held - (time.monotonic() - started)))
                await asyncio.to_thread(c.check_fails, node, False)
            else:
                pid = c.pid("redis")
                if pid:
                    held = self.random.uniform(2, 4)
                    os.kill(pid, signal.SIGSTOP)
                    self.note(f"Redis stopped for {held:.1f} s")
                    await asyncio.sleep(held)
                    os.kill(pid, signal.SIGCONT)

    async def drop_links(self, node: str) -> None:
        """Closes the link of one device (chosen at random) of each session whose devices are on `node`, all at
        once: a frozen server never answers the close, and waiting out each one's timeout in turn would keep it
        frozen for half a second per device."""
        async def drop(ws) -> None:
            try:
                await asyncio.wait_for(ws.close(), 0.5)
            except (asyncio.TimeoutError, websockets.ConnectionClosed):
                ws.transport.abort()

        links = []
        for pair in self.sessions:
            device = self.random.choice(pair)
            if device.node == node and device.ws is not None:
                links.append(device.ws)
        await asyncio.gather(*(drop(ws) for ws in links))
        self.note(f"  {len(links)} devices on {node} lost their link")

    def note(self, what: str) -> None:
        self.events.append((time.monotonic() - self.start, what))

    # --- the whole run ---

    async def main(self, seconds: float, pause: tuple[float, float], settle: float = 20.0,
                   kinds: tuple[str, ...] | None = None) -> dict:
        pairs = []
        tasks = []
        for k in range(self.count):
            pair = (Device(2 * k), Device(2 * k + 1))
            tasks.append(asyncio.create_task(self.connect(pair[0], pair)))
            await asyncio.wait_for(pair[0].connected.wait(), 20)
            pair[1].session = pair[0].session
            pair[1].key = pair[0].drive_key
            pair[1].node = pair[0].node
            tasks.append(asyncio.create_task(self.connect(pair[1], pair)))
            pairs.append(pair)
        for pair in pairs:
            await asyncio.wait_for(pair[1].connected.wait(), 20)
        self.sessions = pairs
        self.start = time.monotonic()
        draggers = [asyncio.create_task(self.drag(pair)) for pair in pairs]
        await self.chaos(seconds, pause, kinds)
        # every process back and healthy, then every device connected, every input acknowledged
        for node in self.cluster.nodes:
            await asyncio.to_thread(self.cluster.check_fails, node, False)
        await asyncio.to_thread(wait_for, lambda: all(self.cluster.server_state(n) == "UP"
                                                      for n in self.cluster.nodes), 30, "every node UP")
        for task in draggers:
            task.cancel()
        deadline = time.monotonic() + settle
        devices = [d for pair in pairs for d in pair]
        while time.monotonic() < deadline:
            if all(d.lost_session or (d.connected.is_set() and d.acked >= d.seq) for d in devices):
                break
            await asyncio.sleep(0.1)
        self.split_at_end = sum(1 for a, b in pairs if not a.lost_session and not b.lost_session
                                and not (a.node == b.node == self.cluster.holder(a.session)))
        self.stopping = True
        for device in devices:
            if device.ws is not None:
                await device.ws.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        return self.figures(devices)

    def figures(self, devices: list[Device]) -> dict:
        lost_sessions = {d.index // 2 for d in devices if d.lost_session or not d.welcomes}
        unacked = sum(max(0, d.seq - d.acked) for d in devices if not d.lost_session)
        overlaps, longest, median = self.overlaps()
        logs = self.cluster.logs()
        refused = len(re.findall(r"session held by another process now", logs))
        return {
            "seconds": round(time.monotonic() - self.start, 1),
            "sessions": len(self.sessions),
            "devices": len(devices),
            "events": len(self.events),
            "sigkill": sum(1 for _, e in self.events if e.startswith("SIGKILL")),
            "sigstop": sum(1 for _, e in self.events if e.startswith("SIGSTOP")),
            "check_failed": sum(1 for _, e in self.events if "health check" in e),
            "redis_stopped": sum(1 for _, e in self.events if e.startswith("Redis")),
            "take_overs": len(re.findall(r"session taken over", logs)),
            "inputs_sent": sum(d.seq for d in devices),
            "sessions_lost": len(lost_sessions),
            "sessions_split_at_end": self.split_at_end,
            "inputs_lost": sum(d.lost_inputs for d in devices) + unacked,
            "epochs_refused": refused,
            "pages_moved_by_fencing": sum(d.moved for d in devices),
            "inputs_refused_as_applied": sum(d.refused_again for d in devices),
            "two_holders_moments": overlaps,
            "two_holders_longest_ms": round(longest * 1000, 1),
            "two_holders_median_ms": round(median * 1000, 1),
            "welcomes_that_lost_inputs": len(self.lossy_outages),
            "their_outage_min_max_s": [round(min(self.lossy_outages, default=0), 2),
                                       round(max(self.lossy_outages, default=0), 2)],
        }

    def overlaps(self) -> tuple[int, float, float]:
        """Moments two processes served one session: a frame on a connection welcomed before another process's
        frame of the same session arrived, itself arriving after it (the older holder still serving). Counted
        once per (session, older connection), each lasting from the newer process's first frame to the older
        connection's last frame; returns the count, the longest and the median."""
        lasting: dict[tuple[str, int], float] = {}
        for session, frames in self.served.items():
            frames.sort(key=lambda f: f.t)
            first_of: dict[tuple[str, int], float] = {}
            for f in frames:
                first_of.setdefault((f.node, f.connection), f.t)
            for f in frames:
                newer = [first for (node, _connection), first in first_of.items()
                         if node != f.node and f.welcomed < first < f.t]
                if newer:
                    key = (session, f.connection)
                    lasting[key] = max(lasting.get(key, 0.0), f.t - min(newer))
        values = sorted(lasting.values())
        median = values[len(values) // 2] if values else 0.0
        return len(values), (values[-1] if values else 0.0), median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--bin", type=Path, default=Path(os.environ.get("REFRESHKIT_BIN",
                                                                        ROOT / ".build/release/refreshkit")))
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    figures = run(args.bin, args.seconds, args.sessions, args.processes, args.seed, verbose=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    failed = [key for key in ("sessions_lost", "sessions_split_at_end", "inputs_lost", "two_holders_moments")
              if figures[key] != 0]
    if failed:
        print(f"chaos: not 0: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def run(binary: Path, seconds: float, sessions: int = 50, processes: int = 3, seed: int = 1,
        verbose: bool = False, pause: tuple[float, float] = (2.0, 5.0), kinds: tuple[str, ...] | None = None) -> dict:
    unknown = set(kinds or ()) - set(FAULTS)
    if unknown:  # before any process starts
        raise ValueError(f"unknown fault kinds {sorted(unknown)}: the kinds are {', '.join(FAULTS)}")
    with tempfile.TemporaryDirectory(prefix="refreshkit-chaos.") as tmp:
        cluster = Supervised(binary.absolute(), processes, Path(tmp))
        try:
            chaos = Run(cluster, sessions, seed)
            figures = asyncio.run(chaos.main(seconds, pause, kinds=kinds))
        finally:
            cluster.stop()
        figures["seed"] = seed
        figures["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                           text=True).stdout.strip()
        figures["load_average"] = os.getloadavg()[0]
        if verbose:
            for at, what in chaos.events:
                print(f"{at:7.1f} s  {what}")
            width = max(len(k) for k in figures)
            for key, value in figures.items():
                print(f"{key:<{width}}  {value}")
        figures["event_log"] = [f"{at:.1f} s {what}" for at, what in chaos.events]
        return figures


if __name__ == "__main__":
    sys.exit(main())
