"""`make cluster` itself (docs/SCALING.md, "Supervised processes"): scripts/cluster.sh runs supervisord with the
configuration scripts/cluster_supervisor.py writes (Redis, the servers, HAProxy). A process killed with SIGKILL
mid-refresh loses no session (another takes it over, where it was), supervisord starts it again within seconds,
HAProxy's health check sends it new sessions again, and stopping the launcher leaves no process behind."""
from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidMessage, InvalidStatus

import cluster_supervisor
from cluster_support import ROOT, Piped, accepts, server_support, wait_for
from test_cluster import connect_to
from tls_support import certificates

hello, recv_until, send_json, run = (server_support.hello, server_support.recv_until, server_support.send_json,
                                     server_support.run)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not reaped yet by its parent) counts as gone
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ")[-1][:1] != "Z"


class Launched(Piped):
    """`scripts/cluster.sh BIN 2 PORT …` as `make cluster` runs it, in a process group of its own (so that a test
    can press Ctrl-C: SIGINT to the group, as a terminal does)."""
    name = "cluster.sh"

    def __init__(self, processes: int = 2, tls: tuple[Path, Path] | None = None):
        for tool in ("supervisord", "redis-server", "haproxy"):
            if not subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True).returncode == 0:
                pytest.fail(f"{tool} is not installed: run `scripts/ensure-deps.sh test`", pytrace=False)
        self.port = cluster_supervisor.free_base_port(2)
        binary = str(server_support.server_binary())
        self.proc = subprocess.Popen(
            ["scripts/cluster.sh", *(["--tls-cert", str(tls[0]), "--tls-key", str(tls[1])] if tls else []), binary,
             str(processes), str(self.port), "--web-root", "web", "--log-level", "info"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1, start_new_session=True)
        self.stdout, self.stderr = [], []
        threading.Thread(target=lambda: [self.stdout.append(x.rstrip("\n")) for x in self.proc.stdout],
                         daemon=True).start()
        control = wait_for(lambda: next((m for line in self.stdout
                                         if (m := re.search(r"supervisorctl -c (\S+) status", line))), None),
                           what="the launcher's banner")
        self.conf = control.group(1)
        self.run_dir = Path(self.conf).parent
        self.nodes = {f"n{k}": self.port + k for k in range(1, processes + 1)}
        self.ws_url = f"{'wss' if tls else 'ws'}://127.0.0.1:{self.port}/"
        try:
            wait_for(lambda: all(accepts(p) for p in [self.port, self.port + 100, *self.nodes.values()]),
                     what="Redis, the servers and HAProxy to listen")
            # Listening is not enough (as bench/chaos.py waits too): on a busy machine a server may start after
            # HAProxy's first checks, which find it down until two good ones (a 503 for a page meanwhile).
            wait_for(lambda: all(self.balancer_state(n) == "UP" for n in self.nodes),
                     what="HAProxy to find every server up")
        except BaseException:
            print(self.diagnosis())
            raise

    def balancer_state(self, node: str) -> str:
        """HAProxy's view of `node` ("UP", "DOWN", …), "" before its admin socket exists."""
        sock = self.run_dir / "haproxy.sock"
        return cluster_supervisor.server_state(sock, node) if sock.exists() else ""

    def diagnosis(self) -> str:
        """For a failure's report: supervisord's view of its programs, HAProxy's of the servers, each log's tail."""
        try:
            parts = ["--- supervisorctl status", self.ctl("status")]
        except subprocess.TimeoutExpired:
            parts = ["--- supervisorctl status", "(no answer in 10 s)"]
        try:
            parts += ["--- HAProxy", ", ".join(f"{n} {self.balancer_state(n) or '?'}" for n in self.nodes)]
        except OSError as error:
            parts += ["--- HAProxy", f"(admin socket: {error})"]
        for name in ("supervisord", "redis", *self.nodes, "haproxy"):
            parts += [f"--- {name}.log", tail(self.run_dir / f"{name}.log")]
        parts += ["--- cluster.sh", "\n".join(self.stdout[-15:])]
        return "\n".join(parts)

    def ctl(self, *args: str) -> str:
        return subprocess.run(["supervisorctl", "-c", self.conf, *args], capture_output=True, text=True,
                              timeout=10).stdout.strip()

    def pid(self, program: str | None = None) -> int:
        text = self.ctl("pid", *([program] if program else []))
        return int(text) if text.isdigit() else 0

    def url(self, session: str | None = None, node: str | None = None) -> str:
        query = [f"{k}={v}" for k, v in (("s", session), ("n", node)) if v]
        return self.ws_url + ("?" + "&".join(query) if query else "")

    def redis(self, *args: str) -> str:
        return cluster_supervisor.redis_cli(self.run_dir, self.port + 100, *args)  # with the run's password

    def every_pid(self) -> list[int]:
        return [self.pid(), *(self.pid(name) for name in ("redis", "haproxy", *self.nodes))]

    def kill(self) -> None:
        """The fixture's end: a clean stop if still running; failing that, SIGKILL to everything."""
        if self.proc.poll() is not None:
            return
        pids = [pid for pid in self.every_pid() if pid]
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def tail(path: Path, lines: int = 15) -> str:
    """The last lines of a log of the cluster's run directory (for a failure's message)."""
    if not path.exists():
        return f"({path.name}: none)"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture
def launched(request):
    made: list[Launched] = []

    def start(processes: int = 2, tls: tuple[Path, Path] | None = None) -> Launched:
        made.append(Launched(processes, tls))
        return made[-1]

    yield start
    report = getattr(request.node, "rep_call", None)
    for cluster in made:
        if report is not None and report.failed and cluster.proc.poll() is None:
            print(cluster.diagnosis())
        cluster.kill()


def stop_and_check_nothing_is_left(c: Launched, how: str) -> None:
    pids = c.every_pid()
    assert all(pids) and len(set(pids)) == len(pids), pids
    if how == "ctrl-c":
        os.killpg(c.proc.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
    else:
        c.proc.send_signal(signal.SIGTERM)  # to the launcher alone
    assert c.proc.wait(30) == 0 or how == "ctrl-c", "\n".join(c.stdout)
    wait_for(lambda: not any(alive(pid) for pid in pids), timeout=5, what="every process to be gone")
    assert not c.run_dir.exists(), "the launcher removes its directory"
    assert not any(accepts(p) for p in [c.port, c.port + 100, *c.nodes.values()])


async def reconnect(url: str, attempts: int = 20):
    """Connects as the page reconnects (web/js/connection.js): a refusal while the balancer still sees the killed
    process (a 503 between its health checks) is tried again after a pause, up to `attempts` times."""
    for attempt in range(attempts):
        try:
            return await connect_to(url)
        except (InvalidStatus, OSError):
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.25)  # the page's first backoff step; the bound is the attempts
    raise AssertionError("unreachable")


def test_a_killed_process_comes_back_and_its_sessions_carry_on_elsewhere(launched):
    c = launched(2)

    async def scenario():
        a = await connect_to(c.url())
        wa, _ = await hello(a)
        home, session = wa["node"], wa["session"]
        other = next(name for name in c.nodes if name != home)
        b = await connect_to(c.url(session))
        wb, _ = await hello(b, session=session, key=server_support.link_key(wa))
        assert wb["node"] == home and wb["member"] == 1, wb

        def both_members_stored() -> bool:
            # a new session is written at once, a member who joins rides on the next batch, ~100 ms later
            # (docs/SCALING.md): the take-over must know B's token as well as A's
            stored = c.redis("HGET", f"rk:session:{session}", "members").strip()
            return bool(stored) and len(json.loads(stored)["members"]) == 2

        await asyncio.to_thread(wait_for, both_members_stored, what="both members in the store")
        # mid-refresh: the indicator settled where it waits for the feed is the position to find again
        # (the feed's latency: long enough for the take-over to find the refresh still waiting on a loaded
        # machine, where 2.5 s was not)
        await send_json(a, {"type": "configure", "feed": {"latencyMs": 8000}})
        await send_json(a, {"type": "command", "name": "refresh", "edge": "top"})
        frame, _ = await recv_until(a, lambda m: m["type"] == "frame" and m["edges"][0]["state"] == "refreshing"
                                    and m["phase"] == "idle")
        before = frame["offset"]["y"]
        assert before != 0, frame
        await asyncio.to_thread(wait_for, lambda: '"refresh"' in c.redis("LRANGE", f"rk:session:{session}:ops", "0",
                                                                          "-1"), what="the refresh in the store")
        killed = c.pid(home)
        os.kill(killed, signal.SIGKILL)
        await server_support.wait_closed(a)
        await server_support.wait_closed(b)
        # both devices come back, as the page does (n: the node the welcome named), on the other process
        a = await reconnect(c.url(session, home))
        back_a, frame_a = await hello(a, session=session, token=wa["token"])
        b = await reconnect(c.url(session, home))
        back_b, frame_b = await hello(b, session=session, token=wb["token"])
        for back in (back_a, back_b):
            assert back["resumed"] is True and back["node"] == other and "notice" not in back, back
        assert back_a["takeover"]["from"] == home, back_a
        # both devices carry on where they were, within 1 px, and the refresh finishes on the other process
        for frame in (frame_a, frame_b):
            assert abs(frame["offset"]["y"] - before) <= 1, (before, frame["offset"])
            assert frame["edges"][0]["state"] in ("refreshing", "completing", "idle"), frame
        await recv_until(b, lambda m: m["type"] == "event" and m["name"] == "transition" and m["edge"] == "top"
                         and m["to"] == "idle", timeout=15)
        await recv_until(b, lambda m: m["type"] == "frame" and m["phase"] == "idle" and m["offset"]["y"] == 0)
        await send_json(a, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1, "id": 1})
        await send_json(a, {"type": "touch", "phase": "move", "dx": 0, "dy": -40, "t": 17, "id": 1})
        await recv_until(b, lambda m: m["type"] == "frame" and m["offset"]["y"] >= 40)
        # supervisord starts the killed process again (a new pid, running, listening) within seconds
        started = time.monotonic()
        await asyncio.to_thread(wait_for, lambda: c.pid(home) not in (0, killed) and accepts(c.nodes[home]),
                                timeout=10, what=f"supervisord to start {home} again")
        restarted_in = time.monotonic() - started
        # RUNNING once it has stayed up for `startsecs` (1 s)
        await asyncio.to_thread(wait_for, lambda: "RUNNING" in c.ctl("status", home), timeout=10,
                                what=f"supervisord to call {home} running")

        # HAProxy's check brings it back: a new session (leastconn: the other holds two connections) lands there
        async def new_session_node() -> str:
            async with connect_to(c.url()) as probe:
                welcome, _ = await hello(probe)
                return welcome["node"]

        async def back_in_rotation():
            while await new_session_node() != home:
                pass

        await asyncio.wait_for(back_in_rotation(), 15)
        print(f"{home} restarted {restarted_in:.2f} s after the take-over's welcome")
        await a.close()
        await b.close()

    run(scenario, timeout=50)
    stop_and_check_nothing_is_left(c, "ctrl-c")


