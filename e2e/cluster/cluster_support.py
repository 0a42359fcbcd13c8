"""The cluster tests' support (docs/SCALING.md): real Redis, real `refreshkit serve` processes sharing it, real
HAProxy in front of them (scripts/cluster_config.py writes its configuration), and a real WebSocket client through
the balancer. Everything is started and stopped by the fixtures; every wait is for a state, bounded.

Needs `redis-server` and `haproxy` (`make test` installs them: scripts/ensure-deps.sh test).
"""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "e2e"))
sys.path.append(str(ROOT / "scripts"))
import cluster_config  # noqa: E402
from cluster_supervisor import accepts  # noqa: E402,F401 (the tests import it from here)
from link_support import ChildProcess, free_port  # noqa: E402

# The server tests' helpers (RunningServer, hello, recv_until…), loaded under a name of their own.
_spec = importlib.util.spec_from_file_location("server_support", ROOT / "e2e" / "server" / "conftest.py")
server_support = importlib.util.module_from_spec(_spec)
sys.modules["server_support"] = server_support
_spec.loader.exec_module(server_support)
RunningServer = server_support.RunningServer

READY_TIMEOUT_S = 20.0


def wait_for(predicate, timeout: float = READY_TIMEOUT_S, what: str = "a state", poll: float = 0.02):
    """Polls `predicate` until it is true (the state waited for), failing after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(poll)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}", pytrace=False)


class Piped(ChildProcess):
    """A child whose stdout and stderr lines are kept (read by threads)."""

    def start(self, args: list[str]) -> None:
        self.proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     bufsize=1)
        self.stdout, self.stderr = [], []
        for stream, lines in ((self.proc.stdout, self.stdout), (self.proc.stderr, self.stderr)):
            threading.Thread(target=lambda s=stream, kept=lines: [kept.append(x.rstrip("\n")) for x in s],
                             daemon=True).start()


class RunningRedis(Piped):
    name = "redis"

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.start(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no"])
        wait_for(lambda: accepts(self.port) or self.proc.poll() is not None, what="redis to listen")
        if self.proc.poll() is not None:
            pytest.fail("redis-server exited\n" + self.output(), pytrace=False)
        self.url = f"redis://127.0.0.1:{self.port}"

    def cli(self, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True,
                              timeout=5).stdout


class RunningBalancer(Piped):
    name = "haproxy"

    def __init__(self, nodes: list[tuple[str, int]], tmp: Path, port: int, bind: str = "127.0.0.1"):
        self.port = port
        config = cluster_config.config(f"{bind}:{self.port}",
                                       [(name, f"127.0.0.1:{port}") for name, port in nodes])
        path = tmp / "haproxy.cfg"
        path.write_text(config)
        self.start(["haproxy", "-db", "-f", str(path)])
        wait_for(lambda: accepts(self.port, bind) or self.proc.poll() is not None, what="haproxy to listen")
        if self.proc.poll() is not None:
            pytest.fail("haproxy exited\n" + self.output(), pytrace=False)
        self.host = bind
        self.ws_url = f"ws://{bind}:{self.port}/"


class Cluster:
    """Redis, N servers (n1…nN) sharing it, and HAProxy in front (on loopback, or on `bind`, another address of this
    machine)."""

    def __init__(self, processes: int, tmp: Path, *server_args: str, bind: str = "127.0.0.1"):
        for tool in ("redis-server", "haproxy"):
            if not shutil.which(tool):
                pytest.fail(f"{tool} is not installed: run `scripts/ensure-deps.sh test`", pytrace=False)
        self.redis = RunningRedis()
        port = free_port()
        # --public-port: pages reach the servers through the balancer's port (their Origin has it)
        self.servers = {f"n{k}": RunningServer("--node", f"n{k}", "--store", self.redis.url, "--log-level", "info",
                                               "--public-port", str(port), *server_args)
                        for k in range(1, processes + 1)}
        self.balancer = RunningBalancer([(name, srv.port) for name, srv in self.servers.items()], tmp, port, bind)

    def url(self, session: str | None = None, node: str | None = None) -> str:
        query = []
        if session:
            query.append(f"s={session}")
        if node:
            query.append(f"n={node}")
        return self.balancer.ws_url + ("?" + "&".join(query) if query else "")

    def stop(self) -> None:
        for child in [self.balancer, *self.servers.values(), self.redis]:
            child.kill()


@pytest.fixture
def cluster(tmp_path):
    made: list[Cluster] = []

    def start(processes: int = 2, *server_args: str, bind: str = "127.0.0.1") -> Cluster:
        c = Cluster(processes, tmp_path, *server_args, bind=bind)
        made.append(c)
        return c

    yield start
    for c in made:
        c.stop()
