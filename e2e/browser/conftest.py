"""Browser tests: the REAL server (`refreshkit serve`) on an ephemeral loopback port, driven through
Debian's headless Chromium with Playwright; where a test needs a network between them, the REAL link
simulator (`refreshkit link`, docs/LINK.md) in front of it. See README.md in this folder."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from browser_support import ARTIFACTS, ROOT, chromium, wait_connected

sys.path.append(str(ROOT / "e2e"))  # link_support.py, shared with e2e/server
from link_support import RunningLink, free_port, refreshkit_binary as server_binary  # noqa: E402

READY_TIMEOUT_S = 20.0
TEST_TIMEOUT_S = int(os.environ.get("REFRESHKIT_TEST_TIMEOUT", "90"))  # s, per test (pytest-timeout)
LISTENING = re.compile(r"listening on (https?://[^\s/]+)")


@dataclass
class Server:
    proc: subprocess.Popen
    url: str
    log: list[str]
    feed_path: Path | None = None  # the SQLite file of a server on `--feed sqlite:PATH`


def start_server(*extra: str, program: list[str] | None = None) -> Server:
    """`refreshkit serve` on a loopback port (`--port 0` unless `extra` names one), once it printed its address; or
    `program`, another server built on the library (`examples/gitlog`), given its whole command."""
    binary = server_binary()
    if not binary.exists():
        pytest.fail(f"server binary {binary} not found: run `swift build` first "
                    "(or point REFRESHKIT_BIN at a build)", pytrace=False)
    port = () if "--port" in extra else ("--port", "0")
    command = program or [str(binary), "serve", "--host", "127.0.0.1", *port, "--web-root", "web", "--log-level",
                          "info", *extra]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    log: list[str] = []
    ready = threading.Event()
    found: dict[str, str] = {}

    def drain():  # keep reading, so that a chatty server never blocks on a full pipe
        for line in proc.stdout:
            log.append(line.rstrip("\n"))
            m = LISTENING.search(line.strip())
            if m and not ready.is_set():
                found["url"] = m.group(1)
                ready.set()
        ready.set()

    threading.Thread(target=drain, daemon=True).start()
    if not ready.wait(READY_TIMEOUT_S) or "url" not in found:
        proc.kill()
        proc.wait(5)
        pytest.fail("server did not print `listening on http://HOST:PORT` within "
                    f"{READY_TIMEOUT_S:.0f} s; output:\n" + "\n".join(log[-40:]), pytrace=False)
    return Server(proc, found["url"].rstrip("/"), log)


def stop_server(srv: Server):
    """SIGTERM; the exit status, or a note that it had to be killed."""
    srv.proc.send_signal(signal.SIGTERM)
    try:
        return srv.proc.wait(15)
    except subprocess.TimeoutExpired:
        srv.proc.kill()
        srv.proc.wait(5)
        return "killed after 15 s"


# A feed server's own poll of its source for newer items (it also polls right after a post to its endpoint).
FEED_POLL_MS = 300


def serve_sqlite_feed(path: Path, poll_ms: int = FEED_POLL_MS):
    """`refreshkit serve --feed sqlite:PATH` (docs/FEEDS.md; a file it has not seen it fills from Debian's
    fortunes) for a module's tests, as a fixture's generator: yields the server, stops it after them."""
    srv = start_server("--feed", f"sqlite:{path}", "--feed-poll-ms", str(poll_ms))
    srv.feed_path = path
    yield srv
    assert stop_server(srv) == 0, "\n".join(srv.log[-30:])


@pytest.fixture(scope="module")
def feed_server(tmp_path_factory):
    """A server of the module's own on a SQLite feed of its own (a module on another source overrides it)."""
    yield from serve_sqlite_feed(tmp_path_factory.mktemp("feed") / "feed.sqlite")


