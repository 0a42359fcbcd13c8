"""WebKitGTK for the browser tests: Debian's MiniBrowser driven by WebKitWebDriver (W3C WebDriver, through Selenium),
in a virtual X display (Xvfb: WebKitGTK draws into a window), trusting the CAs it is given.

WebKitGTK checks certificates with GnuTLS against the system's bundle, /etc/ssl/certs/ca-certificates.crt. To trust a
test's CA without changing the machine, the driver runs in a mount namespace of its own (`unshare -m`, as root) where
that path is bound to a copy of the bundle with the CA added: the browser and nothing else sees it (docs/HTTPS.md,
"Tests")."""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
SYSTEM_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


def missing() -> str | None:
    """What this machine lacks to run WebKitGTK here, or None."""
    for path, package in ((DRIVER, "webkit2gtk-driver"), (MINIBROWSER, "webkit2gtk-driver"), ("/usr/bin/Xvfb", "xvfb")):
        if not Path(path).exists():
            return f"{path} is missing: apt-get install {package} (scripts/ensure-deps.sh test)"
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return "trusting a CA for WebKitGTK alone needs root and unshare (a mount namespace)"
    return None


@contextmanager
def virtual_display():
    """An Xvfb display for the block's life: its name (`:N`)."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        number = numbers.readline().strip()  # written once the display accepts clients
    if not number:
        xvfb.kill()
        pytest.fail("Xvfb did not start", pytrace=False)
    try:
        yield f":{number}"
    finally:
        xvfb.terminate()
        xvfb.wait(10)


@contextmanager
def webkit(trusted_ca: Path, folder: Path):
    """A WebKitGTK WebDriver session whose TLS trusts `trusted_ca` besides the system's CAs; `folder` holds the
    bundle and the driver's launcher."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    problem = missing()
    if problem:
        pytest.fail(problem, pytrace=False)
    bundle = folder / "ca-certificates.crt"
    bundle.write_text(SYSTEM_BUNDLE.read_text() + "\n" + trusted_ca.read_text())
    launcher = folder / "webkit-driver"
    launcher.write_text("#!/bin/sh\n"
                        f"exec unshare -m sh -c 'mount --bind {bundle} {SYSTEM_BUNDLE} && exec {DRIVER} \"$@\"' "
                        "driver \"$@\"\n")
    launcher.chmod(0o755)
    options = Options()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    with virtual_display() as display:
        service = Service(executable_path=str(launcher), env={**os.environ, "DISPLAY": display})
        driver = webdriver.WebKitGTK(options=options, service=service)
        try:
            yield driver
        finally:
            driver.quit()


def wait_for(driver, script: str, timeout: float, what: str):
    """Evaluates `script` (a JavaScript expression) in the page until it is truthy; returns its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(f"return {script}")
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what} ({script})")
        time.sleep(0.05)


def mouse_drag(driver, element, fy: float, dy: float, steps: int = 20) -> None:
    """A mouse drag from `fy` of `element`'s height down by `dy` px, in `steps` moves of 16 ms each."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    box = element.rect
    x, y = int(box["x"] + box["width"] / 2), int(box["y"] + box["height"] * fy)
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"), duration=16)
    actions.pointer_action.move_to_location(x, y).pointer_down()
    for step in range(1, steps + 1):
        actions.pointer_action.move_to_location(x, y + int(dy * step / steps))
    actions.pointer_action.pointer_up()
    actions.perform()
