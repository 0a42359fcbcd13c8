"""The cluster tests' support (docs/SCALING.md): real Redis, real `refreshkit serve` processes sharing it, real
HAProxy in front of them (scripts/cluster_config.py writes its configuration), and a real WebSocket client through
the balancer. Everything is started and stopped by the fixtures; every wait is for a state, bounded.

Every Redis here wants a password, as `make cluster`'s does (docs/SCALING.md, "The store's password"): one per
pytest process, made at random into a file only its owner reads (`store_secrets()`, a directory of its own),
which Redis includes (`requirepass`) and the servers are given (`--store-password-file`: `RunningRedis.store_args`);
`redis-cli` gets it in REDISCLI_AUTH. Nothing secret is on a command line. A Redis restarted on its port has the same.

Needs `redis-server` and `haproxy` (`make test` installs them: scripts/ensure-deps.sh test).
"""
from __future__ import annotations

import atexit
import importlib.util
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "e2e"))
sys.path.append(str(ROOT / "scripts"))
import cluster_config  # noqa: E402
from cluster_supervisor import accepts, write_secret  # noqa: E402,F401 (the tests import accepts from here)
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


_secrets: Path | None = None


def store_secrets() -> Path:
    """This pytest process's directory of secrets (mode 0700, removed at its exit): `store.password`, the Redis
    password of every RunningRedis it starts, and `redis-auth.conf`, which requires it (both mode 0600)."""
    global _secrets
    if _secrets is None:
        made = Path(tempfile.mkdtemp(prefix="rk-store-secrets-"))
        password = secrets.token_hex(24)
        write_secret(made / "store.password", password + "\n")
        write_secret(made / "redis-auth.conf", f"requirepass {password}\n")
        atexit.register(shutil.rmtree, made, True)
        _secrets = made
    return _secrets


class RunningRedis(Piped):
    """A `redis-server` on a loopback port that wants this pytest process's password (`password=False`: none)."""
    name = "redis"

    def __init__(self, port: int | None = None, password: bool = True):
        self.port = port or free_port()
        self.password_file = store_secrets() / "store.password" if password else None
        self.password = self.password_file.read_text().strip() if self.password_file else None
        auth = ["--include", str(store_secrets() / "redis-auth.conf")] if password else []
        self.start(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no", *auth])
        wait_for(lambda: accepts(self.port) or self.proc.poll() is not None, what="redis to listen")
        if self.proc.poll() is not None:
            pytest.fail("redis-server exited\n" + self.output(), pytrace=False)
        self.url = f"redis://127.0.0.1:{self.port}"
        # What a server is given to use it: the address, and the file its password is in.
        self.store_args = ["--store", self.url,
                           *(["--store-password-file", str(self.password_file)] if self.password_file else [])]
        # What a program without that option (the Hummingbird example) is given: its environment.
        self.store_env = {"REFRESHKIT_STORE_PASSWORD_FILE": str(self.password_file)} if self.password_file else {}

    def cli(self, *args: str, password: str | None = None) -> str:
        """`redis-cli` with the password (this Redis's unless `password` names another; "": none) in REDISCLI_AUTH."""
        env = {k: v for k, v in os.environ.items() if k != "REDISCLI_AUTH"}
        given = self.password if password is None else password
        if given:
            env["REDISCLI_AUTH"] = given
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True,
                              timeout=5, env=env).stdout


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
        self.servers = {f"n{k}": RunningServer("--node", f"n{k}", *self.redis.store_args, "--log-level", "info",
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
def cluster(tmp_path, request):
    made: list[Cluster] = []

    def start(processes: int = 2, *server_args: str, bind: str = "127.0.0.1") -> Cluster:
        c = Cluster(processes, tmp_path, *server_args, bind=bind)
        made.append(c)
        return c

    yield start
    report = getattr(request.node, "rep_call", None)
    for c in made:
        if report is not None and report.failed:
            # what each process said, and whether it was still running (a test kills some on purpose)
            for name, child in [("haproxy", c.balancer), *c.servers.items()]:
                print(f"--- {name}: exit status {child.proc.poll()}\n{child.output()}")
        c.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test item, for the `cluster` fixture's end to know the test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
