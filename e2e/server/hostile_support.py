"""Helpers for the hostile-client suites: a raw-socket WebSocket client that can do what a polite library
will not (lie about a frame's length, never answer a ping, vanish without a close, send odd headers), a
strict JSON reader (NaN or Infinity in a server message is a failure), and server-side probes (RSS, log
lines). Everything is bounded: sockets have timeouts, loops have deadlines, and only 127.0.0.1 is used.
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import socket
import struct
import termios
import time
from typing import Callable

SUBPROTOCOL = "refreshkit.v1"

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def strict_json(text: str) -> dict:
    """`json.loads` that refuses NaN and ±Infinity (Python accepts them by default)."""
    def refuse(name: str):
        raise AssertionError(f"the server sent a non-finite number ({name}) in {text[:200]!r}")
    return json.loads(text, parse_constant=refuse)


class HandshakeRefused(Exception):
    """The server answered the upgrade with something other than 101 (or closed the socket)."""

    def __init__(self, status: int | None, head: str):
        super().__init__(f"upgrade refused: status {status}: {head[:200]!r}")
        self.status = status
        self.head = head


class RawWebSocket:
    """A minimal RFC 6455 client over a plain socket (client frames masked, as the RFC requires)."""

    def __init__(self, port: int, *, subprotocol: str | None = SUBPROTOCOL, origin: str | None = None,
                 host: str | None = None, extra_headers: tuple[tuple[str, str], ...] = (), timeout: float = 5.0,
                 receive_buffer: int | None = None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.sock.settimeout(timeout)
        self.buffer = b""
        self.close_code: int | None = None
        self.pings_received = 0
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            "GET / HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Upgrade: websocket", "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
        ]
        if subprotocol:
            lines.append(f"Sec-WebSocket-Protocol: {subprotocol}")
        if origin is not None:
            lines.append(f"Origin: {origin}")
        lines += [f"{name}: {value}" for name, value in extra_headers]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = self._read_head()
        status_line = head.split("\r\n", 1)[0]
        parts = status_line.split(" ")
        status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        if status != 101:
            self.sock.close()
            raise HandshakeRefused(status, head)
        self.head = head

    def _read_head(self) -> str:
        deadline = time.monotonic() + 5
        while b"\r\n\r\n" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no handshake response within 5 s")
            try:
                chunk = self.sock.recv(4096)
            except (ConnectionResetError, socket.timeout):
                chunk = b""
            if not chunk:
                return self.buffer.decode(errors="replace")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return head.decode(errors="replace")

    # Sending

    @staticmethod
    def frame(opcode: int, payload: bytes, *, fin: bool = True, declared_length: int | None = None,
              mask: bool = True) -> bytes:
        length = len(payload) if declared_length is None else declared_length
        first = (0x80 if fin else 0) | opcode
        mask_bit = 0x80 if mask else 0
        if length < 126:
            header = struct.pack("!BB", first, mask_bit | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", first, mask_bit | 126, length)
        else:
            header = struct.pack("!BBQ", first, mask_bit | 127, length)
        if not mask:
            return header + payload
        key = os.urandom(4)
        masked = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
        return header + key + masked

    def send_declared(self, opcode: int, declared_length: int, payload: bytes) -> None:
        """A frame header announcing `declared_length` bytes, then only `payload` (masked correctly)."""
        key = os.urandom(4)
        header = self.frame(opcode, b"", declared_length=declared_length, mask=False)
        header = header[:1] + bytes([header[1] | 0x80]) + header[2:] + key
        masked = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header)
        try:
            self.sock.sendall(masked)
        except OSError:
            pass

    def send_frame(self, opcode: int, payload: bytes = b"", **kwargs) -> None:
        self.sock.sendall(self.frame(opcode, payload, **kwargs))

    def send_text(self, text: str) -> None:
        self.send_frame(OP_TEXT, text.encode())

    def send_json(self, message: dict) -> None:
        self.send_text(json.dumps(message))

    def send_close(self, code: int = 1000) -> None:
        self.send_frame(OP_CLOSE, struct.pack("!H", code))

    # Receiving

    def _read_exact(self, count: int, deadline: float) -> bytes:
        while len(self.buffer) < count:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("timed out reading from the server")
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout as error:
                raise TimeoutError("timed out reading from the server") from error
            if not chunk:
                raise ConnectionError("the server closed the TCP connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def recv_frame(self, timeout: float = 5.0, answer_pings: bool = True) -> tuple[int, bytes]:
        """One frame (the server never fragments); pings are answered unless told otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            first, second = self._read_exact(2, deadline)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read_exact(2, deadline))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read_exact(8, deadline))[0]
            payload = self._read_exact(length, deadline)
            opcode = first & 0x0F
            if opcode == OP_PING:
                self.pings_received += 1
                if answer_pings:
                    self.send_frame(OP_PONG, payload)
                continue
            if opcode == OP_PONG:  # the answer to a ping the test sent
                continue
            if opcode == OP_CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
            return opcode, payload

    def recv_json(self, timeout: float = 5.0) -> dict:
        opcode, payload = self.recv_frame(timeout)
        if opcode == OP_CLOSE:
            raise ConnectionError(f"the server closed the WebSocket with {self.close_code}: {payload[2:]!r}")
        assert opcode == OP_TEXT, f"expected a text frame, got opcode {opcode}"
        return strict_json(payload.decode())

    def recv_until(self, predicate: Callable[[dict], bool], timeout: float = 5.0) -> tuple[dict, list[dict]]:
        deadline = time.monotonic() + timeout
        seen: list[dict] = []
        while True:
            message = self.recv_json(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message, seen
            seen.append(message)

    def wait_closed(self, timeout: float = 5.0) -> int | None:
        """Reads until the server's close frame (returns its code) or the TCP close (returns None)."""
        deadline = time.monotonic() + timeout
        try:
            while True:
                opcode, _ = self.recv_frame(max(0.01, deadline - time.monotonic()))
                if opcode == OP_CLOSE:
                    return self.close_code
        except ConnectionError:
            return self.close_code

    def abort(self) -> None:
        """Vanishes: an RST, no close frame, no FIN handshake."""
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        finally:
            self.sock.close()

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self) -> "RawWebSocket":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def raw_hello(ws: RawWebSocket, **extra) -> tuple[dict, dict]:
    ws.send_json({"type": "hello", "viewport": {"w": 390, "h": 844}, "dpr": 3, **extra})
    welcome = ws.recv_json()
    assert welcome["type"] == "welcome", welcome
    frame, _ = ws.recv_until(lambda m: m["type"] == "frame")
    return welcome, frame


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def kernel_queues(ws: RawWebSocket) -> dict[str, int]:
    """What the kernel still holds of a client's loopback connection: `client_unacked`, the bytes the client sent
    that the server's end has not acknowledged (SIOCOUTQ), and `server_unread`, the bytes the server's end
    received that the server process has not read (its receive queue in /proc/net/tcp; -1 when not found)."""
    unacked = struct.unpack("i", fcntl.ioctl(ws.sock.fileno(), termios.TIOCOUTQ, struct.pack("i", 0)))[0]
    client_port = ws.sock.getsockname()[1]
    server_port = ws.sock.getpeername()[1]
    unread = -1
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            local, remote = (int(address.split(":")[1], 16) for address in fields[1:3])
            if (local, remote) == (server_port, client_port):
                unread = int(fields[4].split(":")[1], 16)
    return {"client_unacked": unacked, "server_unread": unread}


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def open_sockets(pid: int) -> int:
    """The process's open sockets: its connections and listeners, not the files, pipes and event fds it opens and
    closes on its own (one of those open when a count was taken made an exact count of connections miss)."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:  # closed between the listing and the read
            pass
    return count


def wait_for(condition: Callable[[], bool], timeout: float, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


def log_lines(srv, *needles: str) -> list[str]:
    """Server stderr lines that contain every needle."""
    return [line for line in list(srv.stderr) if all(needle in line for needle in needles)]


def error_lines(srv) -> list[str]:
    """Lines logged at `error` or `critical`."""
    return srv.error_lines()
