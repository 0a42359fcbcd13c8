"""Another host for the tests that need one (`NetnsPeer`): a network namespace of its own joined to this machine by a
veth pair, made and removed by the test; traffic stays on this machine. Shared by e2e/server (metrics, posts, the
link) and e2e/cluster (HAProxy), which import it with `e2e/` on `sys.path`."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLIENT = Path(__file__).with_name("netns_client.py")
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


class NetnsPeer:
    """Another host for the test: a network namespace of its own joined to this one by a veth pair
    (`HOST` here, `PEER` there: a /30 of 10.213.0.0/16 chosen by the process id, so that tests on several workers at
    once each have their own; `NETWORK` is it), made and removed by the test. Traffic stays on this machine."""

    def __init__(self, tag: str = "m"):
        """`tag`: one letter per kind of peer, so that peers of different subnets have names of their own."""
        self.name = f"rk-{tag}-{os.getpid()}"
        self.link = f"rk{tag}{os.getpid() % 100000}"
        octet = os.getpid() % 250
        self.HOST, self.PEER, self.NETWORK = f"10.213.{octet}.1", f"10.213.{octet}.2", f"10.213.{octet}.0/30"

    def __enter__(self):
        for command in (
            ["ip", "netns", "add", self.name],
            ["ip", "link", "add", self.link, "type", "veth", "peer", "name", self.link + "p"],
            ["ip", "link", "set", self.link + "p", "netns", self.name],
            ["ip", "addr", "add", f"{self.HOST}/30", "dev", self.link],
            ["ip", "link", "set", self.link, "up"],
            ["ip", "netns", "exec", self.name, "ip", "addr", "add", f"{self.PEER}/30", "dev", self.link + "p"],
            ["ip", "netns", "exec", self.name, "ip", "link", "set", self.link + "p", "up"],
        ):
            result = subprocess.run(command, capture_output=True, text=True, timeout=10)
            if result.returncode != 0:
                self.__exit__()
                pytest.fail(f"{' '.join(command)}: {result.stderr.strip()}", pytrace=False)
        return self

    def __exit__(self, *_):
        subprocess.run(["ip", "link", "del", self.link], capture_output=True, timeout=10)
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True, timeout=10)

    def run(self, *args: str) -> dict:
        """`netns_client.py ARGS` on the other host (its commands: the file's docstring): what it saw."""
        python = str(VENV_PYTHON if VENV_PYTHON.exists() else sys.executable)
        result = subprocess.run(["ip", "netns", "exec", self.name, python, str(CLIENT), *args],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def start(self, *args: str) -> subprocess.Popen:
        """`netns_client.py ARGS` on the other host, left running (`hold`): its standard input and output are pipes."""
        python = str(VENV_PYTHON if VENV_PYTHON.exists() else sys.executable)
        return subprocess.Popen(["ip", "netns", "exec", self.name, python, str(CLIENT), *args],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def get(self, port: int, path: str) -> int:
        """The status of `GET path` sent from the other host."""
        code = ("import http.client,sys; c=http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5); "
                "c.request('GET', sys.argv[3]); print(c.getresponse().status)")
        result = subprocess.run(["ip", "netns", "exec", self.name, sys.executable, "-c", code, self.HOST, str(port),
                                 path], capture_output=True, text=True, timeout=20)
        assert result.returncode == 0, result.stderr
        return int(result.stdout)


@pytest.fixture
def other_host():
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("another host needs a network namespace: root and iproute2 (make test-deps installs it)")
    with NetnsPeer() as peer:
        yield peer


class ProxyPeer(NetnsPeer):
    """Another host on a link of its own, for the tests of a proxy in front of the server: a /30 of 10.214.0.0/16 chosen
    by the process id, so that tests on several workers at once each have their own (`peer.HOST`, `peer.PEER`)."""

    def __init__(self):
        super().__init__(tag="p")
        octet = os.getpid() % 250
        self.HOST, self.PEER, self.NETWORK = f"10.214.{octet}.1", f"10.214.{octet}.2", f"10.214.{octet}.0/30"


@pytest.fixture
def neighbour():
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("another host needs a network namespace: root and iproute2 (make test-deps installs it)")
    with ProxyPeer() as peer:
        yield peer
