"""`refreshkit link` (docs/LINK.md) as a test's part: one link process on an ephemeral loopback port, started,
stalled on demand and stopped. Shared by e2e/server/test_link.py and the browser tests (e2e/browser/conftest.py),
which import it with `e2e/` on `sys.path`. Every wait is for a state (a printed or logged line), bounded."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READY_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 10.0
LINK_LISTENING = re.compile(r"^link listening on http://(\S+):(\d+) → http://(\S+) \(profile (\S+): (.*)\)$")
STALL_LOGGED = "stall on demand:"


def refreshkit_binary() -> Path:
    """`.build/debug/refreshkit` (what `swift build` and `make test` build), or the build REFRESHKIT_BIN names (as
    the tests' conftests do)."""
    override = os.environ.get("REFRESHKIT_BIN")
    path = Path(override) if override else ROOT / ".build" / "debug" / "refreshkit"
    return path if path.is_absolute() else ROOT / path


class ChildProcess:
    """What the tests do with a `refreshkit` process they started (`proc`, its `stdout` and `stderr` lines, read by
    threads): show its output, kill it, or stop it with SIGTERM and take its exit status. Shared by `RunningLink`
    and e2e/server's `RunningServer`."""

    name = "process"
    proc: subprocess.Popen
    stdout: list[str]
    stderr: list[str]

    def output(self) -> str:
        return "stdout:\n" + "\n".join(self.stdout[-20:]) + "\nstderr:\n" + "\n".join(self.stderr[-40:])

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def terminate(self) -> int:
        """SIGTERM, then the exit status (a process that does not exit in time is killed and the test fails)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"{self.name} did not exit within {STOP_TIMEOUT_S:.0f} s of SIGTERM\n" + self.output(),
                        pytrace=False)
            raise


def free_port() -> int:
    """A port nobody listens on now (for a server that must be started after its link)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RunningLink(ChildProcess):
    """One `refreshkit link --listen 127.0.0.1:0 --upstream 127.0.0.1:PORT …` (or `listen`, another address of this
    machine's), ready once it printed its banner."""

    name = "link"

    def __init__(self, upstream_port: int, *args: str, listen: str = "127.0.0.1:0"):
        self.proc = subprocess.Popen(
            [str(refreshkit_binary()), "link", "--listen", listen, "--upstream", f"127.0.0.1:{upstream_port}",
             *args],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self.match: re.Match | None = None
        self._logged = threading.Condition()
        ready = threading.Event()

        def drain_stdout() -> None:
            for line in self.proc.stdout:
                self.stdout.append(line.rstrip("\n"))
                if self.match is None:
                    self.match = LINK_LISTENING.match(line.strip())
                    if self.match:
                        ready.set()
            ready.set()

        def drain_stderr() -> None:
            for line in self.proc.stderr:
                with self._logged:
                    self.stderr.append(line.rstrip("\n"))
                    self._logged.notify_all()
            with self._logged:
                self._logged.notify_all()

        threading.Thread(target=drain_stdout, daemon=True).start()
        threading.Thread(target=drain_stderr, daemon=True).start()
        if not ready.wait(READY_TIMEOUT_S) or self.match is None:
            self.kill()
            pytest.fail("link did not print `link listening on …`\n" + self.output(), pytrace=False)
        self.host, self.port = self.match.group(1), int(self.match.group(2))
        self.url = f"http://{self.host}:{self.port}"
        self.ws_url = f"ws://{self.host}:{self.port}/"

    def stall(self) -> None:
        """SIGUSR1: the link holds all traffic for its `--on-demand-stall` from now. Returns once the link logged
        that it holds it (the state), so that what the caller does next happens inside the stall."""
        with self._logged:
            before = sum(STALL_LOGGED in line for line in self.stderr)
            self.proc.send_signal(signal.SIGUSR1)
            taken = self._logged.wait_for(
                lambda: sum(STALL_LOGGED in line for line in self.stderr) > before or self.proc.poll() is not None,
                READY_TIMEOUT_S)
        if not taken or self.proc.poll() is not None:
            pytest.fail("link did not log its stall on demand after SIGUSR1\n" + self.output(), pytrace=False)
