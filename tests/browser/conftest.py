"""Browser tests: the REAL server (`refreshkit serve`) on an ephemeral loopback port, driven through
Debian's headless Chromium with Playwright. See README.md in this folder."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from browser_support import ARTIFACTS, ROOT
CHROMIUM = os.environ.get("REFRESHKIT_CHROMIUM", "/usr/bin/chromium")
READY_TIMEOUT_S = 20.0
TEST_TIMEOUT_S = int(os.environ.get("REFRESHKIT_TEST_TIMEOUT", "90"))
LISTENING = re.compile(r"listening on (http://[^\s/]+)")


def server_binary() -> Path:
    override = os.environ.get("REFRESHKIT_BIN")
    path = Path(override) if override else ROOT / ".build" / "release" / "refreshkit"
    if not path.is_absolute():
        path = ROOT / path
    return path


class Server:
    def __init__(self, proc: subprocess.Popen, url: str, log: list[str]):
        self.proc = proc
        self.url = url
        self.log = log


@pytest.fixture(scope="session")
def server():
    binary = server_binary()
    if not binary.exists():
        pytest.fail(f"server binary {binary} not found: run `swift build -c release` first "
                    "(or point REFRESHKIT_BIN at a build)", pytrace=False)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--web-root", "web", "--log-level", "info"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
    )
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
    srv = Server(proc, found["url"].rstrip("/"), log)
    yield srv
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
        code = "killed after 15 s"
    (ARTIFACTS / "browser-tests-server.log").write_text("\n".join(log) + "\n")
    assert code == 0, f"server exit status after SIGTERM: {code}; log tail:\n" + "\n".join(log[-30:])


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(autouse=True)
def bounded():
    """Every test is bounded in time, whatever it waits on."""
    def expire(signum, frame):
        raise TimeoutError(f"test exceeded {TEST_TIMEOUT_S} s")
    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(TEST_TIMEOUT_S)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
DESKTOP = dict(viewport={"width": 1280, "height": 800}, device_scale_factor=1)


def open_page(browser, server, options: dict, query: str = ""):
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.url + "/" + query)
    # function-shaped predicates: a string expression would need eval, which the page's CSP forbids
    page.wait_for_function("() => window.refreshkit && window.refreshkit.frame && window.refreshkit.state.connected")
    return context, page


@pytest.fixture
def phone(browser, server):
    context, page = open_page(browser, server, PHONE)
    yield page
    context.close()


@pytest.fixture
def desktop(browser, server):
    context, page = open_page(browser, server, DESKTOP)
    yield page
    context.close()