def test_sigterm_to_the_launcher_stops_everything(launched):
    c = launched(2)
    stop_and_check_nothing_is_left(c, "sigterm")


def test_make_cluster_tls_serves_wss_through_haproxy_and_sessions_still_route_by_node(launched, tmp_path):
    """`make cluster TLS=1` (docs/HTTPS.md, "Behind a balancer"): HAProxy terminates TLS with `refreshkit cert`'s
    certificate; the servers behind it take the page's https:// origin on the balancer's port and share https://
    links; a reconnection that names its node reaches it; a client that does not trust the CA, or speaks plain ws://,
    gets no session, and the cluster carries on."""
    certificates(tmp_path)
    c = launched(2, tls=(tmp_path / "server.pem", tmp_path / "server-key.pem"))
    assert c.ws_url.startswith("wss://")
    trusting = ssl.create_default_context(cafile=str(tmp_path / "ca.pem"))
    page_origin = {"Origin": f"https://127.0.0.1:{c.port}"}  # what a page of the balancer's sends

    def connect_tls(url: str, context: ssl.SSLContext = trusting):
        return connect(url, subprotocols=[server_support.SUBPROTOCOL], ssl=context, additional_headers=page_origin,
                       open_timeout=10, ping_interval=None)

    async def scenario():
        async with connect_tls(c.url()) as a:
            welcome, first = await hello(a)
            assert welcome["share"].startswith("https://") and welcome["share"].endswith(f":{c.port}"), welcome
            await send_json(a, {"type": "touch", "phase": "start", "dx": 0, "dy": 0, "t": 1, "id": 1})
            await send_json(a, {"type": "touch", "phase": "move", "dx": 0, "dy": -40, "t": 17, "id": 1})
            await recv_until(a, lambda m: m["type"] == "frame" and m["offset"]["y"] >= 40)
            # the page's reconnection names its node: the same process, the same member
            async with connect_tls(c.url(welcome["session"], welcome["node"])) as b:
                back, _ = await hello(b, session=welcome["session"], token=welcome["token"])
                assert back["resumed"] is True and back["node"] == welcome["node"], back
        with pytest.raises(ssl.SSLCertVerificationError):
            async with connect_tls(c.url(), ssl.create_default_context()):
                pass
        with pytest.raises((OSError, InvalidStatus, InvalidMessage)):
            async with connect(c.url().replace("wss://", "ws://"), subprotocols=[server_support.SUBPROTOCOL],
                               open_timeout=5):
                pass
        async with connect_tls(c.url()) as again:
            await hello(again)

    run(scenario)