@pytest.fixture(scope="session")
def server():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    srv = start_server()
    yield srv
    code = stop_server(srv)
    # one shared server per pytest-xdist process (the Makefile runs several): each writes a log of its own
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    (ARTIFACTS / f"browser-tests-server{'-' + worker if worker else ''}.log").write_text("\n".join(srv.log) + "\n")
    assert code == 0, f"server exit status after SIGTERM: {code}; log tail:\n" + "\n".join(srv.log[-30:])


class Linked:
    """A server reached through a `refreshkit link`: `url` is the link's (the address a page opens),
    `server` the server itself, `stall()` holds the link for its `--on-demand-stall` (SIGUSR1)."""

    def __init__(self, server: Server, link: RunningLink):
        self.server = server
        self.link = link
        self.url = link.url

    def stall(self) -> None:
        self.link.stall()


@pytest.fixture(scope="module")
def linked():
    """Starts `refreshkit link ARGS…` on a free loopback port and a server behind it (`--public-port` = the
    link's port, so pages coming through it pass the Origin check); stops both at the end of the module and
    checks that both exit 0 on SIGTERM."""
    started: list[Linked] = []

    def start(*link_args: str) -> Linked:
        port = free_port()
        link = RunningLink(port, "--qr", "never", *link_args)
        try:
            srv = start_server("--port", str(port), "--public-port", str(link.port))
        except BaseException:
            link.kill()
            raise
        started.append(Linked(srv, link))
        return started[-1]

    yield start
    failures = []
    for pair in started:
        link_code = pair.link.terminate()
        server_code = stop_server(pair.server)
        if link_code != 0 or server_code != 0:
            failures.append(f"link exit {link_code}, server exit {server_code}\n{pair.link.output()}\n"
                            + "\n".join(pair.server.log[-20:]))
    assert not failures, "\n".join(failures)


@pytest.fixture(scope="session")
def browser():
    with chromium() as b:
        yield b


# The files whose tests take longest (15 to 45 s each on this machine: `pytest --durations=40`), longest first.
# pytest-xdist hands the tests out in collection order, so one of them collected last leaves the other workers
# waiting out its tail: they go first.
LONGEST_FIRST = ("test_rows_fling.py", "test_feed_real_world.py", "test_prediction.py", "test_rows_anchor.py",
                 "test_controls.py", "test_feed_jsonfeed.py", "test_rooms.py")


def pytest_collection_modifyitems(items):
    """Every browser test is bounded by pytest-timeout at TEST_TIMEOUT_S rather than pyproject.toml's 60 s (a page
    in Chromium takes longer than a WebSocket client); a test's own `timeout` mark wins. Hooks of a conftest see
    every item of the session, so only this folder's are marked. The longest files' tests run first."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(TEST_TIMEOUT_S))
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


# A phone's viewport and touch, at a device pixel ratio of 1: each frame Chromium rasterises and composites a quarter
# of the pixels a ratio of 2 gives it, and the suite is bound by the CPU (README.md, "The two commands"). The tests
# about the device pixel grid (a backing store at the CSS size times the ratio, rows snapped to it within a quarter
# of a pixel, the ratio a trace records) open PHONE_2X, a phone's usual ratio.
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True, has_touch=True)
PHONE_2X = dict(PHONE, device_scale_factor=2)
DESKTOP = dict(viewport={"width": 1280, "height": 800}, device_scale_factor=1)


def open_page(browser, server, options: dict, query: str = "", before_load=None):
    """A page of `server` at `query`, connected; its uncaught errors kept in `page.errors`. `before_load(page)` runs
    before the page loads (to watch its socket from its first message)."""
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    if before_load:
        before_load(page)
    page.goto(server.url + "/" + query)
    wait_connected(page)
    return context, page


@pytest.fixture
def phone(browser, server):
    context, page = open_page(browser, server, PHONE)
    yield page
    context.close()


@pytest.fixture
def phone_2x(browser, server):
    context, page = open_page(browser, server, PHONE_2X)
    yield page
    context.close()


@pytest.fixture
def desktop(browser, server):
    context, page = open_page(browser, server, DESKTOP)
    yield page
    context.close()
