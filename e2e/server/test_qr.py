"""`refreshkit serve` prints a QR code of the address a phone opens (`--qr`), and the code scans: the half-block
lines are read back into modules, drawn as an image and decoded by zbar (Debian's zbar-tools), as a camera
would."""
from __future__ import annotations

import signal
import subprocess

import pytest

from conftest import ROOT, server_binary
from qr_support import decode

# A terminal line holds two module rows: each character is (upper is light, lower is light).
HALF_BLOCKS = {"\u2588": (True, True), "\u2580": (True, False), "\u2584": (False, True), " ": (False, False)}


def serve_output(*args: str) -> list[str]:
    """Everything `serve` prints on stdout, from its start to its exit: it is stopped with SIGTERM once it listens
    (all of its start-up lines are one write), and read to the end."""
    proc = subprocess.Popen([str(server_binary()), "serve", "--host", "127.0.0.1", "--port", "0", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("listening on "), first
        proc.send_signal(signal.SIGTERM)
        rest = proc.stdout.read()  # to the end: the server exits (not communicate(), which skips what is buffered)
        proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    assert proc.returncode == 0
    return [first.rstrip("\n")] + rest.splitlines()


def printed_code(lines: list[str]) -> tuple[str, list[str]]:
    """The link the server says the code opens, and the code's lines as printed (indent removed)."""
    caption = next(i for i, line in enumerate(lines) if line.strip().startswith("scan to open "))
    link = lines[caption].strip()[len("scan to open "):].rstrip(":")
    code = []
    for line in lines[caption + 1:]:
        if not line.startswith("  ") or set(line[2:]) - set(HALF_BLOCKS):
            break
        code.append(line[2:])
    return link, code


def modules(code: list[str]) -> list[list[bool]]:
    """Rows of modules, True where dark (the printed code draws light modules on a dark terminal)."""
    rows: list[list[bool]] = []
    for line in code:
        pairs = [HALF_BLOCKS[ch] for ch in line]
        rows.append([not upper for upper, _ in pairs])
        rows.append([not lower for _, lower in pairs])
    return rows


def test_the_printed_code_scans_to_the_address_printed():
    lines = serve_output("--qr", "always")
    url = lines[0][len("listening on "):]
    link, code = printed_code(lines)
    assert link == url  # no network address when listening on loopback: `always` draws the local one
    rows = modules(code)
    # a square symbol (version v: 4v + 17 modules) inside a 4-module quiet zone; the last line holds one row
    width = len(rows[0])
    assert all(len(row) == width for row in rows)
    assert (width - 8 - 17) % 4 == 0 and rows[:4] == [[False] * width] * 4
    assert len(rows) == width + 1 and rows[-1] == [True] * width  # the half line's empty lower half
    assert decode(rows[:width]) == [url]


@pytest.mark.parametrize("option", [(), ("--qr", "never"), ("--qr", "auto")])
def test_no_code_unless_asked_or_on_a_terminal(option):
    # the tests' stdout is a pipe, not a terminal: `auto` (the default) prints no code there
    lines = serve_output(*option)
    assert not any("scan to open" in line for line in lines), lines


def test_an_unknown_qr_mode_is_refused():
    result = subprocess.run([str(server_binary()), "serve", "--qr", "sometimes"], capture_output=True,
                            text=True, timeout=20)
    assert result.returncode != 0
    assert "Please provide one of 'auto', 'always' or 'never'" in result.stderr, result.stderr
